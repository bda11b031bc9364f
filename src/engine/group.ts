/**
 * The targets of one (resource type, namespace) group, fed by that group's list and watch events.
 * No I/O: the follower feeds objects in, the diagnoser feeds diagnoses in, target states come out.
 * Which objects are whose targets is decided here; where an object stands, by the type's `Judge`
 * (src/status/judge.ts), whose verdicts this applies: its status to the targets, its warnings to the
 * run, its re-check time to the scheduler.
 *
 * Objects are not kept: each event is judged at once into a compact record (uid, verdict, the pod
 * selector of a pending workload). Only an object whose verdict time or its CRD's answer may change (an
 * unschedulable Pod, a custom resource in its status-grace) keeps its object, to be judged again, and then
 * only what judging reads of it (the judge's `view`, src/status/judged-fields.ts).
 */
import { failureEndsWait, type Evaluation } from '../status/goal.js';
import { Judge, type JudgeWarning, type Verdict } from '../status/judge.js';
import type { PausedPolicy } from '../status/paused.js';
import type { Diagnosis } from '../status/types.js';
import { runsPods, type PodOwnership } from '../status/workloads.js';
import type { ResourceType } from '../kube/index.js';
import { groupVersion, qualifiedResource } from '../kube/index.js';
import { keptEvaluation } from './kept.js';
import { parseSelector, selectorFromObject } from './labels.js';
import type { LabelMatcher, Labels } from './labels.js';
import type { SelectorSet } from './selector-set.js';
import type { TargetState, Tracker, Update } from './tracker.js';
import type { InputProblem, WantedRevision } from '../settings.js';
import { firstListMessage } from '../result.js';
import type { HealthRules, WaitFor } from './types.js';

export interface GroupContext {
  tracker: Tracker;
  waitFor: WaitFor;
  jobCompletion: boolean;
  now(): Date;
  /** Call `run` at `atMs` (epoch ms) unless the engine has ended. */
  schedule(atMs: number, run: () => void): void;
  /** A workload in this namespace is pending: pod diagnosis should run. */
  workloadPending(namespace: string): void;
  healthRules?: HealthRules;
  /** `status-grace` in ms (0: off). */
  statusGraceMs: number;
  /** `failure-grace` in ms (0: off). */
  failureGraceMs?: number;
  /** `paused`: what a paused Rollout or Deployment is for the `ready` goal (default `wait`). */
  paused?: PausedPolicy;
  /** The `revision` input: Flux and Argo CD targets must have applied it. */
  revision?: WantedRevision;
  /** Whether the type's CRD declares a status subresource; undefined while it is being read (then
   *  `known` runs once it is). */
  statusSubresource(type: ResourceType, known: () => void): boolean | undefined;
  /** Keep the pod selector of workloads that are done, for the `stable-for` window. */
  watchPodsWhenDone: boolean;
  warn(message: string): void;
  /** A problem of an input found while judging (a health rule that can never judge an object): the engine ends with it. */
  problem?(problem: InputProblem): void;
}

interface Tracked {
  uid: string;
  /** Unchanged resourceVersion in a relist or a poll: nothing to judge again. */
  resourceVersion?: string;
  /** The object's own status (a selector member starts from it). */
  evaluation: Evaluation;
  /** What its targets report (the same, or done for an opted-out object). */
  reported: Verdict['reported'];
  /** Which pods are this workload's (only while it is not done), as the object says: the matcher is made
   *  only if pod diagnosis asks (most workloads are ready before it does). */
  pods?: PodOwnership;
  podMatcher?: (pod: PodLike) => boolean;
  /** Kept only while time or the CRD's answer may change the verdict. */
  raw?: unknown;
  /** When this object (this uid) was first seen, for `status-grace`. */
  firstSeenMs: number;
  /** `metadata.generation`, for the target's report (`rollback` compares it). */
  generation?: number;
  /** What the judge kept of its first sighting (a Flagger Canary's last applied spec); most types keep nothing. */
  baseline?: unknown;
  /** Since when its rule has said Failed, for `failure-grace`. */
  failingSinceMs?: number;
}

/** One reported target bound to at most one object name. */
interface Slot {
  state: TargetState;
  /** UID of the object first seen, for `wait-for: deleted` (a new UID means the old one was deleted). */
  seenUid?: string;
  /** `deleted` goal reached; sticky. */
  gone: boolean;
  diagnosis?: Diagnosis;
  /** Since when (epoch ms) the object has been pending, for pod diagnosis. */
  pendingSince?: number;
}

interface SelectorTarget {
  text: string;
  matcher: LabelMatcher;
  ownerless: boolean;
  members: Map<string, Slot>;
  set: SelectorSet;
}

export interface PodLike {
  metadata?: { name?: string; labels?: Labels };
}

/** A pending workload for pod diagnosis. */
export interface DiagnosisSubject {
  kind: string;
  name: string;
  /** Epoch ms since the workload has been pending. */
  pendingSince: number;
  ownsPod(pod: PodLike): boolean;
  apply(diagnosis: Diagnosis | undefined): void;
}

/** What indexing reads of an object (a type literal, so that it is also a `Record<string, unknown>`). */
type KubeObject = {
  metadata?: {
    name?: string;
    uid?: string;
    resourceVersion?: string;
    labels?: Labels;
    ownerReferences?: Array<{ controller?: boolean }>;
  };
};

export class GroupState {
  private readonly named = new Map<string, Slot>();
  private readonly selectors: SelectorTarget[] = [];
  private readonly objects = new Map<string, Tracked>();
  /** The names in `objects` whose pods are kept (a workload to diagnose, or to watch once done): what pod
   *  diagnosis walks each round, instead of every target of the group (bench/RESULTS.md, CPU per target). */
  private readonly withPods = new Set<string>();
  /**
   * The pending slots in the order they became pending (so by `pendingSince`), each with its object's name and
   * its diagnosis subject, made once: pod diagnosis asks for those pending longer than a while on every round,
   * and reads this from the front, stopping at the first one too young, instead of walking every pending target
   * and making a subject for each on every round (issue 35). An entry that is no longer pending leaves when a
   * round reaches it.
   */
  private readonly pendingOrder = new Map<Slot, { name: string; subject?: DiagnosisSubject }>();
  private seen?: Set<string>;
  /** True once a LIST has succeeded. */
  synced = false;
  private failedToList = false;
  /** The last LIST was refused (forbidden, unauthorized): waiting will not change it. */
  private refused = false;
  /** Bumped when targets are added, so the follower knows its server-side filter is stale. */
  revision = 0;
  private readonly workload: boolean;
  private readonly judge: Judge;
  /** The type's CRD fact for `status-grace`, once a verdict needed it and the engine knew it. */
  private statusSubresource?: boolean;
  /** Keys of the warnings given once (an evaluation warning: once per target and rule). */
  private readonly warnedOnce = new Set<string>();
  /** Its targets' `apiVersion`, one string for all of them. */
  readonly apiVersion: string;
  /** What its targets say until the first LIST: one update (and one message string) for all of them. */
  private readonly waitingForList: Update;

  constructor(
    readonly type: ResourceType,
    readonly namespace: string,
    private readonly ctx: GroupContext,
  ) {
    this.workload = runsPods(type);
    const { waitFor, jobCompletion, statusGraceMs, failureGraceMs, healthRules, paused, revision } = ctx;
    this.judge = new Judge(type, namespace, { waitFor, jobCompletion, statusGraceMs, failureGraceMs, healthRules, paused, ...(revision ? { revision } : {}) });
    this.apiVersion = groupVersion(type.group, type.version);
    this.waitingForList = { status: 'Unknown', message: firstListMessage(this.description), done: false };
  }

  /** What the user reads: `deployments.apps in namespace "shop"`. */
  get description(): string {
    const resource = qualifiedResource(this.type);
    return this.type.namespaced ? `${resource} in namespace "${this.namespace}"` : `${resource} (cluster-wide)`;
  }

  /** Listed (or refused for good, which its targets or a warning say) and not mid-relist. */
  get settled(): boolean {
    return (this.synced || this.refused) && this.seen === undefined;
  }

  /** Has selector targets (objects of this type are waited for only if they match). */
  get selects(): boolean {
    return this.selectors.length > 0;
  }

  /** Adds a named target; the same object named twice is one target: then the state already reporting it. */
  addNamed(name: string, state: TargetState): TargetState | undefined {
    const existing = this.named.get(name);
    if (existing) return existing.state;
    const slot: Slot = { state, gone: false };
    this.named.set(name, slot);
    state.update(this.waitingForList);
    this.targetsChanged();
    return undefined;
  }

  /** Adds a selector target, part of `set`; returns its members' states, by name. */
  addSelector(ownerless: boolean, set: SelectorSet): () => TargetState[] {
    const target: SelectorTarget = { text: set.text, matcher: parseSelector(set.text), ownerless, members: new Map(), set };
    this.selectors.push(target);
    set.addPart(ownerless ? `${this.type.resource} without an owner` : this.type.resource, this.type.namespaced, this.waitingForList);
    this.targetsChanged();
    return () => memberStates(target);
  }

  /** New targets may claim objects already seen: the next list evaluates everything again. */
  private targetsChanged(): void {
    this.revision++;
    for (const tracked of this.objects.values()) tracked.resourceVersion = undefined;
  }

  /** Server-side filter for LIST/WATCH: only when a single target makes it exact. */
  serverFilter(): { labelSelector?: string; fieldSelector?: string } {
    const [onlyName] = this.named.keys();
    const [onlySelector] = this.selectors;
    if (onlyName !== undefined && this.named.size === 1 && this.selectors.length === 0) return { fieldSelector: `metadata.name=${onlyName}` };
    if (this.named.size === 0 && this.selectors.length === 1 && onlySelector?.text) return { labelSelector: onlySelector.text };
    return {};
  }

  // ---- feeding objects -------------------------------------------------------------------------------

  beginList(): void {
    this.seen = new Set();
  }

  /** A LIST finished: objects not in it are gone. */
  endList(): void {
    const seen = this.seen ?? new Set<string>();
    this.seen = undefined;
    for (const name of [...this.objects.keys()]) if (!seen.has(name)) this.remove(name);
    this.synced = true;
    this.refused = false;
    for (const [name, slot] of this.named) if (!this.objects.has(name)) this.markAbsent(slot);
    for (const s of this.selectors) s.set.listed();
  }

  /** A LIST failed part way: what it saw so far says nothing about deletions. */
  abandonList(): void {
    this.seen = undefined;
  }

  /** An object from a LIST page or an ADDED/MODIFIED event. */
  upsert(received: unknown): void {
    const arrived = received as KubeObject;
    const name = arrived?.metadata?.name;
    if (typeof name !== 'string') return;
    this.seen?.add(name);
    const known = this.objects.get(name);
    const version = arrived.metadata?.resourceVersion;
    if (known && !known.raw && version && known.resourceVersion === version && known.uid === (arrived.metadata?.uid ?? '')) return;
    // From here on only what judging reads: that is what is judged, and kept when it must be judged again.
    const object = this.judge.view(arrived) as KubeObject;
    const named = this.named.get(name);
    const labels = object.metadata?.labels ?? {};
    const hits = this.selectors.map(() => false);
    let claimed = named !== undefined;
    this.selectors.forEach((s, i) => {
      if (claimed || !s.matcher(labels) || (s.ownerless && hasController(object))) return;
      hits[i] = true;
      claimed = true;
    });
    this.selectors.forEach((s, i) => {
      if (!hits[i] && s.members.has(name)) this.leave(s, name);
    });
    if (!claimed) {
      this.forget(name);
      return;
    }

    const tracked = this.track(object);
    // A named target's own name string as the key: the object's is one more copy per target.
    this.keep(named ? named.state.report.name : name, tracked);
    if (named) this.applyTo(named, tracked, name);
    this.selectors.forEach((s, i) => {
      if (!hits[i]) return;
      let slot = s.members.get(name);
      if (!slot) {
        slot = { state: this.ctx.tracker.add(this.memberIdentity(s, name), tracked.evaluation, true), gone: false };
        s.members.set(name, slot);
        s.set.joined();
      }
      this.applyTo(slot, tracked, name);
    });
  }

  /** A DELETED event (or absence from a LIST). */
  remove(name: string): void {
    this.forget(name);
    const named = this.named.get(name);
    if (named) this.markAbsent(named, true);
    for (const s of this.selectors) if (s.members.has(name)) this.leave(s, name);
  }

  /** Named targets still waiting to be created (for the namespace check after a LIST). */
  get waitsForAbsent(): boolean {
    if (this.ctx.waitFor.kind === 'deleted' || !this.type.namespaced) return false;
    for (const [name, slot] of this.named) if (!slot.gone && !this.objects.has(name)) return true;
    return false;
  }

  /** The namespace itself does not exist: the targets waiting to be created say so, by name. */
  namespaceMissing(): void {
    const message = `not found: namespace ${this.namespace} does not exist; waiting for it and the object to be created`;
    for (const [name, slot] of this.named) {
      if (!slot.gone && !this.objects.has(name)) slot.state.update({ status: 'NotFound', message, done: false });
    }
  }

  /** Its first LIST has answered, or was refused for good: its targets stand as the server has them. */
  get listed(): boolean {
    return this.synced || this.refused;
  }

  /** At the deadline: a group whose first LIST never came back says so instead of "waiting". */
  deadlinePassed(): void {
    this.notListedBecause(`the API server did not answer the list of ${this.description} in time`);
  }

  /** The wait ended early (`why`: fail-fast, a cancel) and the last look's budget ran out before this group's
   *  first LIST answered: its targets say so, unless a failed LIST already says why they are unknown. */
  stoppedBeforeList(why: string): void {
    this.notListedBecause(`not checked: the wait stopped (${why}) before the API server answered the list of ${this.description}`);
  }

  private notListedBecause(message: string): void {
    if (!this.synced && !this.failedToList) this.unavailable(message, false);
  }

  /** The group cannot be listed: its targets say why (until a LIST succeeds). */
  unavailable(message: string, blocked: boolean): void {
    this.failedToList = true;
    this.refused = blocked;
    const update: Update = { status: 'Unknown', message, done: false, blocked };
    for (const slot of this.named.values()) if (!slot.gone) slot.state.update(update);
    for (const s of this.selectors) {
      s.set.unavailable(update);
      for (const slot of s.members.values()) if (!slot.gone) slot.state.update(update);
    }
  }

  /** The API server no longer serves this type (its CRD was deleted): for `deleted`, that is success. */
  typeGone(message: string): void {
    if (this.ctx.waitFor.kind !== 'deleted') return this.unavailable(message, false);
    this.beginList();
    this.endList();
  }

  /** Pending workloads with a tracked object, for pod diagnosis: those pending since `pendingSinceAtMost` or
   *  earlier (epoch ms; all by default), the longest pending first. */
  pendingWorkloads(pendingSinceAtMost = Number.POSITIVE_INFINITY): DiagnosisSubject[] {
    if (!this.workload) return [];
    const subjects: DiagnosisSubject[] = [];
    for (const [slot, entry] of this.pendingOrder) {
      const since = slot.pendingSince;
      if (since === undefined || !this.isBound(slot, entry.name)) {
        this.pendingOrder.delete(slot); // done, or no longer a target: a new pending period enters anew
        continue;
      }
      if (since > pendingSinceAtMost) break;
      // Pending but not to be diagnosed now (its object is gone, or its pods are not kept): it stays in line.
      if (slot.state.report.done || !this.objects.get(entry.name)?.pods) continue;
      subjects.push((entry.subject ??= this.subjectOf(slot, entry.name, since)));
    }
    return subjects;
  }

  /** Whether any slot may be pending (pod diagnosis goes idle when none is). */
  hasPendingWorkloads(): boolean {
    return this.workload && this.pendingOrder.size > 0;
  }

  private subjectOf(slot: Slot, name: string, pendingSince: number): DiagnosisSubject {
    return {
      kind: this.type.kind,
      name,
      pendingSince,
      ownsPod: (pod) => {
        const tracked = this.objects.get(name);
        return tracked?.pods !== undefined && podsOf(tracked)(pod);
      },
      apply: (diagnosis) => {
        slot.diagnosis = diagnosis;
        const current = this.objects.get(name);
        if (current) this.applyTo(slot, current, name);
      },
    };
  }

  private isBound(slot: Slot, name: string): boolean {
    return this.named.get(name) === slot || this.selectors.some((s) => s.members.get(name) === slot);
  }

  /** Workloads at the desired status whose pods the `stable-for` window watches (Jobs are exempt). */
  stableWorkloads(): Array<Pick<DiagnosisSubject, 'kind' | 'name' | 'ownsPod'>> {
    if (!this.workload || this.type.kind === 'Job') return [];
    const found: Array<Pick<DiagnosisSubject, 'kind' | 'name' | 'ownsPod'>> = [];
    this.forEachWithPods((name, slot, tracked) => {
      if (slot.state.report.done) found.push({ kind: this.type.kind, name, ownsPod: podsOf(tracked) });
    });
    return found;
  }

  /** Each slot bound to an object whose pods are kept: the named target first, then the selectors'
   *  members, as many as there are such objects (not as many as there are targets). */
  private forEachWithPods(visit: (name: string, slot: Slot, tracked: Tracked) => void): void {
    for (const name of this.withPods) {
      const tracked = this.objects.get(name);
      if (!tracked?.pods) continue;
      const named = this.named.get(name);
      if (named) visit(name, named, tracked);
      for (const s of this.selectors) {
        const member = s.members.get(name);
        if (member) visit(name, member, tracked);
      }
    }
  }

  private keep(name: string, tracked: Tracked): void {
    this.objects.set(name, tracked);
    if (tracked.pods) this.withPods.add(name);
    else this.withPods.delete(name);
  }

  private forget(name: string): void {
    this.objects.delete(name);
    this.withPods.delete(name);
  }

  // ---- internals -------------------------------------------------------------------------------------

  private track(object: KubeObject): Tracked {
    const now = this.ctx.now();
    const name = object.metadata!.name!;
    const uid = object.metadata?.uid ?? '';
    const known = this.objects.get(name);
    const seenBefore = known !== undefined && known.uid === uid;
    const firstSeenMs = seenBefore ? known.firstSeenMs : now.getTime();
    const baseline = seenBefore ? known.baseline : this.judge.baselineOf(object);
    const verdict = this.judgeNow(object, {
      now,
      firstSeenMs,
      ...(baseline === undefined ? {} : { baseline }),
      ...(seenBefore && known.failingSinceMs !== undefined ? { failingSinceMs: known.failingSinceMs } : {}),
    });
    for (const warning of verdict.warnings) this.warn(warning);
    if (verdict.problem) {
      const { input, message, file, line } = verdict.problem;
      this.ctx.problem?.({ input, message, ...(file === undefined ? {} : { source: { file, ...(line === undefined ? {} : { line }) } }) });
    }
    const { recheckAtMs } = verdict;
    // An unchanged verdict keeps the one kept already; a changed one, its strings shared (kept.ts).
    const evaluation = keptEvaluation(verdict.evaluation, known?.evaluation);
    const reported = verdict.reported === verdict.evaluation ? evaluation : keptEvaluation(verdict.reported, known?.reported);
    const tracked: Tracked = { uid, resourceVersion: object.metadata?.resourceVersion, evaluation, reported, firstSeenMs };
    const generation = (object.metadata as { generation?: unknown } | undefined)?.generation;
    if (typeof generation === 'number') tracked.generation = generation;
    if (baseline !== undefined) tracked.baseline = baseline;
    if (verdict.failingSinceMs !== undefined) tracked.failingSinceMs = verdict.failingSinceMs;
    // An opted-out workload is not diagnosed: nothing waits for it, so its pods are not worth a LIST.
    if ((verdict.diagnose || this.ctx.watchPodsWhenDone) && ownsPods(verdict.pods)) tracked.pods = verdict.pods;
    if (verdict.diagnose) this.ctx.workloadPending(this.namespace);
    if (recheckAtMs !== undefined || verdict.needsStatusSubresource) tracked.raw = object;
    if (recheckAtMs !== undefined) {
      this.ctx.schedule(recheckAtMs, () => {
        if (this.objects.get(name) === tracked) this.upsert(object);
      });
    }
    return tracked;
  }

  /**
   * The judge's verdict, with the CRD fact it needs: the CRD is read only when a verdict needs it (once per
   * type, by the engine); while it is being read, its answer judges the kept objects again.
   */
  private judgeNow(object: KubeObject, sighting: { now: Date; firstSeenMs: number; baseline?: unknown }): Verdict {
    const verdict = this.judge.judge(object, { ...sighting, statusSubresource: this.statusSubresource });
    if (!verdict.needsStatusSubresource) return verdict;
    this.statusSubresource = this.ctx.statusSubresource(this.type, () => this.ctx.schedule(0, () => this.judgeKeptAgain()));
    return this.statusSubresource === undefined ? verdict : this.judge.judge(object, { ...sighting, statusSubresource: this.statusSubresource });
  }

  /** Objects kept for a re-check are judged again now (a CRD's answer came in). */
  private judgeKeptAgain(): void {
    for (const tracked of [...this.objects.values()]) if (tracked.raw) this.upsert(tracked.raw);
  }

  private warn(warning: JudgeWarning): void {
    if (warning.once !== undefined) {
      if (this.warnedOnce.has(warning.once)) return;
      this.warnedOnce.add(warning.once);
    }
    this.ctx.warn(warning.message);
  }

  private applyTo(slot: Slot, tracked: Tracked, name: string): void {
    if (slot.gone) return;
    if (this.ctx.waitFor.kind === 'deleted') {
      if (slot.seenUid !== undefined && tracked.uid !== slot.seenUid) {
        slot.gone = true;
        slot.state.update({ status: 'NotFound', message: 'deleted (an object with the same name was created again since)', done: true });
        return;
      }
      slot.seenUid = tracked.uid;
    }
    slot.state.sawGeneration(tracked.generation);
    // An opted-out object's report is done, whichever target source (refs, selector, manifests, release) bound it.
    const reported = tracked.reported;
    if (reported.done) {
      slot.pendingSince = undefined;
      slot.diagnosis = undefined;
      slot.state.setDiagnosis(undefined);
      slot.state.update(reported);
      return;
    }
    if (slot.pendingSince === undefined) {
      slot.pendingSince = this.ctx.now().getTime();
      // To the back of the line: an entry left from an earlier pending period moves with it.
      this.pendingOrder.delete(slot);
      this.pendingOrder.set(slot, { name });
    }
    slot.state.setDiagnosis(slot.diagnosis);
    // A pod that cannot recover (an image that does not exist) makes a `ready` target Failed, with or without
    // fail-fast (which decides only whether the wait stops then); a condition or jsonpath goal still waits for
    // what the user named, with the pods' cause in its report.
    if (failureEndsWait(this.ctx.waitFor) && slot.diagnosis?.unrecoverable && reported.status !== 'Failed') {
      slot.state.update({ ...reported, status: 'Failed', message: slot.diagnosis.summary });
      return;
    }
    slot.state.update(reported);
  }

  private markAbsent(slot: Slot, deletedNow = false): void {
    if (slot.gone) return;
    slot.diagnosis = undefined;
    slot.state.setDiagnosis(undefined);
    if (this.ctx.waitFor.kind === 'deleted') {
      slot.gone = true;
      slot.state.update({ status: 'NotFound', message: deletedNow || slot.seenUid ? 'deleted' : 'does not exist', done: true });
      return;
    }
    slot.state.update({
      status: 'NotFound',
      message: deletedNow ? 'deleted; waiting for it to be created again' : 'not found; waiting for it to be created',
      done: false,
    });
  }

  private leave(s: SelectorTarget, name: string): void {
    const slot = s.members.get(name)!;
    if (this.ctx.waitFor.kind === 'deleted') {
      this.markAbsent(slot, true);
      return;
    }
    this.ctx.tracker.retire(slot.state);
    s.members.delete(name);
    s.set.left();
  }

  private memberIdentity(s: SelectorTarget, name: string) {
    return { apiVersion: this.apiVersion, kind: this.type.kind, namespace: this.namespace, name, selector: s.text };
  }
}

export function groupKey(type: Pick<ResourceType, 'group' | 'resource'>, namespace: string): string {
  return `${type.group}/${type.resource}/${namespace}`;
}

function memberStates(s: SelectorTarget): TargetState[] {
  return [...s.members.keys()].sort().map((name) => s.members.get(name)!.state);
}

function hasController(object: KubeObject): boolean {
  return (object.metadata?.ownerReferences ?? []).some((o) => o?.controller === true);
}

/** Whether `ownership` names any pods: a pod's name, or a selector (an object: `selectorFromObject`). */
function ownsPods(ownership: PodOwnership | undefined): ownership is PodOwnership {
  if (!ownership) return false;
  return 'podName' in ownership || (typeof ownership.selector === 'object' && ownership.selector !== null);
}

/** Which pods are `tracked`'s: its matcher, made the first time a pod is asked about. */
function podsOf(tracked: Tracked): (pod: PodLike) => boolean {
  return (pod) => (tracked.podMatcher ??= podMatcher(tracked.pods!))(pod);
}

function podMatcher(ownership: PodOwnership): (pod: PodLike) => boolean {
  if ('podName' in ownership) return (pod) => pod.metadata?.name === ownership.podName;
  const matcher = selectorFromObject(ownership.selector) ?? (() => false);
  return (pod) => matcher(pod.metadata?.labels ?? {});
}
