/**
 * Turns the types users wrote (`deploy`, `certificates.cert-manager.io`, a manifest's kind) into served
 * resource types through discovery, and keeps trying for the ones not served yet (a CRD being installed).
 * What it cannot resolve, it says on the target: why, and whether waiting can help.
 *
 * How long a type that is not served is waited for, as kubectl would have refused it at once:
 * - a near-miss of a served type (`deploymnet`) that no CRD defines: not at all, an input error with the
 *   served type it is close to;
 * - a type whose CRD exists but is not served yet, or is defined by a CRD among the targets (the same
 *   deploy installs it): until the deadline;
 * - any other: `status-grace`, for a CRD to appear; then, unless one did, an input error.
 */
import { ApiError, describeFailure, findCrd, isFatal, isUnreachable, type CrdLookup } from '../kube/index.js';
import { definesType, type DefinedType } from '../kube/crd-names.js';
import type { Cluster, ResourceType } from '../kube/index.js';
import type { InputProblem, WaitFor } from '../settings.js';
import { inputOf, type TargetSpec } from '../targets/types.js';
import { backoffMs } from './backoff.js';
import { formatWindow } from '../time.js';
import type { Scheduler } from './scheduler.js';
import type { TargetState } from './tracker.js';

/** A target whose type is not known yet, the state that reports it meanwhile, and its goal. */
export interface Unresolved {
  spec: TargetSpec;
  state: TargetState;
  goal: WaitFor;
}

/** A target waiting for its object's deletion: a type no longer served may mean its CRD is being deleted. */
function deleting(item: Unresolved): boolean {
  return item.goal.kind === 'deleted';
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
  /** Types that CRDs among the targets define (`TargetSpec.defines`). */
  private readonly definedByTargets: DefinedType[] = [];
  /** Targets whose type a CRD in the cluster defines: it is being installed, so they wait until the deadline. */
  private readonly installing = new Set<T>();
  /** When the first discovery answered: `status-grace` for a type to be served counts from there. */
  private firstDiscoveryAt?: number;
  /** Since when discovery has found no server at all (refused, DNS, no answer); reset by any answer. */
  private unreachableSince?: number;
  private lastFailure?: unknown;
  /** `keepResolving` is running. */
  private looping = false;
  /** `status-grace`: how long a type that is not served, and that no known CRD defines, is waited for.
   *  Undefined: until the deadline. */
  private readonly graceMs?: number;

  constructor(
    private readonly cluster: Cluster,
    settings: { statusGraceMs?: number },
    private readonly timers: Scheduler,
    private readonly signal: AbortSignal,
    private readonly host: ResolverHost<T>,
  ) {
    this.graceMs = settings.statusGraceMs;
  }

  add(item: T): void {
    this.pending.push(item);
    if (item.spec.defines) this.definedByTargets.push(item.spec.defines);
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
    await this.judgeUnserved(true);
  }

  /** Targets added during the wait: resolved at once when discovery has been read (the engine then calls
   *  `keepResolving` again for those it could not). */
  resolveAdded(): void {
    this.resolvePending();
  }

  /** Re-reads discovery while types are missing, as often as discovery allows, until the wait ends. Calling
   *  it while it runs does nothing. */
  async keepResolving(): Promise<void> {
    if (this.looping) return;
    this.looping = true;
    try {
      await this.resolveWhileMissing();
    } finally {
      this.looping = false;
    }
  }

  private async resolveWhileMissing(): Promise<void> {
    let failures = 0;
    while (!this.timers.isClosed && this.pending.length > 0) {
      const { discovery } = this.cluster;
      const giveUpIn = this.givingUp ? this.unreachableSince! + UNREACHABLE_GIVE_UP_MS - this.timers.now() : Infinity;
      const delay = discovery.loaded && failures === 0 ? Math.min(Math.max(discovery.refreshDelayMs(), 250), this.graceLeftMs()) : backoffMs(failures, 1000);
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
      await this.judgeUnserved(false);
      this.host.changed();
    }
  }

  /**
   * Types still not served, once it is time to judge them (`judgeNow`), by the CRDs that define them.
   * `wait-for: deleted`: a type whose CRD is being deleted counts as deleted; one whose CRD exists but is not
   * served yet is waited for. Otherwise a CRD that exists is being installed: wait for it until the deadline.
   * No CRD defines it: a mistyped type, an input error naming the closest served type.
   */
  private async judgeUnserved(first: boolean): Promise<void> {
    const still: T[] = [];
    // One LIST of the CRDs per type and round: a mistyped kind may be written by thousands of manifest objects.
    const lookups = new Map<string, Promise<CrdLookup | undefined>>();
    for (const item of this.pending) {
      if (this.timers.isClosed) return;
      const { spec, state } = item;
      if (!this.judgeNow(item, first)) {
        still.push(item);
        continue;
      }
      const nearMiss = this.nearMiss(item);
      let crd: CrdLookup | undefined;
      const key = `${spec.apiVersion ?? ''} ${spec.type}`;
      try {
        if (!lookups.has(key)) lookups.set(key, findCrd(this.cluster.client, spec, this.signal));
        crd = await lookups.get(key);
      } catch (error) {
        if (this.timers.isClosed) return;
        const cannot = `cannot list the CRDs defining "${spec.type}": ${describeFailure(error, this.cluster.server)}`;
        if (deleting(item)) {
          state.update({ status: 'Unknown', message: cannot, done: false });
          still.push(item);
        } else {
          // The CRDs were only to tell a CRD being installed from a mistyped type: the type is not served
          // either way, and waiting longer was not asked for.
          this.unserved(item, nearMiss, `(${cannot})`);
        }
        continue;
      }
      if (crd?.terminating && deleting(item)) {
        state.update({ status: 'NotFound', message: `its CRD ${crd.name} is being deleted, so no such object exists`, done: true });
        this.host.warn(`resource type "${spec.type}" is no longer served (its CRD ${crd.name} is being deleted); counting its targets as deleted`);
      } else if (crd && !crd.terminating) {
        state.update({ status: 'Unknown', message: `its CRD ${crd.name} exists but is not served yet; waiting for it`, done: false });
        this.installing.add(item);
        still.push(item);
      } else {
        this.unserved(item, nearMiss, crd ? `and its CRD ${crd.name} is being deleted` : 'and no CRD defines it');
      }
    }
    this.pending = still;
  }

  /** Whether a type not served is judged by its CRDs now: `wait-for: deleted` once discovery was read again
   *  (a CRD just installed); otherwise as `patience` says, the grace once discovery was read again after it. */
  private judgeNow(item: T, first: boolean): boolean {
    if (deleting(item)) return !first;
    switch (this.patience(item)) {
      case 'none':
        return true;
      case 'deadline':
        return false;
      case 'grace':
        return !first && this.timers.now() >= (this.firstDiscoveryAt ?? this.timers.now()) + (this.graceMs ?? 0);
    }
  }

  /** How long a type not served is waited for (not for `wait-for: deleted`): until the deadline when a CRD
   *  is on its way (in the cluster, or among the targets) or no `status-grace` bounds it; not at all for a
   *  near-miss of a served type; else `status-grace`. */
  private patience(item: T): 'none' | 'grace' | 'deadline' {
    if (this.installing.has(item) || this.definedByTargets.some((defined) => definesType(defined, item.spec))) return 'deadline';
    if (this.nearMiss(item)) return 'none';
    return this.graceMs === undefined ? 'deadline' : 'grace';
  }

  /** The served type a type not served is a typo of (`deploymnet` -> `deployments.apps (deployment, deploy)`);
   *  for `wait-for: deleted`, none: a type no longer served is judged by its CRD first. */
  private nearMiss(item: T): string | undefined {
    return deleting(item) ? undefined : this.cluster.discovery.nearMiss(item.spec);
  }

  /** A type not served, and no CRD on its way (`why`): an input error on the input that named it, with the
   *  closest served type. Only a type that is no near-miss was waited for (`status-grace`). */
  private unserved(item: T, nearMiss: string | undefined, why: string): void {
    const { spec, state } = item;
    const written = spec.apiVersion ? `${spec.type} (${spec.apiVersion})` : spec.type;
    const deleted = deleting(item);
    const suggestion = nearMiss ?? this.cluster.discovery.suggest(spec.type);
    const waited = deleted || nearMiss ? '' : ` within ${formatWindow(this.graceMs ?? 0)} (status-grace)`;
    const hint = suggestion ? ` Did you mean ${suggestion}?` : deleted ? '' : ' Install its CRD before the wait, or give it longer with status-grace.';
    const message = `resource type "${written}" is not served by the cluster${waited} ${why}, so it cannot be waited for.${hint}`;
    state.update({ status: 'Unknown', message, done: false, blocked: true });
    // A release's manifest is no file of the workspace: only a manifest file's line gets the annotation.
    const file = spec.source?.kind === 'file' ? { source: { file: spec.source.file, line: spec.source.line } } : {};
    this.host.problem({ input: inputOf(spec), message, ...file });
  }

  /** Until `status-grace` ends for the types waiting for it (Infinity: none does), so they are judged then
   *  and not at the next re-discovery after it. */
  private graceLeftMs(): number {
    if (this.firstDiscoveryAt === undefined || !this.pending.some((item) => !deleting(item) && this.patience(item) === 'grace')) return Infinity;
    return Math.max(0, this.firstDiscoveryAt + (this.graceMs ?? 0) - this.timers.now());
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
    this.firstDiscoveryAt ??= this.timers.now();
    const still: T[] = [];
    for (const item of this.pending) {
      const { spec, state } = item;
      const resolution = this.cluster.discovery.resolve({ type: spec.type, apiVersion: spec.apiVersion });
      if (resolution.ok) {
        this.installing.delete(item);
        this.host.attach(item, resolution.type);
      } else if (resolution.ambiguous) {
        state.update({ status: 'Unknown', message: resolution.message, done: false, blocked: true });
        this.host.problem({ input: inputOf(spec), message: resolution.message });
      } else if (deleting(item)) {
        // Not served: a CRD being deleted, or a mistyped type. Discovery is read once more (a CRD just
        // installed), then the CRDs say which (judgeUnserved).
        state.update({ status: 'Unknown', message: `${resolution.message}; checking whether a CRD being deleted defines it`, done: false });
        still.push(item);
      } else {
        const patience = this.patience(item);
        if (patience === 'none') {
          // A typo, unless a CRD of that name is being installed: judgeUnserved asks the CRDs at once.
          state.update({ status: 'Unknown', message: `${resolution.message}; checking whether a CRD defines it`, done: false });
        } else if (!this.installing.has(item)) {
          const until = patience === 'deadline' ? 'until the deadline' : `for up to ${formatWindow(this.graceMs ?? 0)} (status-grace)`;
          state.update({ status: 'Unknown', message: `${resolution.message} (yet); waiting for it to appear, e.g. a CRD being installed`, done: false });
          this.host.warn(`${resolution.message} yet; waiting for it ${until}`);
        }
        still.push(item);
      }
    }
    this.pending = still;
  }

  /**
   * The problem to end with when the cluster never answered by the deadline (shorter than
   * UNREACHABLE_GIVE_UP_MS): the targets were not judged, so this is `result: error`, not `timeout`. A server that
   * answered earlier in the run is an outage: `timeout`, as one after discovery.
   */
  neverReached(): InputProblem | undefined {
    if (this.cluster.discovery.loaded || this.unreachableSince === undefined || !this.givingUp) return undefined;
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
      if (this.givingUp && waited >= UNREACHABLE_GIVE_UP_MS) return this.fatal(this.connectionProblem(error, ` (no answer for ${Math.round(waited / 1000)}s)`));
    } else {
      this.unreachableSince = undefined;
    }
    // A server that answered earlier in this run and then went away is an outage, retried until the deadline
    // like one after discovery: the kubeconfig is not to blame.
    const outage =
      this.unreachableSince !== undefined && this.cluster.client.hasAnswered ? ' (it answered earlier in this run; retrying until the deadline)' : '';
    const message = `cannot discover the API server's resource types: ${describeFailure(error, this.cluster.server)}${outage}`;
    // A 401 ended the wait above (isFatal); a 403 on discovery will not heal before the deadline either:
    // blocked, so the wait ends with an error now.
    const blocked = error instanceof ApiError && error.status === 403;
    for (const { state } of this.pending) state.update({ status: 'Unknown', message, done: false, blocked });
  }

  /** No answer at all so far, and this server never answered in this run: likely a wrong address, given up on
   *  after UNREACHABLE_GIVE_UP_MS. */
  private get givingUp(): boolean {
    return this.unreachableSince !== undefined && !this.cluster.client.hasAnswered;
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
