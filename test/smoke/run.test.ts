/**
 * runSmokeChecks against a real HTTP server on loopback, on a ManualTime: a 503 that recovers in time
 * passes after `consecutive` good answers; one that does not fails by the deadline with the last status and
 * the body's first KiB, masked.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as pause } from 'node:timers/promises';
import { parseSmoke } from '../../src/smoke/parse.js';
import { runSmokeChecks } from '../../src/smoke/run.js';
import { ManualTime } from '../../src/time.js';

let server: Server;
let base: string;
const answers = new Map<string, number[]>(); // path -> status codes to answer in turn (the last one repeats)
const hits = new Map<string, number>();
/** The bodies a `/json/...` path answers, one per request, in turn. */
const bodies: string[] = [];
/** The Authorization header of each request, by path. */
const authorizations = new Map<string, string | undefined>();

beforeAll(async () => {
  server = createServer((request, response) => {
    const path = request.url ?? '/';
    const n = hits.get(path) ?? 0;
    hits.set(path, n + 1);
    authorizations.set(path, request.headers.authorization);
    const codes = answers.get(path) ?? [404];
    const status = codes[Math.min(n, codes.length - 1)]!;
    response.writeHead(status, { 'content-type': 'text/plain' });
    if (path.startsWith('/json/')) response.end(bodies.shift() ?? '');
    else response.end(status === 200 ? '{"status":"ok"}' : `down; token=s3cret ${'x'.repeat(2000)}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

/** Runs `work` on `time`, moving the clock to its next timer whenever nothing else is going on. */
async function drive<T>(time: ManualTime, work: Promise<T>): Promise<T> {
  let settled = false;
  void work.finally(() => (settled = true)).catch(() => undefined);
  while (!settled) {
    await pause(5);
    if (!settled) await time.advanceToNext();
  }
  return work;
}

const options = (time: ManualTime, deadlineMs: number) => ({
  client: undefined as never,
  time,
  signal: new AbortController().signal,
  deadlineAt: time.now() + deadlineMs,
  mask: (text: string) => text.replaceAll('s3cret', '***'),
});

describe('runSmokeChecks', () => {
  it('passes a 503 that recovers in time, after consecutive good answers', async () => {
    answers.set('/recovers', [503, 503, 200]);
    const time = new ManualTime();
    const checks = parseSmoke(`- url: ${base}/recovers\n  expect-body: '"status":"ok"'\n  consecutive: 2\n  interval: 2s`, 'default');
    const [result] = await drive(time, runSmokeChecks(checks, options(time, 60_000)));
    expect(result).toMatchObject({ ok: true, status: 200, attempts: 4, body: '{"status":"ok"}' });
  });

  it('fails one that is still down at the deadline, with its last status and the first KiB of its body, masked', async () => {
    answers.set('/down', [503]);
    const time = new ManualTime();
    const started = time.now();
    const [result] = await drive(time, runSmokeChecks(parseSmoke(`- url: ${base}/down\n  interval: 2s`, 'default'), options(time, 10_000)));
    expect(result).toMatchObject({ ok: false, status: 503, attempts: 5 });
    expect(result!.body).toHaveLength(1024 - 's3cret'.length + '***'.length);
    expect(result!.body.startsWith('down; token=*** x')).toBe(true);
    expect(time.now() - started).toBeLessThan(10_000);
  });

  it('says why when nothing answers', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const time = new ManualTime();
    const [result] = await drive(time, runSmokeChecks(parseSmoke(`- url: http://127.0.0.1:${port}/\n  interval: 2s`, 'default'), options(time, 3000)));
    expect(result).toMatchObject({ ok: false, status: 0, attempts: 2 });
    expect(result!.body).toMatch(/ECONNREFUSED/);
  });

  it('sends the headers whose values the environment holds', async () => {
    answers.set('/private', [200]);
    const [check] = parseSmoke(`- url: ${base}/private\n  headers:\n    Authorization: SMOKE_TOKEN`, 'default', { SMOKE_TOKEN: 'Bearer t0ken' });
    const time = new ManualTime();

    const [result] = await drive(time, runSmokeChecks([check!], options(time, 10_000)));

    expect(result).toMatchObject({ ok: true, status: 200 });
    expect(authorizations.get('/private')).toBe('Bearer t0ken');
  });

  it('passes expect-body jsonpath={.status}=ok once the JSON body says so; a body that is not JSON fails that attempt, saying why', async () => {
    answers.set('/json/status', [200]);
    bodies.splice(0, bodies.length, 'starting', '{"status":"degraded"}', '{"status":"ok","checks":[]}');
    const time = new ManualTime();
    const [check] = parseSmoke(`- url: ${base}/json/status\n  expect-body: jsonpath={.status}=ok\n  interval: 1s`, 'default');

    const [result] = await drive(time, runSmokeChecks([check!], options(time, 60_000)));

    expect(result).toMatchObject({ ok: true, status: 200, attempts: 3 });
    expect(result).not.toHaveProperty('reason');
  });

  it.each([
    ['starting up; token=s3cret', 'the body is not JSON, so jsonpath {.status} cannot be read'],
    ['{"status":"degraded"}', 'jsonpath {.status} is "degraded", expected "ok"'],
    ['{"state":"ok"}', 'jsonpath {.status} finds nothing in the body'],
  ])('fails expect-body jsonpath={.status}=ok on %j, saying why', async (body, reason) => {
    answers.set('/json/bad', [200]);
    bodies.splice(0, bodies.length, ...Array.from({ length: 5 }, () => body));
    const time = new ManualTime();
    const [check] = parseSmoke(`- url: ${base}/json/bad\n  expect-body: jsonpath={.status}=ok\n  interval: 1s`, 'default');

    const [result] = await drive(time, runSmokeChecks([check!], options(time, 2_500)));

    expect(result).toMatchObject({ ok: false, status: 200, reason, body: body.replace('s3cret', '***') });
  });

  it('says a check that passed fewer times in a row than `consecutive` by the deadline did not pass', async () => {
    answers.set('/once', [503, 200]);
    const time = new ManualTime();
    const [check] = parseSmoke(`- url: ${base}/once\n  consecutive: 5\n  interval: 1s`, 'default');

    const [result] = await drive(time, runSmokeChecks([check!], options(time, 2_500)));

    expect(result).toMatchObject({ ok: false, status: 200, reason: 'passed 2 of 5 times in a row by the deadline' });
  });
});
