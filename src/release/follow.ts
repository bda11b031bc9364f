/**
 * Following a Helm release until there is something to wait for: read it (read.ts), decide
 * (policy.ts), and while the decision is `poll-again` (helm still at work, or no
 * release yet) read it again every poll interval until the deadline. The engine then waits for the
 * settled decision's targets: `wait` as the `wait-for` input says, `wait-deleted` for deletion,
 * `fail` Failed at once while still judging the objects. With `release-min-revision`, the first read also
 * fixes the oldest revision that counts (`wantedRevision`): an older one is followed as if it were pending.
 */
import { Scheduler } from '../engine/scheduler.js';
import type { KubeClient } from '../kube/client.js';
import { ApiError } from '../kube/index.js';
import type { Release } from './decode.js';
import type { ReleaseMinRevision } from '../settings.js';
import { decideRelease, type ReleaseDecision, type WantedRevision } from './policy.js';
import { readRelease } from './read.js';
import type { Time } from '../time.js';

export interface SettleOptions {
  /** Time between reads while the release is pending or missing (the `poll-interval` input). */
  pollIntervalMs: number;
  /** The deadline and cancellation: when it aborts, the last decision is returned as it stands. */
  signal: AbortSignal;
  /** Each decision's message when it differs from the previous one (for the log). */
  onDecision?: (decision: ReleaseDecision) => void;
  /** Why a storage driver was skipped, or a read failed and is retried. */
  warn?: (message: string) => void;
  /** The run's clock and timers (the engine options'); default: real time. */
  time?: Time;
  /** `release-min-revision`: `next`, or the oldest revision that counts (default 0: whichever is latest). */
  minRevision?: ReleaseMinRevision;
}

export interface SettledRelease {
  /** Never `poll-again` unless the signal aborted first: then it says what was being waited for. */
  decision: ReleaseDecision;
  /** The release as last read (for the release-revision/-status outputs and the headline). */
  release: Release | 'not-found';
}

/**
 * Reads release `name` in `namespace` until its decision is settled or `signal` aborts. A failed read
 * the API server may recover from (no response, 429, 5xx) is retried at the next poll; others
 * (401, an InputError for input `release`) are thrown.
 */
export async function settleRelease(client: KubeClient, namespace: string, name: string, options: SettleOptions): Promise<SettledRelease> {
  const { signal } = options;
  // Every timer through a Scheduler (docs/architecture.md): the poll interval's sleep ends when the signal aborts.
  const timers = new Scheduler(options.time);
  const stop = () => timers.close();
  signal.addEventListener('abort', stop, { once: true });
  try {
    return await follow(client, namespace, name, options, timers);
  } finally {
    signal.removeEventListener('abort', stop);
    timers.close();
  }
}

async function follow(client: KubeClient, namespace: string, name: string, options: SettleOptions, timers: Scheduler): Promise<SettledRelease> {
  const { signal } = options;
  let last: SettledRelease | undefined;
  let lastMessage: string | undefined;
  const warned = new Set<string>();
  const warn = (message: string) => {
    if (warned.has(message)) return;
    warned.add(message);
    options.warn?.(message);
  };
  let wanted: WantedRevision | undefined;
  while (!signal.aborted) {
    try {
      const release = await readRelease(client, namespace, name, signal, warn);
      wanted ??= wantedRevision(options.minRevision ?? 0, release);
      const decision = decideRelease(release, name, namespace, wanted);
      last = { decision, release };
      if (decision.message !== lastMessage) options.onDecision?.(decision);
      lastMessage = decision.message;
      if (decision.action !== 'poll-again') return last;
    } catch (error) {
      if (signal.aborted) break;
      if (!(error instanceof ApiError && retryable(error))) throw error;
      warn(`Cannot read Helm release ${name} in namespace ${namespace} (${error.message}); retrying every poll interval`);
    }
    await timers.sleep(options.pollIntervalMs);
  }
  return (
    last ?? {
      decision: { action: 'poll-again', message: `Helm release ${name} in namespace ${namespace} could not be read before the deadline` },
      release: 'not-found',
    }
  );
}

/**
 * The oldest revision that counts, from the first read. `next` is the revision after the one recorded then,
 * unless that one is still pending: then helm is writing it now (the `helm upgrade` the step was started
 * beside; a second one would be refused while it is pending), and it is the one to wait for.
 */
export function wantedRevision(minRevision: ReleaseMinRevision, first: Release | 'not-found'): WantedRevision | undefined {
  if (minRevision !== 'next') return minRevision > 0 ? { revision: minRevision, asked: `release-min-revision: ${minRevision}` } : undefined;
  const present = first === 'not-found' ? 0 : first.status.startsWith('pending-') ? first.revision - 1 : first.revision;
  return { revision: present + 1, asked: 'release-min-revision: next' };
}

function retryable(error: ApiError): boolean {
  return error.status === 0 || error.status === 429 || error.status >= 500;
}
