/**
 * One probe for the whole wait while the API server does not answer at all (refused, reset, DNS): every
 * follower that lost contact waits on the same probe instead of backing off on its own, so a hundred
 * groups cost one cheap request per interval during an outage, and all of them re-list within one
 * interval of the server answering again (their own backoff would have them sleep up to its cap).
 */
import { ApiError } from '../kube/index.js';
import type { Cluster } from '../kube/index.js';
import type { Scheduler } from './scheduler.js';

/** How often the probe asks while the server is down. */
export const PROBE_INTERVAL_MS = 500;

export class Reachability {
  private probing?: Promise<void>;

  constructor(
    private readonly cluster: Pick<Cluster, 'client'>,
    private readonly timers: Scheduler,
    private readonly signal: AbortSignal,
  ) {}

  /** Resolves once the server answers anything over HTTP (even 401 or 404), or the wait ends. */
  answering(): Promise<void> {
    this.probing ??= this.probe().finally(() => (this.probing = undefined));
    return this.probing;
  }

  private async probe(): Promise<void> {
    while (!this.timers.isClosed) {
      await this.timers.sleep(PROBE_INTERVAL_MS);
      if (this.timers.isClosed) return;
      try {
        await this.cluster.client.get('/version', {}, { signal: this.signal, timeoutMs: 5000 });
        return;
      } catch (error) {
        if (error instanceof ApiError && error.status > 0) return;
      }
    }
  }
}
