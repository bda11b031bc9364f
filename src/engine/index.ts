/**
 * The readiness engine: resolves target types (resolver.ts), follows each (resource type, namespace)
 * group with one list+watch or poll (follower.ts feeding group.ts), diagnoses pending workloads' pods
 * (diagnoser.ts), and decides the outcome as early as it is known. Never throws for cluster problems:
 * they become target statuses, warnings or `result.error`. Every watch, timer and request is stopped
 * before it returns.
 */
import { builtinKind } from '../targets/builtin-kinds.js';
import { withPodCause } from './pod-cause.js';
import { groupVersion } from '../kube/index.js';
import type { Cluster, ResourceType } from '../kube/index.js';
import type { InputProblem } from '../settings.js';
import { MAX_TARGETS, type TargetSpec } from '../targets/types.js';
import { NamespaceDiagnoser } from './diagnoser.js';
import { Follower } from './follower.js';
import { GroupState, groupKey } from './group.js';
import { SelectorSet, type GiveUp } from './selector-set.js';
import type { GroupContext } from './group.js';
import { Reachability } from './reachability.js';
import { Resolver, connectionProblem, type Unresolved } from './resolver.js';
import { Scheduler } from './scheduler.js';
import { StatusSubresources } from './crds.js';
import { StabilityWindow, type StableWorkload } from './stability.js';
import { formatWindow } from '../time.js';
import { Tracker } from './tracker.js';
import type { Identity, TargetState } from './tracker.js';
import { RESOLVING_MESSAGE, unmatchedSelectorName, type EngineObserver, type Outcome, type TargetReport } from '../result.js';
import type { EngineOptions, EngineResult } from './types.js';

export type * from './types.js';

const HEARTBEAT_MS = 30_000;
/**
 * When the verdict is known early (fail-fast, a cancel, an input problem), how long the groups whose first
 * LIST has not answered yet may still answer it: every target is then reported as it stands on the server
 * (a ready StatefulSet as Current, a failed Job in `failed`), not as "waiting for the first list". A
 * healthy server answers in milliseconds; one that does not costs the step at most this, within `timeout`.
 */
export const LAST_LOOK_MS = 3_000;
/** What every target says until its type is known: one update for all of them. */
const RESOLVING = { status: 'Unknown', message: RESOLVING_MESSAGE, done: false } as const;

export async function waitForTargets(cluster: Cluster, options: EngineOptions): Promise<EngineResult> {
  return new Engine(cluster, options).run();
}

/** One TargetSpec and the reports it currently stands for (a selector target has one per member). Data,
 *  not a closure per target: thousands of named targets each hold one state. */
interface Entry {
  spec: TargetSpec;
  /** The one state of a named target (of a selector target, until its type is known); absent when it is
   *  reported by another entry (the same object named twice). */
  state?: TargetState;
  /** A selector target, once its type is known: its members' states (and its set's placeholder). */
  members?: () => TargetState[];
}

function statesOf(entry: Entry): TargetState[] {
  if (entry.members) return entry.members();
  return entry.state ? [entry.state] : [];
}

/** An entry waiting for its type, with the state that reports it meanwhile. */
interface Pending extends Unresolved {
  entry: Entry;
}

interface Group {
  state: GroupState;
  follower: Follower;
}

class Engine {
  private readonly observer: EngineObserver;
  private readonly tracker: Tracker;
  private readonly entries: Entry[] = [];
  private readonly groups = new Map<string, Group>();
  private readonly sets = new Map<string, { set: SelectorSet; lead: Entry }>();
  private readonly diagnosers = new Map<string, NamespaceDiagnoser>();
  private readonly warnings: string[] = [];
  private error?: InputProblem;
  private readonly timers: Scheduler;
  private readonly resolver: Resolver<Pending>;
  private readonly reachability: Reachability;
  private readonly stop = new AbortController();
  private running = false;
  private finished = false;
  private outcome: Outcome = 'timeout';
  private cancelled = false;
  /** The verdict known before every group was listed: the wait ends once they are (or LAST_LOOK_MS has passed). */
  private ending?: { outcome: () => Outcome; cancelled: boolean; why: string };
  private finishWait!: () => void;
  private readonly groupContext: GroupContext;
  /** A tiny interval would turn polling into a busy loop against the server. */
  private readonly pollIntervalMs: number;
  /** `stable-for` (not for `deleted` waits). */
  private readonly stability?: StabilityWindow;
  private unstable?: string;
  /** Epoch ms (by the scheduler's clock) when the wait times out; set when the clocks start. */
  private deadlineAt = Number.POSITIVE_INFINITY;

  constructor(
    private readonly cluster: Cluster,
    private readonly options: EngineOptions,
  ) {
    this.observer = safeObserver(options.observer);
    this.pollIntervalMs = Math.max(options.pollIntervalMs, 50);
    this.timers = new Scheduler(options.time);
    this.tracker = new Tracker(this.observer, this.timers.now);
    this.reachability = new Reachability(cluster, this.timers, this.stop.signal);
    this.resolver = new Resolver<Pending>(cluster, options, this.timers, this.stop.signal, {
      attach: (item, type) => this.attach(item, type),
      warn: (message) => this.warn(message),
      problem: (problem) => (this.error ??= problem),
      changed: () => this.check(),
    });
    this.groupContext = {
      tracker: this.tracker,
      waitFor: options.waitFor,
      jobCompletion: options.jobCompletion,
      now: () => new Date(this.timers.now()),
      schedule: (atMs, run) =>
        this.timers.at(atMs, () => {
          run();
          this.check();
        }),
      workloadPending: (namespace) => {
        if (options.waitFor.kind !== 'deleted') this.diagnoserFor(namespace).poke();
      },
      healthRules: options.healthRules,
      statusGraceMs: options.statusGraceMs ?? 0,
      failureGraceMs: options.failureGraceMs ?? 0, // failure-grace (issue 31): judged in src/status/failure-grace.ts
      paused: options.paused ?? 'wait',
      ...(options.revision ? { revision: options.revision } : {}),
      statusSubresource: (() => {
        const crds = new StatusSubresources(cluster, this.stop.signal, (message) => this.warn(message));
        return (type, known) => crds.of(type, known);
      })(),
      watchPodsWhenDone: (options.stableForMs ?? 0) > 0 && options.waitFor.kind !== 'deleted',
      warn: (message) => this.warn(message),
    };
    if (this.groupContext.watchPodsWhenDone) {
      this.stability = new StabilityWindow({
        cluster,
        timers: this.timers,
        windowMs: options.stableForMs ?? 0,
        pollIntervalMs: this.pollIntervalMs,
        signal: this.stop.signal,
        workloads: () => this.stableWorkloads(),
        warn: (message) => this.warn(message),
        changed: () => this.check(),
      });
    }
  }

  async run(): Promise<EngineResult> {
    const finishedWaiting = new Promise<void>((resolve) => (this.finishWait = resolve));
    for (const spec of this.options.targets) {
      const state = this.tracker.add(this.identityOf(spec), RESOLVING);
      const entry: Entry = { spec, state };
      this.entries.push(entry);
      this.resolver.add({ entry, spec, state });
    }
    this.startClocks();

    await this.resolver.resolveFirst();
    if (!this.finished) {
      this.observer.resolved?.(this.reports(), this.options.waitFor);
      this.tracker.announcing = true;
      for (const message of this.warnings) this.observer.warning?.(message); // held back until now
      this.running = true;
      for (const group of this.groups.values()) group.follower.start();
      void this.resolver.keepResolving();
      this.check();
    }
    await finishedWaiting;
    this.shutdown();
    return {
      outcome: this.outcome,
      cancelled: this.cancelled,
      durationSeconds: this.tracker.elapsedSeconds(),
      targets: this.reports().map(withPodCause),
      warnings: [...this.warnings],
      ...(this.error ? { error: this.error } : {}),
      ...(this.unstable ? { unstable: this.unstable } : {}),
    };
  }

  // ---- resolution ------------------------------------------------------------------------------------

  private attach({ entry, state }: Pending, type: ResourceType): void {
    const { spec } = entry;
    const namespace = type.namespaced ? spec.namespace || this.options.defaultNamespace : '';
    const group = this.groupFor(type, namespace);
    // The group's strings, one copy for all its targets.
    state.identify({ apiVersion: group.state.apiVersion, kind: type.kind, namespace: group.state.namespace });
    if (spec.name) {
      if (!group.state.addNamed(spec.name, state)) {
        // The same object named twice is one target, reported once.
        this.tracker.retire(state);
        entry.state = undefined;
      }
    } else {
      // The spec's own state stood for it while its type was unknown; from now on its set reports.
      this.tracker.retire(state);
      const { set, lead } = this.selectorSet(entry, type, namespace);
      const members = group.state.addSelector(spec.ownerless === true, set);
      entry.state = undefined;
      entry.members = lead === entry ? () => [...(set.empty ? [set.placeholder] : []), ...members()] : members;
    }
    if (this.running) group.follower.targetsChanged();
  }

  /** The set of selector targets sharing this spec's selector and namespace; created by its first part. */
  private selectorSet(entry: Entry, type: ResourceType, namespace: string): { set: SelectorSet; lead: Entry } {
    const text = entry.spec.selector ?? '';
    const key = JSON.stringify([entry.spec.namespace || this.options.defaultNamespace, text]);
    let found = this.sets.get(key);
    if (!found) {
      const placeholder = this.tracker.add(
        { apiVersion: groupVersion(type.group, type.version), kind: type.kind, namespace, name: unmatchedSelectorName(text), selector: text },
        { status: 'Unknown', message: '', done: false },
      );
      found = { set: new SelectorSet(placeholder, this.tracker, text, namespace, this.options.waitFor, this.selectorGiveUp()), lead: entry };
      this.sets.set(key, found);
    }
    return found;
  }

  /** A selector set that matches nothing gives up `status-grace` after its first LIST; without the setting
   *  (the engine on its own), it waits until the deadline. */
  private selectorGiveUp(): GiveUp | undefined {
    const { statusGraceMs } = this.options;
    if (statusGraceMs === undefined) return undefined;
    const after = (ms: number, run: () => void) => {
      this.timers.after(ms, () => {
        run();
        this.check();
      });
    };
    return { graceMs: statusGraceMs, after, problem: (problem) => (this.error ??= problem) };
  }

  private groupFor(type: ResourceType, namespace: string): Group {
    const key = groupKey(type, namespace);
    const existing = this.groups.get(key);
    if (existing) return existing;
    const state = new GroupState(type, namespace, this.groupContext);
    const follower = new Follower({
      cluster: this.cluster,
      group: state,
      mode: this.options.mode,
      pollIntervalMs: this.pollIntervalMs,
      time: this.timers.time,
      warn: (message) => this.warn(message),
      changed: () => this.check(),
      fatal: (error) => {
        this.error ??= connectionProblem(this.cluster, error);
        this.check();
      },
      problem: (problem) => {
        this.error ??= problem;
        this.check();
      },
      answering: () => this.reachability.answering(),
      timeLeft: () => this.deadlineAt - this.timers.now(),
    });
    const group = { state, follower };
    this.groups.set(key, group);
    if (this.running) follower.start();
    return group;
  }

  private diagnoserFor(namespace: string): NamespaceDiagnoser {
    let diagnoser = this.diagnosers.get(namespace);
    if (!diagnoser) {
      diagnoser = new NamespaceDiagnoser({
        cluster: this.cluster,
        namespace,
        intervalMs: this.pollIntervalMs,
        minPendingMs: 2 * this.pollIntervalMs,
        imagePullGraceMs: this.options.imagePullGraceMs,
        time: this.timers.time,
        subjects: () => [...this.groups.values()].filter((g) => g.state.namespace === namespace).flatMap((g) => g.state.pendingWorkloads()),
        warn: (message) => this.warn(message),
        changed: () => this.check(),
      });
      this.diagnosers.set(namespace, diagnoser);
    }
    return diagnoser;
  }

  // ---- outcome ---------------------------------------------------------------------------------------

  private tooManyMatches(): InputProblem {
    const selectors = [...new Set([...this.sets.values()].map(({ set }) => set.text))].map((text) => (text ? `"${text}"` : 'every object of a type'));
    return {
      input: 'selector',
      message:
        `Input "selector" (${selectors.join(', ') || 'a selector'}) matches ${this.tracker.size} objects; kubewait waits for at most ${MAX_TARGETS} ` +
        `targets in one step. Narrow it, like selector: app=web,tier=frontend, or split the wait over several steps.`,
    };
  }

  /** Decides as soon as the outcome is known. Cheap: called after every event. */
  private check(): void {
    if (this.finished) return;
    const { tracker } = this;
    // The inputs name at most MAX_TARGETS (src/targets/); a selector's matches count too: no more LISTs then,
    // not even the last look's.
    if (tracker.size > MAX_TARGETS) {
      this.error ??= this.tooManyMatches();
      return this.finish('failed');
    }
    // A cluster that cannot be used lists nothing either.
    if (this.error?.input === 'kubeconfig') return this.finish('failed');
    if (this.ending) return this.endOnceListed();
    // Any other bad input (an ambiguous type) fails at once, after the last look at the other targets.
    if (this.error) return this.endEarly(() => 'failed', false, `Input "${this.error.input}" is wrong`);
    if (this.options.failFast && tracker.failed > 0) return this.endEarly(() => 'failed', false, `fail-fast: ${this.firstFailed()} failed`);
    if (tracker.pending === 0) {
      if (!this.resolver.done || ![...this.groups.values()].every((g) => g.state.settled)) return;
      if (this.stability && this.needsWindow() && !this.stability.allReady()) return;
      this.finish('ready');
      return;
    }
    if (this.stability?.running) {
      const left = this.reports().filter((r) => !r.done);
      const names = left.slice(0, 3).map((r) => `${r.kind}/${r.name || r.selector || ''}`);
      this.stability.flap(`${names.join(', ')}${left.length > 3 ? ` and ${left.length - 3} more` : ''} left the desired status`);
    }
    if (tracker.blocked === tracker.pending) {
      this.error ??= { input: 'kubeconfig', message: this.blockedMessage() };
      this.finish('failed');
    }
  }

  private blockedMessage(): string {
    for (const entry of this.entries) for (const state of statesOf(entry)) if (state.blocking()) return state.report.message;
    return 'the wait cannot progress';
  }

  /** The first failed target, as the log names it: `Deployment/web`. */
  private firstFailed(): string {
    for (const entry of this.entries) for (const state of statesOf(entry)) if (state.failed()) return `${state.report.kind}/${state.report.name}`;
    return 'a target';
  }

  /** The verdict is known before the deadline: take the last look (LAST_LOOK_MS), then finish. */
  private endEarly(outcome: () => Outcome, cancelled: boolean, why: string): void {
    if (this.ending || this.finished) return;
    this.ending = { outcome, cancelled, why };
    this.timers.after(Math.min(LAST_LOOK_MS, this.deadlineAt - this.timers.now()), () => this.endNow());
    this.endOnceListed();
  }

  private endOnceListed(): void {
    // Before the followers start (a cancel during discovery) nothing has been listed yet.
    if (this.running && [...this.groups.values()].every((g) => g.state.listed)) this.endNow();
  }

  /** Ends the early-decided wait now: a group still not listed says why its targets were not checked. */
  private endNow(): void {
    if (!this.ending || this.finished) return;
    for (const group of this.groups.values()) group.state.stoppedBeforeList(this.ending.why);
    this.finish(this.ending.outcome(), this.ending.cancelled);
  }

  private finish(outcome: Outcome, cancelled = false): void {
    if (this.finished) return;
    this.resolver.sayUnserved();
    this.finished = true;
    this.outcome = outcome;
    this.cancelled = cancelled;
    this.stop.abort();
    this.timers.close();
    this.finishWait();
  }

  private startClocks(): void {
    this.deadlineAt = this.timers.now() + this.options.timeoutMs;
    this.timers.after(this.options.timeoutMs, () => {
      if (this.ending) return this.endNow();
      for (const group of this.groups.values()) group.state.deadlinePassed();
      if (this.stability?.running && this.tracker.pending === 0) {
        this.unstable = `did not stay ready for ${formatWindow(this.options.stableForMs ?? 0)} (stable-for) before the timeout`;
        this.warn(`every target reached the desired status, but ${this.unstable}`);
      }
      // A cluster that never answered: nothing was judged, so `error` and one annotation, not `timeout`.
      const unreached = this.resolver.neverReached();
      if (unreached) this.error ??= unreached;
      this.finish(unreached || this.tracker.failed > 0 ? 'failed' : 'timeout');
    });
    this.timers.every(this.options.heartbeatMs ?? HEARTBEAT_MS, () => {
      const pending = this.reports().filter((r) => !r.done);
      this.observer.heartbeat?.(pending, this.tracker.elapsedSeconds());
    });
    const { signal } = this.options;
    const onAbort = () => {
      // The outcome as it stands when the last look is over.
      const outcome = (): Outcome => (this.tracker.pending === 0 ? 'ready' : this.tracker.failed > 0 ? 'failed' : 'timeout');
      // A stop with a reason in words (the fleet's: another cluster decided) says it; else the job was cancelled.
      this.endEarly(outcome, true, typeof signal?.reason === 'string' ? signal.reason : 'cancelled');
    };
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
    this.stop.signal.addEventListener('abort', () => signal?.removeEventListener('abort', onAbort), { once: true });
  }

  private shutdown(): void {
    for (const group of this.groups.values()) group.follower.stop();
    for (const diagnoser of this.diagnosers.values()) diagnoser.stop();
    this.timers.close();
  }

  // ---- helpers ---------------------------------------------------------------------------------------

  /** Jobs are exempt from `stable-for`: a run of Jobs alone ends when they are done. */
  private needsWindow(): boolean {
    return this.reports().some((r) => r.kind !== 'Job');
  }

  private stableWorkloads(): Map<string, StableWorkload[]> {
    const byNamespace = new Map<string, StableWorkload[]>();
    for (const group of this.groups.values()) {
      const workloads = group.state.stableWorkloads();
      if (workloads.length === 0) continue;
      byNamespace.set(group.state.namespace, [...(byNamespace.get(group.state.namespace) ?? []), ...workloads]);
    }
    return byNamespace;
  }

  private reports(): TargetReport[] {
    const reports: TargetReport[] = [];
    for (const entry of this.entries) {
      if (entry.members) for (const state of entry.members()) reports.push(state.report);
      else if (entry.state) reports.push(entry.state.report);
    }
    return reports;
  }

  /** How a target is named until discovery resolves its type (and for good, if it never does): a built-in
   *  kind by its Kind and scope; another type as written, with the namespace only when one was given, since
   *  its scope is not known (a cluster-scoped type must not show the default namespace). */
  private identityOf(spec: TargetSpec): Identity {
    const builtin = builtinKind(spec.type);
    const namespaced = builtin ? builtin.namespaced : spec.namespace !== undefined && spec.namespace !== '';
    return {
      apiVersion: spec.apiVersion ?? '',
      kind: builtin?.kind ?? spec.type,
      namespace: namespaced ? spec.namespace || this.options.defaultNamespace : '',
      name: spec.name ?? '',
      ...(spec.name ? {} : { selector: spec.selector ?? '' }),
      ...(spec.source ? { source: spec.source } : {}),
    };
  }

  private warn(message: string): void {
    if (this.warnings.includes(message)) return;
    this.warnings.push(message);
    if (this.tracker.announcing) this.observer.warning?.(message);
  }
}

/** An observer that throws must not break the wait. */
function safeObserver(observer: EngineObserver | undefined): EngineObserver {
  const guard = (call: (o: EngineObserver) => void): void => {
    try {
      if (observer) call(observer);
    } catch {
      // The report layer's problem; the wait goes on.
    }
  };
  return {
    resolved: (targets, waitFor) => guard((o) => o.resolved?.(targets, waitFor)),
    transition: (target, previous) => guard((o) => o.transition?.(target, previous)),
    warning: (message) => guard((o) => o.warning?.(message)),
    heartbeat: (pending, elapsed) => guard((o) => o.heartbeat?.(pending, elapsed)),
  };
}
