/**
 * Start-up of the command (`dist/cli.js`) against `kubectl wait` on the same target: a Deployment that is
 * already Available on the API server stand-in, so each run is the whole cost of a process that connects,
 * discovers, finds the target ready and exits. Also the floor of each program without a cluster
 * (`kubewait --version`, `kubectl version --client`). The programs run in turn, each with a fresh HOME
 * (kubectl's discovery cache starts cold, as on a CI runner); the first round only warms the page cache.
 *
 * `npm run bench` runs it into RESULTS.md; `npx tsx bench/cli.ts [ROUNDS]` runs it alone, prints the
 * medians and puts them into results.json and RESULTS.md. A figure, not a test: nothing asserts time.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { startCluster } from '../test/cluster/index.js';
import { deployment } from '../test/e2e/objects.js';
import { table } from './markdown.js';
import { spawnMeasured } from './process.js';
import { formatMiB, formatMs, formatSummary, summarize } from './stats.js';

export interface CliStartupRecord {
  label: string;
  /** spawn -> exit, ms, one per measured round. */
  totalMs: number[];
  peakRssKiB: number[];
}

export interface CliStartup {
  rounds: number;
  /** 1-minute load average at the start and the end: on a busy machine every figure is higher. */
  load: [number, number];
  records: CliStartupRecord[];
}

export async function measureCliStartup(cli: string, kubectl: string, rounds: number): Promise<CliStartup> {
  const loadAtStart = os.loadavg()[0] ?? Number.NaN;
  const cluster = await startCluster({ speed: 1 });
  const scratch = mkdtempSync(path.join(tmpdir(), 'kubewait-cli-bench-'));
  try {
    const kubeconfig = path.join(scratch, 'kubeconfig');
    cluster.writeKubeconfig(kubeconfig, { namespace: 'bench' });
    cluster.create(deployment('web', { namespace: 'bench', readyAfterMs: 50 }));
    const available = () =>
      (cluster.get('apps/v1', 'Deployment', 'bench', 'web')?.status as { availableReplicas?: number } | undefined)?.availableReplicas === 2;
    await cluster.waitFor(available, 30_000);

    const programs = [
      { label: 'kubewait deployment/web', command: process.execPath, args: [cli, 'deployment/web', '-n', 'bench', '--kubeconfig', kubeconfig] },
      {
        label: 'kubectl wait --for=condition=Available deployment/web',
        command: kubectl,
        args: ['wait', '--for=condition=Available', 'deployment/web', '-n', 'bench', '--kubeconfig', kubeconfig],
      },
      { label: 'kubewait --version (no cluster)', command: process.execPath, args: [cli, '--version'] },
      { label: 'kubectl version --client (no cluster)', command: kubectl, args: ['version', '--client'] },
    ];
    const records: CliStartupRecord[] = programs.map(({ label }) => ({ label, totalMs: [], peakRssKiB: [] }));
    for (let round = 0; round <= rounds; round++) {
      for (const [index, program] of programs.entries()) {
        const home = mkdtempSync(path.join(scratch, 'home-'));
        const exit = await spawnMeasured(program.command, program.args, { env: { PATH: process.env.PATH ?? '', HOME: home }, killAfterMs: 60_000 }).done;
        rmSync(home, { recursive: true, force: true });
        if (exit.code !== 0) throw new Error(`${program.label} exited ${exit.code}: ${exit.stderr || exit.stdout}`);
        if (round === 0) continue;
        records[index]!.totalMs.push(exit.exitAt - exit.spawnAt);
        records[index]!.peakRssKiB.push(exit.peakRssKiB);
      }
    }
    return { rounds, load: [loadAtStart, os.loadavg()[0] ?? Number.NaN], records };
  } finally {
    await cluster.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The RESULTS.md section. */
export function renderCliStartup(startup: CliStartup): string {
  const rows = startup.records.map((r) => [`\`${r.label}\``, formatSummary(summarize(r.totalMs)), formatMiB(summarize(r.peakRssKiB).median)]);
  const [wait, kubectlWait, version, kubectlVersion] = startup.records.map((r) => summarize(r.totalMs).median);
  const ms = (value: number) => (Number.isFinite(value) ? formatMs(value) : '—');
  const gap = ms((wait ?? NaN) - (kubectlWait ?? NaN));
  const floorGap = ms((version ?? NaN) - (kubectlVersion ?? NaN));
  const waitCost = ms((wait ?? NaN) - (version ?? NaN));
  const kubectlWaitCost = ms((kubectlWait ?? NaN) - (kubectlVersion ?? NaN));
  return `## Start-up of the command

\`dist/cli.js\` against \`kubectl wait\` on the same target (a Deployment already Available), each with a fresh
HOME (cold discovery cache), ${startup.rounds} rounds after one warm-up, load average ${startup.load[0].toFixed(2)} / ${startup.load[1].toFixed(2)}
at start / end. spawn -> exit: median (min–max, n); peak RSS: median (kubectl's sampled every 10 ms).

${table(['program', { title: 'spawn -> exit', align: 'right' }, { title: 'peak RSS', align: 'right' }], rows)}

The command takes ${gap} longer than \`kubectl wait\` (medians). Without a cluster (the two last rows) the
difference is ${floorGap}: Node's start and V8 compiling the 2.2 MiB bundle, against a Go binary. The wait on
top of that (client-node evaluated, TLS, discovery, one LIST, the report, exit) adds ${waitCost} to the command and
${kubectlWaitCost} to kubectl. \`--version\`, \`--help\` and a bad flag never evaluate client-node
(src/cli/run.ts loads the pipeline only to wait).`;
}
