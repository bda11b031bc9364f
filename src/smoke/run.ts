/**
 * Runs the smoke checks (parse.ts) once every target is ready, all at once, under the step's deadline:
 * each is tried every `interval` until it has passed `consecutive` times in a row, or the deadline comes.
 * A `url:` is fetched from the runner; a `service:` through the API server's service proxy (the client's
 * credentials; `get services/proxy`). GET and HEAD only. What is kept of a response: its status, the time
 * it took, and the first 1 KiB of its body, masked.
 */
import type { Cluster } from '../kube/index.js';
import { ApiError } from '../kube/index.js';
import { sleep, type Time } from '../time.js';
import { matchesJsonPath } from '../status/wait-for.js';
import type { BodyExpectation, SmokeCheck } from './parse.js';

export interface SmokeResult {
  name: string;
  ok: boolean;
  /** The last response's status code (0: no response). */
  status: number;
  attempts: number;
  /** The last attempt's time to answer, in ms. */
  latencyMs: number;
  /** The first 1 KiB of the last response's body (or the error), masked. */
  body: string;
  /** Why the last attempt did not pass (`the body is not JSON`, ...), masked; absent when it passed. */
  reason?: string;
}

export interface SmokeOptions {
  client: Cluster['client'];
  time: Time;
  signal: AbortSignal;
  /** Epoch ms. */
  deadlineAt: number;
  mask(text: string): string;
  /** Stands in for the global fetch (tests). */
  fetch?: typeof fetch;
}

const BODY_BYTES = 1024;
/** No single request outlives this, so that one hung answer cannot eat the whole deadline. */
const REQUEST_TIMEOUT_MS = 10_000;

/**
 * Loads Node's HTTP client (undici, loaded on the first `fetch`) and runs it once, before the wait, so that
 * the first check after readiness does not pay for it: 100-250 ms on a busy 2-core machine
 * (bench/smoke.ts). A `data:` URL goes through `fetch` without the network. Only with `url:` checks.
 */
export function warmUpFetch(checks: SmokeCheck[]): void {
  if (!checks.some((check) => 'url' in check.target)) return;
  void fetch('data:,')
    .then((response) => response.arrayBuffer())
    .catch(() => undefined);
}

export async function runSmokeChecks(checks: SmokeCheck[], options: SmokeOptions): Promise<SmokeResult[]> {
  return Promise.all(checks.map((check) => runOne(check, options)));
}

async function runOne(check: SmokeCheck, options: SmokeOptions): Promise<SmokeResult> {
  let passes = 0;
  let attempts = 0;
  for (;;) {
    attempts++;
    const started = options.time.now();
    const last = await attempt(check, options);
    last.latencyMs = options.time.now() - started;
    const reason = whyNotPassed(check, last);
    passes = reason === undefined ? passes + 1 : 0;
    if (passes >= check.consecutive) return result(check, attempts, last, options);
    const next = options.time.now() + check.intervalMs;
    if (next >= options.deadlineAt || options.signal.aborted) {
      return result(check, attempts, last, options, reason ?? `passed ${passes} of ${check.consecutive} times in a row by the deadline`);
    }
    await sleep(options.time, check.intervalMs, options.signal);
  }
}

/** Undefined when the response is what the check expects, else why not, in words. */
export function whyNotPassed(check: Pick<SmokeCheck, 'expectStatus' | 'expectBody'>, response: { status: number; body: string }): string | undefined {
  if (!check.expectStatus.some(([low, high]) => response.status >= low && response.status <= high)) {
    const expected = check.expectStatus.map(([low, high]) => (low === high ? `${low}` : `${low}-${high}`)).join(',');
    return response.status === 0 ? 'no answer' : `expected status ${expected}`;
  }
  return check.expectBody && bodyProblem(check.expectBody, response.body);
}

function bodyProblem(expected: BodyExpectation, body: string): string | undefined {
  if ('contains' in expected) return body.includes(expected.contains) ? undefined : `the body does not contain ${JSON.stringify(expected.contains)}`;
  let document: unknown;
  try {
    document = JSON.parse(body);
  } catch {
    return `the body is not JSON, so jsonpath ${expected.jsonPath} cannot be read`;
  }
  const match = matchesJsonPath(document, expected.jsonPath, expected.value);
  if (match.matched) return undefined;
  if (match.error) return `jsonpath ${expected.jsonPath}: ${match.error}`;
  if (match.actual === undefined) return `jsonpath ${expected.jsonPath} finds nothing in the body`;
  return `jsonpath ${expected.jsonPath} is ${JSON.stringify(match.actual)}, expected ${JSON.stringify(expected.value)}`;
}

function result(
  check: SmokeCheck,
  attempts: number,
  last: { status: number; latencyMs: number; body: string },
  options: SmokeOptions,
  reason?: string,
): SmokeResult {
  return {
    name: check.name,
    ok: reason === undefined,
    status: last.status,
    attempts,
    latencyMs: last.latencyMs,
    body: options.mask(last.body.slice(0, BODY_BYTES)),
    ...(reason !== undefined && { reason: options.mask(reason) }),
  };
}

async function attempt(check: SmokeCheck, options: SmokeOptions): Promise<{ status: number; latencyMs: number; body: string }> {
  const signal = AbortSignal.any([options.signal, AbortSignal.timeout(REQUEST_TIMEOUT_MS)]);
  if ('url' in check.target) {
    try {
      const response = await (options.fetch ?? fetch)(check.target.url, {
        method: check.method,
        signal,
        redirect: 'follow',
        ...(check.headers && { headers: check.headers }),
      });
      return { status: response.status, latencyMs: 0, body: check.method === 'HEAD' ? '' : await response.text() };
    } catch (error) {
      // fetch says `fetch failed`; its cause says why (ECONNREFUSED, a certificate, a name not found).
      const cause = (error as { cause?: { message?: unknown } }).cause;
      return { status: 0, latencyMs: 0, body: typeof cause?.message === 'string' ? cause.message : (error as Error).message };
    }
  }
  const { namespace, name, port } = check.target.service;
  const path = `/api/v1/namespaces/${encodeURIComponent(namespace)}/services/${encodeURIComponent(`${name}:${port}`)}/proxy${check.target.path}`;
  try {
    // The application's status and body as the proxy passes them on; the API server's own refusal in its words.
    const answer = await options.client.getAnyStatus(path, {}, { signal });
    return { status: answer.status, latencyMs: 0, body: answer.apiStatus ?? answer.text };
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status, latencyMs: 0, body: error.message };
    return { status: 0, latencyMs: 0, body: String((error as Error).message) };
  }
}
