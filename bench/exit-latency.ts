/**
 * From the decision to the exit (issue 35): the flow of bench/run.ts (Deployments not ready, the waiter
 * armed, every status flipped at once) for the command (dist/cli.js), the action (dist/index.js), a minimal
 * Node waiter (bench/minimal-waiter.mjs: one LIST and one WATCH over node:https, nothing else) and
 * `kubectl wait`, all in the same rounds, and another build's command and action (`--before DIR`, its dist/).
 *
 *   npx tsx bench/exit-latency.ts [--before /path/to/other/dist] [--cells 1x1,1000x1] [--reps 5]
 *
 * Per run: detection (the last status written -> the waiter's last "ready" line reaching this process),
 * decision to exit (that line -> the process's exit), split for Node waiters into the part in the process
 * (that line -> its `exit` event: report, outputs, summary) and the teardown (the `exit` event -> the parent
 * seeing the exit: Node's and the kernel's), the whole (status -> exit), the CPU of the whole run (Node
 * waiters: user + system up to the `exit` event) and per Deployment, and peak RSS. kubectl
 * wait runs only where it handles the Deployments in seconds (up to KUBECTL_MOST): it waits for one
 * Deployment after another. Figures, not assertions; printed as a markdown table.
 */
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { kubectlPath } from '../test/cluster/kubectl.js';
import { DIST_CLI, DIST_ENTRY, ensureDist } from '../test/e2e/dist.js';
import { Fixture, type Scenario } from './fixture.js';
import { measure, type RunRecord } from './measure.js';
import { lastLineAt, spawnMeasured } from './process.js';
import { formatMiB, formatMs, formatSummary, summarize } from './stats.js';
import { kubectlWait, kubewait, type RunExit, type Waiter } from './waiters.js';

const MINIMAL_WAITER = fileURLToPath(new URL('./minimal-waiter.mjs', import.meta.url));
/** `kubectl wait` handles one Deployment after another at about 80 ms each. */
const KUBECTL_MOST = 100;

function option(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

/** Above this many Deployments, the action's `resources` no longer fits in one environment variable: both
 *  waiters select the Deployments of the cell's one namespace instead (as bench/memory.ts). */
const MOST_NAMED = 5000;
const BENCH_SELECTOR = 'app.kubernetes.io/part-of=bench';

/** The command as a person or a CI job runs it: every Deployment named (or selected), the kubeconfig, the text log. */
function command(id: string, cli: string, selected: boolean): Waiter {
  return {
    id,
    label: id,
    command: () => `node ${cli} ${selected ? `deploy -l ${BENCH_SELECTOR} -n NS` : 'NS/deploy/NAME...'} --kubeconfig FILE --timeout 10m`,
    start(fixture) {
      const targets = selected ? ['deploy', '-l', BENCH_SELECTOR, '-n', fixture.namespaces[0]!] : fixture.refs.map((r) => `${r.namespace}/deploy/${r.name}`);
      const args = [...targets, '--kubeconfig', fixture.kubeconfigPath, '--timeout', '10m'];
      const proc = spawnMeasured(cli, args, { node: true, env: { PATH: process.env.PATH ?? '', HOME: os.tmpdir() }, killAfterMs: 600_000 });
      return { armed: () => fixture.cluster.counters.openWatches() >= fixture.namespaces.length, done: proc.done.then(nodeExit(/-> Current after/)) };
    },
  };
}

function minimalWaiter(): Waiter {
  return {
    id: 'minimal Node waiter',
    label: 'minimal Node waiter',
    command: () => 'node bench/minimal-waiter.mjs',
    start(fixture) {
      const env = {
        PATH: process.env.PATH ?? '',
        KUBEWAIT_MIN_SERVER: fixture.cluster.url,
        KUBEWAIT_MIN_CA: fixture.cluster.caPem,
        KUBEWAIT_MIN_TOKEN: 'admin',
        KUBEWAIT_MIN_NAMESPACES: fixture.namespaces.join(','),
      };
      const proc = spawnMeasured(MINIMAL_WAITER, [], { node: true, env, killAfterMs: 600_000 });
      return { armed: () => fixture.cluster.counters.openWatches() >= fixture.namespaces.length, done: proc.done.then(nodeExit(/^ready /m)) };
    },
  };
}

function nodeExit(readyLine: RegExp) {
  return (exit: Awaited<ReturnType<typeof spawnMeasured>['done']>): RunExit => ({
    ok: exit.code === 0,
    ...(exit.code !== 0 && { problem: `exit ${exit.code ?? exit.signal}: ${(exit.stdout + exit.stderr).slice(-500)}` }),
    spawnAt: exit.spawnAt,
    exitAt: exit.exitAt,
    peakRssKiB: exit.peakRssKiB,
    totalRssKiB: exit.peakRssKiB,
    processes: 1,
    detectedAt: lastLineAt(exit, readyLine),
    jsExitAt: exit.probe?.exitAt,
    first: exit,
  });
}

const action = (id: string, entry: string, selected: boolean) =>
  kubewait({
    id,
    label: id,
    entry,
    entryName: entry,
    mode: 'watch',
    ...(selected && {
      inputs: (fixture: Fixture) => ({ namespace: fixture.namespaces[0]!, resources: 'deploy', selector: BENCH_SELECTOR }),
      inputsName: `INPUT_RESOURCES=deploy, INPUT_SELECTOR=${BENCH_SELECTOR}`,
    }),
  });

await ensureDist();
const before = option('before');
const reps = Number(option('reps') ?? 5);
const cells: Scenario[] = (option('cells') ?? '1x1,1000x1').split(',').map((cell) => {
  const [deployments, namespaces] = cell.split('x').map(Number);
  return { deployments: deployments!, namespaces: namespaces! };
});
const kubectl = await kubectlPath();
const loadAtStart = os.loadavg()[0]!;
const rows: string[] = [];
for (const cell of cells) {
  const selected = cell.deployments > MOST_NAMED;
  if (selected && cell.namespaces !== 1) throw new Error(`--cells: more than ${MOST_NAMED} Deployments are selected, in one namespace`);
  const waiters: Waiter[] = [
    ...(before ? [command('command, before', path.join(before, 'cli.js'), selected), action('action, before', path.join(before, 'index.js'), selected)] : []),
    command('command, this build', DIST_CLI, selected),
    action('action, this build', DIST_ENTRY, selected),
    minimalWaiter(),
    ...(cell.deployments <= KUBECTL_MOST ? [kubectlWait(kubectl)] : []),
  ];
  const runs = new Map<string, RunRecord[]>(waiters.map((w) => [w.id, []]));
  const fixture = await Fixture.start(cell);
  try {
    for (let rep = 0; rep < reps; rep++) {
      for (const waiter of waiters) {
        const record = await measure(fixture, waiter);
        if (!record.ok) throw new Error(`${waiter.id}: ${record.problem}`);
        runs.get(waiter.id)!.push(record);
        console.error(`${cell.deployments}x${cell.namespaces} ${waiter.id} #${rep + 1}: ${record.latencyMs.toFixed(1)} ms`);
      }
    }
  } finally {
    await fixture.close();
  }
  for (const [id, records] of runs) {
    const of = (value: (r: RunRecord) => number) => formatSummary(summarize(records.map(value)));
    const median = (value: (r: RunRecord) => number) => formatMs(summarize(records.map(value)).median);
    const node = records.every((r) => r.cpuMs !== undefined);
    rows.push(
      [
        `${cell.deployments.toLocaleString('en-US')} / ${cell.namespaces}`,
        id,
        of((r) => r.phases.detectMs),
        of((r) => r.latencyMs - r.phases.detectMs),
        ...(node ? [median((r) => r.phases.reportMs), median((r) => r.phases.teardownMs)] : ['—', '—']),
        of((r) => r.latencyMs),
        node ? median((r) => r.cpuMs ?? Number.NaN) : '—',
        node ? `${(summarize(records.map((r) => r.cpuMs ?? Number.NaN)).median / cell.deployments).toFixed(cell.deployments > 1 ? 3 : 0)} ms` : '—',
        formatMiB(summarize(records.map((r) => r.peakRssKiB)).median),
      ]
        .join(' | ')
        .replace(/^/, '| ')
        .concat(' |'),
    );
  }
}
console.log(
  `Load average ${loadAtStart.toFixed(1)} at start, ${os.loadavg()[0]!.toFixed(1)} at end; ${reps} runs per waiter, interleaved. Median (min–max, n).\n`,
);
console.log(
  '| Deployments / namespaces | waiter | detection: last status -> last ready line | decision -> exit | of which in the process (median) | of which teardown (median) | last status -> exit | CPU of the run (median) | CPU per Deployment | peak RSS |',
);
console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const row of rows) console.log(row);
