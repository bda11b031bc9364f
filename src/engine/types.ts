import type { InputProblem, Settings } from '../settings.js';
import type { Condition, Diagnosis, Status } from '../status/types.js';
import type { TargetSpec } from '../targets/types.js';
import type { TargetExplanation } from './explain.js';

export type { Mode, WaitFor } from '../settings.js';

/** How the wait itself ended. The public `result` adds `cancelled` and `error` (see `publicResult`). */
export type Outcome = 'ready' | 'failed' | 'timeout';

/** The `result` output: `error` means the targets could not be judged (bad input, credentials rejected,
 *  cluster unreachable); `cancelled`, that the job was cancelled before the outcome was known. */
export type Result = Outcome | 'cancelled' | 'error';

/** The part of the run's settings the engine acts on. */
export type EngineSettings = Pick<Settings, 'waitFor' | 'timeoutMs' | 'pollIntervalMs' | 'mode' | 'failFast' | 'jobCompletion'>;

export interface EngineOptions extends EngineSettings {
  targets: TargetSpec[];
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
  /** Epoch milliseconds now; every time the engine reads comes from here (default `Date.now`). */
  clock?: () => number;
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
  /** Whether this target is at the desired status (`wait-for`). */
  done: boolean;
  /** Seconds from the start until it reached its final status. */
  seconds: number;
  file?: string;
  line?: number;
  history: Transition[];
  conditions: Condition[];
  diagnosis?: Diagnosis;
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
}

export interface EngineObserver {
  /** Targets as resolved (types known); called once before waiting starts. */
  resolved?(targets: TargetReport[]): void;
  /** A target changed status (or its message changed while not done). */
  transition?(target: TargetReport, previous: Status | undefined): void;
  /** Something the user should see as a warning (fallback to polling, retries, ...). */
  warning?(message: string): void;
  /** Every 30 s while waiting: the targets not yet done. */
  heartbeat?(pending: TargetReport[], elapsedSeconds: number): void;
}
