/**
 * Target states and their aggregation. Each target is one TargetReport kept current in place; the tracker
 * keeps running counts (not done, failed, blocked) so deciding the outcome is O(1) per event, even with
 * thousands of targets.
 */
import type { Condition, Diagnosis, Status } from '../status/types.js';
import { reportedSource, type EngineObserver, type TargetParent, type TargetReport, type Transition } from '../result.js';
import type { TargetSource } from '../settings.js';

/** History entries kept per target: the first one and the latest ones. */
const HISTORY_LIMIT = 50;

/**
 * `history` with `entry` added, in a new array of its exact size: an array grown by `push` keeps room for 16
 * more entries, which thousands of targets with a few transitions each would carry to the end. The engine's
 * own `Unknown` rows before the first real status (resolving the type, waiting for the first list) go when
 * one comes: nothing reads them then (the report shows the history from the first real status on,
 * `realHistory` in report/text.ts), and the first entry kept is then that real status.
 */
function withEntry(history: Transition[], entry: Transition): Transition[] {
  const before = entry.status !== 'Unknown' && history.every((h) => h.status === 'Unknown') ? [] : history;
  const next = before.concat(entry);
  if (next.length > HISTORY_LIMIT) next.splice(1, 1);
  return next;
}

export interface Identity {
  apiVersion: string;
  kind: string;
  namespace: string;
  name: string;
  selector?: string;
  source?: TargetSource;
  /** The GitOps object that applied it. */
  parent?: TargetParent;
}

export interface Update {
  status: Status;
  message: string;
  done: boolean;
  conditions?: Condition[];
  /** What judged it (kept when absent). */
  rule?: string;
  /** A problem only the user can fix (forbidden LIST, ...): waiting longer will not help. */
  blocked?: boolean;
  /** The object opted out (`kubewait.io/wait: "false"`); `done` is then true whatever its status. */
  optedOut?: boolean;
}

export class TargetState {
  readonly report: TargetReport;
  blocked = false;
  /** Counted by the tracker (a selector member that left, or a placeholder with members, is not). */
  registered = false;

  constructor(
    private readonly tracker: Tracker,
    identity: Identity,
    initial: Update,
  ) {
    this.report = {
      apiVersion: identity.apiVersion,
      kind: identity.kind,
      namespace: identity.namespace,
      name: identity.name,
      ...(identity.selector !== undefined ? { selector: identity.selector } : {}),
      status: initial.status,
      message: initial.message,
      rule: initial.rule ?? 'kstatus',
      done: initial.done,
      seconds: tracker.elapsedSeconds(),
      ...reportedSource(identity.source),
      ...(identity.parent && { parent: identity.parent }),
      history: [{ status: initial.status, message: initial.message, atSeconds: tracker.elapsedSeconds() }],
      conditions: initial.conditions ?? [],
    };
    this.blocked = initial.blocked ?? false;
  }

  /** The object's `metadata.generation` as judged now (src/rollback/ compares it before a patch). */
  sawGeneration(generation: number | undefined): void {
    if (generation !== undefined) this.report.generation = generation;
  }

  /** Type known after discovery (a target whose CRD appeared mid-wait). */
  identify(identity: Pick<Identity, 'apiVersion' | 'kind' | 'namespace'>): void {
    Object.assign(this.report, identity);
  }

  update(next: Update): void {
    const report = this.report;
    const before = { status: report.status, done: report.done, failed: this.failed(), blocked: this.blocking() };
    const statusChanged = next.status !== report.status || next.done !== report.done;
    const messageChanged = next.message !== report.message;
    report.conditions = next.conditions ?? report.conditions;
    report.rule = next.rule ?? report.rule;
    this.blocked = next.blocked ?? false;
    if (next.optedOut) report.optedOut = true;
    else delete report.optedOut;
    if (!statusChanged && !messageChanged) {
      this.tracker.recount(before, this);
      return;
    }
    const atSeconds = this.tracker.elapsedSeconds();
    report.status = next.status;
    report.message = next.message;
    report.done = next.done;
    if (statusChanged) report.seconds = atSeconds;
    report.history = withEntry(report.history, { status: next.status, message: next.message, atSeconds });
    this.tracker.recount(before, this);
    if (statusChanged || !next.done) this.tracker.transition(this, before.status);
  }

  setDiagnosis(diagnosis: Diagnosis | undefined): void {
    if (diagnosis) this.report.diagnosis = diagnosis;
    else delete this.report.diagnosis;
  }

  failed(): boolean {
    return this.report.status === 'Failed' && !this.report.done;
  }

  blocking(): boolean {
    return this.blocked && !this.report.done;
  }
}

export class Tracker {
  private registeredCount = 0;
  private notDone = 0;
  private failedCount = 0;
  private blockedCount = 0;
  private readonly started: number;
  /** Transitions are announced only after the observer got the resolved targets. */
  announcing = false;

  /** `startedAt`: where every `seconds` counts from (the run's start, where its deadline was set); default now. */
  constructor(
    private readonly observer: EngineObserver | undefined,
    private readonly clock: () => number = Date.now,
    startedAt = clock(),
  ) {
    this.started = startedAt;
  }

  elapsedSeconds(): number {
    return Math.round((this.clock() - this.started) / 10) / 100;
  }

  /** A new target, counted from now on. */
  add(identity: Identity, initial: Update, announce = false): TargetState {
    const state = new TargetState(this, identity, initial);
    this.register(state);
    if (announce && this.announcing) this.observer?.transition?.(state.report, undefined);
    return state;
  }

  register(state: TargetState): void {
    if (state.registered) return;
    state.registered = true;
    this.registeredCount++;
    if (!state.report.done) this.notDone++;
    if (state.failed()) this.failedCount++;
    if (state.blocking()) this.blockedCount++;
  }

  /** A selector member that left the live set: no longer counted. */
  retire(state: TargetState): void {
    if (!state.registered) return;
    state.registered = false;
    this.registeredCount--;
    if (!state.report.done) this.notDone--;
    if (state.failed()) this.failedCount--;
    if (state.blocking()) this.blockedCount--;
  }

  recount(before: { done: boolean; failed: boolean; blocked: boolean }, state: TargetState): void {
    if (!state.registered) return;
    this.notDone += Number(!state.report.done) - Number(!before.done);
    this.failedCount += Number(state.failed()) - Number(before.failed);
    this.blockedCount += Number(state.blocking()) - Number(before.blocked);
  }

  transition(state: TargetState, previous: Status): void {
    if (state.registered && this.announcing) this.observer?.transition?.(state.report, previous);
  }

  /** Targets counted now: named ones and every current member of a selector. */
  get size(): number {
    return this.registeredCount;
  }
  get pending(): number {
    return this.notDone;
  }
  get failed(): number {
    return this.failedCount;
  }
  /** Targets that cannot progress without the user's help. */
  get blocked(): number {
    return this.blockedCount;
  }
}
