/**
 * The readiness engine: resolves target types (resolver.ts), follows each (resource type, namespace, goal)
 * group with one list+watch or poll (follower.ts feeding group.ts), diagnoses pending workloads' pods
 * (diagnoser.ts), and decides the outcome as early as it is known. Never throws for cluster problems:
 * they become target statuses, warnings or `result.error`. Every watch, timer and request is stopped
 * before it returns.
 *
 * Targets arrive two ways: the inputs' at the start, and a feed's during the wait (`TargetFeed`, types.ts:
 * a Helm release's objects once helm has settled, the inventory of a GitOps parent once its controller has
 * applied the revision). Each target carries its own goal (`TargetOrigin.goal`) and, for an inventory's, its
 * parent; the wait is not ready while a feed still runs, and a feed's own failure ends it as failed.
 */
import { writtenIdentity } from '../targets/builtin-kinds.js';
import { withPodCause } from './pod-cause.js';
import { groupVersion, isFatal } from '../kube/index.js';
import type { Cluster, ResourceType } from '../kube/index.js';
import type { InputProblem, WaitFor } from '../settings.js';
import { MAX_TARGETS, type TargetSpec } from '../targets/types.js';
import { NamespaceDiagnoser } from './diagnoser.js';
import { Follower } from './follower.js';
import { GroupState, groupKey } from './group.js';
import { SelectorSet, type GiveUp } from './selector-set.js';
import type { GroupContext } from './group.js';
import { Reachability } from './reachability.js';
import { Resolver, connectionProblem, type Unresolved } from './resolver.js';
import type { Status } from '../status/types.js';
import { Scheduler } from './scheduler.js';
import { StatusSubresources } from './crds.js';
import { StabilityWindow, type StableWorkload } from './stability.js';
import { Deadline, formatWindow } from '../time.js';
import { Tracker } from './tracker.js';
import type { Identity, TargetState } from './tracker.js';
import { notJudgedReport, RESOLVING_MESSAGE, unmatchedSelectorName, type EngineObserver, type Outcome, type TargetReport } from '../result.js';
import type { EngineOptions, EngineResult, TargetOrigin } from './types.js';
import { Feeds } from './feeds.js';

export type * from './types.js';

const HEARTBEAT_MS = 30_000;
/**
 * When the verdict is known early (fail-fast, a cancel, an input problem), how long the groups whose first
 * LIST has not answered yet may still answer it: every target is then reported as it stands on the server
 * (a ready StatefulSet as Current, a failed Job in `failed`), not as "waiting for the first list". A
 * healthy server answers in milliseconds; one that does not costs the step at most this, within `timeout`.
 */
export const LAST_LOOK_MS = 3_000;
/**
 * How long the targets are still judged once a feed has failed (Helm says the release failed): long enough
 * for a failing image pull to count as unrecoverable (the status library's 15 s grace), so the summary
 * names the object that broke, not only the release.
 */
export const FAILED_JUDGING_MS = 20_000;
/** What every target says until its type is known: one update for all of them. */
const RESOLVING = { status: 'Unknown', message: RESOLVING_MESSAGE, done: false } as const;

export async function waitForTargets(cluster: Cluster, options: EngineOptions): Promise<EngineResult> {
  return new Engine(cluster, options).run();
}

/** One TargetSpec and the reports it currently stands for (a selector target has one per member). Data,
 *  not a closure per target: thousands of named targets each hold one state. */
interface Entry {
  spec: TargetSpec;
  goal: WaitFor;
  /** When it was added (the run's clock): a feed's late target is judged before an early end, within FAILED_JUDGING_MS of this. */
  addedAt: number;
  parent?: TargetOrigin['parent'];
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

/** The same goal, as a key: the run's `wait-for` object and a feed's `{ kind: 'deleted' }` compare by value. */
function goalKey(goal: WaitFor): string {
  return JSON.stringify(goal);
}

/** An early verdict and how the wait ends with it. */
interface Ending {
  outcome: () => Outcome;
  cancelled: boolean;
  /** Why the targets not listed in time were not checked. */
  why: string;
  /** Which targets must have a verdict (done, or Failed) before it ends, not only be listed: every one (a
   *  failed feed), or those a feed added once the verdict was known (a parent Flux calls failed). */
  judge: 'all' | Entry[];
  /** Cancels the bound on the last look. */
  cancelBound: () => void;
}

export class Engine {
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
  private ending?: Ending;
  private finishWait!: () => void;
  /** What every group shares; `contextFor` adds the goal. */
  private readonly sharedContext: Omit<GroupContext, 'waitFor' | 'workloadPending' | 'watchPodsWhenDone'>;
  private readonly contexts = new Map<string, GroupContext>();
  /** How many entries the observer has been told of (`resolved`). */
  private announced = 0;
  private readonly feeds: Feeds;
  /** An error a feed threw that is no cluster problem: thrown again once the wait has stopped. */
  private feedCrash?: { error: unknown };
  private readonly deadline: Deadline;
  /** A tiny interval would turn polling into a busy loop against the server. */
  private readonly pollIntervalMs: number;
  /** `stable-for` (not for `deleted` waits). */
  private readonly stability?: StabilityWindow;
  private unstable?: string;

  constructor(
    private readonly cluster: Cluster,
    private readonly options: EngineOptions,
  ) {
    this.observer = safeObserver(options.observer, (target, previous) => this.feeds.tell(target, previous));
    this.pollIntervalMs = Math.max(options.pollIntervalMs, 50);
    this.timers = new Scheduler(options.time);
    this.deadline = options.deadline ?? new Deadline(this.timers.time, options.timeoutMs);
    // Every `seconds` counts from the run's start, where its deadline was set: at the deadline, `duration` is `timeout`.
    this.tracker = new Tracker(this.observer, this.timers.now, this.deadline.startedAt);
    this.feeds = new Feeds({
      cluster,
      time: this.timers.time,
      deadline: this.deadline,
      signal: this.stop.signal,
      add: (specs, origin) => this.add(specs, origin),
      warn: (message) => this.warn(message),
      problem: (problem) => {
        this.error ??= problem;
        this.check();
      },
      threw: (error) => {
        // A cluster that cannot be used ends the wait as the engine's own requests would; anything else is a
        // bug or the step's one clean error, thrown again once everything has stopped.
        if (isFatal(error)) this.error ??= connectionProblem(this.cluster, error);
        else this.feedCrash ??= { error };
        this.finish('failed');
      },
      changed: () => this.check(),
    });
    this.reachability = new Reachability(cluster, this.timers, this.stop.signal);
    this.resolver = new Resolver<Pending>(cluster, options, this.timers, this.stop.signal, {
      attach: (item, type) => this.attach(item, type),
      warn: (message) => this.warn(message),
      problem: (problem) => (this.error ??= problem),
      changed: () => this.check(),
    });
    this.sharedContext = {
      tracker: this.tracker,
      jobCompletion: options.jobCompletion,
      now: () => new Date(this.timers.now()),
      schedule: (atMs, run) =>
        this.timers.at(atMs, () => {
          run();
          this.check();
        }),
      healthRules: options.healthRules,
      statusGraceMs: options.statusGraceMs ?? 0,
      failureGraceMs: options.failureGraceMs ?? 0, // failure-grace (issue 31): judged in src/status/failure-grace.ts
      paused: options.paused ?? 'wait',
      ...(options.revision ? { revision: options.revision } : {}),
      statusSubresource: (() => {
        const crds = new StatusSubresources(cluster, this.stop.signal, (message) => this.warn(message));
        return (type, known) => crds.of(type, known);
      })(),
      warn: (message) => this.warn(message),
      // hostile (issue 34): a health rule that can never judge an object ends the wait as that rule's error.
      problem: (problem) => (this.error ??= problem),
    };
    if ((options.stableForMs ?? 0) > 0 && options.waitFor.kind !== 'deleted') {
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

  /** The groups' context for targets with `goal`: one per goal. */
  private contextFor(goal: WaitFor): GroupContext {
    const key = goalKey(goal);
    let context = this.contexts.get(key);
    if (!context) {
      const deleting = goal.kind === 'deleted';
      context = {
        ...this.sharedContext,
        waitFor: goal,
        workloadPending: (namespace) => {
          if (!deleting) this.diagnoserFor(namespace).poke();
        },
        watchPodsWhenDone: this.stability !== undefined && !deleting,
      };
      this.contexts.set(key, context);
    }
    return context;
  }

  /**
   * Adds targets, at the start or during the wait: each is resolved and followed like the inputs' own, with
   * its origin's goal and parent. The same object named twice is one target, reported under the first
   * parent that named it. Targets added once the wait is over are not judged.
   */
  add(specs: TargetSpec[], origin: TargetOrigin = {}): void {
    if (this.finished || specs.length === 0) return;
    const goal = origin.goal ?? this.options.waitFor;
    // Their states change while they are resolved and joined to their groups: the observer hears of them
    // first as a batch (`announceNew`), then of their changes.
    const announcing = this.tracker.announcing;
    this.tracker.announcing = false;
    const added: Entry[] = [];
    for (const spec of specs) {
      const state = this.tracker.add(this.identityOf(spec, origin.parent), RESOLVING);
      const entry: Entry = { spec, state, goal, addedAt: this.timers.now(), ...(origin.parent && { parent: origin.parent }) };
      this.entries.push(entry);
      added.push(entry);
      this.resolver.add({ entry, spec, state, goal });
    }
    this.resolver.resolveAdded();
    this.tracker.announcing = announcing;
    this.judgeLate(added);
    if (!this.running) return;
    this.announceNew();
    void this.resolver.keepResolving();
    this.check();
  }

  async run(): Promise<EngineResult> {
    const finishedWaiting = new Promise<void>((resolve) => (this.finishWait = resolve));
    this.add(this.options.targets);
    this.startClocks();
    for (const feed of this.options.feeds ?? []) this.feeds.start(feed);

    await this.resolver.resolveFirst();
    if (!this.finished) {
      this.announceNew();
      this.tracker.announcing = true;
      for (const message of this.warnings) this.observer.warning?.(message); // held back until now
      this.running = true;
      for (const group of this.groups.values()) group.follower.start();
      void this.resolver.keepResolving();
      this.check();
    }
    await finishedWaiting;
    this.shutdown();
    // The feeds see the wait is over (the stop signal) and say what they did not get to judge.
    await this.feeds.settled();
    if (this.feedCrash) throw this.feedCrash.error;
    const judged = this.reports();
    return {
      outcome: this.outcome,
      cancelled: this.cancelled,
      durationSeconds: this.tracker.elapsedSeconds(),
      targets: [...judged.map(withPodCause), ...this.notJudgedReports(judged)],
      warnings: [...this.warnings],
      ...(this.error ? { error: this.error } : {}),
      ...(this.unstable ? { unstable: this.unstable } : {}),
      ...this.ownGoal(),
    };
  }

  /** Tells the observer of the targets added since it last heard: one batch per goal. */
  private announceNew(): void {
    const fresh = this.entries.slice(this.announced);
    this.announced = this.entries.length;
    // Before a feed added anything, an empty wait is no news: the feed's targets are announced when they come.
    if (fresh.length === 0 && (this.options.feeds?.length ?? 0) > 0) return;
    const byGoal = new Map<string, { goal: WaitFor; reports: TargetReport[] }>();
    if (fresh.length === 0) byGoal.set(goalKey(this.options.waitFor), { goal: this.options.waitFor, reports: [] });
    for (const entry of fresh) {
      const key = goalKey(entry.goal);
      let batch = byGoal.get(key);
      if (!batch) byGoal.set(key, (batch = { goal: entry.goal, reports: [] }));
      for (const state of statesOf(entry)) batch.reports.push(state.report);
    }
    for (const { goal, reports } of byGoal.values()) this.observer.resolved?.(reports, goal);
  }

  /** The goal the report names: every target's own when they all share one other than the run's (an
   *  uninstalling release's objects alone are a deletion wait). */
  private ownGoal(): { waitFor?: WaitFor } {
    const [first] = this.entries;
    if (!first || goalKey(first.goal) === goalKey(this.options.waitFor)) return {};
    return this.entries.every((entry) => goalKey(entry.goal) === goalKey(first.goal)) ? { waitFor: first.goal } : {};
  }

  // ---- feeds -----------------------------------------------------------------------------------------

  /** The feeds' targets that were never judged, each once and not when it is a target too. */
  private notJudgedReports(judged: TargetReport[]): TargetReport[] {
    const unjudged = this.feeds.notJudged();
    // Most waits have no feed: no set of every target's key after the decision (1-3 ms at 1,000 targets).
    if (unjudged.length === 0) return [];
    const seen = new Set(judged.map(reportKey));
    const reports: TargetReport[] = [];
    const seconds = this.tracker.elapsedSeconds();
    for (const { specs, message } of unjudged) {
      for (const spec of specs) {
        const report = notJudgedReport(this.resolvedIdentity(spec), message, seconds);
        if (seen.has(reportKey(report))) continue;
        seen.add(reportKey(report));
        reports.push(report);
      }
    }
    return reports;
  }

  /** A target never judged, named as discovery knows its type when it does (a cluster-scoped object then
   *  shows no namespace), else as written. */
  private resolvedIdentity(spec: TargetSpec) {
    const written = writtenIdentity(spec, this.options.defaultNamespace);
    const resolution = this.cluster.discovery.loaded ? this.cluster.discovery.resolve(spec) : undefined;
    if (!resolution?.ok) return written;
    const { type } = resolution;
    return {
      ...written,
      apiVersion: groupVersion(type.group, type.version),
      kind: type.kind,
      namespace: type.namespaced ? spec.namespace || this.options.defaultNamespace : '',
    };
  }

  // ---- resolution ------------------------------------------------------------------------------------

  private attach({ entry, state }: Pending, type: ResourceType): void {
    const { spec } = entry;
    const namespace = type.namespaced ? spec.namespace || this.options.defaultNamespace : '';
    const group = this.groupFor(type, namespace, entry.goal);
    // The group's strings, one copy for all its targets.
    state.identify({ apiVersion: group.state.apiVersion, kind: type.kind, namespace: group.state.namespace });
    if (spec.name) {
      const existing = group.state.addNamed(spec.name, state);
      if (existing) {
        // The same object named twice is one target, reported once (under a parent, if one named it).
        if (entry.parent && !existing.report.parent) existing.report.parent = entry.parent;
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
    const key = JSON.stringify([entry.spec.namespace || this.options.defaultNamespace, text, goalKey(entry.goal)]);
    let found = this.sets.get(key);
    if (!found) {
      const placeholder = this.tracker.add(
        { apiVersion: groupVersion(type.group, type.version), kind: type.kind, namespace, name: unmatchedSelectorName(text), selector: text },
        { status: 'Unknown', message: '', done: false },
      );
      found = { set: new SelectorSet(placeholder, this.tracker, text, namespace, entry.goal, this.selectorGiveUp()), lead: entry };
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

  /** The group of `type` in `namespace` for targets with `goal`: targets waiting for deletion beside others
   *  of the same type and namespace are judged by their own group (one LIST and watch more, only then). */
  private groupFor(type: ResourceType, namespace: string, goal: WaitFor): Group {
    const own = goalKey(goal) === goalKey(this.options.waitFor) ? '' : ` ${goalKey(goal)}`;
    const key = groupKey(type, namespace) + own;
    const existing = this.groups.get(key);
    if (existing) return existing;
    const state = new GroupState(type, namespace, this.contextFor(goal));
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
      timeLeft: () => this.deadline.at - this.timers.now(),
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
        // perf35 (issue 35): the groups hand over only the workloads pending long enough, without walking the rest.
        subjects: (pendingSinceAtMost) =>
          [...this.groups.values()].filter((g) => g.state.namespace === namespace).flatMap((g) => g.state.pendingWorkloads(pendingSinceAtMost)),
        hasPending: () => [...this.groups.values()].some((g) => g.state.namespace === namespace && g.state.hasPendingWorkloads()),
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
    // A feed's own verdict (Helm says the release failed): failed, once every target has one too.
    if (this.feeds.failure) return this.endEarly(() => 'failed', false, this.feeds.failure, { judgeAll: true });
    if (this.options.failFast && tracker.failed > 0) return this.endEarly(() => 'failed', false, `fail-fast: ${this.firstFailed()} failed`);
    if (tracker.pending === 0) {
      if (!this.resolver.done || ![...this.groups.values()].every((g) => g.state.settled)) return;
      if (this.stability && this.needsWindow() && !this.stability.allReady()) return;
      // Every target is there, but a feed may still add some: it looks once more now.
      if (this.feeds.running) return this.feeds.tell();
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

  /** The verdict is known before the deadline: take the last look (LAST_LOOK_MS; a failed feed's targets get
   *  FAILED_JUDGING_MS to reach their verdicts), then finish. */
  private endEarly(outcome: () => Outcome, cancelled: boolean, why: string, { judgeAll = false } = {}): void {
    if (this.ending || this.finished) return;
    // The objects of a parent already failed that came within FAILED_JUDGING_MS: the ones followed longer
    // have had their look.
    const now = this.timers.now();
    const judge = judgeAll ? 'all' : this.underFailedParent(this.entries).filter((entry) => now - entry.addedAt < FAILED_JUDGING_MS);
    let windowMs = judgeAll ? FAILED_JUDGING_MS : LAST_LOOK_MS;
    if (judge !== 'all') for (const entry of judge) windowMs = Math.max(windowMs, entry.addedAt + FAILED_JUDGING_MS - now);
    const boundMs = Math.min(windowMs, this.deadline.remainingMs());
    this.ending = { outcome, cancelled, why, judge, cancelBound: this.timers.after(boundMs, () => this.endNow()) };
    this.endOnceListed();
  }

  /**
   * The objects of a parent Flux or Argo CD already calls failed are judged before an early end, also those a
   * feed adds during the last look, within FAILED_JUDGING_MS: so the report names which one broke.
   */
  private judgeLate(added: Entry[]): void {
    const { ending } = this;
    if (!ending || ending.judge === 'all') return;
    const entries = this.underFailedParent(added);
    if (entries.length === 0) return;
    if (ending.judge.length === 0) {
      ending.cancelBound();
      ending.cancelBound = this.timers.after(Math.min(FAILED_JUDGING_MS, this.deadline.remainingMs()), () => this.endNow());
    }
    ending.judge.push(...entries);
  }

  /** Ends the early-decided wait once what it waits for is in: every group listed, no feed mid-read, and the
   *  targets it must judge judged. */
  private endOnceListed(): void {
    // Before the followers start (a cancel during discovery) nothing has been listed yet.
    if (!this.running || this.feeds.busy || ![...this.groups.values()].every((g) => g.state.listed)) return;
    if (!this.judged(this.ending?.judge ?? [])) return;
    this.endNow();
  }

  /** The entries among `entries` whose parent has Failed (one pass over the reports, however many entries). */
  private underFailedParent(entries: Entry[]): Entry[] {
    if (!entries.some((entry) => entry.parent)) return [];
    const failed = new Set(
      this.reports()
        .filter((r) => r.status === 'Failed')
        .map(reportKey),
    );
    return entries.filter((entry) => entry.parent && failed.has(reportKey(entry.parent)));
  }

  private judged(which: 'all' | Entry[]): boolean {
    if (which === 'all') return this.resolver.done && this.tracker.pending === this.tracker.failed;
    return which.every((entry) => statesOf(entry).every((state) => state.report.done || state.failed()));
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
    this.observer.decided?.();
    this.stop.abort();
    this.timers.close();
    this.finishWait();
  }

  private startClocks(): void {
    this.timers.after(this.deadline.remainingMs(), () => {
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
      const outcome = (): Outcome => (this.tracker.pending === 0 && !this.feeds.running ? 'ready' : this.tracker.failed > 0 ? 'failed' : 'timeout');
      // Stopped mid-way through a last look (a failed feed's judging): no longer.
      if (this.ending) {
        this.ending.cancelled = true;
        return this.endNow();
      }
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

  /** How a target is named until discovery resolves its type (targets/builtin-kinds.ts), under its parent. */
  private identityOf(spec: TargetSpec, parent?: TargetOrigin['parent']): Identity {
    return { ...writtenIdentity(spec, this.options.defaultNamespace), ...(parent && { parent }) };
  }

  private warn(message: string): void {
    if (this.warnings.includes(message)) return;
    this.warnings.push(message);
    if (this.tracker.announcing) this.observer.warning?.(message);
  }
}

function reportKey(report: Pick<TargetReport, 'kind' | 'namespace' | 'name'>): string {
  return JSON.stringify([report.kind, report.namespace, report.name]);
}

/** An observer that throws must not break the wait; the feeds hear every transition too. */
function safeObserver(observer: EngineObserver | undefined, tellFeeds: (target: TargetReport, previous?: Status) => void): EngineObserver {
  const guard = (call: (o: EngineObserver) => void): void => {
    try {
      if (observer) call(observer);
    } catch {
      // The report layer's problem; the wait goes on.
    }
  };
  return {
    resolved: (targets, waitFor) => guard((o) => o.resolved?.(targets, waitFor)),
    transition: (target, previous) => {
      guard((o) => o.transition?.(target, previous));
      tellFeeds(target, previous);
    },
    warning: (message) => guard((o) => o.warning?.(message)),
    heartbeat: (pending, elapsed) => guard((o) => o.heartbeat?.(pending, elapsed)),
    decided: () => guard((o) => o.decided?.()),
  };
}
