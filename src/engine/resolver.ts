/**
 * Turns the types users wrote (`deploy`, `certificates.cert-manager.io`, a manifest's kind) into served
 * resource types through discovery, and keeps trying for the ones not served yet (a CRD being installed)
 * until the wait ends. What it cannot resolve, it says on the target: why, and whether waiting can help.
 */
import { ApiError, describeFailure } from '../kube/index.js';
import type { Cluster, ResourceType } from '../kube/index.js';
import type { InputProblem, WaitFor } from '../settings.js';
import { inputOf, type TargetSpec } from '../targets/types.js';
import { backoffMs } from './backoff.js';
import type { Scheduler } from './scheduler.js';
import type { TargetState } from './tracker.js';

/** A target whose type is not known yet, and the state that reports it meanwhile. */
export interface Unresolved {
  spec: TargetSpec;
  state: TargetState;
}

export interface ResolverHost<T extends Unresolved> {
  /** The type is known: the target joins its group. */
  attach(item: T, type: ResourceType): void;
  warn(message: string): void;
  /** A problem that waiting cannot fix (an ambiguous type): the wait ends with it. */
  problem(problem: InputProblem): void;
  /** Something was resolved: the outcome may have changed. */
  changed(): void;
}

export class Resolver<T extends Unresolved> {
  private pending: T[] = [];

  constructor(
    private readonly cluster: Cluster,
    private readonly waitFor: WaitFor,
    private readonly timers: Scheduler,
    private readonly signal: AbortSignal,
    private readonly host: ResolverHost<T>,
  ) {}

  add(item: T): void {
    this.pending.push(item);
  }

  /** Whether every target's type is known. */
  get done(): boolean {
    return this.pending.length === 0;
  }

  /** The first discovery and resolution, before the wait starts. */
  async resolveFirst(): Promise<void> {
    try {
      await this.cluster.discovery.load(this.signal);
    } catch (error) {
      this.discoveryFailed(error);
    }
    this.resolvePending();
  }

  /** Re-reads discovery while types are missing, as often as discovery allows, until the wait ends. */
  async keepResolving(): Promise<void> {
    let failures = 0;
    while (!this.timers.isClosed && this.pending.length > 0) {
      const { discovery } = this.cluster;
      await this.timers.sleep(discovery.loaded && failures === 0 ? Math.max(discovery.refreshDelayMs(), 250) : backoffMs(failures, 1000));
      if (this.timers.isClosed) return;
      try {
        if (discovery.loaded) await discovery.refresh(this.signal);
        else await discovery.load(this.signal);
        failures = 0;
      } catch (error) {
        failures++;
        if (!discovery.loaded) this.discoveryFailed(error);
        continue;
      }
      this.resolvePending();
      this.host.changed();
    }
  }

  /** The wait is over: a type still unknown is not served, no "yet" about it. */
  sayUnserved(): void {
    if (!this.cluster.discovery.loaded) return;
    for (const { state, spec } of this.pending) {
      const resolution = this.cluster.discovery.resolve({ type: spec.type, apiVersion: spec.apiVersion });
      if (!resolution.ok) state.update({ status: 'Unknown', message: resolution.message, done: false });
    }
  }

  private resolvePending(): void {
    if (!this.cluster.discovery.loaded) return;
    const still: T[] = [];
    for (const item of this.pending) {
      const { spec, state } = item;
      const resolution = this.cluster.discovery.resolve({ type: spec.type, apiVersion: spec.apiVersion });
      if (resolution.ok) {
        this.host.attach(item, resolution.type);
      } else if (resolution.ambiguous) {
        state.update({ status: 'Unknown', message: resolution.message, done: false, blocked: true });
        this.host.problem({ input: inputOf(spec), message: resolution.message });
      } else if (this.waitFor.kind === 'deleted') {
        // No such type, no such object: what a deleted CRD leaves behind.
        state.update({ status: 'NotFound', message: `${resolution.message}, so no such object exists`, done: true });
        this.host.warn(`${resolution.message}; counting its targets as deleted`);
      } else {
        const message = `${resolution.message} (yet); waiting for it to appear, e.g. a CRD being installed`;
        state.update({ status: 'Unknown', message, done: false });
        this.host.warn(`${resolution.message} yet; waiting for it until the deadline`);
        still.push(item);
      }
    }
    this.pending = still;
  }

  /** Until discovery works, the targets say why their types are unknown. */
  private discoveryFailed(error: unknown): void {
    if (this.timers.isClosed) return;
    const message = `cannot discover the API server's resource types: ${describeFailure(error, this.cluster.server)}`;
    // Rejected credentials will not heal before the deadline: blocked, so the wait ends with an error now.
    const blocked = error instanceof ApiError && (error.status === 401 || error.status === 403);
    for (const { state } of this.pending) state.update({ status: 'Unknown', message, done: false, blocked });
  }
}
