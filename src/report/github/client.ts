/**
 * The one Octokit client of the GitHub reporters: `@actions/github`'s `getOctokit` with the `github-token`
 * and `GITHUB_API_URL`, plus what a CI step needs and Octokit does not do by itself: a timeout per request,
 * retries on 5xx, short rate-limit waits, and an overall time budget, so that reporting can never hold
 * the job for long. `@octokit/plugin-retry` is not in the tree; this wrapper is the small part of it we need.
 */
import type { getOctokit } from '@actions/github';

export type GitHubClient = ReturnType<typeof getOctokit>;

export interface ClientOptions {
  token: string;
  /** REST API base URL (`GITHUB_API_URL`; `https://api.github.com` on github.com). */
  apiUrl: string;
  /** Per attempt (default 10 s). */
  timeoutMs?: number;
  /** Retries after a 5xx, a connection error or (for idempotent methods) a timeout (default 2). */
  retries?: number;
  /** First retry delay, doubled each time (default 1 s). */
  backoffMs?: number;
  /** Longest `retry-after` / rate-limit reset worth waiting for (default 5 s); longer ones fail at once. */
  maxRateLimitWaitMs?: number;
  /** All requests of one reporting call together (default 60 s): no attempt starts after it. */
  budgetMs?: number;
  /** Registers the token as a secret (`core.setSecret`), so the runner masks it wherever it shows up. */
  mask?: (secret: string) => void;
}

export const CLIENT_DEFAULTS = { timeoutMs: 10_000, retries: 2, backoffMs: 1_000, maxRateLimitWaitMs: 5_000, budgetMs: 60_000 } as const;

/** A request that got no answer in time. */
export class RequestTimeoutError extends Error {
  override readonly name = 'RequestTimeoutError';
  constructor(
    readonly method: string,
    readonly timeoutMs: number,
    readonly attempts: number,
  ) {
    super(`no answer within ${Math.round(timeoutMs / 100) / 10}s (${attempts} ${attempts === 1 ? 'attempt' : 'attempts'})`);
  }
}

/** The reporting budget ran out before a request could be (re)tried. */
export class BudgetExceededError extends Error {
  override readonly name = 'BudgetExceededError';
}

/** What an Octokit RequestError carries, read without importing a transitive package. */
export interface HttpFailure {
  status: number;
  message: string;
  headers: Record<string, string | undefined>;
  /** The API's own `message`, without Octokit's appended documentation URL. */
  apiMessage?: string;
  /** True when a server answered (false: connection refused, reset, DNS, ...). */
  answered: boolean;
  attempts: number;
}

export function httpFailure(error: unknown): HttpFailure | undefined {
  if (!(error instanceof Error) || typeof (error as { status?: unknown }).status !== 'number') return undefined;
  const e = error as Error & { status: number; response?: { headers?: Record<string, string | undefined>; data?: unknown }; attempts?: number };
  const data = e.response?.data;
  const apiMessage =
    typeof data === 'object' && data !== null && typeof (data as { message?: unknown }).message === 'string'
      ? (data as { message: string }).message
      : undefined;
  return {
    status: e.status,
    message: e.message,
    headers: e.response?.headers ?? {},
    ...(apiMessage !== undefined && { apiMessage }),
    answered: e.response !== undefined,
    attempts: e.attempts ?? 1,
  };
}

const IDEMPOTENT = new Set(['GET', 'HEAD', 'PUT', 'PATCH', 'DELETE']);

/** How long GitHub asks us to wait, for a rate-limited answer; undefined when the answer is no rate limit. */
export function rateLimitWaitMs(failure: HttpFailure, nowMs: number): number | undefined {
  if (failure.status !== 403 && failure.status !== 429) return undefined;
  const retryAfter = failure.headers['retry-after'];
  if (retryAfter !== undefined && /^\d+$/.test(retryAfter)) return Number(retryAfter) * 1000;
  if (failure.headers['x-ratelimit-remaining'] === '0') {
    const reset = Number(failure.headers['x-ratelimit-reset']);
    return Number.isFinite(reset) ? Math.max(0, reset * 1000 - nowMs) : Number.POSITIVE_INFINITY;
  }
  // A 429 without headers is still a rate limit; a plain 403 is a permission problem.
  return failure.status === 429 ? Number.POSITIVE_INFINITY : undefined;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The client, with @actions/github loaded now: it brings Octokit, about 6 MB of a run's memory that only a
 * pull-request comment or a Deployment status needs (bench/RESULTS.md, memory).
 */
export async function createGitHubClient(options: ClientOptions): Promise<GitHubClient> {
  if (options.token) options.mask?.(options.token);
  const { getOctokit } = await import('@actions/github');
  const timeoutMs = options.timeoutMs ?? CLIENT_DEFAULTS.timeoutMs;
  const retries = options.retries ?? CLIENT_DEFAULTS.retries;
  const backoffMs = options.backoffMs ?? CLIENT_DEFAULTS.backoffMs;
  const maxRateLimitWaitMs = options.maxRateLimitWaitMs ?? CLIENT_DEFAULTS.maxRateLimitWaitMs;
  const deadline = Date.now() + (options.budgetMs ?? CLIENT_DEFAULTS.budgetMs);
  const quiet = () => undefined;

  const client = getOctokit(options.token, {
    baseUrl: options.apiUrl.replace(/\/+$/, ''),
    userAgent: 'kubewait',
    // Octokit's own console logging (deprecations) would bypass the step's log format.
    log: { debug: quiet, info: quiet, warn: quiet, error: quiet },
  });

  client.hook.wrap('request', async (request, requestOptions) => {
    const method = String(requestOptions.method).toUpperCase();
    for (let attempt = 1; ; attempt++) {
      const left = deadline - Date.now();
      if (left <= 0) throw new BudgetExceededError(`the reporting time budget ran out before ${method} ${String(requestOptions.url)}`);
      const attemptTimeout = Math.min(timeoutMs, left);
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), attemptTimeout);
      try {
        // In place: before-after-hook hands the inner hooks (auth) the options object it bound, not our argument.
        requestOptions.request = { ...requestOptions.request, signal: controller.signal };
        return await request(requestOptions);
      } catch (error) {
        const timedOut = controller.signal.aborted;
        const failure = timedOut ? undefined : httpFailure(error);
        const delay = retryDelay({ timedOut, failure, method, attempt, retries, backoffMs, maxRateLimitWaitMs });
        if (delay === undefined || Date.now() + delay >= deadline) {
          if (timedOut) throw new RequestTimeoutError(method, attemptTimeout, attempt);
          if (error instanceof Error) Object.assign(error, { attempts: attempt });
          throw error;
        }
        await sleep(delay);
      } finally {
        clearTimeout(timer);
      }
    }
  });
  return client;
}

/** Milliseconds to wait before the next attempt, or undefined when this failure is final. */
function retryDelay(o: {
  timedOut: boolean;
  failure: HttpFailure | undefined;
  method: string;
  attempt: number;
  retries: number;
  backoffMs: number;
  maxRateLimitWaitMs: number;
}): number | undefined {
  if (o.attempt > o.retries) return undefined;
  const backoff = o.backoffMs * 2 ** (o.attempt - 1);
  // A POST that timed out may have been applied: retrying could post a second comment or Deployment.
  if (o.timedOut) return IDEMPOTENT.has(o.method) ? backoff : undefined;
  if (!o.failure) return undefined;
  if (!o.failure.answered) return backoff;
  if (o.failure.status >= 500) return backoff;
  const wait = rateLimitWaitMs(o.failure, Date.now());
  if (wait !== undefined && wait <= o.maxRateLimitWaitMs) return Math.max(wait, backoff);
  return undefined;
}
