/**
 * Start-up CPU (issue 35): user + system seconds of a wait on one Deployment that is already Available, for
 * the command (dist/cli.js) of this build (also without Node's compile cache, as on a machine's first run) and
 * of `--before DIR` (another build's dist/), the single executable when given (`--sea PATH`), the minimal Node
 * waiter (bench/minimal-waiter.mjs: one LIST and one WATCH over node:https, the floor for any Node waiter),
 * and `kubectl wait` on the same Deployment, in turn in each round.
 * CPU, unlike wall time, is what a busy runner does not inflate (much). Each run gets a fresh HOME (kubectl's
 * discovery cache starts cold, as on a CI runner); the first round only warms the page cache.
 *
 *   npx tsx bench/startup-cpu.ts [--rounds 15] [--before /path/to/other/dist] [--sea PATH] [--sea-before PATH]
 *
 * CPU from bash's `times` for the program run under it (user and system of its children, to the millisecond),
 * peak RSS from GNU time (`%M`). GNU time's own `%U %S` cut each of user and system to 10 ms: 20 ms too little at
 * worst, which made kubectl's 83 ms read 60 to 70 and the ratios too high. Wall time includes bash's start
 * (about 2 ms for every program). Figures, not assertions; printed as a markdown table.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startCluster } from '../test/cluster/index.js';
import { kubectlPath } from '../test/cluster/kubectl.js';
import { DIST_CLI, ensureDist } from '../test/e2e/dist.js';
import { deployment } from '../test/e2e/objects.js';
import { formatMiB, formatSummary, ratio, summarize } from './stats.js';

const MINIMAL_WAITER = fileURLToPath(new URL('./minimal-waiter.mjs', import.meta.url));

const run = promisify(execFile);

function option(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

interface Program {
  label: string;
  command: string;
  args: string[];
  env?: Record<string, string>;
}

interface Sample {
  cpuMs: number;
  wallMs: number;
  peakRssKiB: number;
}

async function measureOnce(program: Program, scratch: string): Promise<Sample> {
  const home = mkdtempSync(path.join(scratch, 'home-'));
  const out = path.join(home, 'time.txt');
  try {
    const started = performance.now();
    // The program under bash, whose `times` says its children's user and system CPU to the millisecond.
    const { stdout } = await run(
      '/usr/bin/time',
      ['-f', '%M', '-o', out, 'bash', '-c', '"$@" > /dev/null; times', 'measure', program.command, ...program.args],
      {
        env: { PATH: process.env.PATH ?? '', HOME: home, ...program.env },
      },
    );
    const wallMs = performance.now() - started;
    const children = stdout.trim().split('\n').at(-1)!;
    const cpuMs = [...children.matchAll(/(\d+)m([\d.]+)s/g)].reduce((sum, [, minutes, seconds]) => sum + (Number(minutes) * 60 + Number(seconds)) * 1000, 0);
    const rss = Number(readFileSync(out, 'utf8').trim().split('\n').at(-1));
    return { cpuMs, wallMs, peakRssKiB: rss };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

await ensureDist();
const rounds = Number(option('rounds') ?? 15);
const before = option('before');
const sea = option('sea');
const seaBefore = option('sea-before');
const kubectl = await kubectlPath();
const cluster = await startCluster({ speed: 1 });
const scratch = mkdtempSync(path.join(tmpdir(), 'kubewait-startup-cpu-'));
try {
  const kubeconfig = path.join(scratch, 'kubeconfig');
  cluster.writeKubeconfig(kubeconfig, { namespace: 'bench' });
  // The label is the minimal waiter's selector.
  cluster.create(deployment('web', { namespace: 'bench', readyAfterMs: 50, labels: { 'app.kubernetes.io/part-of': 'bench' } }));
  await cluster.waitFor(
    () => (cluster.get('apps/v1', 'Deployment', 'bench', 'web')?.status as { availableReplicas?: number } | undefined)?.availableReplicas === 2,
    30_000,
  );
  const waitArgs = ['deployment/web', '-n', 'bench', '--kubeconfig', kubeconfig];
  const programs: Program[] = [
    { label: 'kubectl wait --for=condition=Available', command: kubectl, args: ['wait', '--for=condition=Available', ...waitArgs] },
    ...(before ? [{ label: 'kubewait (command), before', command: process.execPath, args: [path.join(before, 'cli.js'), ...waitArgs] }] : []),
    { label: 'kubewait (command), this build', command: process.execPath, args: [DIST_CLI, ...waitArgs] },
    {
      label: 'kubewait (command), this build, no compile cache',
      command: process.execPath,
      args: [DIST_CLI, ...waitArgs],
      env: { NODE_DISABLE_COMPILE_CACHE: '1' },
    },
    ...(seaBefore ? [{ label: 'kubewait, single executable, before', command: seaBefore, args: waitArgs }] : []),
    ...(sea ? [{ label: 'kubewait, single executable', command: sea, args: waitArgs }] : []),
    {
      label: 'minimal Node waiter (one LIST + WATCH)',
      command: process.execPath,
      args: [MINIMAL_WAITER],
      env: { KUBEWAIT_MIN_SERVER: cluster.url, KUBEWAIT_MIN_CA: cluster.caPem, KUBEWAIT_MIN_TOKEN: 'admin', KUBEWAIT_MIN_NAMESPACES: 'bench' },
    },
  ];
  const samples = new Map<string, Sample[]>(programs.map((p) => [p.label, []]));
  const loadAtStart = os.loadavg()[0]!;
  for (let round = 0; round <= rounds; round++) {
    for (const program of programs) {
      const sample = await measureOnce(program, scratch);
      if (round > 0) samples.get(program.label)!.push(sample);
    }
  }
  const kubectlCpu = summarize(samples.get(programs[0]!.label)!.map((s) => s.cpuMs)).median;
  console.log(`Load average ${loadAtStart.toFixed(1)} at start, ${os.loadavg()[0]!.toFixed(1)} at end; ${rounds} rounds. Median (min–max, n).\n`);
  console.log('| program | CPU (user + system) | × kubectl wait | spawn -> exit | peak RSS |');
  console.log('|---|---:|---:|---:|---:|');
  for (const [label, list] of samples) {
    const cpu = summarize(list.map((s) => s.cpuMs));
    console.log(
      `| ${label} | ${formatSummary(cpu)} | ${ratio(cpu.median, kubectlCpu)} | ${formatSummary(summarize(list.map((s) => s.wallMs)))} | ${formatMiB(summarize(list.map((s) => s.peakRssKiB)).median)} |`,
    );
  }
} finally {
  await cluster.close();
  rmSync(scratch, { recursive: true, force: true });
}
