/**
 * Turns the types users wrote (`deploy`, `certificates.cert-manager.io`, a manifest's kind) into served
 * resource types through discovery, and keeps trying for the ones not served yet (a CRD being installed)
 * until the wait ends. What it cannot resolve, it says on the target: why, and whether waiting can help.
 */
import { ApiError, describeFailure, findCrd, isFatal, isUnreachable, type CrdLookup } from '../kube/index.js';
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

/** How long a cluster that never answered is retried before the wait gives up with `result: error`. */
export const UNREACHABLE_GIVE_UP_MS = 30_000;

export class Resolver<T extends Unresolved> {
  private pending: T[] = [];
  /** Since when discovery has found no server at all (refused, DNS, no answer); reset by any answer. */
  private unreachableSince?: number;
  private lastFailure?: unknown;

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
      const giveUpIn = this.unreachableSince === undefined ? Infinity : this.unreachableSince + UNREACHABLE_GIVE_UP_MS - this.timers.now();
      const delay = discovery.loaded && failures === 0 ? Math.max(discovery.refreshDelayMs(), 250) : backoffMs(failures, 1000);
      await this.timers.sleep(Math.min(delay, Math.max(giveUpIn, 100)));
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
      if (this.waitFor.kind === 'deleted') await this.judgeUnserved();
      this.host.changed();
    }
  }

  /**
   * `wait-for: deleted` and a type still not served after discovery was read again: its targets count as
   * deleted only while a CRD that defines the type is being deleted. No CRD defines it: a mistyped type,
   * an input error naming the closest served type. A CRD that exists but is not served yet: keep waiting.
   */
  private async judgeUnserved(): Promise<void> {
    const still: T[] = [];
    for (const item of this.pending) {
      if (this.timers.isClosed) return;
      const { spec, state } = item;
      let crd: CrdLookup | undefined;
      try {
        crd = await findCrd(this.cluster.client, spec, this.signal);
      } catch (error) {
        if (this.timers.isClosed) return;
        state.update({
          status: 'Unknown',
          message: `cannot list the CRDs defining "${spec.type}": ${describeFailure(error, this.cluster.server)}`,
          done: false,
        });
        still.push(item);
        continue;
      }
      if (crd?.terminating) {
        state.update({ status: 'NotFound', message: `its CRD ${crd.name} is being deleted, so no such object exists`, done: true });
        this.host.warn(`resource type "${spec.type}" is no longer served (its CRD ${crd.name} is being deleted); counting its targets as deleted`);
      } else if (crd) {
        state.update({ status: 'Unknown', message: `its CRD ${crd.name} exists but is not served yet; waiting for it`, done: false });
        still.push(item);
      } else {
        const closest = this.cluster.discovery.suggest(spec.type);
        const hint = closest ? ` Did you mean ${closest}?` : '';
        const written = spec.apiVersion ? `${spec.type} (${spec.apiVersion})` : spec.type;
        const message = `resource type "${written}" is not served by the cluster and no CRD defines it, so it cannot be waited for.${hint}`;
        state.update({ status: 'Unknown', message, done: false, blocked: true });
        // A release's manifest is no file of the workspace: only a manifest file's line gets the annotation.
        const file = spec.source?.kind === 'file' ? { source: { file: spec.source.file, line: spec.source.line } } : {};
        this.host.problem({ input: inputOf(spec), message, ...file });
      }
    }
    this.pending = still;
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
        // Not served: a CRD being deleted, or a mistyped type. Discovery is read once more (a CRD just
        // installed), then the CRDs say which (judgeUnserved).
        state.update({ status: 'Unknown', message: `${resolution.message}; checking whether a CRD being deleted defines it`, done: false });
        still.push(item);
      } else {
        const message = `${resolution.message} (yet); waiting for it to appear, e.g. a CRD being installed`;
        state.update({ status: 'Unknown', message, done: false });
        this.host.warn(`${resolution.message} yet; waiting for it until the deadline`);
        still.push(item);
      }
    }
    this.pending = still;
  }

  /**
   * The problem to end with when the cluster never answered by the deadline (shorter than
   * UNREACHABLE_GIVE_UP_MS): the targets were not judged, so this is `result: error`, not `timeout`.
   */
  neverReached(): InputProblem | undefined {
    if (this.cluster.discovery.loaded || this.unreachableSince === undefined) return undefined;
    return this.connectionProblem(this.lastFailure, ` (no answer for ${Math.round((this.timers.now() - this.unreachableSince) / 1000)}s)`);
  }

  /** Until discovery works, the targets say why their types are unknown. What cannot heal ends the wait. */
  private discoveryFailed(error: unknown): void {
    if (this.timers.isClosed) return;
    this.lastFailure = error;
    if (isFatal(error)) return this.fatal(this.connectionProblem(error));
    if (isUnreachable(error)) {
      this.unreachableSince ??= this.timers.now();
      const waited = this.timers.now() - this.unreachableSince;
      if (waited >= UNREACHABLE_GIVE_UP_MS) return this.fatal(this.connectionProblem(error, ` (no answer for ${Math.round(waited / 1000)}s)`));
    } else {
      this.unreachableSince = undefined;
    }
    const message = `cannot discover the API server's resource types: ${describeFailure(error, this.cluster.server)}`;
    // A 401 ended the wait above (isFatal); a 403 on discovery will not heal before the deadline either:
    // blocked, so the wait ends with an error now.
    const blocked = error instanceof ApiError && error.status === 403;
    for (const { state } of this.pending) state.update({ status: 'Unknown', message, done: false, blocked });
  }

  private fatal(problem: InputProblem): void {
    const message = `not checked: ${problem.message}`;
    for (const { state } of this.pending) state.update({ status: 'Unknown', message, done: false });
    this.host.problem(problem);
    this.host.changed();
  }

  private connectionProblem(error: unknown, suffix = ''): InputProblem {
    return connectionProblem(this.cluster, error, suffix);
  }
}

/** `kubeconfig` (context "ci"): the cause, in one line: what ends the step when the cluster cannot be used. */
export function connectionProblem(cluster: Pick<Cluster, 'contextName' | 'server'>, error: unknown, suffix = ''): InputProblem {
  return {
    input: 'kubeconfig',
    message: `Input "kubeconfig" (context "${cluster.contextName}") cannot be used: ${describeFailure(error, cluster.server)}${suffix}`,
  };
}
