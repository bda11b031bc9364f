/**
 * The runner's context (its `GITHUB_*` variables and the event payload) read as `@actions/github`'s
 * `context` reads it, without importing that package: it brings Octokit, and evaluating it cost every run
 * about 6 MB of memory although only the pull-request comment and the Deployment status send requests
 * (bench/RESULTS.md, memory). Those load it when they make their client (client.ts).
 */
import { readFileSync } from 'node:fs';

/** The part of `@actions/github`'s `Context` the reports read (tests pass a literal). */
export interface ContextSource {
  eventName: string;
  sha: string;
  workflow: string;
  job: string;
  runId: number;
  runAttempt: number;
  serverUrl: string;
  apiUrl: string;
  payload: Record<string, unknown>;
  repo: { owner: string; repo: string };
}

function payloadOf(path: string | undefined): Record<string, unknown> {
  if (!path) return {};
  try {
    const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    // @actions/github says "does not exist" on stdout and goes on with an empty payload; so does this, quietly.
    return {};
  }
}

function repoOf(env: NodeJS.ProcessEnv, payload: Record<string, unknown>): { owner: string; repo: string } {
  if (env.GITHUB_REPOSITORY) {
    const [owner = '', repo = ''] = env.GITHUB_REPOSITORY.split('/');
    return { owner, repo };
  }
  const repository = payload.repository as { owner?: { login?: unknown }; name?: unknown } | undefined;
  if (typeof repository?.owner?.login === 'string' && typeof repository.name === 'string') return { owner: repository.owner.login, repo: repository.name };
  // As @actions/github's `context.repo`: callers catch this outside a workflow run.
  throw new Error("context.repo requires a GITHUB_REPOSITORY environment variable like 'owner/repo'");
}

/** The context of the run `env` describes; the payload is read once, here, and `repo` on each read (it may throw). */
export function runnerContext(env: NodeJS.ProcessEnv = process.env): ContextSource {
  const payload = payloadOf(env.GITHUB_EVENT_PATH);
  return {
    eventName: env.GITHUB_EVENT_NAME ?? '',
    sha: env.GITHUB_SHA ?? '',
    workflow: env.GITHUB_WORKFLOW ?? '',
    job: env.GITHUB_JOB ?? '',
    runId: Number.parseInt(env.GITHUB_RUN_ID ?? '', 10),
    runAttempt: Number.parseInt(env.GITHUB_RUN_ATTEMPT ?? '', 10),
    serverUrl: env.GITHUB_SERVER_URL ?? 'https://github.com',
    apiUrl: env.GITHUB_API_URL ?? 'https://api.github.com',
    payload,
    get repo() {
      return repoOf(env, payload);
    },
  };
}
