/**
 * Container log tails through the pods/log API, for the report of a failed or stuck target. Never fatal: all
 * reads share one short time budget and a small concurrency limit; a namespace where `get` on `pods/log` is
 * forbidden gives one warning naming that rule and no further reads there; a container that cannot have a
 * log (waiting to start) gets the API's reason. Every text leaves this module through the caller's `mask`.
 */
import { realTime, timeoutSignal, type Time } from '../time.js';
import type { LogOutcome } from '../result.js';
import type { KubeClient } from './client.js';
import { ApiError } from './errors.js';

/** One container to read; ContainerToExplain (status/explain-pods.ts) has this shape. */
export interface LogRequest {
  namespace: string;
  pod: string;
  container: string;
  /** The run before the current one (`previous=true`). */
  previous: boolean;
}

export interface LogRead<T extends LogRequest> {
  request: T;
  outcome: LogOutcome;
}

export interface LogReadOptions {
  /** Lines from the end of each log. */
  tailLines: number;
  /** Bytes per container, at most MAX_LIMIT_BYTES (the default). */
  limitBytes?: number;
  /** Time for all the reads together (default 5 s). */
  budgetMs?: number;
  /** Reads at once (default 3). */
  concurrency?: number;
  /** The run's cancellation (SIGINT/SIGTERM): stops every read. */
  signal?: AbortSignal;
  /** Applied to every text (logs, API messages) before it is returned: the registered secret masks. */
  mask: (text: string) => string;
  /** The run's clock and timers, which the budget runs on (default: real time). */
  time?: Time;
}

export interface LogReadResult<T extends LogRequest> {
  /** One per request, in request order. */
  reads: Array<LogRead<T>>;
  /** For the run's warnings: forbidden namespaces, an exhausted budget. */
  warnings: string[];
}

export const MAX_LIMIT_BYTES = 64 * 1024;
export const DEFAULT_BUDGET_MS = 5_000;
const DEFAULT_CONCURRENCY = 3;

/** The kubelet's answer when `previous=true` finds no earlier run (kubelet_pods.go validateContainerLogStatus). */
const NO_PREVIOUS = /^previous terminated container .* not found$/;

export async function readContainerLogs<T extends LogRequest>(client: KubeClient, requests: readonly T[], options: LogReadOptions): Promise<LogReadResult<T>> {
  const budgetMs = options.budgetMs ?? DEFAULT_BUDGET_MS;
  const limitBytes = Math.min(Math.max(1, Math.floor(options.limitBytes ?? MAX_LIMIT_BYTES)), MAX_LIMIT_BYTES);
  const tailLines = Math.max(0, Math.floor(options.tailLines));
  const time = options.time ?? realTime;
  const budgetTimer = timeoutSignal(time, budgetMs);
  const budget = budgetTimer.signal;
  const signal = options.signal ? AbortSignal.any([options.signal, budget]) : budget;
  const deadline = time.now() + budgetMs;
  const forbidden = new Set<string>();
  const warnings: string[] = [];
  const reads: Array<LogRead<T> | undefined> = requests.map(() => undefined);

  const readOne = async (request: T): Promise<LogOutcome> => {
    if (forbidden.has(request.namespace)) return { kind: 'forbidden' };
    const path = `/api/v1/namespaces/${encodeURIComponent(request.namespace)}/pods/${encodeURIComponent(request.pod)}/log`;
    const get = (previous: boolean) =>
      client.getText(
        path,
        { container: request.container, previous: previous || undefined, tailLines, limitBytes },
        { signal, timeoutMs: Math.max(1, deadline - time.now()) },
      );
    let previous = request.previous;
    try {
      let text: string;
      try {
        text = await get(previous);
      } catch (error) {
        // Asked for the run before, and there is none (no restart after all): the current run is what there is.
        if (!(previous && error instanceof ApiError && error.status === 400 && NO_PREVIOUS.test(serverMessage(error)))) throw error;
        previous = false;
        text = await get(false);
      }
      return { kind: 'text', text: options.mask(text), previous, truncated: Buffer.byteLength(text, 'utf8') >= limitBytes };
    } catch (error) {
      if (error instanceof ApiError && error.status === 403) {
        if (!forbidden.has(request.namespace)) {
          forbidden.add(request.namespace);
          warnings.push(
            options.mask(
              `cannot read container logs in namespace "${request.namespace}": the report shows no log tails there — grant get on pods/log (apiGroups [""], resources ["pods/log"], verbs ["get"]) in that namespace`,
            ),
          );
        }
        return { kind: 'forbidden' };
      }
      if (error instanceof ApiError && (error.status === 400 || error.status === 404))
        return { kind: 'unavailable', reason: options.mask(serverMessage(error)) };
      // The request's own timeout is the budget's remainder: it may fire a moment before the budget's timer.
      const overBudget = budget.aborted || time.now() >= deadline;
      if (overBudget && !options.signal?.aborted) return { kind: 'failed', message: `not read within ${formatMs(budgetMs)}` };
      return { kind: 'failed', message: options.mask(error instanceof Error ? error.message : String(error)) };
    }
  };

  let next = 0;
  const worker = async () => {
    while (next < requests.length) {
      const index = next++;
      const request = requests[index]!;
      reads[index] = { request, outcome: signal.aborted ? notRead(budget, budgetMs) : await readOne(request) };
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(requests.length, Math.max(1, options.concurrency ?? DEFAULT_CONCURRENCY)) }, worker));
  } finally {
    budgetTimer.clear();
  }

  const done = reads.filter((r): r is LogRead<T> => r !== undefined);
  const late = done.filter((r) => r.outcome.kind === 'failed' && r.outcome.message === `not read within ${formatMs(budgetMs)}`).length;
  if (late > 0 && !options.signal?.aborted) warnings.push(`container logs: ${late} of ${requests.length} not read within ${formatMs(budgetMs)}`);
  return { reads: done, warnings };
}

function notRead(budget: AbortSignal, budgetMs: number): LogOutcome {
  return { kind: 'failed', message: budget.aborted ? `not read within ${formatMs(budgetMs)}` : 'cancelled' };
}

/** The Status message of an error response, without the `400 Bad Request: ` the client puts before it. */
function serverMessage(error: ApiError): string {
  return error.message.replace(/^\d{3} [^:]*: /, '');
}

function formatMs(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
