import type { ResolvedRules } from '../status/health/types.js';
import type { InputProblem, Settings, WaitFor } from '../settings.js';
import type { Condition, Diagnosis, Status } from '../status/types.js';
import type { TargetSpec } from '../targets/types.js';
import type { TargetExplanation } from './explain.js';
import type { Time } from '../time.js';

export type { Mode, WaitFor } from '../settings.js';

/** How the wait itself ended. The public `result` adds `cancelled` and `error` (see `publicResult`). */
export type Outcome = 'ready' | 'failed' | 'timeout';

/** The `result` output: `error` means the targets could not be judged (bad input, credentials rejected,
 *  cluster unreachable); `cancelled`, that the job was cancelled before the outcome was known. */
export type Result = Outcome | 'cancelled' | 'error';

/** The part of the run's settings the engine acts on. */
export type EngineSettings = Pick<Settings, 'waitFor' | 'timeoutMs' | 'pollIntervalMs' | 'mode' | 'failFast' | 'jobCompletion'> &
  /** Absent: 0 (plain kstatus, no stability window). */
  Partial<Pick<Settings, 'statusGraceMs' | 'stableForMs'>>;

/** The health rules the engine asks per type (user rule > built-in > kstatus); absent: kstatus only. */
export type HealthRules = Pick<ResolvedRules, 'ruleFor'>;

export interface EngineOptions extends EngineSettings {
  targets: TargetSpec[];
  healthRules?: HealthRules;
  /** Namespace for namespaced targets that name none. */
  defaultNamespace: string;
  /** Aborted on SIGTERM/SIGINT (a cancelled job): the engine stops and still returns a full result. */
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
}

/** One status change of a target. */
export interface Transition {
  status: Status;
  message: string;
  /** Seconds since the wait started. */
  atSeconds: number;
}

/** Everything the report layer needs to know about one target. */
export interface TargetReport {
  apiVersion: string;
  kind: string;
  /** Empty for cluster-scoped objects. */
  namespace: string;
  /** Empty for a selector target that matched nothing (then `selector` says what was looked for). */
  name: string;
  selector?: string;
  status: Status;
  message: string;
  /** What judged it: `kstatus`, `builtin:<name>` or `health-checks[<i>]`. */
  rule: string;
  /** Whether this target is at the desired status (`wait-for`). */
  done: boolean;
  /** Seconds from the start until it reached its final status. */
  seconds: number;
  file?: string;
  line?: number;
  history: Transition[];
  conditions: Condition[];
  diagnosis?: Diagnosis;
  /** Annotated `kubewait.io/wait: "false"`: reported with its own status, but `done`, so it never holds
   *  the wait nor fails it. */
  optedOut?: boolean;
  /** Read after the wait for a workload that is not done: its failing pods, their log tails, a failed Job in words. */
  explanation?: TargetExplanation;
}

export interface EngineResult {
  outcome: Outcome;
  /** True when the wait ended because `signal` was aborted. */
  cancelled: boolean;
  durationSeconds: number;
  /** Every target, resolved ones and ones that could not be resolved. */
  targets: TargetReport[];
  /** Warnings already emitted (fallback to polling, ...), for the summary. */
  warnings: string[];
  /** A problem found after the wait started that is the user's to fix (an ambiguous type, a forbidden
   *  LIST, ...): the outcome is `failed`, every target is still reported, and this names the input. */
  error?: InputProblem;
  /** Every target reached the desired status but the `stable-for` window did not pass before the
   *  deadline: "did not stay ready for 30s" (the outcome is `timeout`). */
  unstable?: string;
  /** The Helm release waited for (the `release` input), as last read. */
  release?: ReleaseReport;
  /** The goal every target was waited for, when it is not the `wait-for` input's (an uninstalling Helm
   *  release: `deleted`). The report phrases the result with it. */
  waitFor?: WaitFor;
}

/** A Helm release as the report shows it: never its values or manifest. */
export interface ReleaseReport {
  name: string;
  namespace: string;
  /** Undefined when no record was found. */
  revision?: number;
  /** As Helm recorded it (`deployed`, `failed`, `pending-upgrade`, ...); undefined when no record was found. */
  status?: string;
  /** `shop revision 3 (chart shop-1.2.3, app 4.5.6)`, or the name alone when no record was found. */
  title: string;
  /** What the release itself says (Helm's description, or why it is not waited for yet). */
  message: string;
  /** The release decided the result rather than its objects: Helm recorded it `failed`, or it was still
   *  pending or missing at the deadline (`unsettled`). */
  verdict?: 'failed' | 'unsettled';
}

export interface EngineObserver {
  /** Targets as resolved (types known), and the goal they are waited for; called once before waiting starts. */
  resolved?(targets: TargetReport[], waitFor: WaitFor): void;
  /** A target changed status (or its message changed while not done). */
  transition?(target: TargetReport, previous: Status | undefined): void;
  /** Something the user should see as a warning (fallback to polling, retries, ...). */
  warning?(message: string): void;
  /** Every 30 s while waiting: the targets not yet done. */
  heartbeat?(pending: TargetReport[], elapsedSeconds: number): void;
}
