/**
 * The prose of RESULTS.md: what the figures mean. Every number it quotes is computed from the results;
 * the mechanisms it names were observed with `kubectl -v=7` and CPU/heap profiles of kubewait (see the
 * benchmark engineer's report for the profiles).
 */
import type { RunRecord } from './measure.js';
import type { WaiterId } from './plan.js';
import type { BenchResults } from './report.js';
import { formatBytes, formatMiB, formatMs, median } from './stats.js';

type Pick = (x: RunRecord) => number;

function med(r: BenchResults, deployments: number, namespaces: number, waiter: WaiterId, pick: Pick): number {
  return median(
    r.runs
      .filter((x) => x.ok && x.waiter === waiter && x.scenario.deployments === deployments && x.scenario.namespaces === namespaces)
      .map(pick)
      .filter(Number.isFinite),
  );
}

const latency: Pick = (x) => x.latencyMs;
const ms = (v: number) => (Number.isFinite(v) ? formatMs(v) : 'n/a');
const mb = (kib: number) => (Number.isFinite(kib) ? formatMiB(kib) : 'n/a');

export function explanation(r: BenchResults): string {
  const evalOf = (id: string) => median(r.evals.filter((e) => e.bundle === id).map((e) => e.evalMs));
  const rssOf = (id: string) => median(r.evals.filter((e) => e.bundle === id).map((e) => e.peakRssKiB));
  const size = (id: string) => r.bundles.find((b) => b.id === id)?.bytes ?? Number.NaN;

  const kwDetect1 = med(r, 1, 1, 'kubewait-watch', (x) => x.phases.detectMs);
  const kwReport1 = med(r, 1, 1, 'kubewait-watch', (x) => x.phases.reportMs);
  const kwTeardown1 = med(r, 1, 1, 'kubewait-watch', (x) => x.phases.teardownMs);
  const kw1 = med(r, 1, 1, 'kubewait-watch', latency);
  const wait1 = med(r, 1, 1, 'kubectl-wait', latency);
  const wait100 = med(r, 100, 1, 'kubectl-wait', latency);
  const rollout100 = med(r, 100, 1, 'kubectl-rollout', latency);
  const perObjectWait = (wait100 - wait1) / 99;
  const perObjectRollout = (rollout100 - med(r, 1, 1, 'kubectl-rollout', latency)) / 99;
  const kw5000 = med(r, 5000, 1, 'kubewait-watch', latency);
  const kwDetect5000 = med(r, 5000, 1, 'kubewait-watch', (x) => x.phases.detectMs);
  const rss5000 = Math.max(
    med(r, 5000, 1, 'kubewait-watch', (x) => x.peakRssKiB),
    med(r, 5000, 50, 'kubewait-watch', (x) => x.peakRssKiB),
  );
  const rss5000esbuild = med(r, 5000, 1, 'kubewait-esbuild', (x) => x.peakRssKiB);
  const rss1 = med(r, 1, 1, 'kubewait-watch', (x) => x.peakRssKiB);
  const rss1esbuild = med(r, 1, 1, 'kubewait-esbuild', (x) => x.peakRssKiB);
  const kubectlRss = med(r, 1, 1, 'kubectl-wait', (x) => x.peakRssKiB);
  const heapAfterGc = med(r, 5000, 1, 'kubewait-gc', (x) => x.heapAfterGcKiB ?? Number.NaN);
  const rssYoung = med(r, 5000, 1, 'kubewait-young', (x) => x.peakRssKiB);
  const first = (w: WaiterId) => med(r, 1, 1, w, (x) => x.startup.toFirstRequestMs);

  return `## What the figures say
${r.quick ? '\n(A quick run: the cells it does not measure read n/a.)\n' : ''}
**Detection.** kubewait follows each namespace with one list and one open watch, so a ready status reaches it as a
watch event on a stream that is already open; it decides as soon as the last target is Current. At 1 Deployment the
event is turned into the \`-> Current\` log line ${ms(kwDetect1)} after the write; the rest of kubewait's
${ms(kw1)} is writing the outputs and the job summary and closing connections (${ms(kwReport1)}), and the process
teardown after its \`exit\` event (${ms(kwTeardown1)}: Node frees a ${mb(rss1)} process). kubectl is a Go binary of ${mb(kubectlRss)} that exits at once: ${ms(wait1)}
for one Deployment. ${
    kw1 >= wait1
      ? 'So at 1 Deployment kubewait loses to kubectl after detecting just as fast: what it does after detecting (reporting, exiting a large Node process) is the gap, not the watch.'
      : 'At 1 Deployment kubewait is ahead even with that overhead.'
  }

kubectl does not scale the same way. \`kubectl wait\` handles the objects of one invocation one after another, each
with its own list+watch (a streaming list, \`sendInitialEvents=true\`, per object by \`metadata.name\` field selector) in
client-go's \`UntilWithSync\`, whose \`WaitForCacheSync\` polls every 100 ms: ≈${ms(perObjectWait)} per Deployment here,
${ms(wait100)} for 100 Deployments in one namespace. \`kubectl rollout status -l\` also goes object by object, one
watch each, without that poll: ≈${ms(perObjectRollout)} per Deployment. Running one kubectl per namespace in parallel
divides the time by the number of namespaces, at the cost of one process (and one discovery) per namespace.
kubewait at 5,000 Deployments in one namespace: ${ms(kw5000)}, of which ${ms(kwDetect5000)} is processing the 5,000
watch events (parse, kstatus, one log line per target) after the last write.

**API load.** kubewait's requests do not depend on the number of Deployments: discovery, then per namespace one list
(one page per 500 objects) and one watch. kubectl wait and rollout status open one watch per Deployment, and every
kubectl process runs its own discovery (2 aggregated-discovery requests, \`/api\` and \`/apis\`, on this stand-in as on a
real API server; 7 against a server without aggregated discovery). In poll mode kubewait lists each namespace every interval instead of
watching: cheap here, but detection then waits for the next poll (about half the 2 s interval on average).

**Memory.** A Node process that has evaluated kubewait's bundle starts high: the empty script peaks at
${mb(rssOf('node'))}, client-node alone at ${mb(rssOf('floor'))}, the esbuild bundle at ${mb(rssOf('esbuild'))} and
the ncc bundle at ${mb(rssOf('ncc'))} before any request; the first HTTPS requests add the TLS context and connections. In a wait of 1 Deployment kubewait peaks at ${mb(rss1)} (esbuild bundle: ${mb(rss1esbuild)}),
at 5,000 at ${mb(rss5000)} (esbuild bundle: ${mb(rss5000esbuild)}). What grows with the Deployments is not kept
state — after a full GC at exit the heap holds ${mb(heapAfterGc)} at 5,000 — but V8's young generation, which by
default doubles under the burst of list pages and watch events up to its 16 MB semi-spaces. src/index.ts stops that
growth with \`v8.setFlagsFromString('--semi-space-growth-factor=1')\` before the rest of the bundle is evaluated (an
action cannot pass Node flags); the diagnostic run with the flag set the same way peaks at ${mb(rssYoung)}. Before
src/index.ts did this, runs at 5,000 Deployments peaked 35-45 MB higher (see this file's history).

**Start-up.** Spawn to first API request: ${ms(first('kubewait-watch'))} for dist/index.js (${formatBytes(size('dist'))}), ${ms(first('kubewait-esbuild'))}
for the esbuild bundle, ${ms(first('kubectl-wait'))} for kubectl. Most of it is evaluating the bundle: ${ms(evalOf('ncc'))}
for ncc's ${formatBytes(size('ncc'))} file, ${ms(evalOf('esbuild'))} for esbuild's ${formatBytes(size('esbuild'))} of the same
source, against ${ms(evalOf('floor'))} for client-node alone (the floor while client-node is the client): about half of
any bundle's evaluation is V8 compiling the single large module before running it. Discovery is then
${ms(med(r, 1, 1, 'kubewait-watch', (x) => x.startup.discoveryMs))} (aggregated discovery: \`/api\` and \`/apis\` in 2
requests, as kubectl does).

**Bundler.** ncc keeps every module of every dependency (webpack module wrappers, little tree-shaking); esbuild
tree-shakes the ES modules and hoists scopes: ${formatBytes(size('ncc'))} against ${formatBytes(size('esbuild'))}, and in
this run ${ms(evalOf('ncc') - evalOf('esbuild'))} less evaluation and ${mb(rssOf('ncc') - rssOf('esbuild'))} less memory at start.`;
}
