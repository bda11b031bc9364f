/**
 * HTTP routing of the GitHub REST API stand-in: authentication, permissions per token, the endpoints
 * kubewait's reporters use, pagination with `Link` headers, rate-limit headers, recording and faults.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { badCredentials, faultAnswer, notAccessible, notFound, validationFailed, type Answer, type Faults } from './faults.js';
import { ACTIONS_BOT, type Identity, type RepoState } from './state.js';

export type Access = 'none' | 'read' | 'write';

/** What a token may do, as a GitHub App installation token's permissions. */
export interface TokenGrant {
  identity?: Identity;
  pullRequests?: Access;
  deployments?: Access;
}

export interface RecordedRequest {
  method: string;
  /** Path and query as sent, e.g. `/repos/o/r/issues/7/comments?per_page=100`. */
  path: string;
  /** The route as GitHub's docs name it, e.g. `GET /repos/{owner}/{repo}/issues/{issue_number}/comments`; `''` when unknown. */
  route: string;
  /** Parsed JSON body, or undefined. */
  body: unknown;
  /** The Authorization header as sent (tests assert the token went only here). */
  authorization: string | undefined;
  status: number;
}

/** The numeric id GitHub uses in `Link` URLs (`/repositories/{id}/...`). */
export const REPOSITORY_ID = 987654321;
const MAX_PER_PAGE = 100;
const RATE_LIMIT = 5000;

interface Request {
  method: string;
  url: URL;
  params: Record<string, string>;
  body: Record<string, unknown>;
  grant: TokenGrant;
}

type Handler = (req: Request) => Answer;

interface Route {
  method: string;
  template: string;
  pattern: RegExp;
  names: string[];
  handler: Handler;
}

function route(method: string, template: string, handler: Handler): Route {
  const names: string[] = [];
  const pattern = new RegExp(
    `^${template.replace(/\{(\w+)\}/g, (_, name: string) => {
      names.push(name);
      return '([^/]+)';
    })}$`,
  );
  return { method, template: `${method} ${template}`, pattern, names, handler };
}

export interface ServerDeps {
  state: RepoState;
  faults: Faults;
  tokens: Record<string, TokenGrant>;
  requests: RecordedRequest[];
  hanging: Set<ServerResponse>;
}

export function createHandler(deps: ServerDeps): (req: IncomingMessage, res: ServerResponse) => void {
  const { state } = deps;
  let used = 0;
  const routes = buildRoutes(state);

  return (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const method = req.method ?? 'GET';
      // Link headers name the repository by id; route those like the owner/name form.
      const path = (req.url ?? '/').replace(`/repositories/${REPOSITORY_ID}/`, `/repos/${state.fullName}/`);
      const url = new URL(path, 'http://stand-in');
      const match = matchRoute(routes, method, url.pathname);
      let body: unknown;
      try {
        body = raw ? JSON.parse(raw) : undefined;
      } catch {
        body = raw;
      }
      const record: RecordedRequest = {
        method,
        path: req.url ?? '/',
        route: match?.route.template ?? '',
        body,
        authorization: req.headers.authorization,
        status: 0,
      };
      deps.requests.push(record);

      const send = (answer: Answer) => {
        record.status = answer.status;
        used += 1;
        const payload = answer.body === undefined ? '' : JSON.stringify(answer.body);
        res.writeHead(answer.status, {
          'content-type': 'application/json; charset=utf-8',
          'x-github-api-version-selected': '2022-11-28',
          'x-github-media-type': 'github.v3; format=json',
          'x-github-request-id': randomBytes(8).toString('hex').toUpperCase(),
          'x-ratelimit-limit': String(RATE_LIMIT),
          'x-ratelimit-remaining': String(Math.max(0, RATE_LIMIT - used)),
          'x-ratelimit-reset': String(Math.ceil(Date.now() / 1000) + 3600),
          'x-ratelimit-used': String(used),
          'x-ratelimit-resource': 'core',
          ...answer.headers,
        });
        res.end(payload);
      };

      const grant = tokenGrant(deps.tokens, req.headers.authorization);
      if (!grant) return send(badCredentials());
      const fault = deps.faults.take(record.route);
      if (fault?.kind === 'hang') {
        deps.hanging.add(res);
        res.on('close', () => deps.hanging.delete(res));
        return;
      }
      if (fault) return send(faultAnswer(fault, Date.now()));
      if (!match) return send(notFound());
      const request: Request = { method, url, params: match.params, body: isObject(body) ? body : {}, grant };
      send(match.route.handler(request));
    });
  };
}

function matchRoute(routes: Route[], method: string, pathname: string): { route: Route; params: Record<string, string> } | undefined {
  for (const r of routes) {
    if (r.method !== method) continue;
    const m = r.pattern.exec(pathname);
    if (!m) continue;
    const params: Record<string, string> = {};
    r.names.forEach((name, i) => {
      params[name] = decodeURIComponent(m[i + 1] ?? '');
    });
    return { route: r, params };
  }
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `token X` and `Bearer X` both work, as on GitHub. */
function tokenGrant(tokens: Record<string, TokenGrant>, header: string | undefined): TokenGrant | undefined {
  const m = /^(?:token|bearer)\s+(\S+)$/i.exec(header ?? '');
  return m?.[1] ? tokens[m[1]] : undefined;
}

function allowed(grant: TokenGrant, scope: 'pullRequests' | 'deployments', need: 'read' | 'write'): boolean {
  const have = grant[scope] ?? 'none';
  return need === 'read' ? have !== 'none' : have === 'write';
}

/** One page of `items` and the `Link` header GitHub sends with it. */
function paginate(req: Request, items: object[], linkPath: string): Answer {
  const perPage = Math.min(MAX_PER_PAGE, Math.max(1, Number(req.url.searchParams.get('per_page') ?? 30) || 30));
  const page = Math.max(1, Number(req.url.searchParams.get('page') ?? 1) || 1);
  const last = Math.max(1, Math.ceil(items.length / perPage));
  const slice = items.slice((page - 1) * perPage, page * perPage);
  const links: string[] = [];
  const link = (p: number, rel: string) => links.push(`<${linkPath}?per_page=${perPage}&page=${p}>; rel="${rel}"`);
  if (page > 1) link(page - 1, 'prev');
  if (page < last) link(page + 1, 'next');
  if (page < last) link(last, 'last');
  if (page > 1) link(1, 'first');
  return { status: 200, body: slice, headers: links.length > 0 ? { link: links.join(', ') } : {} };
}

const COMMENTS_DOCS = 'https://docs.github.com/rest/issues/comments';
const DEPLOYMENTS_DOCS = 'https://docs.github.com/rest/deployments/deployments';
const STATUSES_DOCS = 'https://docs.github.com/rest/deployments/statuses';
/** GitHub's limit on an issue comment's body. */
export const MAX_COMMENT_CHARS = 65536;
const DEPLOYMENT_STATES = ['error', 'failure', 'inactive', 'in_progress', 'queued', 'pending', 'success'];

function buildRoutes(state: RepoState): Route[] {
  const repo = '/repos/{owner}/{repo}';
  const ours = (req: Request) => req.params.owner?.toLowerCase() === state.owner.toLowerCase() && req.params.repo?.toLowerCase() === state.repo.toLowerCase();
  const who = (req: Request) => req.grant.identity ?? ACTIONS_BOT;
  const issue = (req: Request) => state.pulls.find((p) => String(p.number) === req.params.issue_number);
  const linkBase = (path: string) => `${state.apiUrl()}/repositories/${REPOSITORY_ID}${path}`;
  const bodyProblem = (body: unknown): Answer | undefined => {
    if (typeof body !== 'string') return validationFailed([{ resource: 'IssueComment', code: 'missing_field', field: 'body' }], COMMENTS_DOCS);
    if (body.length > MAX_COMMENT_CHARS) {
      return validationFailed(
        [{ resource: 'IssueComment', code: 'custom', field: 'body', message: `body is too long (maximum is ${MAX_COMMENT_CHARS} characters)` }],
        COMMENTS_DOCS,
      );
    }
    return undefined;
  };

  return [
    route('GET', `${repo}/issues/{issue_number}/comments`, (req) => {
      if (!ours(req) || !issue(req) || !allowed(req.grant, 'pullRequests', 'read')) return notFound();
      const items = state.comments.filter((c) => String(c.issueNumber) === req.params.issue_number).map((c) => state.commentJson(c));
      return paginate(req, items, linkBase(`/issues/${req.params.issue_number}/comments`));
    }),
    route('POST', `${repo}/issues/{issue_number}/comments`, (req) => {
      const pr = issue(req);
      if (!ours(req) || !pr) return notFound();
      if (!allowed(req.grant, 'pullRequests', 'write')) return notAccessible(`${COMMENTS_DOCS}#create-an-issue-comment`);
      const problem = bodyProblem(req.body.body);
      if (problem) return problem;
      const at = state.now();
      const comment = { id: state.id(), issueNumber: pr.number, body: String(req.body.body), user: who(req), createdAt: at, updatedAt: at };
      state.comments.push(comment);
      return {
        status: 201,
        body: state.commentJson(comment),
        headers: { location: `${state.apiUrl()}${repo.replace('{owner}/{repo}', state.fullName)}/issues/comments/${comment.id}` },
      };
    }),
    route('PATCH', `${repo}/issues/comments/{comment_id}`, (req) => {
      const comment = state.comments.find((c) => String(c.id) === req.params.comment_id);
      if (!ours(req) || !comment) return notFound();
      if (!allowed(req.grant, 'pullRequests', 'write')) return notAccessible(`${COMMENTS_DOCS}#update-an-issue-comment`);
      const problem = bodyProblem(req.body.body);
      if (problem) return problem;
      comment.body = String(req.body.body);
      comment.updatedAt = state.now();
      return { status: 200, body: state.commentJson(comment) };
    }),
    route('GET', `${repo}/commits/{commit_sha}/pulls`, (req) => {
      if (!ours(req) || !allowed(req.grant, 'pullRequests', 'read')) return notFound();
      const items = state.pulls.filter((p) => p.headSha === req.params.commit_sha).map((p) => state.pullJson(p));
      return paginate(req, items, linkBase(`/commits/${req.params.commit_sha}/pulls`));
    }),
    route('GET', `${repo}/deployments`, (req) => {
      if (!ours(req) || !allowed(req.grant, 'deployments', 'read')) return notFound();
      const q = req.url.searchParams;
      const items = state.deployments
        .filter(
          (d) =>
            (!q.get('sha') || d.sha === q.get('sha')) &&
            (!q.get('environment') || d.environment === q.get('environment')) &&
            (!q.get('ref') || d.ref === q.get('ref')),
        )
        .reverse()
        .map((d) => state.deploymentJson(d));
      return paginate(req, items, linkBase('/deployments'));
    }),
    route('POST', `${repo}/deployments`, (req) => {
      if (!ours(req)) return notFound();
      if (!allowed(req.grant, 'deployments', 'write')) return notAccessible(`${DEPLOYMENTS_DOCS}#create-a-deployment`);
      const ref = req.body.ref;
      if (typeof ref !== 'string' || ref === '') return validationFailed([{ resource: 'Deployment', code: 'missing_field', field: 'ref' }], DEPLOYMENTS_DOCS);
      const sha = /^[0-9a-f]{40}$/.test(ref) ? ref : state.pulls.find((p) => p.headRef === ref)?.headSha;
      if (!sha)
        return { status: 422, body: { message: `No ref found for: ${ref}`, documentation_url: `${DEPLOYMENTS_DOCS}#create-a-deployment`, status: '422' } };
      const contexts = req.body.required_contexts;
      if (Array.isArray(contexts) && contexts.length > 0) {
        return {
          status: 409,
          body: { message: `Conflict: Commit status checks failed for ${ref}.`, documentation_url: `${DEPLOYMENTS_DOCS}#create-a-deployment`, status: '409' },
        };
      }
      const deployment = {
        id: state.id(),
        sha,
        ref,
        environment: typeof req.body.environment === 'string' ? req.body.environment : 'production',
        description: typeof req.body.description === 'string' ? req.body.description : null,
        task: typeof req.body.task === 'string' ? req.body.task : 'deploy',
        payload: req.body.payload ?? {},
        autoMerge: req.body.auto_merge !== false,
        requiredContexts: Array.isArray(contexts) ? contexts.map(String) : undefined,
        transientEnvironment: req.body.transient_environment === true,
        productionEnvironment: req.body.production_environment === true,
        creator: who(req),
        createdAt: state.now(),
      };
      state.deployments.push(deployment);
      return { status: 201, body: state.deploymentJson(deployment) };
    }),
    route('GET', `${repo}/deployments/{deployment_id}/statuses`, (req) => {
      const deployment = state.deployments.find((d) => String(d.id) === req.params.deployment_id);
      if (!ours(req) || !deployment || !allowed(req.grant, 'deployments', 'read')) return notFound();
      const items = state.statuses
        .filter((s) => s.deploymentId === deployment.id)
        .reverse()
        .map((s) => state.statusJson(s));
      return paginate(req, items, linkBase(`/deployments/${deployment.id}/statuses`));
    }),
    route('POST', `${repo}/deployments/{deployment_id}/statuses`, (req) => {
      const deployment = state.deployments.find((d) => String(d.id) === req.params.deployment_id);
      if (!ours(req) || !deployment) return notFound();
      if (!allowed(req.grant, 'deployments', 'write')) return notAccessible(`${STATUSES_DOCS}#create-a-deployment-status`);
      const s = req.body.state;
      if (typeof s !== 'string' || !DEPLOYMENT_STATES.includes(s)) {
        return validationFailed([{ resource: 'DeploymentStatus', code: 'invalid', field: 'state' }], STATUSES_DOCS);
      }
      const description = typeof req.body.description === 'string' ? req.body.description : '';
      if (description.length > 140) {
        return validationFailed(
          [{ resource: 'DeploymentStatus', code: 'custom', field: 'description', message: 'description is too long (maximum is 140 characters)' }],
          STATUSES_DOCS,
        );
      }
      const status = {
        id: state.id(),
        deploymentId: deployment.id,
        state: s,
        description,
        environment: typeof req.body.environment === 'string' ? req.body.environment : deployment.environment,
        logUrl: typeof req.body.log_url === 'string' ? req.body.log_url : typeof req.body.target_url === 'string' ? req.body.target_url : '',
        environmentUrl: typeof req.body.environment_url === 'string' ? req.body.environment_url : '',
        creator: who(req),
        createdAt: state.now(),
      };
      state.statuses.push(status);
      return { status: 201, body: state.statusJson(status) };
    }),
  ];
}
