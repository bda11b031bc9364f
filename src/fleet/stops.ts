/**
 * When one cluster's wait decides the step's verdict, the clusters still waiting stop, and each is reported
 * as it stood with why (ClusterRun.stopped):
 * - `cluster-policy: all` with `fail-fast`: a cluster's wait ended `failed` (a Failed target);
 * - `cluster-policy: any`: a cluster is ready; the others cannot change the verdict, so waiting for them
 *   (a failover pair with one region down) would only hold the step until its timeout.
 *
 * The first cluster to decide is the one named. A cluster whose wait has already ended is never stopped:
 * two clusters deciding at nearly the same moment both keep their own verdict, and a failing cluster's
 * explain step (pods, log tails) still runs. A stopped cluster is not `cancelled`: only the job's signal is.
 */
import type { RunResult } from '../result.js';
import type { ClusterPolicy } from '../settings.js';

type Waited = Pick<RunResult, 'outcome' | 'error' | 'cancelled'>;

export class ClusterStops {
  private readonly stops: AbortController[];
  private readonly ended: boolean[];
  private readonly reasons: (string | undefined)[];

  constructor(
    private readonly names: readonly string[],
    private readonly policy: ClusterPolicy,
    private readonly failFast: boolean,
  ) {
    this.stops = names.map(() => new AbortController());
    this.ended = names.map(() => false);
    this.reasons = names.map(() => undefined);
  }

  /** Aborted when another cluster decided the verdict while cluster `at` was still waiting. */
  signal(at: number): AbortSignal {
    return this.stops[at]!.signal;
  }

  /** Cluster `at`'s wait is over (before its explain step): stops every cluster still waiting when it decides. */
  waited(at: number, result: Waited): void {
    this.ended[at] = true;
    const reason = this.decides(at, result);
    if (reason === undefined) return;
    this.names.forEach((_, other) => {
      if (this.ended[other] || this.reasons[other] !== undefined) return;
      this.reasons[other] = reason;
      this.stops[other]!.abort(reason); // the engine says it of the targets it could not look at
    });
  }

  /** Why cluster `at` was stopped, when a stop cut its wait short (`result` is its wait's). */
  stopped(at: number, result: Pick<RunResult, 'cancelled'>): string | undefined {
    return result.cancelled ? this.reasons[at] : undefined;
  }

  /** Why the others need not wait any longer, or undefined: a wait that was itself cut short or could not
   *  judge (a cluster error) decides nothing. */
  private decides(at: number, result: Waited): string | undefined {
    if (result.cancelled || result.error) return undefined;
    const name = this.names[at]!;
    if (this.policy === 'any' && result.outcome === 'ready') return `cluster ${name} was ready (cluster-policy: any)`;
    if (this.policy === 'all' && this.failFast && result.outcome === 'failed') return `a target failed in cluster ${name} (fail-fast)`;
    return undefined;
  }
}
