/**
 * Start-up of the command (`dist/cli.js`) against `kubectl wait` on the same target: a Deployment that is
 * already Available on the API server stand-in, so each run is the whole cost of a process that connects,
 * discovers, finds the target ready and exits. Also the floor of each program without a cluster
 * (`kubewait --version` and `--help`, `kubectl version --client`). The programs run in turn, each with a
 * fresh HOME (kubectl's discovery cache starts cold, as on a CI runner); the first round only warms the page
 * cache and Node's compile cache (src/cli.ts), which a run with NODE_DISABLE_COMPILE_CACHE=1 goes without, as
 * a CI runner's first run does. With a `before` build (another checkout's dist/cli.js), its wait and
 * `--version` run in the same rounds, so the before and after share the machine's load.
 *
 * `npm run bench` runs it into RESULTS.md; `npx tsx bench/cli.ts [ROUNDS] [BEFORE_CLI]` runs it alone,
 * prints the medians and puts them into results.json and RESULTS.md. A figure, not a test: nothing asserts
 * time.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
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
  /** Size of the single executable, when it was measured. */
  seaBytes?: number;
}

export const LABELS = {
  wait: 'kubewait deployment/web',
  waitNoCache: 'kubewait deployment/web, no compile cache',
  kubectlWait: 'kubectl wait --for=condition=Available deployment/web',
  version: 'kubewait --version (no cluster)',
  help: 'kubewait --help (no cluster)',
  kubectlVersion: 'kubectl version --client (no cluster)',
  waitBefore: 'before: kubewait deployment/web',
  versionBefore: 'before: kubewait --version (no cluster)',
  waitSea: 'single executable: kubewait deployment/web',
  versionSea: 'single executable: kubewait --version (no cluster)',
};

/** Other builds measured in the same rounds: another checkout's dist/cli.js, the single executable. */
export interface OtherBuilds {
  before?: string;
  sea?: string;
}

export async function measureCliStartup(cli: string, kubectl: string, rounds: number, { before, sea }: OtherBuilds = {}): Promise<CliStartup> {
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

    const waitArgs = ['deployment/web', '-n', 'bench', '--kubeconfig', kubeconfig];
    const noCache = { NODE_DISABLE_COMPILE_CACHE: '1' };
    const programs: Array<{ label: string; command: string; args: string[]; env?: Record<string, string> }> = [
      { label: LABELS.wait, command: process.execPath, args: [cli, ...waitArgs] },
      { label: LABELS.waitNoCache, command: process.execPath, args: [cli, ...waitArgs], env: noCache },
      { label: LABELS.kubectlWait, command: kubectl, args: ['wait', '--for=condition=Available', ...waitArgs] },
      { label: LABELS.version, command: process.execPath, args: [cli, '--version'] },
      { label: LABELS.help, command: process.execPath, args: [cli, '--help'] },
      { label: LABELS.kubectlVersion, command: kubectl, args: ['version', '--client'] },
      ...(before
        ? [
            { label: LABELS.waitBefore, command: process.execPath, args: [before, ...waitArgs] },
            { label: LABELS.versionBefore, command: process.execPath, args: [before, '--version'] },
          ]
        : []),
      ...(sea
        ? [
            { label: LABELS.waitSea, command: sea, args: waitArgs },
            { label: LABELS.versionSea, command: sea, args: ['--version'] },
          ]
        : []),
    ];
    const records: CliStartupRecord[] = programs.map(({ label }) => ({ label, totalMs: [], peakRssKiB: [] }));
    for (let round = 0; round <= rounds; round++) {
      for (const [index, program] of programs.entries()) {
        const home = mkdtempSync(path.join(scratch, 'home-'));
        const env = { PATH: process.env.PATH ?? '', HOME: home, ...program.env };
        const exit = await spawnMeasured(program.command, program.args, { env, killAfterMs: 60_000 }).done;
        rmSync(home, { recursive: true, force: true });
        if (exit.code !== 0) throw new Error(`${program.label} exited ${exit.code}: ${exit.stderr || exit.stdout}`);
        if (round === 0) continue;
        records[index]!.totalMs.push(exit.exitAt - exit.spawnAt);
        records[index]!.peakRssKiB.push(exit.peakRssKiB);
      }
    }
    const seaBytes = sea ? statSync(sea).size : undefined;
    return { rounds, load: [loadAtStart, os.loadavg()[0] ?? Number.NaN], records, ...(seaBytes && { seaBytes }) };
  } finally {
    await cluster.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The RESULTS.md section. */
export function renderCliStartup(startup: CliStartup): string {
  const rows = startup.records.map((r) => [`\`${r.label}\``, formatSummary(summarize(r.totalMs)), formatMiB(summarize(r.peakRssKiB).median)]);
  const statOf = (label: string) => summarize(startup.records.find((r) => r.label === label)?.totalMs ?? []);
  const ms = (value: number) => (Number.isFinite(value) ? formatMs(value) : '—');
  const times = (a: number, b: number) => (Number.isFinite(a / b) ? `${(a / b).toFixed(1)}×` : '—');
  /** "wait A (before B)" for a statistic: median or min. */
  const compare = (pick: (label: string) => number) => {
    const entries = Object.entries(LABELS).map(([key, label]) => [key, pick(label)]);
    const { wait, waitNoCache, kubectlWait, version, help, kubectlVersion, waitBefore, versionBefore, waitSea, versionSea } = Object.fromEntries(
      entries,
    ) as Record<keyof typeof LABELS, number>;
    const before = Number.isFinite(waitBefore)
      ? `; before, the wait was ${ms(waitBefore)} (${times(waitBefore, kubectlWait)}) and \`--version\` ${ms(versionBefore)} (${times(versionBefore, kubectlVersion)})`
      : '';
    const sea = Number.isFinite(waitSea)
      ? `; the single executable waits in ${ms(waitSea)} (${times(waitSea, kubectlWait)}) and answers \`--version\` in ${ms(versionSea)} (${times(versionSea, kubectlVersion)})`
      : '';
    return (
      `the wait ${ms(wait)}, ${times(wait, kubectlWait)} \`kubectl wait\`'s ${ms(kubectlWait)} (${times(waitNoCache, kubectlWait)} without the compile cache); ` +
      `\`--version\` ${ms(version)} and \`--help\` ${ms(help)}, ${times(version, kubectlVersion)} and ${times(help, kubectlVersion)} \`kubectl version --client\`'s ${ms(kubectlVersion)}${before}${sea}`
    );
  };
  return `## Start-up of the command

\`dist/cli.js\` against \`kubectl wait\` on the same target (a Deployment already Available), each with a fresh
HOME (cold discovery cache), ${startup.rounds} rounds after one warm-up (which also fills Node's compile cache, src/cli.ts;
the \`no compile cache\` row runs with NODE_DISABLE_COMPILE_CACHE=1, as a CI runner's first run), load average
${startup.load[0].toFixed(2)} / ${startup.load[1].toFixed(2)} at start / end: a machine shared with other engineers' builds and tests, so every figure
is higher and noisier than on an idle one, kubectl's too; the programs run in turn in every round, so they share it.
spawn -> exit: median (min–max, n); peak RSS: median (kubectl's sampled every 10 ms).

${table(['program', { title: 'spawn -> exit', align: 'right' }, { title: 'peak RSS', align: 'right' }], rows)}

Medians: ${compare((label) => statOf(label).median)}.

Minima (the runs that met the least contention, closest to an idle machine): ${compare((label) => statOf(label).min)}.

The \`before:\` rows are the build before this round's start-up work (main at 5348212, its committed dist/), run in the same rounds.${
    startup.seaBytes
      ? ` The \`single executable:\` rows are \`npm run sea\` (scripts/sea.ts: Node ${process.version} with the command injected,
${(startup.seaBytes / 1024 / 1024).toFixed(0)} MiB, V8 code cache; it has no compile cache of its own).`
      : ''
  }

Where the time went. The round before: \`--version\` compiled and evaluated the whole 2.4 MB bundle, and a wait also
evaluated 1.1 MB of client-node (generated API clients, ws, tar streams) and two copies of undici; the bundle was
split where src/ uses \`import()\`, client-node marked free of side effects, undici loaded on first use, and
Node's compile cache turned on. This round, a phase trace of a ready wait (a preload timestamping module
imports, sockets and requests with \`diagnostics_channel\`, and marks in the pipeline; medians of 20 runs at
load average 2, ms from process start; the \`before\` build has only the preload's marks) and \`node --cpu-prof\`:

| phase of a ready wait (ms)                                                            | before | after |
|---------------------------------------------------------------------------------------|-------:|------:|
| Node's own start, to the first line of dist/cli.js                                    |     32 |    32 |
| the entry, flag parser and report modules (the \`run\` chunk), flags parsed             |     50 |    36 |
| client-node and Node's https/tls (the \`kubeconfig\` chunk)                             |     80 |    41 |
| the engine and CEL (the \`fleet\` chunk)                                                |     15 |    16 |
| kubeconfig parsed (yaml, cold: about 11), first request set up (https, TLS: about 14) |     25 |    27 |
| TLS handshakes and the two discovery requests (in parallel)                           |      9 |    10 |
| discovery read, type resolved, LIST sent                                              |      5 |     4 |
| LIST answered, verdict, report written, \`process.exit\`                                |      8 |     7 |
| exit to the parent seeing it (teardown of the process) and the spawn                  |     30 |    20 |
| spawn -> exit, seen from the parent                                                   |    254 |   193 |

What was cut: an ES module import of node:http makes Node build a module view of it by reading every export,
and node:http's \`WebSocket\` getter loads Node's internal undici (about 100 modules, 35-50 ms): every builtin
is now taken with \`require\` (scripts/bundle-plugins.ts). node:fs's and node:util's views did the same on a
smaller scale (streams and readline; the AbortController machinery: \`node:internal/abort_controller\` is
now under 1 ms of a profile). client-node's proxy agents (socks, ip-address, smart-buffer, hpagent), evaluated
at its top level for a kubeconfig \`proxy-url\`, now load when a proxy is used (about 20 ms). The CEL
environment is set up on the first expression compiled (a Deployment never compiles one), and \`--version\` no
longer loads node:crypto. What is left is CPU on one thread: Node's start, Node's https, tls and crypto
(about 20 ms of the \`kubeconfig\` chunk), the bundle's code running cold on every run (compiled as it is first
called, with no type feedback yet: the yaml parser reads the kubeconfig in about 10 ms, a second time in the
same process in 2 ms), the first request through Node's https agent and TLS socket (about 14 ms), and about
9 ms of scavenges. \`kubectl wait\` spends 60-80 ms of CPU and the rest of its time waiting; kubewait's wall
time is its CPU time, so a busy machine slows it more than kubectl (this round, the same comparison at load
average 3, n=15, by another harness: kubewait 189 ms median against kubectl's 173 ms, 1.1×; minima 148 and
161 ms). The network part (TLS, discovery, LIST: about 15 ms on this loopback) is already parallel where it
can be; sending the LIST beside discovery would save one round trip at most (about 1 ms here, more against a
remote API server).

\`--version\`, \`--help\` and a bad flag load dist/cli.js and the flag parser's chunks (about 0.2 MB of the
2 MB; test/e2e/startup.e2e.test.ts holds it): client-node, the engine and CEL are loaded only to wait
(scripts/package.ts splits the bundle where src/ uses \`import()\`).`;
}
