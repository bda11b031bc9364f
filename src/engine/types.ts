/**
 * The engine's options and what it returns. The result's vocabulary (targets as reported, outcomes, the
 * live observer) is the leaf src/result.ts, which the report reads without importing the engine.
 */
import type { Cluster } from '../kube/index.js';
import type { EngineObserver, RunResult, TargetParent, TargetReport } from '../result.js';
import type { ResolvedRules } from '../status/health/types.js';
import type { InputProblem, Settings, WaitFor } from '../settings.js';
import type { Status } from '../status/types.js';
import type { TargetSpec } from '../targets/types.js';
import type { Deadline, Time } from '../time.js';

export type { Mode, WaitFor } from '../settings.js';

/** The part of the run's settings the engine acts on. */
export type EngineSettings = Pick<Settings, 'waitFor' | 'timeoutMs' | 'pollIntervalMs' | 'mode' | 'failFast' | 'jobCompletion'> &
  /** Absent: 0 (plain kstatus, no stability window), `paused: wait`, and no revision to wait for; a type not
   *  served yet and a selector matching nothing yet are then waited for until the deadline. */
  Partial<Pick<Settings, 'statusGraceMs' | 'stableForMs' | 'paused' | 'revision'>>;

/** The health rules the engine asks per type (user rule > built-in > kstatus); absent: kstatus only. */
export type HealthRules = Pick<ResolvedRules, 'ruleFor'>;

export interface EngineOptions extends EngineSettings {
  targets: TargetSpec[];
  healthRules?: HealthRules;
  /** Namespace for namespaced targets that name none. */
  defaultNamespace: string;
  /** Aborted on SIGTERM/SIGINT (a cancelled job), or by the fleet with its reason in words: the engine stops
   *  and still returns a full result. */
  signal?: AbortSignal;
  /** Live notifications for the log. */
  observer?: EngineObserver;
  /** Added by the engine: how long an image pull may fail before it counts as unrecoverable
   *  (default: the status library's, 15 s). Tests shorten it. */
  imagePullGraceMs?: number;
  /** Added by the engine: interval of `observer.heartbeat` (default 30 s). */
  heartbeatMs?: number;
  /** The clock and timers of every decision (deadline, intervals, grace windows, stable-for): the run's
   *  `Time` (src/time.ts), which tests make virtual. Default: real time. */
  time?: Time;
  /** The run's one deadline (on `time`); absent: `timeoutMs` from the engine's start. */
  deadline?: Deadline;
  /** Sources of targets that arrive during the wait (a Helm release, the inventories of GitOps parents). */
  feeds?: TargetFeed[];
}

/** Where targets added during the wait come from, and what they wait for. */
export interface TargetOrigin {
  /** The GitOps object that applied them: each is reported under it. */
  parent?: TargetParent;
  /** Their own goal (an uninstalling release's objects: `deleted`); default: the run's `wait-for`. */
  goal?: WaitFor;
}

/**
 * A source of targets that learns them while the engine runs (docs/architecture.md, "Feeds and stages"). The
 * engine starts every feed with the run and does not call the wait ready while one is still running: a feed
 * that will add no more targets returns. It returns promptly once `signal` aborts (the wait is over).
 */
export interface TargetFeed {
  run(ctx: FeedContext): Promise<void>;
}

/** What a feed may do with the run it feeds. */
export interface FeedContext {
  cluster: Cluster;
  /** The run's clock; every timer a feed sets goes through it. */
  time: Time;
  deadline: Deadline;
  /** Aborts when the wait is over (its verdict known, the deadline, a cancelled job). */
  signal: AbortSignal;
  /** Adds targets to the wait, judged like the others. */
  add(specs: TargetSpec[], origin?: TargetOrigin): void;
  /** Targets the feed knows of that will not be judged (a release helm is still writing at the deadline):
   *  reported `Unknown` with `message`. Each call replaces the last. */
  notJudged(specs: TargetSpec[], message: string): void;
  /** The feed's own verdict, failed (`why` in words): the wait ends once every target has a verdict, within
   *  FAILED_JUDGING_MS, and fails whatever they are. */
  fail(why: string): void;
  /** A problem only the user can fix: the wait ends with it, as with a bad input. */
  problem(problem: InputProblem): void;
  warn(message: string): void;
  /** Work the verdict must wait for when it comes early (a read whose targets are about to be added): the
   *  last look (LAST_LOOK_MS) waits for it too. */
  busy<T>(work: Promise<T>): Promise<T>;
  /** Work beside the wait that must end before the run returns, but never holds the verdict (`reconcile`'s requests). */
  beside(work: Promise<unknown>): void;
  /** Calls `listener` on every status change of a target, and when every target has reached its goal while
   *  feeds still run (`target` undefined): the moment to look once more. */
  onChange(listener: (target?: TargetReport, previous?: Status) => void): void;
}

/**
 * What the engine returns: only what it owns (the outcome, every target's status and history, its warnings).
 * The Helm release is the release feed's (src/release/); `waitFor` is set when every target's own goal
 * differs from the run's (an uninstalling release alone); the explanations, the
 * explain step's (engine/explain-result.ts); the pipeline assembles the `RunResult` the report reads.
 */
export type EngineResult = Omit<RunResult, 'release'>;
