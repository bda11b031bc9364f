/**
 * The one place a live object is judged. Given an object of one type, the time, when the object was first
 * seen and what is known of its CRD, the judge says where it stands (status, message, done, which rule),
 * when time alone may change that, which pods are its, and what to warn about. The engine's `GroupState`
 * indexes objects and targets and applies verdicts; it decides nothing about readiness itself.
 *
 * This is kstatus's StatusReader idea (one reader per type; Flux plugs its CEL rules in as one of them),
 * with kubewait's layers in a fixed order:
 * 1. the `wait-for` goal, by the type's GitOps rule (Flux and Argo CD kinds: with `revision`, whether the
 *    controller applied it, which beats any health rule; without, only where no health rule is given), by the
 *    type's health rule (a user's beats a built-in one) or by kstatus plus the CI rules (goal.ts); an
 *    expression that cannot be evaluated warns once per target and rule; a Flagger Canary without a user's
 *    rule by its function rule, against its first sighting (progressive/flagger.ts); for `ready`, a paused
 *    Rollout, Canary or Deployment as the `paused` input says (paused.ts), an Argo Rollout's gates
 *    (`step:N`, `analysis`: progressive/rollout.ts); where a Rollout or Canary stands (step, weight, analysis);
 * 2. `status-grace`: a custom resource with no rule and no status yet waits for its controller when its CRD
 *    declares a status subresource (health/grace.ts);
 * 2b. `failure-grace`: a rule's Failed holds that long before it counts (failure-grace.ts);
 * 3. the `kubewait.io/wait: "false"` opt-out: judged as above, reported done (opt-out.ts);
 * 4. time: when to judge again (the end of the grace, an unschedulable Pod's 15 s window, workloads.ts);
 * 5. pods: whether a pending workload's pods should be diagnosed, and which pods are its (workloads.ts).
 *
 * Pure: no I/O, no clock, no state. What a rule needs of the first sighting (`baselineOf`) is data the
 * engine keeps per uid and hands back in each `Sighting`. The CRD fact is data; while it is unknown the
 * verdict says it needs it, and the engine reads the CRD (once per type, only for a type with an object that
 * needs it) and judges again.
 */
import type { WaitFor, WantedRevision } from '../settings.js';
import type { KubeObject } from './fields.js';
import { gitOpsRuleFor, type GitOpsRule } from './gitops/index.js';
import { evaluateGoal, type Evaluation } from './goal.js';
import { withFailureGrace } from './failure-grace.js';
import { hasNoStatus, statusGrace } from './health/grace.js';
import { suspendWarning } from './health/suspend.js';
import type { HealthRule, HealthRuleProblem, ResolvedRules } from './health/types.js';
import { judgedView } from './judged-fields.js';
import { optedOut, WAIT_ANNOTATION } from './opt-out.js';
import { pauseOf, withPausePolicy, type PausedPolicy } from './paused.js';
import { progressiveKind, type ProgressiveKind } from './progressive/index.js';
import { podOwnership, recheckAt, runsPods, type PodOwnership } from './workloads.js';

/** The type a judge judges, as discovery names it. */
export interface JudgedType {
  /** API group; '' for the core group. */
  group: string;
  version: string;
  kind: string;
  namespaced: boolean;
}

/** The settings that decide a verdict. */
export interface JudgeOptions {
  waitFor: WaitFor;
  /** `job-completion`: Jobs must complete and bare Pods succeed. */
  jobCompletion: boolean;
  /** `status-grace` in ms (0: off). */
  statusGraceMs: number;
  /** The health rules (user > built-in); absent: kstatus only. */
  healthRules?: Pick<ResolvedRules, 'ruleFor'>;
  /** `paused`: what a paused Rollout or Deployment is for the `ready` goal (default `wait`). */
  paused?: PausedPolicy;
  /** The `revision` input: Flux and Argo CD targets must have applied it. */
  revision?: WantedRevision;
  /** `failure-grace` in ms (0 or absent: a rule's Failed counts at once; failure-grace.ts). */
  failureGraceMs?: number;
}

/** What is known besides the object itself at the moment it is judged. */
export interface Sighting {
  now: Date;
  /** When this object (this uid) was first seen (epoch ms), for `status-grace`. */
  firstSeenMs: number;
  /** Whether the type's CRD declares a status subresource; undefined while that is not known. */
  statusSubresource?: boolean;
  /** What `Judge.baselineOf` kept of this object (this uid) when it was first seen: a Flagger Canary's verdict
   *  counts only for a revision picked up since. */
  baseline?: unknown;
  /** Since when (epoch ms) its rule has said Failed, as the last verdict said (`failure-grace`). */
  failingSinceMs?: number;
}

export interface JudgeWarning {
  message: string;
  /** Give it once per this key, even when the text changes (an expression's missing field may differ
   *  from one version of the object to the next). Without one, the engine gives each text once. */
  once?: string;
}

export interface Verdict {
  /** The object's own status by its rule and the `wait-for` goal, `status-grace` applied. */
  evaluation: Evaluation;
  /** What a target bound to this object reports: `evaluation`, or for an opted-out object its own status
   *  marked done, so that it can neither hold the wait nor fail it. */
  reported: Evaluation & { optedOut?: true };
  /** Judge it again at this epoch ms: time alone may change the verdict. */
  recheckAtMs?: number;
  /** `status-grace` needed the CRD fact, which the sighting did not have: judge again once it is known. */
  needsStatusSubresource: boolean;
  /** A pending workload that holds the wait: its pods explain why, so they should be diagnosed. */
  diagnose: boolean;
  /** Which pods are this object's (kinds that run pods only). */
  pods?: PodOwnership;
  /** To give now, in this order. */
  warnings: JudgeWarning[];
  /** The object's rule can never judge it (an expression over its cost budget): the step's error, at once. */
  problem?: HealthRuleProblem;
  /** Its rule says Failed: since when, to pass in the next sighting (`failure-grace`). */
  failingSinceMs?: number;
}

/** A status-grace decision the evaluation must yield to. */
type Grace = { evaluation: Evaluation; recheckAtMs?: number; needsStatusSubresource: boolean; warning?: string };

/** A timer may fire a moment before the clock says the time has come: judge again just after it. */
const AFTER_MS = 1;

export class Judge {
  /** The health rule for this type, if any; kstatus otherwise. */
  readonly rule?: HealthRule;
  /** The GitOps rule for this type, if it is a Flux or Argo CD kind that it judges. */
  private readonly gitOps?: GitOpsRule;
  private readonly runsPods: boolean;
  /** An Argo Rollout's gates, a Flagger Canary's rule, their progress (progressive/). */
  private readonly progressive?: ProgressiveKind;

  /** `namespace` is where the judged objects live, for the warnings ('' for a cluster-scoped type). */
  constructor(
    private readonly type: JudgedType,
    private readonly namespace: string,
    private readonly options: JudgeOptions,
  ) {
    this.rule = options.healthRules?.ruleFor(type.group === '' ? type.version : `${type.group}/${type.version}`, type.kind);
    // The revision is what the user asked about, so it outranks a rule that cannot know it; without one, a
    // user's or a built-in health rule for the kind stands.
    const gitOps = gitOpsRuleFor(type.group, type.kind);
    if (gitOps && (options.revision || !this.rule)) this.gitOps = gitOps;
    this.runsPods = runsPods(type);
    this.progressive = progressiveKind(type.group, type.kind);
  }

  /** What of an object's first sighting its later verdicts need (a Flagger Canary's last applied spec): the
   *  engine keeps it per uid and hands it back in each `Sighting`. Undefined for most types. */
  baselineOf(object: KubeObject): unknown {
    return this.progressive?.baseline?.(object);
  }

  /**
   * What of `object` to keep and judge (judged-fields.ts): everything but `managedFields` when a rule that may
   * read any field judges it (a health rule's CEL, a GitOps rule, `wait-for: jsonpath=`), else only what
   * kstatus and the CI rules read.
   */
  view(object: unknown): unknown {
    const anyField = this.rule !== undefined || this.gitOps !== undefined || this.progressive !== undefined || this.options.waitFor.kind === 'jsonpath';
    return judgedView(object, { kind: this.type.kind, anyField });
  }

  judge(object: KubeObject, sighting: Sighting): Verdict {
    const { waitFor, jobCompletion } = this.options;
    const warnings: JudgeWarning[] = [];
    const { evaluationWarning, ruleProblem, ...evaluated } = evaluateGoal(object, waitFor, {
      now: sighting.now,
      jobCompletion,
      rule: this.rule,
      ...(this.gitOps ? { gitOps: this.gitOps } : {}),
      ...(this.options.revision ? { revision: this.options.revision } : {}),
      ...(!this.rule && this.progressive?.rule ? { functionRule: this.progressive.rule(sighting.baseline) } : {}),
    });
    const judged = this.paused(object, evaluated);
    if (evaluationWarning) warnings.push(this.evaluationWarning(object, judged.rule, evaluationWarning));
    const suspended = waitFor.kind === 'deleted' ? undefined : suspendWarning(object);
    if (suspended) warnings.push({ message: suspended });
    const grace = this.grace(object, judged, sighting);
    if (grace?.warning) warnings.push({ message: grace.warning });

    const failure = withFailureGrace(grace?.evaluation ?? judged, {
      graceMs: this.options.failureGraceMs ?? 0,
      now: sighting.now,
      failingSinceMs: sighting.failingSinceMs,
    });
    const evaluation = failure.evaluation;
    const optOut = optedOut(object);
    const recheckAtMs = failure.recheckAtMs ?? (grace ? grace.recheckAtMs : evaluation.done ? undefined : recheckAt(this.type.kind, object, sighting.now));
    return {
      evaluation,
      reported: optOut ? optedOutReport(evaluation) : evaluation,
      ...(recheckAtMs === undefined ? {} : { recheckAtMs }),
      needsStatusSubresource: grace?.needsStatusSubresource ?? false,
      diagnose: this.runsPods && !evaluation.done && !optOut,
      ...(this.runsPods ? { pods: podOwnership(this.type.kind, object) } : {}),
      warnings,
      ...(ruleProblem ? { problem: ruleProblem } : {}),
      ...(failure.failingSinceMs === undefined ? {} : { failingSinceMs: failure.failingSinceMs }),
    };
  }

  /** For `ready`: a paused rollout as the `paused` input says, through the kind's gate where it has one; and
   *  where a progressive rollout stands. */
  private paused(object: KubeObject, evaluation: Evaluation): Evaluation {
    const progress = this.progressive?.progress(object);
    const withProgress = progress ? { ...evaluation, progress } : evaluation;
    if (this.options.waitFor.kind !== 'ready') return withProgress;
    const policy = this.options.paused ?? 'wait';
    const pause = pauseOf(this.type.group, this.type.kind, object);
    return this.progressive?.gate(object, policy, withProgress, pause) ?? withPausePolicy(withProgress, pause, policy);
  }

  /**
   * `status-grace`: a custom resource without a rule whose CRD declares a status subresource and that has no
   * status yet waits for its controller (kstatus would call it Current). While the CRD fact is unknown it
   * is assumed (never a false green) and the verdict asks for it. Undefined: kstatus's evaluation stands.
   */
  private grace(object: KubeObject, evaluation: Evaluation, sighting: Sighting): Grace | undefined {
    const graceMs = this.options.statusGraceMs;
    if (
      this.rule ||
      (this.gitOps && this.options.revision) ||
      graceMs <= 0 ||
      this.options.waitFor.kind !== 'ready' ||
      !evaluation.done ||
      !hasNoStatus(object)
    )
      return undefined;
    const { statusSubresource } = sighting;
    if (statusSubresource === false) return undefined;
    const needsStatusSubresource = statusSubresource === undefined;
    const decision = statusGrace(object, { graceMs, hasStatusSubresource: true, firstSeenMs: sighting.firstSeenMs, now: sighting.now });
    switch (decision.decision) {
      case 'kstatus':
        return undefined;
      case 'expired':
        return { evaluation, needsStatusSubresource, warning: decision.warning };
      case 'wait': {
        const waiting: Evaluation = { ...decision.result, done: false, rule: evaluation.rule };
        // While the CRD is being read its answer, not the clock, is what judges it again.
        const recheckAtMs = needsStatusSubresource ? undefined : decision.endsAtMs + AFTER_MS;
        return { evaluation: waiting, needsStatusSubresource, ...(recheckAtMs === undefined ? {} : { recheckAtMs }) };
      }
    }
  }

  private evaluationWarning(object: KubeObject, rule: string, warning: string): JudgeWarning {
    const metadata = object.metadata as { name?: unknown } | undefined;
    const name = typeof metadata?.name === 'string' ? metadata.name : '';
    const where = this.type.namespaced ? `${this.namespace}/${name}` : name;
    return { message: `${this.type.kind} ${where}: ${warning}`, once: `${name}|${rule}` };
  }
}

/** The opt-out holds for every target source (refs, selector, manifests, release): the status stays the
 *  object's own, but the target counts as done. */
function optedOutReport(evaluation: Evaluation): Verdict['reported'] {
  const own = evaluation.message ? `: ${evaluation.message}` : '';
  return { ...evaluation, message: `not waited for (${WAIT_ANNOTATION}: false)${own}`, done: true, optedOut: true };
}
