/**
 * `smoke` end to end: `dist/index.js` and `dist/cli.js` against the API server stand-in, with an HTTP server
 * on loopback as the app: a 503 that recovers passes, one that stays down fails the step with the `smoke`
 * output saying how each check did; a bad list is an input error naming `smoke`.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startCluster, type TestCluster } from '../cluster/index.js';
import { startGitHub, WRITE_TOKEN, type TestGitHub } from '../github/index.js';
import { ensureDist } from './dist.js';
import { runAction } from './runAction.js';
import { runCommand } from './runCommand.js';
import { visible } from './hostile.js';

let cluster: TestCluster;
let gh: TestGitHub;
let app: Server;
let base: string;
let scratch: string;
const hits = new Map<string, number>();
const TOKEN = 'sm0ke-t0ken-never-shown';

beforeAll(async () => {
  await ensureDist();
  cluster = await startCluster({ controllers: false });
  cluster.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'config', namespace: 'default' }, data: {} });
  // `/flaky`: 503 for the first two requests, then 200; `/down`: always 503.
  app = createServer((request, response) => {
    const n = (hits.get(request.url ?? '') ?? 0) + 1;
    hits.set(request.url ?? '', n);
    // `/private`: 200 only with the token, and it echoes the header back, as a careless app would.
    if (request.url === '/private') {
      const allowed = request.headers.authorization === `Bearer ${TOKEN}`;
      response.writeHead(allowed ? 200 : 401).end(`seen: ${request.headers.authorization ?? 'nothing'}`);
      return;
    }
    // `/json`: not JSON at first, then `{"status":"ok"}`; `/json-degraded`: always `{"status":"degraded"}`.
    if (request.url === '/json') {
      response.writeHead(200).end(n > 1 ? '{"status":"ok"}' : 'starting');
      return;
    }
    if (request.url === '/json-degraded') {
      response.writeHead(200).end(`{"status":"degraded","token":"${TOKEN}"}`);
      return;
    }
    const up = request.url === '/flaky' && n > 2;
    response.writeHead(up ? 200 : 503).end(up ? '{"status":"ok"}' : 'not yet');
  });
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
  scratch = mkdtempSync(path.join(tmpdir(), 'kubewait-smoke-'));
  gh = await startGitHub();
}, 300_000);

afterAll(async () => {
  await cluster?.close();
  await gh?.close();
  await new Promise((resolve) => app?.close(resolve));
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe('smoke (dist/index.js)', () => {
  it('passes a 503 that recovers in time, and fails one that stays down, with the smoke output', async () => {
    const inputs = { kubeconfig: cluster.kubeconfig(), resources: 'configmap/config', timeout: '30s' };
    const passed = await runAction({ ...inputs, smoke: `- url: ${base}/flaky\n  expect-body: '"status":"ok"'\n  interval: 200ms` });
    expect([passed.exitCode, passed.outputs.result]).toEqual([0, 'ready']);
    expect(JSON.parse(passed.outputs.smoke!)).toEqual([{ name: `${base}/flaky`, ok: true, status: 200, attempts: 3, latencyMs: expect.any(Number) }]);

    const failed = await runAction({ ...inputs, timeout: '3s', smoke: `- url: ${base}/down\n  interval: 500ms` }, { killAfterMs: 60_000 });
    expect([failed.exitCode, failed.outputs.result]).toEqual([1, 'failed']);
    expect(JSON.parse(failed.outputs.smoke!)).toEqual([expect.objectContaining({ ok: false, status: 503 })]);
    expect(failed.warnings.map((w) => w.message).join('\n')).toContain(
      `smoke check ${base}/down: did not pass by the deadline (expected status 200-299): status 503`,
    );
    expect(failed.summary).toContain('### Smoke checks');
    expect(failed.summary).toContain('| **did not pass**: expected status 200-299 | 503 |');
  }, 120_000);

  it('sends a header from an environment variable, masked in every channel', async () => {
    const run = await runAction(
      {
        kubeconfig: cluster.kubeconfig(),
        resources: 'configmap/config',
        timeout: '30s',
        smoke: `- url: ${base}/private\n  headers:\n    Authorization: SMOKE_TOKEN\n  expect-status: '404'`,
      },
      { env: { SMOKE_TOKEN: `Bearer ${TOKEN}` } },
    );
    // The app answered 200 with the token (expect-status 404 makes it fail, so its body is shown): the header went out.
    expect(JSON.parse(run.outputs.smoke!)).toEqual([expect.objectContaining({ ok: false, status: 200 })]);
    expect(run.masks).toContain(`Bearer ${TOKEN}`);
    // Everything the runner shows (its add-mask commands are for the runner alone).
    expect(visible(run)).not.toContain(TOKEN);
  }, 120_000);

  it('expect-body jsonpath={.status}=ok: passes once the JSON body says ok; a body that says otherwise fails, saying why', async () => {
    const inputs = { kubeconfig: cluster.kubeconfig(), resources: 'configmap/config', timeout: '30s' };
    const passed = await runAction({ ...inputs, smoke: `- url: ${base}/json\n  expect-body: jsonpath={.status}=ok\n  interval: 200ms` });
    expect([passed.exitCode, passed.outputs.result]).toEqual([0, 'ready']);
    expect(JSON.parse(passed.outputs.smoke!)).toEqual([{ name: `${base}/json`, ok: true, status: 200, attempts: 2, latencyMs: expect.any(Number) }]);

    const failed = await runAction(
      { ...inputs, timeout: '2s', smoke: `- url: ${base}/json-degraded\n  expect-body: jsonpath={.status}=ok\n  interval: 500ms` },
      { killAfterMs: 60_000 },
    );
    expect([failed.exitCode, failed.outputs.result]).toEqual([1, 'failed']);
    const reason = 'jsonpath {.status} is "degraded", expected "ok"';
    expect(JSON.parse(failed.outputs.smoke!)).toEqual([expect.objectContaining({ ok: false, status: 200, reason })]);
    expect(failed.warnings.map((w) => w.message).join('\n')).toContain(
      `smoke check ${base}/json-degraded: did not pass by the deadline (${reason}): status 200`,
    );
    expect(failed.summary).toContain(`| **did not pass**: ${reason.replaceAll('"', '&quot;')} | 200 |`);
  }, 120_000);

  it('rejects a bad expect-body jsonpath, naming smoke with an example', async () => {
    const r = await runAction({
      kubeconfig: cluster.kubeconfig(),
      resources: 'configmap/config',
      smoke: `- url: ${base}/json\n  expect-body: jsonpath={.status=ok`,
    });
    expect(r.exitCode).toBe(1);
    const errors = r.errors.map((e) => e.message).join('\n');
    expect(errors).toContain('Input "smoke": check 1: `expect-body` is "jsonpath={.status=ok": the JSONPath expression is not valid');
    expect(errors).toContain('expected a substring, or jsonpath=EXPR[=VALUE] like jsonpath={.status}=ok');
  }, 60_000);

  it('puts a "Smoke checks" section in the pull-request comment, each check with how it did, masked', async () => {
    hits.clear(); // `/flaky` starts down again
    const sha = 'c3'.repeat(20);
    gh.addPull({ number: 31, headSha: sha });
    const eventPath = path.join(scratch, 'event-31.json');
    const repository = `${gh.owner}/${gh.repo}`;
    const pullRequest = { number: 31, head: { sha, ref: 'feature-31', repo: { full_name: repository } } };
    writeFileSync(eventPath, JSON.stringify({ action: 'synchronize', number: 31, pull_request: pullRequest, repository: { full_name: repository } }));
    const env = { GITHUB_API_URL: gh.url, GITHUB_EVENT_NAME: 'pull_request', GITHUB_EVENT_PATH: eventPath, GITHUB_REPOSITORY: repository };

    const run = await runAction(
      {
        kubeconfig: cluster.kubeconfig(),
        resources: 'configmap/config',
        timeout: '3s',
        // The degraded app echoes the token in its body: the header's value is masked, in the comment too.
        smoke: `- url: ${base}/flaky\n  interval: 200ms\n- url: ${base}/json-degraded\n  expect-body: jsonpath={.status}=ok\n  interval: 500ms\n  headers:\n    X-Token: SMOKE_TOKEN`,
        'pr-comment': 'always',
        'github-token': WRITE_TOKEN,
        'report-matrix': '',
        'report-job-id': '',
      },
      { env: { ...env, SMOKE_TOKEN: TOKEN }, killAfterMs: 60_000 },
    );

    expect(run.exitCode).toBe(1);
    const [comment] = gh.state.comments.filter((c) => c.issueNumber === 31);
    const section = comment!.body.slice(comment!.body.indexOf('### Smoke checks'));
    expect(section).toMatch(/^### Smoke checks\n\n\| Check \| Result \| Last status \| Attempts \| Latency \| Last body \|/);
    expect(section).toMatch(
      new RegExp(
        `\\| ${base}/json-degraded \\| \\*\\*did not pass\\*\\*: jsonpath \\{\\.status\\} is &quot;degraded&quot;, expected &quot;ok&quot; \\| 200 \\| \\d+ \\| \\d+ ms \\|`,
      ),
    );
    expect(section).toMatch(new RegExp(`\\| ${base}/flaky \\| passed \\| 200 \\| 3 \\| \\d+ ms \\|`));
    expect(section).toContain('&quot;token&quot;:&quot;\\*\\*\\*&quot;');
    expect(comment!.body).not.toContain(TOKEN);
  }, 120_000);

  it('rejects a bad list, naming smoke with an example', async () => {
    const r = await runAction({ kubeconfig: cluster.kubeconfig(), resources: 'configmap/config', smoke: '- url: ftp://x' });
    expect(r.exitCode).toBe(1);
    expect(r.errors.map((e) => e.message).join('\n')).toContain('Input "smoke": check 1: `url` is "ftp://x": expected an http or https URL');
  }, 60_000);
});

describe('smoke (dist/cli.js)', () => {
  it('--smoke with expect-body jsonpath: a body that is not JSON fails, saying why in -o json', async () => {
    const kubeconfig = path.join(scratch, 'kubeconfig-json');
    writeFileSync(kubeconfig, cluster.kubeconfig());
    const run = await runCommand(
      [
        'configmap/config',
        '--smoke',
        `[{url: '${base}/down', expect-status: '503', expect-body: 'jsonpath={.status}', interval: 500ms}]`,
        '--timeout',
        '2s',
        '-o',
        'json',
      ],
      { env: { KUBECONFIG: kubeconfig } },
    );
    expect(run.exitCode).toBe(1);
    const document = JSON.parse(run.stdout) as { result: string; smoke: unknown[] };
    expect(document.result).toBe('failed');
    expect(document.smoke).toEqual([
      expect.objectContaining({ name: `${base}/down`, ok: false, status: 503, reason: 'the body is not JSON, so jsonpath {.status} cannot be read' }),
    ]);
  }, 60_000);

  it('--smoke fails the command when a check does not pass', async () => {
    const kubeconfig = path.join(scratch, 'kubeconfig');
    writeFileSync(kubeconfig, cluster.kubeconfig());
    const run = await runCommand(['configmap/config', '--smoke', `[{url: '${base}/down', interval: 500ms}]`, '--timeout', '3s', '-o', 'json'], {
      env: { KUBECONFIG: kubeconfig },
    });
    expect(run.exitCode).toBe(1);
    const document = JSON.parse(run.stdout) as { result: string; smoke: unknown[] };
    expect(document.result).toBe('failed');
    // The command's JSON is the whole report: it carries the failing answer's body (the action's `smoke` output does not).
    expect(document.smoke).toEqual([expect.objectContaining({ name: `${base}/down`, ok: false, status: 503, body: 'not yet' })]);
  }, 60_000);
});
