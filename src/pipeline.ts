/**
 * What both shells do once they hold a `Settings` object: targets -> connect -> wait (a Helm release first,
 * when one is named: src/release/; the objects GitOps targets applied, src/gitops/) -> explain (engine/explain-result.ts) -> report. The action
 * (src/main.ts) and the command (src/cli/) differ only in where the live log, the secrets and the report
 * go, which they pass in as a `PipelineSink`; so both reach the same verdict on the same cluster.
 */
import { explainResult } from './engine/explain-result.js';
import { waitWithGitOps } from './gitops/index.js';
import { checkServing } from './serving/index.js';
import { parseSmoke, type SmokeCheck } from './smoke/parse.js';
import { runSmokeChecks } from './smoke/run.js';
import { connect, type KubeconfigSources } from './kube/index.js';
import { SecretMasks } from './kube/masks.js';
import { bufferedSink, createLiveLog, type LogSink } from './report/live-log.js';
import type { RunResult } from './result.js';
import { secretSettings, type Settings } from './settings.js';
import { installSignalHandlers } from './signals.js';
import { healthRulesFromSettings } from './status/health/index.js';
import { targetsFromInputs } from './targets/index.js';
import { realTime, timeoutSignal, type Time } from './time.js';
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
  // Installed first thing by the entry points (src/signals.ts); here it only hands out the signal.
  const signal = options.signal ?? installSignalHandlers();
  const { targets, healthRules } = await loadInputFiles(settings, options.cwd, time);
  const cluster = await connect(settings, masks, options.kubeconfigSources, time);
  const log = bufferedSink(sink.log);
  const startedAt = time.now();
  // The `smoke` input's checks (src/smoke/): parsed before the wait, so a bad list is an input error at once.
  const smokeChecks = parseSmoke(settings.smoke, settings.namespace || cluster.namespace || 'default');
  const smokeStage = async (checks: SmokeCheck[], waited: RunResult): Promise<RunResult> => {
    const smoke = await runSmokeChecks(checks, {
      client: cluster.client,
      time,
      signal,
      deadlineAt: startedAt + settings.timeoutMs,
      mask: (text) => masks.apply(text),
    });
    for (const check of smoke) {
      const line = `smoke check ${check.name}: ${check.ok ? 'passed' : 'did not pass by the deadline'}: status ${check.status}, ${check.attempts} attempts, ${check.latencyMs} ms`;
      if (check.ok) log.info(line);
      else log.warning(check.body ? `${line}; body: ${check.body}` : line);
    }
    const durationSeconds = (time.now() - startedAt) / 1000;
    return { ...waited, smoke, durationSeconds, outcome: smoke.every((c) => c.ok) ? waited.outcome : 'failed' };
  };
  try {
    await sink.begin?.();
    const waited = await waitWithGitOps(cluster, {
      ...settings,
      targets,
      healthRules,
      defaultNamespace: settings.namespace || cluster.namespace || 'default',
      signal,
      observer: createLiveLog(log, settings),
      time,
      // The release's decisions are the live log's too: nothing below the shells writes to stdout itself.
      say: (line) => log.info(line),
    });
    // Post-ready check stage (issue 31, `endpoints`), added by the `serve` helper: the lead re-homes it among
    // the pipeline's stages. Once every target is ready, Services need a ready endpoint (src/serving/).
    const served = settings.endpoints
      ? await checkServing(cluster.client, waited, {
          time,
          signal,
          deadlineAtMs: time.now() + Math.max(0, settings.timeoutMs - waited.durationSeconds * 1000),
          pollIntervalMs: settings.pollIntervalMs,
          warning: (message) => log.warning(message),
        })
      : waited;
    // Post-ready check stage (issue 31, `smoke`), added by the `serve` helper: once every target is ready (and
    // serving), the smoke checks run under the same deadline; one that does not pass fails the step.
    const smoked = smokeChecks.length > 0 && served.outcome === 'ready' ? await smokeStage(smokeChecks, served) : served;
    cluster.endOfWait();
    options.waited?.(smoked);
    log.flush();
    const result = await explainResult(cluster.client, smoked, settings, {
      mask: (text) => masks.apply(text),
      signal,
      warning: (message) => log.warning(message),
      time,
    });
    await sink.report(result, { server: cluster.server, context: cluster.contextName });
    return result;
  } finally {
    log.flush();
    await cluster.close();
  }
}

/**
 * The targets and health rules, whose globs are expanded within the step's deadline: a glob over a large
 * tree would otherwise walk for longer than `timeout` before the wait even starts. A cancellation does not
 * cut the reading short: the files are read to the end, so that the report that follows (`cancelled`) still
 * names every target they define; the deadline bounds it.
 */
async function loadInputFiles(settings: Settings, cwd: string, time: Time) {
  const deadline = timeoutSignal(time, settings.timeoutMs);
  const signal = deadline.signal;
  try {
    const targets = await targetsFromInputs(settings, { cwd, signal });
    const healthRules = await healthRulesFromSettings(settings, { files: workspaceFiles(cwd, { signal }) });
    return { targets, healthRules };
  } finally {
    deadline.clear();
  }
}
