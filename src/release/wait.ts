/**
 * The `release` input's flow (issue 14), between connecting and reporting: follow the Helm release until
 * there is something to wait for (follow.ts), then hand its objects, with what is left of the overall
 * deadline, to the engine, and put the release into the result for the report.
 *
 * | release | what the run does |
 * |---|---|
 * | deployed | waits for its objects (and the other inputs' targets) as `wait-for` says |
 * | pending-*, missing, or older than `release-min-revision` | reads it again every poll interval; at the deadline: `timeout`, saying what it waited for |
 * | failed | Failed with Helm's description; the objects are still judged briefly so the summary shows which one broke |
 * | uninstalling | a deletion wait for its objects (the other targets keep `wait-for`) |
 * | superseded, uninstalled, unreadable, forbidden | `error` naming the `release` input |
 *
 * Without `release` it is exactly `waitForTargets`.
 */
import { waitForTargets } from '../engine/index.js';
import { Scheduler } from '../engine/scheduler.js';
import type { EngineOptions, EngineResult } from '../engine/types.js';
import { groupVersion, type Cluster } from '../kube/index.js';
import { reportedSource, type ReleaseReport, type RunResult, type TargetReport } from '../result.js';
import { InputError, type Settings } from '../settings.js';
import { dedupe, type TargetSpec } from '../targets/index.js';
import { releaseHeadline } from './decode.js';
import { settleRelease, type SettledRelease } from './follow.js';

/** How long the objects of a failed release are judged: long enough for a failing image pull to count as
 *  unrecoverable (the status library's 15 s grace), so the summary names it. */
const FAILED_RELEASE_JUDGING_MS = 20_000;

export interface ReleaseWaitOptions extends EngineOptions, Pick<Settings, 'release' | 'releaseMinRevision'> {
  /** The release's decisions, one line each, for the run's live log (the pipeline's sink): never stdout
   *  directly, so the command's `-o json` stays one document and its redactor sees every line. */
  say(line: string): void;
}

/** Waits for the targets and, when `release` names one, for the Helm release's objects; every target in every outcome. */
export async function waitWithRelease(cluster: Cluster, options: ReleaseWaitOptions): Promise<RunResult> {
  if (!options.release) return waitForTargets(cluster, options);
  // The deadline and the judging window of a failed release; every time read is the run's clock.
  const timers = new Scheduler(options.time);
  const started = timers.now();
  const cancelled = options.signal ?? new AbortController().signal;
  try {
    return await follow(cluster, options, { started, cancelled, timers });
  } finally {
    timers.close();
  }
}

/** The release wing's run: when it started (on the run's clock), its cancellation, its timers. */
interface Run {
  started: number;
  cancelled: AbortSignal;
  timers: Scheduler;
}

async function follow(cluster: Cluster, options: ReleaseWaitOptions, run: Run): Promise<RunResult> {
  const { started, cancelled, timers } = run;
  const name = options.release;
  const namespace = options.defaultNamespace;
  const deadline = abortAfter(timers, options.timeoutMs, cancelled);

  let settled: SettledRelease;
  try {
    settled = await settleRelease(cluster.client, namespace, name, {
      pollIntervalMs: options.pollIntervalMs,
      minRevision: options.releaseMinRevision,
      signal: deadline,
      onDecision: (decision) => options.say(`kubewait: ${decision.message}`),
      warn: (message) => options.observer?.warning?.(message),
      ...(options.time && { time: options.time }),
    });
  } catch (error) {
    if (!(error instanceof InputError)) throw error; // credentials rejected: the step's one clean error
    const report: ReleaseReport = { name, namespace, title: name, message: error.message };
    return unjudged(cluster, options, options.targets, error.message, run, {
      outcome: 'failed',
      error: { input: 'release', message: error.message },
      release: report,
    });
  }

  const { decision, release } = settled;
  const report: ReleaseReport =
    release === 'not-found'
      ? { name, namespace, title: name, message: decision.message }
      : { name, namespace, revision: release.revision, status: release.status, title: releaseHeadline(release), message: decision.message };
  const remainingMs = Math.max(0, options.timeoutMs - (timers.now() - started));

  switch (decision.action) {
    case 'poll-again': {
      // The deadline (or the job's cancellation) came while helm was still at work, or before the release existed.
      const known = release === 'not-found' ? [] : release.targets;
      const targets = dedupe([...options.targets, ...known]);
      const message = `not judged: ${decision.message}`;
      return unjudged(cluster, options, targets, message, run, {
        outcome: 'timeout',
        cancelled: cancelled.aborted,
        release: { ...report, verdict: 'unsettled' },
      });
    }
    case 'error':
      return unjudged(
        cluster,
        options,
        dedupe([...options.targets, ...(release === 'not-found' ? [] : release.targets)]),
        `not judged: ${decision.message}`,
        run,
        {
          outcome: 'failed',
          error: { input: 'release', message: decision.message },
          release: report,
        },
      );
    case 'wait': {
      const result = await waitForTargets(cluster, { ...options, targets: dedupe([...options.targets, ...decision.targets]), timeoutMs: remainingMs });
      return withRelease(result, report, run);
    }
    case 'wait-deleted': {
      // One engine has one goal: the release's objects are waited for deletion beside the other targets.
      const others = options.targets.length > 0 ? [waitForTargets(cluster, { ...options, timeoutMs: remainingMs })] : [];
      const results = await Promise.all([
        waitForTargets(cluster, { ...options, targets: decision.targets, waitFor: { kind: 'deleted' }, timeoutMs: remainingMs }),
        ...others,
      ]);
      // Alone, the release's deletion is the run's goal, and the report says "deleted"; beside other targets it is mixed.
      const goal = others.length === 0 ? { waitFor: { kind: 'deleted' as const } } : {};
      return withRelease({ ...merge(results), ...goal }, report, run);
    }
    case 'fail': {
      // Helm already said it failed: judge the objects only briefly (so the summary shows which one
      // broke), then fail with Helm's words whatever they look like.
      const judging = abortAfter(timers, Math.min(remainingMs, FAILED_RELEASE_JUDGING_MS), cancelled);
      const result = await waitForTargets(cluster, {
        ...options,
        targets: dedupe([...options.targets, ...decision.targets]),
        timeoutMs: remainingMs,
        signal: judging,
      });
      const outcome = cancelled.aborted ? result : { ...result, outcome: 'failed' as const, cancelled: false };
      return withRelease(outcome, { ...report, verdict: 'failed' }, run);
    }
  }
}

/** A signal that aborts after `ms`, or with `signal`. */
function abortAfter(timers: Scheduler, ms: number, signal: AbortSignal): AbortSignal {
  const controller = new AbortController();
  timers.after(ms, () => controller.abort());
  return AbortSignal.any([signal, controller.signal]);
}

/** The time spent following the release counts: every `seconds` is from the start of the step. */
function withRelease(result: RunResult, release: ReleaseReport, { started, timers }: Run): RunResult {
  const offset = Math.max(0, (timers.now() - started) / 1000 - result.durationSeconds);
  const shift = (seconds: number) => Math.round((seconds + offset) * 100) / 100;
  for (const target of result.targets) {
    target.seconds = shift(target.seconds);
    for (const entry of target.history) entry.atSeconds = shift(entry.atSeconds);
  }
  return { ...result, durationSeconds: shift(result.durationSeconds), release };
}

/** How long reporting targets that were never judged may spend learning which of their types are cluster-scoped. */
const DISCOVERY_BUDGET_MS = 2_000;

/**
 * Targets that were never handed to the engine, reported as such (every target in every outcome). Their
 * types are resolved through discovery when it answers quickly, so that a cluster-scoped object is not
 * shown in the release namespace; otherwise they are shown as written.
 */
async function unjudged(
  cluster: Cluster,
  options: ReleaseWaitOptions,
  targets: TargetSpec[],
  message: string,
  { started, timers }: Run,
  result: Pick<RunResult, 'outcome' | 'release'> & Partial<Pick<RunResult, 'error' | 'cancelled'>>,
): Promise<RunResult> {
  if (targets.length > 0 && !options.signal?.aborted) {
    await cluster.discovery.load(AbortSignal.timeout(DISCOVERY_BUDGET_MS)).catch(() => undefined);
  }
  const seconds = Math.round((timers.now() - started) / 10) / 100;
  const reports = targets.map((spec): TargetReport => {
    const resolution = cluster.discovery.resolve(spec);
    const type = resolution.ok ? resolution.type : undefined;
    return {
      apiVersion: type ? groupVersion(type.group, type.version) : (spec.apiVersion ?? ''),
      kind: type?.kind ?? spec.type,
      namespace: type && !type.namespaced ? '' : (spec.namespace ?? options.defaultNamespace),
      name: spec.name ?? '',
      ...(spec.name ? {} : { selector: spec.selector ?? '' }),
      status: 'Unknown',
      message,
      done: false,
      seconds,
      ...reportedSource(spec.source),
      history: [{ status: 'Unknown', message, atSeconds: seconds }],
      conditions: [],
      rule: 'kstatus',
    };
  });
  return { cancelled: false, ...result, durationSeconds: seconds, targets: reports, warnings: [] };
}

/** Two waits side by side, as one: the worse outcome, every target, every warning. */
function merge(results: EngineResult[]): EngineResult {
  const rank = { ready: 0, timeout: 1, failed: 2 } as const;
  const [first, ...rest] = results;
  if (!first) throw new Error('merge needs at least one result');
  return rest.reduce(
    (a, b) => ({
      outcome: rank[b.outcome] > rank[a.outcome] ? b.outcome : a.outcome,
      cancelled: a.cancelled || b.cancelled,
      durationSeconds: Math.max(a.durationSeconds, b.durationSeconds),
      targets: [...a.targets, ...b.targets],
      warnings: [...new Set([...a.warnings, ...b.warnings])],
      ...((a.error ?? b.error) ? { error: a.error ?? b.error } : {}),
    }),
    first,
  );
}
