/**
 * What both shells do once they hold a `Settings` object, under the run's one deadline:
 *
 *   targets -> connect -> wait (the engine, fed by the feeds) -> explain -> report
 *
 * The wait is one engine run (src/engine/): the inputs' targets from the start, and the targets its feeds
 * add as they learn them: a Helm release's objects once helm has settled it (src/release/), the objects the
 * GitOps targets applied (src/gitops/). The explain step (engine/explain-result.ts) reads the pods and log
 * tails of what did not get there. The action (src/main.ts) and the command (src/cli/) differ only in where
 * the live log, the secrets and the report go, which they pass in as a `PipelineSink`; so both reach the
 * same verdict on the same cluster. docs/architecture.md, "Feeds and stages", says where new ones go.
 */
import { explainResult } from './engine/explain-result.js';
import { waitForTargets, type HealthRules, type TargetFeed } from './engine/index.js';
import { GitOpsFeed } from './gitops/index.js';
import { ReleaseFeed } from './release/index.js';
import { checkServing } from './serving/index.js';
import { parseSmoke, type SmokeCheck } from './smoke/parse.js';
import { runSmokeChecks, warmUpFetch } from './smoke/run.js';
import { connect, type Cluster, type KubeconfigSources } from './kube/index.js';
import { SecretMasks } from './kube/masks.js';
import { bufferedSink, createLiveLog, type LogSink } from './report/live-log.js';
import { rehearsing, type Rehearse } from './rehearsal.js';
import type { RunResult } from './result.js';
import { secretSettings, type Settings } from './settings.js';
import { installSignalHandlers } from './signals.js';
import { rollBack, rollbackWanted } from './rollback/index.js';
import { healthRulesFromSettings } from './status/health/index.js';
import { targetsFromInputs } from './targets/index.js';
import { Deadline, realTime, type Time } from './time.js';
import { workspaceFiles } from './workspace-files.js';

/** The cluster a wait ran against, for the report. */
export interface ClusterInfo {
  /** API server URL. */
  server: string;
  /** Kubeconfig context name. */
  context: string;
}

/** The shell-specific parts of a run. */
export interface PipelineSink {
  /** The live log; written in bursts (see `bufferedSink`). */
  log: LogSink;
  /** Registers a credential before anything could show it. */
  mask(secret: string): void;
  /** Connected, as the wait starts: the action starts its Deployment here, beside the wait. Resolves at once:
   *  nothing slow may stand between the connection and the wait. */
  begin?(): void | Promise<void>;
  /** Reports a finished wait, in every outcome. */
  report(result: RunResult, cluster: ClusterInfo): Promise<void>;
  /** Renders the report of a sample and writes nothing, while the wait waits (src/rehearsal.ts). */
  rehearse?: Rehearse;
}

export interface PipelineOptions {
  /** Where relative manifest paths start. */
  cwd: string;
  /** Where to look for a kubeconfig when `settings.kubeconfig` is empty (default: $KUBECONFIG, ~/.kube/config, in-cluster). */
  kubeconfigSources?: KubeconfigSources;
  /** The clock and timers of every decision, from discovery's rate limit to the log budget (default: real time; tests make it virtual). */
  time?: Time;
  /** Ends the wait early, as a cancelled job does (default: the process's SIGINT/SIGTERM, src/signals.ts;
   *  the fleet adds its fail-fast across clusters, src/fleet/). */
  signal?: AbortSignal;
  /** The wait is over, before the explain step reads pods and logs: the fleet stops the other clusters here. */
  waited?(result: Pick<RunResult, 'outcome' | 'error' | 'cancelled'>): void;
  /** The step's one deadline (default: `timeout` from now, on `time`); the fleet's is every cluster's. */
  deadline?: Deadline;
}

/**
 * Resolves the targets, connects, waits, explains what is not ready (pods, log tails) and reports. Throws an `InputError` for a problem found before the
 * wait (manifests, kubeconfig); everything after that is in the returned result.
 */
export async function waitAndReport(settings: Settings, sink: PipelineSink, options: PipelineOptions): Promise<RunResult> {
  // Kept beside the shell's masks: log text the cluster returns goes into the report, which nobody else masks.
  const masks = new SecretMasks((secret) => sink.mask(secret));
  for (const secret of secretSettings(settings)) masks.mask(secret);
  const time = options.time ?? realTime;
  const deadline = options.deadline ?? new Deadline(time, settings.timeoutMs);
  // Installed first thing by the entry points (src/signals.ts); here it only hands out the signal.
  const signal = options.signal ?? installSignalHandlers();
  const { targets, healthRules } = await loadInputFiles(settings, options.cwd, deadline);
  const cluster = await connect(settings, masks, options.kubeconfigSources, time);
  const log = bufferedSink(sink.log);
  try {
    const defaultNamespace = settings.namespace || cluster.namespace || 'default';
    // The `smoke` input's checks (src/smoke/): parsed before the wait, so a bad list is an input error at once
    // (and the connection is still closed, below).
    const smokeChecks = parseSmoke(settings.smoke, defaultNamespace);
    // A smoke check's header values are credentials (a token from the environment): masked before anything could show them.
    for (const check of smokeChecks) for (const value of Object.values(check.headers ?? {})) masks.mask(value);
    warmUpFetch(smokeChecks); // smoke (issue 31): the first check after readiness must not pay for loading fetch
    await sink.begin?.();
    // The feeds' decisions are the live log's too: nothing below the shells writes to stdout itself.
    const say = (line: string) => log.info(line);
    const release = settings.release ? new ReleaseFeed({ ...settings, namespace: defaultNamespace }, say) : undefined;
    const gitOps = { ...settings, targets, defaultNamespace };
    const feeds: TargetFeed[] = [...(release ? [release] : []), ...(GitOpsFeed.wanted(gitOps) ? [new GitOpsFeed(gitOps, say)] : [])];
    const engineResult = await waitForTargets(cluster, {
      ...settings,
      targets,
      healthRules,
      defaultNamespace,
      signal,
      observer: rehearsing(createLiveLog(log, settings), sink.rehearse, time),
      time,
      deadline,
      feeds,
    });
    const run: StageContext = { cluster, settings, masks, signal, time, log, healthRules, defaultNamespace, deadline, smokeChecks };
    let result: RunResult = release?.report ? { ...engineResult, release: release.report } : engineResult;
    for (const stage of ONCE_READY) result = await stage(result, run);
    cluster.endOfWait();
    options.waited?.(result);
    log.flush();
    for (const stage of AFTER_THE_WAIT) result = await stage(result, run);
    await sink.report(result, { server: cluster.server, context: cluster.contextName });
    return result;
  } finally {
    log.flush();
    // On the next turn, after the report: closing the connections (TLS sockets) took 1 ms before the shell
    // could exit (bench/RESULTS.md), and a shell that exits by then leaves them to the OS.
    setImmediate(() => void cluster.close());
  }
}

/** What a stage after the wait may use: the run's cluster, settings, signal, clock and live log. */
interface StageContext {
  cluster: Cluster;
  settings: Settings;
  masks: SecretMasks;
  signal: AbortSignal;
  time: Time;
  log: ReturnType<typeof bufferedSink>;
  healthRules: HealthRules;
  defaultNamespace: string;
  deadline: Deadline;
  smokeChecks: SmokeCheck[];
}

/** One stage after the wait: the result so far in, the result with its own part out (docs/architecture.md,
 *  "Feeds and stages"). Each returns at once when it has nothing to do. */
type Stage = (result: RunResult, run: StageContext) => Promise<RunResult>;

/**
 * The checks once every target is ready, in order, under the same deadline: part of the verdict (the fleet
 * decides on it), so they run before the wait counts as over. Each does nothing unless the wait was ready.
 */
const ONCE_READY: Stage[] = [checkEndpoints, smokeTest];

/**
 * The stages after the wait, in order. Every one runs before the one report: the failure's evidence (statuses,
 * pods, log tails) is read by the explain step before a rollback patches anything, and the report puts it
 * first and what came after below it; one report keeps one set of outputs, one summary, one PR comment, one
 * `-o json` document, and the fleet's report once.
 */
const AFTER_THE_WAIT: Stage[] = [explain, rollBackAfterFailure];

/** The `endpoints` input (src/serving/): Services need a ready endpoint, Ingresses an address. */
async function checkEndpoints(result: RunResult, { cluster, settings, signal, time, log, deadline }: StageContext): Promise<RunResult> {
  if (!settings.endpoints) return result;
  return checkServing(cluster.client, result, {
    time,
    signal,
    deadlineAtMs: deadline.at,
    pollIntervalMs: settings.pollIntervalMs,
    warning: (message) => log.warning(message),
  });
}

/** The `smoke` input (src/smoke/): the HTTP checks; one that does not pass by the deadline fails the step. */
async function smokeTest(result: RunResult, { cluster, smokeChecks, signal, time, log, masks, deadline }: StageContext): Promise<RunResult> {
  if (smokeChecks.length === 0 || result.outcome !== 'ready') return result;
  const smoke = await runSmokeChecks(smokeChecks, { client: cluster.client, time, signal, deadlineAt: deadline.at, mask: (text) => masks.apply(text) });
  for (const check of smoke) {
    const line = `smoke check ${check.name}: ${check.ok ? 'passed' : `did not pass by the deadline (${check.reason})`}: status ${check.status}, ${check.attempts} attempts, ${check.latencyMs} ms`;
    if (check.ok) log.info(line);
    else log.warning(check.body ? `${line}; body: ${check.body}` : line);
  }
  const durationSeconds = (time.now() - deadline.startedAt) / 1000;
  return { ...result, smoke, durationSeconds, outcome: smoke.every((c) => c.ok) ? result.outcome : 'failed' };
}

/** The explain step (engine/explain-result.ts): pods, log tails, a failed Job in words, for what did not get there. */
function explain(result: RunResult, { cluster, settings, masks, signal, time, log }: StageContext): Promise<RunResult> {
  return explainResult(cluster.client, result, settings, {
    mask: (text) => masks.apply(text),
    signal,
    warning: (message) => log.warning(message),
    time,
  });
}

/** The `rollback` input (src/rollback/): after a failed or timed-out wait, undo the workloads that did not get there. */
async function rollBackAfterFailure(result: RunResult, run: StageContext): Promise<RunResult> {
  const { settings, signal, log } = run;
  if (!rollbackWanted(settings.rollback, result, signal.aborted)) return result;
  log.info(`kubewait: the wait ended ${result.outcome}; rolling back (rollback: ${settings.rollback}, scope: ${settings.rollbackScope})`);
  log.flush();
  const rollback = await rollBack(run.cluster, result, settings, {
    signal,
    time: run.time,
    say: (line) => log.info(line),
    warn: (message) => log.warning(message),
    observer: createLiveLog(log, settings),
    healthRules: run.healthRules,
    defaultNamespace: run.defaultNamespace,
  });
  log.flush();
  return { ...result, rollback };
}

/**
 * The targets and health rules, whose globs are expanded within the step's deadline: a glob over a large
 * tree would otherwise walk for longer than `timeout` before the wait even starts. A cancellation does not
 * cut the reading short: the files are read to the end, so that the report that follows (`cancelled`) still
 * names every target they define; the deadline bounds it.
 */
async function loadInputFiles(settings: Settings, cwd: string, deadline: Deadline) {
  const window = deadline.signal();
  const { signal } = window;
  try {
    const targets = await targetsFromInputs(settings, { cwd, signal });
    const healthRules = await healthRulesFromSettings(settings, { files: workspaceFiles(cwd, { signal }) });
    return { targets, healthRules };
  } finally {
    window.clear();
  }
}
