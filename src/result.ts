/**
 * The run's result, in one leaf module beside settings.ts: what a wait says about each target, as the
 * report, the outputs and the command's text, JSON and JUnit read it.
 *
 * Two parts fill it in, each with what it owns: the engine (src/engine/) the outcome, every target's
 * status, history and `parent` (the GitOps object that applied it), the goal when every target has its own
 * (an uninstalling Helm release's objects), and its warnings (`EngineResult` there is this result without
 * the release, which the release feed, src/release/, read); the pipeline's explain step
 * (engine/explain-result.ts) the explanations of the workloads that did not get there. The report layer (src/report/) and the command (src/cli/) import this module, never the engine.
 *
 * Imports only the vocabulary (settings.ts) and the pure status library's types.
 */
import { documentName, type InputProblem, type TargetSource, type WaitFor } from './settings.js';
import type { SmokeResult } from './smoke/run.js';
import type { FailureExplanation } from './status/explain-failure.js';
import type { ContainerToExplain, PodToExplain } from './status/explain-pods.js';
import type { Progress } from './status/progressive/progress.js';
import type { Condition, Diagnosis, Status, WarningEvent } from './status/types.js';

/** How the wait itself ended. The public `result` adds `cancelled` and `error` (see `publicResult` in report/outputs.ts). */
export type Outcome = 'ready' | 'failed' | 'timeout';

/** The `result` output: `error` means the targets could not be judged (bad input, credentials rejected,
 *  cluster unreachable); `cancelled`, that the job was cancelled before the outcome was known. */
export type Result = Outcome | 'cancelled' | 'error';

/** One status change of a target. */
export interface Transition {
  status: Status;
  message: string;
  /** Seconds since the wait started. */
  atSeconds: number;
}

/** Everything the report layer needs to know about one target. */
export interface TargetReport {
  /** The cluster it was waited for in, by its name in the `clusters` input; absent with one cluster. */
  cluster?: string;
  apiVersion: string;
  kind: string;
  /** Empty for cluster-scoped objects. */
  namespace: string;
  /** For a selector target that matched nothing, what was looked for (`unmatchedSelectorName`): never empty. */
  name: string;
  selector?: string;
  status: Status;
  message: string;
  /** What judged it: `kstatus`, `builtin:<name>`, `health-checks[<i>]` or `gitops:<name>` (Flux and Argo CD kinds). */
  rule: string;
  /** Whether this target is at the desired status (`wait-for`). */
  done: boolean;
  /** Seconds from the start until it reached its final status. */
  seconds: number;
  /** Where the target was defined, by kind: the report links and annotates a `file` only. */
  source?: TargetSource;
  /** `source` in words, as the `resources` output and the log show it (`documentName` of settings.ts). */
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
  /** `metadata.generation` of the object as last judged (the engine): what `rollback` compares with before
   *  it patches, so that a newer deploy started since is not undone. */
  generation?: number;
  /** The GitOps object whose inventory made it a target (the `inventory` input, src/gitops/): the report
   *  names it under its parent, `Kustomization flux-system/apps -> Deployment shop/api`. */
  parent?: TargetParent;
  /** An Argo Rollout or a Flagger Canary: its canary step, weight and analysis as last read. */
  progress?: Progress;
}

/** A Flux Kustomization or HelmRelease or an Argo CD Application, as the parent of the objects it applied. */
export interface TargetParent {
  kind: string;
  /** Empty for a cluster-scoped parent. */
  namespace: string;
  name: string;
}

/** What the explain step read about one workload that did not get there. */
export interface TargetExplanation {
  /** The pods that explain it, worst first (for a failed Job or Pod: its failed pods). */
  pods: PodToExplain[];
  /** For a Job or bare Pod that failed. */
  failure?: FailureExplanation;
  /** One per failing container of `pods`, in order: the log read, or (no `outcome`) why there is none. */
  logs: ContainerLogView[];
}

/** One failing container as the report shows it: what was read (`outcome`, absent when nothing could be). */
export interface ContainerLogView {
  request: ContainerToExplain;
  outcome?: LogOutcome;
  /** The pod's recent Warning events: shown when there is no log. */
  events?: readonly WarningEvent[];
}

/** What reading one container's log gave (kube/logs.ts reads it; the text is already masked). */
export type LogOutcome =
  /** `previous` says which run the text is of: a previous run that turned out not to exist falls back to the current one. */
  | { kind: 'text'; text: string; previous: boolean; truncated: boolean }
  /** No log to read: the API's reason (`container "api" in pod "p" is waiting to start: ContainerCreating`). */
  | { kind: 'unavailable'; reason: string }
  | { kind: 'forbidden' }
  /** Not read: the time budget ran out, the server failed, the connection broke. */
  | { kind: 'failed'; message: string };

/** The result of a run, in every outcome. */
export interface RunResult {
  outcome: Outcome;
  /** True when the wait ended because the run's cancellation signal was aborted. */
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
  /** The `smoke` checks' results, when there were checks and every target was ready (src/smoke/). */
  smoke?: SmokeResult[];
  /** With the `clusters` input: each cluster's own result, in the input's order (`targets` then holds
   *  every cluster's targets, each with its `cluster`). */
  clusters?: ClusterRun[];
  /** The `rollback` input acted (src/rollback/): what it undid and how the rolled-back workloads stood. */
  rollback?: RollbackReport;
}

// rollback (issue 32): filled in by src/rollback/, read by the report and the command.
/** What `rollback` did after a failed or timed-out wait. The run's `outcome` stays as it was. */
export interface RollbackReport {
  /** `ready`: every rolled-back workload is ready again; `failed`/`timeout`: one is not (or a patch failed);
   *  `refused`: nothing could be rolled back; `none`: nothing to roll back. */
  result: 'ready' | 'failed' | 'timeout' | 'refused' | 'none';
  /** One per workload considered, in the targets' order. */
  workloads: RolledBackWorkload[];
  /** Seconds from the first patch to the end of the wait for the rolled-back workloads. */
  durationSeconds: number;
}

/** One workload `rollback` considered. */
export interface RolledBackWorkload {
  /** With `clusters`: the cluster it is in. */
  cluster?: string;
  apiVersion: string;
  kind: string;
  namespace: string;
  name: string;
  /** `rolled-back`: patched (or an Argo Rollout aborted), then waited for (`status`); `unchanged`: nothing
   *  to do (`reason` says why); `refused`: a guard held (`reason`); `error`: the patch failed (`reason`). */
  action: 'rolled-back' | 'unchanged' | 'refused' | 'error';
  /** The revision it was at and the one restored (Deployments, StatefulSets, DaemonSets). */
  fromRevision?: number;
  toRevision?: number;
  reason?: string;
  /** After a rollback: how it stood at the end of the wait for it (its row, as a target's). */
  target?: TargetReport;
}

/** One cluster's part of a run over several (the `clusters` input, src/fleet/). */
export interface ClusterRun {
  /** As named in the `clusters` input. */
  name: string;
  /** API server URL; '' when its kubeconfig could not be used. */
  server: string;
  /** Kubeconfig context name; '' when its kubeconfig could not be used. */
  context: string;
  /** Its targets without `cluster`: a cluster that could not be judged has its `error` here. */
  result: RunResult;
  /** Why it was stopped early, when another cluster decided the verdict first (fleet/stops.ts): `a target
   *  failed in cluster us-east (fail-fast)`, `cluster us-east was ready (cluster-policy: any)`. Its
   *  targets are reported as they stood; the step is not `cancelled` for it. */
  stopped?: string;
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

/** Live notifications of a wait, for the log (report/live-log.ts implements it). */
export interface EngineObserver {
  /** Targets as resolved (types known), and the goal they are waited for; called once before waiting starts. */
  resolved?(targets: TargetReport[], waitFor: WaitFor): void;
  /** A target changed status (or its message changed while not done). */
  transition?(target: TargetReport, previous: Status | undefined): void;
  /** Something the user should see as a warning (fallback to polling, retries, ...). */
  warning?(message: string): void;
  /** Every 30 s while waiting: the targets not yet done. */
  heartbeat?(pending: TargetReport[], elapsedSeconds: number): void;
  /** The wait is decided (any outcome), before its watches close and its result is built: once, so that a
   *  log that holds lines back writes them now (the live log, `bufferedSink`). */
  decided?(): void;
}

/** What a target says before its object was first read: the engine's words while its type resolves or its
 *  group's first LIST is on its way, not a status of the object. */
export const RESOLVING_MESSAGE = 'resolving the resource type';
const FIRST_LIST = 'waiting for the first list of';
export function firstListMessage(group: string): string {
  return `${FIRST_LIST} ${group}`;
}

/** Whether `target` only says it was not read yet (RESOLVING_MESSAGE, firstListMessage): the live log shows
 *  its first status once it is known rather than this. */
export function notReadYet(target: Pick<TargetReport, 'status' | 'message'>): boolean {
  return target.status === 'Unknown' && (target.message === RESOLVING_MESSAGE || target.message.startsWith(`${FIRST_LIST} `));
}

/** A target's `source` for its report, with `file` and `line` in words (absent without a source). */
export function reportedSource(source: TargetSource | undefined): Pick<TargetReport, 'source' | 'file' | 'line'> {
  return source ? { source, file: documentName(source), line: source.line } : {};
}

/**
 * The name of a selector target that matches nothing: what it looked for, as every output names it
 * (`pending: shop/Deployment/(none matching app=web)`), never an empty name. Not a name Kubernetes allows,
 * so no object can be mistaken for it.
 */
export function unmatchedSelectorName(selector: string): string {
  return selector ? `(none matching ${selector})` : '(none found)';
}

/** A selector target that stands for objects not matched (or not listed) yet, rather than one object. */
export function isSelectorPlaceholder(target: Pick<TargetReport, 'name' | 'selector'>): boolean {
  return target.selector !== undefined && target.name === unmatchedSelectorName(target.selector);
}

/** A target as it is named before (or without) the cluster: what a report needs besides its state. */
export interface TargetIdentity {
  apiVersion: string;
  kind: string;
  namespace: string;
  name: string;
  selector?: string;
  source?: TargetSource;
  parent?: TargetParent;
}

/**
 * A target that was never judged (a cluster that could not be used, a Helm release still being written at
 * the deadline): `Unknown`, with `message` saying why, so that every target is reported in every outcome.
 * The one shape of it for the engine and the fleet.
 */
export function notJudgedReport(identity: TargetIdentity, message: string, seconds: number): TargetReport {
  const { source, selector, parent, ...names } = identity;
  return {
    ...names,
    name: identity.name || (selector !== undefined ? unmatchedSelectorName(selector) : ''),
    ...(selector !== undefined && !identity.name ? { selector } : {}),
    status: 'Unknown',
    message,
    rule: 'kstatus',
    done: false,
    seconds,
    ...reportedSource(source),
    ...(parent && { parent }),
    history: [{ status: 'Unknown', message, atSeconds: seconds }],
    conditions: [],
  };
}
