/**
 * Several clusters in one step (the `clusters` input): a layer above the one-cluster pipeline
 * (src/pipeline.ts). Each cluster runs that pipeline as it is (connect -> wait -> explain) with its own
 * kubeconfig, context and namespace, all in parallel, started together under the one `timeout` and the
 * job's one cancellation signal; their results are combined (combine.ts) and reported once, through the
 * shell's sink, as one step's result.
 *
 * Once one cluster's wait decides the verdict (a Failed target with `fail-fast` and policy `all`, a ready
 * cluster with policy `any`), the others stop and report their targets as they stood (stops.ts). A cluster
 * that cannot be used (its kubeconfig, its credentials, its server) is that cluster's `error`; the others
 * are still waited for and reported.
 *
 * Without `clusters`, `waitEverywhere` is `waitAndReport`: the one-cluster code path, unchanged.
 */
import path from 'node:path';
import type { KubeconfigSources } from '../kube/index.js';
import { defaultSources } from '../kube/kubeconfig.js';
import { waitAndReport, type PipelineOptions, type PipelineSink } from '../pipeline.js';
import type { LogSink } from '../report/writer.js';
import { notJudgedReport, type ClusterRun, type RunResult } from '../result.js';
import { writtenIdentity } from '../targets/builtin-kinds.js';
import { targetsFromInputs, type TargetSpec } from '../targets/index.js';
import { InputError, type ClusterSpec, type Settings } from '../settings.js';
import { installSignalHandlers } from '../signals.js';
import { Deadline, realTime } from '../time.js';
import { ENVIRONMENT_VARIABLE } from './clusters-input.js';
import { combineClusterRuns } from './combine.js';
import { ClusterStops } from './stops.js';

export { combineClusterRuns } from './combine.js';

/** The shells' entry: every cluster of `settings.clusters`, or the one cluster without it. */
export async function waitEverywhere(settings: Settings, sink: PipelineSink, options: PipelineOptions): Promise<RunResult> {
  if (settings.clusters.length === 0) return waitAndReport(settings, sink, options);
  return waitAcrossClusters(settings, sink, options);
}

async function waitAcrossClusters(settings: Settings, sink: PipelineSink, options: PipelineOptions): Promise<RunResult> {
  const cancelled = options.signal ?? installSignalHandlers();
  // One deadline for every cluster: they start together and end together.
  const deadline = options.deadline ?? new Deadline(options.time ?? realTime, settings.timeoutMs);
  const sources = options.kubeconfigSources ?? defaultSources();
  const stops = new ClusterStops(
    settings.clusters.map((spec) => spec.name),
    settings.clusterPolicy,
    settings.failFast,
  );
  let begun: Promise<void> | undefined;

  const runs = await Promise.all(
    settings.clusters.map(async (spec, at): Promise<ClusterRun | InputError> => {
      let where = { server: '', context: '' };
      const clusterSink: PipelineSink = {
        log: prefixedLog(sink.log, `[${spec.name}] `),
        mask: (secret) => sink.mask(secret),
        // The pull-request comment and the Deployment open once, when the first cluster is connected.
        begin: () => (begun ??= sink.begin?.() ?? Promise.resolve()),
        report: async (_result, cluster) => {
          where = cluster;
        },
        // The step's report is made once, at the end: one cluster's wait rehearses it (src/rehearsal.ts).
        ...(at === 0 && { rehearse: sink.rehearse }),
      };
      try {
        const { settings: clusterSettings, kubeconfigSources } = clusterConnection(settings, spec, sources, options.cwd);
        const result = await waitAndReport(clusterSettings, clusterSink, {
          ...options,
          kubeconfigSources,
          deadline,
          signal: AbortSignal.any([cancelled, stops.signal(at)]),
          waited: (waited) => stops.waited(at, waited),
        });
        // The job's signal makes the whole step `cancelled`: then no cluster was stopped by another.
        const stopped = cancelled.aborted ? undefined : stops.stopped(at, result);
        if (stopped) clusterSink.log.info(`stopped: ${stopped}`);
        return { name: spec.name, ...where, result, ...(stopped && { stopped }) };
      } catch (error) {
        if (error instanceof InputError) return error;
        throw error;
      }
    }),
  );
  // The same problem in every cluster is the step's input (a manifest, a health rule): today's setup failure.
  const problems = runs.filter((run): run is InputError => run instanceof InputError);
  if (problems.length === runs.length && problems.every((problem) => !CLUSTER_OWN_INPUTS.has(problem.input))) {
    throw problems[0]!;
  }
  const clusterRuns = await Promise.all(
    runs.map(async (run, at) =>
      run instanceof InputError
        ? unusable(settings.clusters[at]!, run, await namedTargets(clusterTargets(settings, settings.clusters[at]!), options.cwd), settings.namespace)
        : run,
    ),
  );
  const result = combineClusterRuns(clusterRuns, settings.clusterPolicy, cancelled.aborted);
  await sink.report(result, { server: '', context: '' });
  return result;
}

/** Problems of one cluster's own connection (its entry of `clusters`, its kubeconfig and context), not of the step. */
const CLUSTER_OWN_INPUTS = new Set(['clusters', 'kubeconfig', 'context']);

/** A cluster whose kubeconfig could not be used: its error, named, and every target it would have waited
 *  for, named as without discovery (no type was resolved), `Unknown`: not checked. */
function unusable(spec: ClusterSpec, problem: InputError, targets: TargetSpec[], namespace: string): ClusterRun {
  const error = { input: problem.input, message: problem.message };
  const reports = targets.map((target) => notJudgedReport(writtenIdentity(target, spec.namespace || namespace), `not checked: ${problem.message}`, 0));
  return {
    name: spec.name,
    server: '',
    context: '',
    result: { outcome: 'failed', cancelled: false, durationSeconds: 0, targets: reports, warnings: [], error },
  };
}

/** The targets of `resources`, `selector` and `manifests` as named; none when they cannot be read (another
 *  cluster's report says why). A Helm release's objects are only known by reading the cluster. */
async function namedTargets(settings: Settings, cwd: string): Promise<TargetSpec[]> {
  try {
    return await targetsFromInputs(settings, { cwd });
  } catch {
    return [];
  }
}

/**
 * One cluster's settings and kubeconfig sources. Its `kubeconfig` names an environment variable holding
 * kubeconfig content (a secret, like the `kubeconfig` input), or files that are read as `$KUBECONFIG` is
 * (several merged, relative paths inside relative to each file); empty, the step's own.
 */
export function clusterConnection(
  settings: Settings,
  spec: ClusterSpec,
  sources: KubeconfigSources,
  cwd: string,
): { settings: Settings; kubeconfigSources: KubeconfigSources } {
  const own = { ...clusterTargets(settings, spec), clusters: [], context: spec.context, namespace: spec.namespace || settings.namespace };
  if (spec.kubeconfig === '') return { settings: own, kubeconfigSources: sources };
  if (ENVIRONMENT_VARIABLE.test(spec.kubeconfig)) {
    const content = sources.env[spec.kubeconfig]?.trim() ?? '';
    if (content === '') {
      // The user's to fix, not the cluster's: named after `clusters`, so the command exits 3, not 4.
      throw new InputError(
        'clusters',
        `its kubeconfig is read from the environment variable ${spec.kubeconfig}, which is empty or unset. Set it on the step, like env: ${spec.kubeconfig}: \${{ secrets.${spec.kubeconfig} }}.`,
      );
    }
    return { settings: { ...own, kubeconfig: content }, kubeconfigSources: sources };
  }
  const files = spec.kubeconfig
    .split(path.delimiter)
    .filter(Boolean)
    .map((file) => path.resolve(cwd, file))
    .join(path.delimiter);
  return { settings: { ...own, kubeconfig: '' }, kubeconfigSources: { ...sources, env: { ...sources.env, KUBECONFIG: files } } };
}

/** The step's settings with what this cluster waits for: its own `resources`, which replace the step's, if it
 *  has any; the selector, manifests and release are the step's. */
function clusterTargets(settings: Settings, spec: ClusterSpec): Settings {
  return spec.resources === undefined ? settings : { ...settings, resources: spec.resources };
}

/** Each line of a cluster's live log says which cluster it is of. */
function prefixedLog(log: LogSink, prefix: string): LogSink {
  const prefixed = (text: string) =>
    text
      .split('\n')
      .map((line) => prefix + line)
      .join('\n');
  return {
    info: (message) => log.info(prefixed(message)),
    warning: (message) => log.warning(prefixed(message)),
    startGroup: (name) => log.startGroup(prefixed(name)),
    endGroup: () => log.endGroup(),
  };
}
