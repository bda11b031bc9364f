/**
 * From the failure verdict to the rollback's first PATCH (issue 32: under 1 s):
 *   npx tsx bench/rollback.ts [--runs 7]
 *
 * The scenario: an Argo Rollout in the API server stand-in turns Degraded 100 ms after the step starts;
 * `dist/index.js` runs with `rollback: on-failure`, so it fails, explains, and aborts the Rollout through its
 * status subresource (the rollback's first write). This process records the moment the step's live log
 * says the Rollout is Failed (the verdict, as the runner sees it) and polls the stand-in's request log every
 * millisecond for the PATCH. Between the two: the last look, the explain step, the log flush and the
 * rollback's reads. A fresh namespace per run.
 *
 * Prints the figures and writes the marked section "rollback" of bench/RESULTS.md (bench/sections.ts).
 * Never part of `npm test`: timings.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { crdFor } from '../test/cluster/controllers/scripted.js';
import { startCluster } from '../test/cluster/index.js';
import { establishCrds } from '../test/cluster/testkit.js';
import { ensureDist } from '../test/e2e/dist.js';
import { runAction } from '../test/e2e/runAction.js';
import { setSection } from './sections.js';
import { formatSummary, summarize } from './stats.js';

const RESULTS_MD = fileURLToPath(new URL('RESULTS.md', import.meta.url));
const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 7;

await ensureDist();
const cluster = await startCluster({ speed: 0.5, crdEstablishDelayMs: 20 });
await establishCrds(cluster, [crdFor({ group: 'argoproj.io', kind: 'Rollout', plural: 'rollouts', versions: ['v1alpha1'] })] as Array<{
  metadata: { name: string };
}>);
const loads: number[] = [];
const latencies: number[] = [];
try {
  for (let i = 0; i < runs; i++) {
    const ns = `rb-bench-${i}`;
    const status = { observedGeneration: '$generation:string', phase: 'Degraded', message: 'ProgressDeadlineExceeded: timed out progressing.' };
    cluster.create({
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'Rollout',
      metadata: { name: 'web', namespace: ns, annotations: { 'kubewait.test/status-script': JSON.stringify([{ afterMs: 100, status }]) } },
      spec: {},
    });
    let failedAt: number | undefined;
    let patchedAt: number | undefined;
    const patched = () => cluster.counters.requests().some((r) => r.namespace === ns && r.verb === 'patch');
    const poll = setInterval(() => {
      if (patchedAt === undefined && patched()) patchedAt = performance.now();
    }, 1);
    loads.push(os.loadavg()[0]!);
    const run = await runAction(
      { kubeconfig: cluster.kubeconfig({ namespace: ns }), resources: 'rollouts.argoproj.io/web', timeout: '60s', rollback: 'on-failure' },
      {
        onStdout: (stdout) => {
          if (failedAt === undefined && /Rollout\/web.*Failed|web.*Failed/.test(stdout)) failedAt = performance.now();
        },
      },
    );
    clearInterval(poll);
    if (run.outputs['rollback-result'] !== 'ready' || failedAt === undefined || patchedAt === undefined) {
      console.error(`run ${i}: no measurement (rollback-result ${run.outputs['rollback-result']}, verdict seen ${failedAt !== undefined})`);
      continue;
    }
    latencies.push(patchedAt - failedAt);
    console.log(`run ${i}: verdict -> first PATCH ${(patchedAt - failedAt).toFixed(1)} ms`);
  }
} finally {
  await cluster.close();
}
const summary = formatSummary(summarize(latencies));
const load = `load ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)} on ${os.cpus().length} cores`;
console.log(`verdict -> first rollback PATCH: ${summary} (${latencies.length} runs, ${load})`);
const body = [
  '### Rollback: from the failure verdict to the first PATCH (issue 32)',
  '',
  '`npx tsx bench/rollback.ts`: an Argo Rollout Degraded 100 ms after the start, `rollback: on-failure`; from the live log line that',
  "says Failed to the stand-in receiving the abort PATCH (the last look, the explain step, the flush, the rollback's reads).",
  '',
  `| runs | verdict -> first PATCH | load |`,
  `|---:|---|---|`,
  `| ${latencies.length} | ${summary} | ${load} |`,
].join('\n');
writeFileSync(RESULTS_MD, setSection(readFileSync(RESULTS_MD, 'utf8'), 'rollback', body));
