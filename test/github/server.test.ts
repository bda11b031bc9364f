/** The GitHub REST API stand-in answers as GitHub does: bodies, headers, pagination, permissions, faults. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { READ_TOKEN, REPOSITORY_ID, startGitHub, WRITE_TOKEN, type Fault, type TestGitHub } from './index.js';

let gh: TestGitHub;
beforeAll(async () => {
  gh = await startGitHub();
});
afterAll(async () => {
  await gh.close();
});
beforeEach(() => {
  gh.clearFaults();
});

async function call(method: string, path: string, opts: { token?: string; body?: unknown; signal?: AbortSignal } = {}) {
  const res = await fetch(`${gh.url}${path}`, {
    method,
    headers: { authorization: `token ${opts.token ?? WRITE_TOKEN}`, accept: 'application/vnd.github+json', 'content-type': 'application/json' },
    ...(opts.body !== undefined && { body: JSON.stringify(opts.body) }),
    ...(opts.signal && { signal: opts.signal }),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : undefined) as Record<string, unknown> & unknown[] };
}

const repo = () => `/repos/${gh.owner}/${gh.repo}`;

describe('issue comments', () => {
  it('creates, lists with Link pagination, and updates comments', async () => {
    gh.addPull({ number: 1 });
    for (let i = 0; i < 5; i++) gh.addComment(1, `comment ${i}`);
    const created = await call('POST', `${repo()}/issues/1/comments`, { body: { body: 'hello' } });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toMatch(/\/issues\/comments\/\d+$/);
    expect(created.body).toMatchObject({
      body: 'hello',
      user: { login: 'github-actions[bot]', type: 'Bot' },
      html_url: expect.stringContaining('/pull/1#issuecomment-'),
    });

    const first = await call('GET', `${repo()}/issues/1/comments?per_page=4`);
    expect(first.body).toHaveLength(4);
    const link = first.headers.get('link') ?? '';
    expect(link).toContain(`/repositories/${REPOSITORY_ID}/issues/1/comments?per_page=4&page=2>; rel="next"`);
    const next = /<([^>]+)>; rel="next"/.exec(link)?.[1] ?? '';
    const second = await call('GET', new URL(next).pathname + new URL(next).search);
    expect(second.body.map((c) => (c as { body: string }).body)).toEqual(['comment 4', 'hello']);
    expect(second.headers.get('link')).not.toContain('rel="next"');

    const id = (created.body as unknown as { id: number }).id;
    const updated = await call('PATCH', `${repo()}/issues/comments/${id}`, { body: { body: 'edited' } });
    expect(updated.status).toBe(200);
    expect(gh.state.comments.find((c) => c.id === id)?.body).toBe('edited');
  });

  it.each([
    ['a read-only token', 'POST', '/issues/1/comments', READ_TOKEN, { body: 'x' }, 403, 'Resource not accessible by integration'],
    ['an unknown token', 'GET', '/issues/1/comments', 'ghs_nope', undefined, 401, 'Bad credentials'],
    ['an unknown pull request', 'GET', '/issues/999/comments', WRITE_TOKEN, undefined, 404, 'Not Found'],
    ['an unknown comment', 'PATCH', '/issues/comments/1', WRITE_TOKEN, { body: 'x' }, 404, 'Not Found'],
    ['a missing body', 'POST', '/issues/1/comments', WRITE_TOKEN, {}, 422, 'Validation Failed'],
    ['a body over 65536 characters', 'POST', '/issues/1/comments', WRITE_TOKEN, { body: 'x'.repeat(65537) }, 422, 'Validation Failed'],
  ])('answers %s as GitHub does', async (_name, method, path, token, body, status, message) => {
    const res = await call(method, `${repo()}${path}`, { token, body });
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject({ message, documentation_url: expect.stringContaining('https://docs.github.com/') });
  });
});

describe("a commit's pull requests and Deployments", () => {
  it('lists the pull requests whose head is a commit', async () => {
    gh.addPull({ number: 2, headSha: 'c'.repeat(40), state: 'closed' });
    gh.addPull({ number: 3, headSha: 'c'.repeat(40) });
    const res = await call('GET', `${repo()}/commits/${'c'.repeat(40)}/pulls`);
    expect(res.body.map((p) => (p as { number: number; state: string }).state)).toEqual(['closed', 'open']);
  });

  it('creates a Deployment and its statuses, and rejects a description over 140 characters', async () => {
    const sha = 'd'.repeat(40);
    const dep = await call('POST', `${repo()}/deployments`, { body: { ref: sha, environment: 'staging', auto_merge: false, required_contexts: [] } });
    expect(dep.status).toBe(201);
    const id = (dep.body as unknown as { id: number }).id;
    const status = await call('POST', `${repo()}/deployments/${id}/statuses`, {
      body: { state: 'in_progress', log_url: 'https://github.com/x', environment_url: 'https://staging.example.com' },
    });
    expect(status.status).toBe(201);
    expect(status.body).toMatchObject({ state: 'in_progress', log_url: 'https://github.com/x', target_url: 'https://github.com/x', environment: 'staging' });
    const tooLong = await call('POST', `${repo()}/deployments/${id}/statuses`, { body: { state: 'success', description: 'x'.repeat(141) } });
    expect(tooLong.status).toBe(422);
    const listed = await call('GET', `${repo()}/deployments?sha=${sha}&environment=staging`);
    expect(listed.body).toHaveLength(1);
    const statuses = await call('GET', `${repo()}/deployments/${id}/statuses`);
    expect(statuses.body).toHaveLength(1);
  });

  it.each([
    ['a read-only token', { ref: 'e'.repeat(40) }, READ_TOKEN, 403],
    ['an unknown ref', { ref: 'no-such-branch' }, WRITE_TOKEN, 422],
    ['required contexts that did not pass', { ref: 'e'.repeat(40), required_contexts: ['ci'] }, WRITE_TOKEN, 409],
  ])('refuses a Deployment for %s', async (_name, body, token, status) => {
    const res = await call('POST', `${repo()}/deployments`, { body, token });
    expect(res.status).toBe(status);
  });
});

describe('faults', () => {
  const commentsRoute = 'POST /repos/{owner}/{repo}/issues/{issue_number}/comments';
  it.each<[string, Fault, number, string | undefined, Record<string, string>]>([
    ['403', { kind: 'status', status: 403 }, 403, 'Resource not accessible by integration', {}],
    ['404', { kind: 'status', status: 404 }, 404, 'Not Found', {}],
    ['422', { kind: 'status', status: 422 }, 422, 'Validation Failed', {}],
    ['500', { kind: 'status', status: 500 }, 500, 'Server Error', {}],
    ['a primary rate limit', { kind: 'rate-limit', status: 403 }, 403, 'API rate limit exceeded for installation ID 4242.', { 'x-ratelimit-remaining': '0' }],
    ['a secondary rate limit', { kind: 'rate-limit', status: 429, retryAfterSeconds: 7 }, 429, undefined, { 'retry-after': '7' }],
  ])('answers a route with %s, only that route, only as often as told', async (_name, fault, status, message, headers) => {
    gh.addPull({ number: 10 });
    gh.failRoute(commentsRoute, fault, 1);
    const failed = await call('POST', `${repo()}/issues/10/comments`, { body: { body: 'x' } });
    expect(failed.status).toBe(status);
    if (message) expect(failed.body).toMatchObject({ message });
    for (const [name, value] of Object.entries(headers)) expect(failed.headers.get(name)).toBe(value);
    expect((await call('GET', `${repo()}/issues/10/comments`)).status).toBe(200);
    expect((await call('POST', `${repo()}/issues/10/comments`, { body: { body: 'x' } })).status).toBe(201);
  });

  it('fails the next N requests whatever their route, and records every request with its auth header', async () => {
    gh.addPull({ number: 11 });
    gh.failNext(2, { kind: 'status', status: 500 });
    const before = gh.requests.length;
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await call('GET', `${repo()}/issues/11/comments`)).status);
    expect(statuses).toEqual([500, 500, 200]);
    expect(gh.requests.slice(before).map((r) => [r.method, r.route, r.authorization, r.status])).toEqual([
      ['GET', 'GET /repos/{owner}/{repo}/issues/{issue_number}/comments', `token ${WRITE_TOKEN}`, 500],
      ['GET', 'GET /repos/{owner}/{repo}/issues/{issue_number}/comments', `token ${WRITE_TOKEN}`, 500],
      ['GET', 'GET /repos/{owner}/{repo}/issues/{issue_number}/comments', `token ${WRITE_TOKEN}`, 200],
    ]);
  });

  it('can hang a request, which then never answers', async () => {
    gh.addPull({ number: 12 });
    gh.failNext(1, { kind: 'hang' });
    const controller = new AbortController();
    const pending = call('GET', `${repo()}/issues/12/comments`, { signal: controller.signal });
    await until(() => gh.requests.some((r) => r.path.startsWith(`${repo()}/issues/12/comments`)));
    controller.abort();
    await expect(pending).rejects.toThrow(/abort/i);
    expect(gh.requests.filter((r) => r.path.startsWith(`${repo()}/issues/12/comments`)).map((r) => r.status)).toEqual([0]);
  });

  it('sends the rate-limit headers GitHub sends on every answer', async () => {
    const res = await call('GET', `${repo()}/deployments`);
    expect(Number(res.headers.get('x-ratelimit-limit'))).toBe(5000);
    expect(Number(res.headers.get('x-ratelimit-remaining'))).toBeLessThan(5000);
    expect(res.headers.get('x-github-api-version-selected')).toBe('2022-11-28');
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
  });
});

async function until(predicate: () => boolean): Promise<void> {
  while (!predicate()) await new Promise((resolve) => setTimeout(resolve, 5));
}
