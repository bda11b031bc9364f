/**
 * A GitHub REST API stand-in for tests: plain HTTP on 127.0.0.1, one repository, the endpoints kubewait's
 * reporters use (issue comments, a commit's pull requests, Deployments and their statuses). See README.md.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Faults, type Fault } from './faults.js';
import { createHandler, type RecordedRequest, type TokenGrant } from './server.js';
import { ACTIONS_BOT, RepoState, type Identity, type PullRequest } from './state.js';

export type { Fault } from './faults.js';
export type { Access, RecordedRequest, TokenGrant } from './server.js';
export { MAX_COMMENT_CHARS, REPOSITORY_ID } from './server.js';
export { ACTIONS_BOT, type Deployment, type DeploymentStatus, type Identity, type IssueComment, type PullRequest } from './state.js';

/** A GITHUB_TOKEN with `pull-requests: write` and `deployments: write`. */
export const WRITE_TOKEN = 'ghs_writeWRITEwrite0123456789abcdefABCD';
/** The read-only GITHUB_TOKEN a `pull_request` from a fork gets. */
export const READ_TOKEN = 'ghs_readREADread0123456789abcdefABCDEF';

export interface GitHubOptions {
  owner?: string;
  repo?: string;
  /** Shown in `html_url`s (default `https://github.com`). */
  serverUrl?: string;
  /** Token -> permissions; default: WRITE_TOKEN and READ_TOKEN. Any other token gets 401 Bad credentials. */
  tokens?: Record<string, TokenGrant>;
}

export interface TestGitHub {
  /** Base URL for `GITHUB_API_URL`, e.g. `http://127.0.0.1:43121`. */
  url: string;
  owner: string;
  repo: string;
  serverUrl: string;
  state: RepoState;
  /** Every request in arrival order. */
  requests: RecordedRequest[];
  /** Requests to one route, e.g. `POST /repos/{owner}/{repo}/issues/{issue_number}/comments`. */
  requestsTo(route: string): RecordedRequest[];
  addPull(pull: Partial<PullRequest> & { number: number }): PullRequest;
  addComment(issueNumber: number, body: string, user?: Identity): number;
  /** What GitHub itself does for a job with `environment:`: a Deployment with an `in_progress` status that links the run. */
  addEnvironmentDeployment(opts: { environment: string; sha: string; runId: number; jobId?: number }): number;
  /** Fail requests to a route (all of them, or `times`) with a fault. */
  failRoute(route: string, fault: Fault, times?: number): void;
  /** Fail the next `count` requests whatever their route. */
  failNext(count: number, fault: Fault): void;
  clearFaults(): void;
  close(): Promise<void>;
}

export async function startGitHub(options: GitHubOptions = {}): Promise<TestGitHub> {
  const owner = options.owner ?? 'octo-org';
  const repo = options.repo ?? 'shop';
  const serverUrl = options.serverUrl ?? 'https://github.com';
  let url = '';
  const state = new RepoState(owner, repo, () => url, serverUrl);
  const faults = new Faults();
  const requests: RecordedRequest[] = [];
  const hanging = new Set<ServerResponse>();
  const tokens = options.tokens ?? {
    [WRITE_TOKEN]: { identity: ACTIONS_BOT, pullRequests: 'write', deployments: 'write' },
    [READ_TOKEN]: { identity: ACTIONS_BOT, pullRequests: 'read', deployments: 'read' },
  };
  const server = createServer(createHandler({ state, faults, tokens, requests, hanging }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    owner,
    repo,
    serverUrl,
    state,
    requests,
    requestsTo: (routeName) => requests.filter((r) => r.route === routeName),
    addPull(pull) {
      const full: PullRequest = {
        state: 'open',
        headSha: 'a'.repeat(40),
        headRef: `feature-${pull.number}`,
        headRepo: `${owner}/${repo}`,
        ...pull,
      };
      state.pulls.push(full);
      return full;
    },
    addComment(issueNumber, body, user = { login: 'octocat', id: 583231, type: 'User' }) {
      const at = state.now();
      const id = state.id();
      state.comments.push({ id, issueNumber, body, user, createdAt: at, updatedAt: at });
      return id;
    },
    addEnvironmentDeployment({ environment, sha, runId, jobId = 31_000_000 + runId }) {
      const createdAt = state.now();
      const id = state.id();
      state.deployments.push({
        id,
        sha,
        ref: sha,
        environment,
        description: null,
        task: 'deploy',
        payload: {},
        autoMerge: false,
        requiredContexts: [],
        transientEnvironment: false,
        productionEnvironment: false,
        creator: ACTIONS_BOT,
        createdAt,
      });
      const runLink = `${serverUrl}/${owner}/${repo}/actions/runs/${runId}/job/${jobId}`;
      state.statuses.push({
        id: state.id(),
        deploymentId: id,
        state: 'in_progress',
        description: '',
        environment,
        logUrl: runLink,
        environmentUrl: '',
        creator: ACTIONS_BOT,
        createdAt: state.now(),
      });
      return id;
    },
    failRoute: (routeName, fault, times) => faults.failRoute(routeName, fault, times),
    failNext: (count, fault) => faults.failNext(count, fault),
    clearFaults: () => faults.clear(),
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
