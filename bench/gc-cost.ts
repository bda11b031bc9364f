/**
 * What garbage collection costs the command (issue 35, "CPU per target"): the flow of bench/run.ts (Deployments
 * not ready, the command armed, every status flipped at once) at each size, with a preload that sums the GC
 * pauses Node reports (bench/gc-preload.mjs: perf_hooks `gc` entries, main-thread pause time by kind) beside
 * the process's CPU. Above 5,000 the Deployments of the cell's one namespace are selected, as bench/memory.ts.
 *
 *   npx tsx bench/gc-cost.ts [--cells 1000x1,5000x1,20000x1] [--reps 3]
 *
 * Figures, not assertions; printed as a markdown table.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DIST_CLI, ensureDist } from '../test/e2e/dist.js';
import { Fixture, type Scenario } from './fixture.js';
import { measure } from './measure.js';
import { lastLineAt, spawnMeasured } from './process.js';
import { formatMs, summarize } from './stats.js';
import type { Waiter } from './waiters.js';

const PRELOAD = fileURLToPath(new URL('./gc-preload.mjs', import.meta.url));
const MOST_NAMED = 5000;

interface GcReport {
  cpuMs: number;
  byKind: Record<string, { count: number; ms: number }>;
}

function option(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

function commandWithGc(scratch: string, reports: GcReport[]): Waiter {
  return {
    id: 'command',
    label: 'command',
    command: () => `node --import bench/gc-preload.mjs ${DIST_CLI}`,
    start(fixture) {
      const out = path.join(scratch, `gc-${reports.length}-${Date.now()}.json`);
      const selected = fixture.refs.length > MOST_NAMED;
      const targets = selected
        ? ['deploy', '-l', 'app.kubernetes.io/part-of=bench', '-n', fixture.namespaces[0]!]
        : fixture.refs.map((r) => `${r.namespace}/deploy/${r.name}`);
      const proc = spawnMeasured(DIST_CLI, [...targets, '--kubeconfig', fixture.kubeconfigPath, '--timeout', '10m'], {
        node: true,
        nodeArgs: ['--import', PRELOAD],
        env: { PATH: process.env.PATH ?? '', HOME: os.tmpdir(), KUBEWAIT_BENCH_GC: out },
        killAfterMs: 600_000,
      });
      return {
        armed: () => fixture.cluster.counters.openWatches() >= fixture.namespaces.length,
        done: proc.done.then((exit) => {
          reports.push(JSON.parse(readFileSync(out, 'utf8')) as GcReport);
          return {
            ok: exit.code === 0,
            ...(exit.code !== 0 && { problem: `exit ${exit.code ?? exit.signal}` }),
            spawnAt: exit.spawnAt,
            exitAt: exit.exitAt,
            peakRssKiB: exit.peakRssKiB,
            totalRssKiB: exit.peakRssKiB,
            processes: 1,
            detectedAt: lastLineAt(exit, /-> Current after/),
            jsExitAt: exit.probe?.exitAt,
            first: exit,
          };
        }),
      };
    },
  };
}

await ensureDist();
const reps = Number(option('reps') ?? 3);
const cells: Scenario[] = (option('cells') ?? '1000x1,5000x1,20000x1').split(',').map((cell) => {
  const [deployments, namespaces] = cell.split('x').map(Number);
  return { deployments: deployments!, namespaces: namespaces! };
});
const scratch = mkdtempSync(path.join(tmpdir(), 'kubewait-gc-'));
const loadAtStart = os.loadavg()[0]!;
const rows: string[] = [];
try {
  for (const cell of cells) {
    const reports: GcReport[] = [];
    const fixture = await Fixture.start(cell);
    try {
      for (let rep = 0; rep < reps; rep++) {
        const record = await measure(fixture, commandWithGc(scratch, reports));
        if (!record.ok) throw new Error(`${cell.deployments}x${cell.namespaces}: ${record.problem}`);
        console.error(`${cell.deployments}x${cell.namespaces} #${rep + 1}: ${record.latencyMs.toFixed(0)} ms`);
      }
    } finally {
      await fixture.close();
    }
    const median = (value: (r: GcReport) => number) => summarize(reports.map(value)).median;
    const gcMs = (r: GcReport) => Object.values(r.byKind).reduce((sum, k) => sum + k.ms, 0);
    const kind = (name: string) => (r: GcReport) => r.byKind[name]?.ms ?? 0;
    const count = (name: string) => (r: GcReport) => r.byKind[name]?.count ?? 0;
    rows.push(
      `| ${cell.deployments.toLocaleString('en-US')} / ${cell.namespaces} | ${formatMs(median((r) => r.cpuMs))} | ${(median((r) => r.cpuMs) / cell.deployments).toFixed(3)} ms | ${formatMs(median(gcMs))} (${Math.round((100 * median(gcMs)) / median((r) => r.cpuMs))} %) | ${formatMs(median(kind('scavenge')))} (${median(count('scavenge'))}) | ${formatMs(median(kind('mark-compact')))} (${median(count('mark-compact'))}) |`,
    );
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
console.log(`Load average ${loadAtStart.toFixed(1)} at start, ${os.loadavg()[0]!.toFixed(1)} at end; ${reps} runs per size. Medians.\n`);
console.log('| Deployments / namespaces | CPU of the run | CPU per Deployment | GC pauses (share of CPU) | scavenges (count) | mark-compacts (count) |');
console.log('|---|---:|---:|---:|---:|---:|');
for (const row of rows) console.log(row);
