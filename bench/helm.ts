/**
 * Helm 4's own wait beside kubewait's `release` input, on the golden chart (test/release/fixtures/chart):
 *   npx tsx bench/helm.ts [--runs 5]
 *
 * - helm: `helm upgrade --install shop CHART --wait=watcher` (the real helm v4.1.4, test/cluster/kubectl.ts
 *   `helmPath()`), talking to the stand-in through the protobuf-to-JSON proxy of
 *   test/release/fixtures/helm-proxy.ts (the stand-in does not read protobuf bodies itself).
 * - kubewait: the same `helm upgrade --install` without waiting, then `dist/index.js` with `release: shop`
 *   (as a workflow runs the two steps), straight against the stand-in.
 *
 * Each run gets a fresh stand-in with its simulated controllers; the Deployment's pods become ready
 * READY_AFTER_MS after creation. "Last object ready" is the instant this process sees the Deployment
 * turn kstatus Current in the stand-in's store (checked every millisecond; every other object of the
 * chart is Current as soon as it exists), and the latency is that instant -> the waiter's process exit.
 * Then one run each where the Deployment pulls a missing image, quoting what each one says.
 *
 * Prints the figures and rewrites the marked "Helm release" section of bench/RESULTS.md (run.ts keeps
 * that section when it regenerates the file). Never part of `npm test`: timings.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { computeStatus } from '../src/status/index.js';
import { startCluster, type TestCluster } from '../test/cluster/index.js';
import { helmPath } from '../test/cluster/kubectl.js';
import { ensureDist } from '../test/e2e/dist.js';
import { parseCommands } from '../test/e2e/runAction.js';
import { startProxy } from '../test/release/fixtures/helm-proxy.js';
import { SECRET_VALUE } from '../test/release/fixtures/index.js';
import { now } from './fixture.js';
import { setSection } from './sections.js';
import { spawnMeasured, type Exit } from './process.js';
import { formatMs, formatSummary, median, summarize } from './stats.js';
import { actionEnv } from './waiters.js';

const execFileAsync = promisify(execFile);
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CHART = path.join(ROOT, 'test/release/fixtures/chart');
const DIST = path.join(ROOT, 'dist/index.js');
const RESULTS_MD = path.join(ROOT, 'bench/RESULTS.md');
const NS = 'store';
const READY_AFTER_MS = 3000;
const MISSING_IMAGE = 'registry.example/shop:does-not-exist';

interface Stand {
  cluster: TestCluster;
  /** For helm: through the proxy. */
  helmKubeconfig: string;
  work: string;
  close(): Promise<void>;
}

async function stand(): Promise<Stand> {
  const cluster = await startCluster({ tls: false, speed: 1 });
  const proxy = await startProxy(cluster.url, [], { failDeploymentPatch: false });
  const work = mkdtempSync(path.join(tmpdir(), 'kubewait-bench-helm-'));
  const helmKubeconfig = path.join(work, 'kubeconfig');
  writeFileSync(helmKubeconfig, cluster.kubeconfig({ namespace: NS }).replace(cluster.url, proxy.url));
  cluster.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
  return {
    cluster,
    helmKubeconfig,
    work,
    close: async () => {
      proxy.close();
      await cluster.close();
      rmSync(work, { recursive: true, force: true });
    },
  };
}

function helmArgs(wait: boolean, broken: boolean, timeout: string): string[] {
  const values = broken
    ? ['--set', `image=${MISSING_IMAGE}`, '--set', 'deploymentAnnotations.kubewait\\.test/pod-failure=ImagePullBackOff']
    : ['--set-string', `deploymentAnnotations.kubewait\\.test/ready-after-ms=${READY_AFTER_MS}`];
  return [
    'upgrade',
    '--install',
    'shop',
    CHART,
    '-n',
    NS,
    '--set',
    `dbPassword=${SECRET_VALUE}`,
    ...values,
    '--disable-openapi-validation',
    ...(wait ? ['--wait=watcher', '--timeout', timeout] : []),
  ];
}

function helmEnv(s: Stand): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: s.work,
    KUBECONFIG: s.helmKubeconfig,
    HELM_CACHE_HOME: s.work,
    HELM_CONFIG_HOME: s.work,
    HELM_DATA_HOME: s.work,
  };
}

/** Resolves with the first instant (epoch ms) the Deployment is kstatus Current, checked every millisecond. */
function deploymentReady(cluster: TestCluster): { at: Promise<number>; stop(): void } {
  let timer: NodeJS.Timeout | undefined;
  const at = new Promise<number>((resolve) => {
    timer = setInterval(() => {
      const object = cluster.get('apps/v1', 'Deployment', NS, 'shop-web');
      if (object && computeStatus(object, { now: new Date() }).status === 'Current') {
        clearInterval(timer);
        resolve(now());
      }
    }, 1);
  });
  return { at, stop: () => clearInterval(timer) };
}

interface Run {
  /** Last object ready -> exit (ms). */
  latencyMs: number;
  /** The waiting command's start (helm, or the helm before kubewait) -> exit. */
  totalMs: number;
  exit: Exit;
}

async function helmRun(helm: string, broken: boolean): Promise<Run> {
  const s = await stand();
  try {
    const ready = deploymentReady(s.cluster);
    const started = now();
    const exit = await spawnMeasured(helm, helmArgs(true, broken, broken ? '30s' : '2m'), { env: helmEnv(s), killAfterMs: 120_000 }).done;
    const readyAt = broken ? Number.NaN : await Promise.race([ready.at, Promise.resolve(Number.NaN)]);
    ready.stop();
    return { latencyMs: exit.exitAt - readyAt, totalMs: exit.exitAt - started, exit };
  } finally {
    await s.close();
  }
}

async function kubewaitRun(helm: string, broken: boolean): Promise<Run> {
  const s = await stand();
  try {
    const ready = deploymentReady(s.cluster);
    const started = now();
    await execFileAsync(helm, helmArgs(false, broken, ''), { env: helmEnv(s) });
    const env = actionEnv({ kubeconfig: s.cluster.kubeconfig({ namespace: NS }), release: 'shop', timeout: broken ? '30s' : '2m' }, s.work);
    const exit = await spawnMeasured(DIST, [], { node: true, env, cwd: s.work, killAfterMs: 120_000 }).done;
    const readyAt = broken ? Number.NaN : await Promise.race([ready.at, Promise.resolve(Number.NaN)]);
    ready.stop();
    return { latencyMs: exit.exitAt - readyAt, totalMs: exit.exitAt - started, exit };
  } finally {
    await s.close();
  }
}

/** What a user reads when it fails: helm's stderr; kubewait's error annotations (what the PR shows). */
function said(exit: Exit, kubewait: boolean): string {
  const text = kubewait
    ? parseCommands(exit.stdout)
        .filter((c) => c.command === 'error')
        .map((c) => `${c.properties.title ? `[${c.properties.title}] ` : ''}${c.message}`)
        .join('\n')
    : exit.stderr.trim();
  if (text.includes(SECRET_VALUE) || exit.stdout.includes(SECRET_VALUE)) throw new Error('a chart value reached the output');
  return text;
}

function section(
  helmVersion: string,
  load: { start: number; end: number },
  ok: { helm: Run[]; kubewait: Run[] },
  failed: { helm: Run; kubewait: Run },
): string {
  const row = (label: string, runs: Run[]) =>
    `| ${label} | ${formatSummary(summarize(runs.map((r) => r.latencyMs)))} | ${formatSummary(summarize(runs.map((r) => r.totalMs)))} | ${runs.map((r) => r.exit.code).join(', ')} |`;
  const quote = (text: string) => ['```', ...text.split('\n').map((l) => (l.length > 400 ? `${l.slice(0, 400)}…` : l)), '```'].join('\n');
  return [
    '## Helm release: kubewait `release:` beside `helm upgrade --install --wait=watcher`',
    '',
    `Generated by \`npx tsx bench/helm.ts\` on ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')} (helm ${helmVersion}; 1-min load average ${load.start.toFixed(2)} at start, ${load.end.toFixed(2)} at end on ${os.cpus().length} CPUs; the golden chart of`,
    'test/release/fixtures, 7 objects; a fresh stand-in per run with its controllers, the Deployment ready',
    `${READY_AFTER_MS / 1000} s after creation). helm talks to the stand-in through test/release/fixtures/helm-proxy.ts,`,
    'which turns its protobuf Secret bodies into JSON; kubewait runs after a `helm upgrade --install` without `--wait`.',
    '',
    '| waiter | last object ready -> exit | helm start -> exit | exit codes |',
    '|---|---:|---:|---|',
    row('`helm upgrade --install --wait=watcher`', ok.helm),
    row('`helm upgrade --install`, then kubewait `release: shop`', ok.kubewait),
    '',
    `Medians ${formatMs(median(ok.helm.map((r) => r.latencyMs)))} (helm) and ${formatMs(median(ok.kubewait.map((r) => r.latencyMs)))} (kubewait): both follow the objects with`,
    'watches, so both exit within tens of milliseconds of the last one turning Current (helm, a Go binary, a few ms',
    'sooner, as kubectl in the detection-latency table above; the spread is the shared machine). The difference is in',
    'what they say when an object fails: helm runs to its deadline and names a status; kubewait stops once the image',
    'pull counts as unrecoverable (the 15 s grace) and names the container, the image and the events, on the Deployment.',
    '',
    `When the Deployment pulls a missing image (\`${MISSING_IMAGE}\`), both with a 30 s timeout:`,
    '',
    `helm (exit ${failed.helm.exit.code} after ${formatMs(failed.helm.totalMs)}):`,
    '',
    quote(said(failed.helm.exit, false)),
    '',
    `kubewait (exit ${failed.kubewait.exit.code} after ${formatMs(failed.kubewait.totalMs)} from helm's start; its error annotations):`,
    '',
    quote(said(failed.kubewait.exit, true)),
  ].join('\n');
}

async function main(): Promise<void> {
  const runsArg = process.argv.indexOf('--runs');
  const runs = runsArg >= 0 ? Number(process.argv[runsArg + 1]) : 5;
  await ensureDist();
  const helm = await helmPath();
  const helmVersion = (await execFileAsync(helm, ['version', '--short'])).stdout.trim();
  const loadAtStart = os.loadavg()[0] ?? Number.NaN;
  const ok = { helm: [] as Run[], kubewait: [] as Run[] };
  for (let i = 0; i < runs; i++) {
    // Interleaved, so noise spreads evenly.
    ok.helm.push(await helmRun(helm, false));
    ok.kubewait.push(await kubewaitRun(helm, false));
    console.log(
      `run ${i + 1}/${runs}: helm ${formatMs(ok.helm.at(-1)!.latencyMs)} (exit ${ok.helm.at(-1)!.exit.code}), kubewait ${formatMs(ok.kubewait.at(-1)!.latencyMs)} (exit ${ok.kubewait.at(-1)!.exit.code})`,
    );
  }
  const failed = { helm: await helmRun(helm, true), kubewait: await kubewaitRun(helm, true) };
  const text = section(helmVersion, { start: loadAtStart, end: os.loadavg()[0] ?? Number.NaN }, ok, failed);
  console.log(text);
  writeFileSync(RESULTS_MD, setSection(readFileSync(RESULTS_MD, 'utf8'), 'helm', text));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) await main();
