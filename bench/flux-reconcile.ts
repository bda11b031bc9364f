/**
 * kubewait's `reconcile` beside `flux reconcile kustomization --with-source`, for a fix pushed right after a
 * failed commit, against the real Flux controllers (issue 30):
 *   npx tsx bench/flux-reconcile.ts [--rounds 5] [--flux PATH]
 *
 * The real control plane (test/real/cluster.ts), source-controller and kustomize-controller v1.9.6 and a Git
 * repository served over smart HTTP on loopback (test/real/flux.ts), the flux CLI v2.9.5
 * (scripts/real-cluster/build-flux-cli.sh). One namespace, repository, GitRepository (interval 1h: fetched
 * only when asked) and Kustomization (`wait: true`, spec.timeout 30 s, interval and retryInterval 1h) per tool.
 * Each round:
 *
 * 1. both namespaces get a failed commit: a Deployment `web` no node can take (nodeSelector), the source asked
 *    to fetch it, until Flux has recorded HealthCheckFailed for it (its 30 s health-check timeout);
 * 2. for each tool in turn (the order alternates between rounds), the fix is pushed (`web` schedulable) and
 *    the tool runs; the figure is the end of the push -> the tool's exit, as this process sees both:
 *    - kubewait: `dist/index.js` as the action runs it, with `resources: kustomizations…/apps`, `revision: <the
 *      fix>`, `reconcile: true` and the default `inventory: true`: it annotates the GitRepository, waits for it
 *      to have handled the request, annotates the Kustomization, and is ready once Flux has applied the fix,
 *      Ready, and the Deployment its inventory lists is ready;
 *    - flux: `flux reconcile kustomization apps --with-source` (cmd/flux/reconcile_with_source.go): annotates
 *      the GitRepository and polls it every 2 s until `lastHandledReconcileAt` changed and kstatus says
 *      Current, then the same for the Kustomization: with `wait: true`, Ready=True means Flux's health check
 *      of `web` passed. It exits 0 then (no further wait is needed: the Kustomization's Ready is the
 *      Deployment's readiness), non-zero if Ready is False. It does not check the revision: the source was
 *      fetched first, so the one it applied is the fix (checked after the run).
 *
 * After each run: the Kustomization applied the fix, and Flux ran the failed commit only once (its
 * HealthCheckFailed history entry: a second run of it, with its 30 s timeout, is what the back-to-back
 * annotation of issue 30 cost).
 *
 * Prints the figures and writes the marked section "flux_reconcile" of bench/RESULTS.md (bench/sections.ts).
 * Never part of `npm test`: timings.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDist } from '../test/e2e/dist.js';
import { parseOutputFile } from '../test/e2e/runAction.js';
import { deployment } from '../test/e2e/objects.js';
import { builtBinDir, NOT_BUILT } from '../test/real/binaries.js';
import { startRealCluster, type RealCluster } from '../test/real/cluster.js';
import { builtFluxCli, builtFluxDir, FLUX_CLI_NOT_BUILT, FLUX_NOT_BUILT, startFlux, type GitRepo, type RealFlux } from '../test/real/flux.js';
import { namespace } from '../test/real/objects.js';
import { now } from './fixture.js';
import { describeMachine } from './machine.js';
import { spawnMeasured, type Exit } from './process.js';
import { setSection } from './sections.js';
import { formatMs, formatSummary, median, ratio, summarize } from './stats.js';
import { actionEnv } from './waiters.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIST = path.join(ROOT, 'dist/index.js');
const RESULTS_MD = path.join(ROOT, 'bench/RESULTS.md');
const KUSTOMIZATION = 'kustomizations.kustomize.toolkit.fluxcd.io';
const GIT_REPOSITORY = 'gitrepositories.source.toolkit.fluxcd.io';
const REQUESTED_AT = 'reconcile.fluxcd.io/requestedAt';
/** Flux's health-check timeout of a commit (spec.timeout), as in issue 30: what a re-run of the failed commit costs. */
const FLUX_TIMEOUT = '30s';
const TOOL_TIMEOUT = '120s';
/** How often this process reads the Kustomization while a failed commit runs (kubectl: light on 2 cores). */
const STATUS_POLL_MS = 1000;

type Tool = 'kubewait' | 'flux';
const TOOLS: Tool[] = ['kubewait', 'flux'];

interface Measurement {
  /** The end of the fix's push -> the tool's exit (ms). */
  ms: number;
  exit: Exit;
  /** What the tool said: kubewait's `result` output, or flux's exit code. */
  outcome: string;
  /** Flux applied the fix (checked after the tool's exit). */
  appliedFix: boolean;
  /** How many times Flux ran the failed commit (1: it went straight to the fix). */
  failedRuns: number;
  /** How many times Flux ran the fix, and how long the last run took (status.history: `totalReconciliations`,
   *  `lastReconciledDuration`, ms). */
  fixRuns: number;
  lastFixRunMs: number;
  load: number;
}

interface KustomizationStatus {
  lastAppliedRevision?: string;
  history?: Array<{ lastReconciledStatus: string; totalReconciliations: number; lastReconciledDuration?: string; metadata?: { revision?: string } }>;
}

const yaml = (...objects: object[]) => objects.map((o) => JSON.stringify(o)).join('\n---\n');
/** `web`, ready 300 ms after its pod is bound, or (unschedulable) with a nodeSelector no node matches; `tag` tells rounds apart. */
function web(tag: string, schedulable: boolean): object {
  const inNamespace = deployment('web', { replicas: 1, readyAfterMs: 300 });
  // No namespace: the Kustomization's targetNamespace places it.
  const { namespace: _placed, ...metadata } = inNamespace.metadata;
  const d = { ...inNamespace, metadata };
  d.spec.template.spec.containers[0]!.image = `registry.example.com/web:${tag}`;
  if (!schedulable) (d.spec.template.spec as Record<string, unknown>).nodeSelector = { 'kubewait.test/no-such-node': 'true' };
  return d;
}
const KUSTOMIZE_FILE = yaml({ apiVersion: 'kustomize.config.k8s.io/v1beta1', kind: 'Kustomization', resources: ['web.yaml'] });

interface Stand {
  tool: Tool;
  ns: string;
  repo: GitRepo;
  /** A kubeconfig file for the namespace (the token user, as the tests' steps use). */
  kubeconfigFile: string;
}

async function kustomizationStatus(cluster: RealCluster, ns: string): Promise<KustomizationStatus> {
  return (JSON.parse(await cluster.kubectl('get', KUSTOMIZATION, 'apps', '-n', ns, '-o', 'json')) as { status?: KustomizationStatus }).status ?? {};
}

async function until(cluster: RealCluster, flux: RealFlux, ns: string, what: string, check: (s: KustomizationStatus) => boolean): Promise<void> {
  const deadline = Date.now() + 180_000;
  while (!check(await kustomizationStatus(cluster, ns))) {
    if (Date.now() > deadline)
      throw new Error(`${ns}: ${what} not within 180 s\n${flux.logTail('source-controller')}\n${flux.logTail('kustomize-controller')}`);
    await new Promise((resolve) => setTimeout(resolve, STATUS_POLL_MS));
  }
}

const failedRunsOf = (s: KustomizationStatus, sha: string) =>
  (s.history ?? []).find((h) => h.metadata?.revision === `main@sha1:${sha}` && h.lastReconciledStatus === 'HealthCheckFailed')?.totalReconciliations ?? 0;

async function setUp(cluster: RealCluster, flux: RealFlux, tool: Tool, work: string): Promise<Stand> {
  const ns = `bench-fix-${tool}`;
  const repo = await flux.repo(ns);
  const first = await repo.commit({ 'apps/kustomization.yaml': KUSTOMIZE_FILE, 'apps/web.yaml': yaml(web('initial', true)) }, 'first');
  await cluster.apply(namespace(ns));
  await cluster.apply({
    apiVersion: 'source.toolkit.fluxcd.io/v1',
    kind: 'GitRepository',
    metadata: { name: 'repo', namespace: ns },
    spec: { interval: '1h', url: repo.url, ref: { branch: 'main' }, timeout: '20s' },
  });
  await cluster.apply({
    apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
    kind: 'Kustomization',
    metadata: { name: 'apps', namespace: ns },
    spec: {
      interval: '1h',
      retryInterval: '1h',
      path: './apps',
      prune: true,
      wait: true,
      timeout: FLUX_TIMEOUT,
      targetNamespace: ns,
      sourceRef: { kind: 'GitRepository', name: 'repo' },
    },
  });
  await until(cluster, flux, ns, 'the first commit applied', (s) => s.lastAppliedRevision === `main@sha1:${first}`);
  const kubeconfigFile = path.join(work, `${ns}.kubeconfig`);
  cluster.writeKubeconfig(kubeconfigFile, { namespace: ns, user: 'token' });
  return { tool, ns, repo, kubeconfigFile };
}

/** Step 1: the failed commit, fetched on request, until Flux recorded HealthCheckFailed for it. */
async function fail(cluster: RealCluster, flux: RealFlux, stand: Stand, round: number): Promise<string> {
  const sha = await stand.repo.commit({ 'apps/web.yaml': yaml(web(`r${round}`, false)) }, `round ${round}: unschedulable`);
  await cluster.kubectl('annotate', '--overwrite', GIT_REPOSITORY, 'repo', '-n', stand.ns, `${REQUESTED_AT}=${new Date().toISOString()}`);
  await until(cluster, flux, stand.ns, `HealthCheckFailed for ${sha}`, (s) => failedRunsOf(s, sha) > 0);
  return sha;
}

/** Step 2: the fix pushed, the tool run; the push's end -> the tool's exit. */
async function measureFix(cluster: RealCluster, stand: Stand, round: number, broken: string, fluxCli: string, work: string): Promise<Measurement> {
  const scratch = mkdtempSync(path.join(work, `${stand.tool}-`));
  const fix = await stand.repo.commit({ 'apps/web.yaml': yaml(web(`r${round}`, true)) }, `round ${round}: fix`);
  const pushedAt = now();
  const load = os.loadavg()[0]!;
  let exit: Exit;
  let outcome: string;
  if (stand.tool === 'flux') {
    exit = await spawnMeasured(
      fluxCli,
      ['reconcile', 'kustomization', 'apps', '--with-source', '-n', stand.ns, '--kubeconfig', stand.kubeconfigFile, '--timeout', TOOL_TIMEOUT],
      { env: { PATH: process.env.PATH ?? '', HOME: scratch }, killAfterMs: 180_000 },
    ).done;
    outcome = `exit ${exit.code}`;
  } else {
    const env = actionEnv(
      {
        kubeconfig: readFileSync(stand.kubeconfigFile, 'utf8'),
        resources: `${KUSTOMIZATION}/apps`,
        revision: fix,
        reconcile: 'true',
        timeout: TOOL_TIMEOUT,
      },
      scratch,
    );
    exit = await spawnMeasured(DIST, [], { node: true, env, cwd: scratch, killAfterMs: 180_000 }).done;
    outcome = parseOutputFile(readFileSync(env.GITHUB_OUTPUT, 'utf8')).result ?? `no result (exit ${exit.code})`;
  }
  const status = await kustomizationStatus(cluster, stand.ns);
  const fixEntry = (status.history ?? []).find((h) => h.metadata?.revision === `main@sha1:${fix}`);
  rmSync(scratch, { recursive: true, force: true });
  return {
    ms: exit.exitAt - pushedAt,
    exit,
    outcome,
    appliedFix: status.lastAppliedRevision === `main@sha1:${fix}`,
    failedRuns: failedRunsOf(status, broken),
    fixRuns: fixEntry?.totalReconciliations ?? 0,
    lastFixRunMs: durationMs(fixEntry?.lastReconciledDuration),
    load,
  };
}

/** A Go duration as metav1.Duration writes it (`5.123s`, `1m2.5s`, `850ms`) in ms; NaN when absent. */
function durationMs(duration: string | undefined): number {
  const units: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1, µs: 0.001, us: 0.001, ns: 0.000_001 };
  const parts = [...(duration ?? '').matchAll(/([\d.]+)(h|ms|m|s|µs|us|ns)/g)];
  return parts.length === 0 ? Number.NaN : parts.reduce((sum, [, value, unit]) => sum + Number(value) * units[unit!]!, 0);
}

function fluxVersionOf(fluxCli: string): string {
  return execFileSync(fluxCli, ['version', '--client'], { encoding: 'utf8' })
    .trim()
    .replace(/^flux:\s*/, '');
}

function section(runs: Record<Tool, Measurement[]>, fluxVersion: string, loads: { start: number; end: number }): string {
  const machine = describeMachine();
  const ms = (tool: Tool) => runs[tool].map((m) => m.ms);
  const row = (tool: Tool, label: string) => {
    const list = runs[tool];
    return `| ${label} | ${formatSummary(summarize(ms(tool)))} | ${list.map((m) => m.fixRuns).join(', ')} | ${formatSummary(summarize(list.map((m) => m.lastFixRunMs)))} | ${list.map((m) => m.outcome).join(', ')} | ${list.filter((m) => m.appliedFix).length}/${list.length} | ${list.map((m) => m.failedRuns).join(', ')} |`;
  };
  const kubewaitMedian = median(ms('kubewait'));
  const fluxMedian = median(ms('flux'));
  const allLoads = TOOLS.flatMap((tool) => runs[tool].map((m) => m.load));
  return [
    '## GitOps: `reconcile` for a fix right after a failed commit, beside `flux reconcile --with-source` (issue 30)',
    '',
    `Generated by \`npx tsx bench/flux-reconcile.ts\` on ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')}: the real control plane, the real`,
    `source-controller and kustomize-controller v1.9.6, a Git repository over smart HTTP on loopback, flux ${fluxVersion} (built from`,
    'the Go module proxy by `scripts/real-cluster/build-flux-cli.sh`). A namespace per tool, its Kustomization `wait: true` with',
    `spec.timeout ${FLUX_TIMEOUT}, its GitRepository fetched only when asked. Each round both get a failed commit (a Deployment no node can`,
    'take; Flux reports HealthCheckFailed after its 30 s), then, one tool after the other (the order alternating), the fix is pushed and',
    'the tool runs; the figure is the end of the push -> the tool’s exit.',
    '',
    '- kubewait: `dist/index.js` as the action runs it, `revision: <the fix>`, `reconcile: true`, the default `inventory: true`:',
    '  ready once Flux applied the fix, is Ready, and the Deployment its inventory lists is ready.',
    '- flux: `flux reconcile kustomization apps --with-source`: the source annotated and polled every 2 s until it handled the',
    '  request and is Current, then the same for the Kustomization, whose Ready (with `wait: true`) is Flux’s own health check of',
    '  the Deployment passed; exit 0 then. It does not check the revision (the one applied was the fix: column "applied the fix").',
    '',
    '| tool | push of the fix -> exit | Flux’s runs of the fix, per run | its last run took | outcome per run | applied the fix | runs of the failed commit, per run |',
    '|---|---:|---|---:|---|---|---|',
    row('kubewait', 'kubewait `reconcile: true`'),
    row('flux', '`flux reconcile ks apps --with-source`'),
    '',
    `Medians: kubewait ${formatMs(kubewaitMedian)}, flux ${formatMs(fluxMedian)}: kubewait/flux ${ratio(kubewaitMedian, fluxMedian)} (goal: at most 1.2×),`,
    `n=${runs.kubewait.length} rounds. 1-min load average ${loads.start.toFixed(1)} at start, ${loads.end.toFixed(1)} at end, ${Math.min(...allLoads).toFixed(1)}–${Math.max(...allLoads).toFixed(1)} at`,
    `the pushes, on ${machine.cpus} CPUs (${machine.cpuModel}) shared with other work. "runs of the failed commit" 1: Flux went from the`,
    'failed commit straight to the fix (2 would be a re-run of the failed commit with its whole health-check timeout).',
    '"Flux’s runs of the fix" and "its last run took": the fix’s status.history entry (`totalReconciliations`,',
    '`lastReconciledDuration`: build, apply, health checks). kustomize-controller watches its sources, so the new artifact alone',
    'starts a run of the fix; a request annotated while that run is under way is handled by it or by one more run after it.',
    'A run that waits for the new pod takes about 5.5 s, as kustomize-controller checks health every 5 s (its `ssa.WaitOptions`',
    '`Interval`): the floor under both tools.',
    'flux reads each object every 2 s (its fixed `pollInterval`): each of its two waits ends up to 2 s after the controller’s',
    'write, and its request to the Kustomization, sent after its next read of the source, can come once that first run has begun:',
    'then it waits for one more (the runs of the fix, 2). kubewait reads the source every 500 ms (src/gitops/reconcile.ts',
    '`SOURCE_POLL_MS`) and watches the Kustomization and the Deployment.',
  ].join('\n');
}

async function main(): Promise<void> {
  const arg = (name: string) => {
    const at = process.argv.indexOf(name);
    return at >= 0 ? process.argv[at + 1] : undefined;
  };
  const rounds = Number(arg('--rounds') ?? 5);
  const fluxCli = arg('--flux') ?? builtFluxCli();
  const missing = !builtBinDir() ? NOT_BUILT : !builtFluxDir() ? FLUX_NOT_BUILT : !fluxCli || !existsSync(fluxCli) ? FLUX_CLI_NOT_BUILT : undefined;
  if (missing) {
    console.error(`bench/flux-reconcile.ts: ${missing}`);
    process.exit(2);
  }
  const fluxVersion = fluxVersionOf(fluxCli!);
  await ensureDist();
  const loadAtStart = os.loadavg()[0]!;
  const work = mkdtempSync(path.join(tmpdir(), 'kubewait-bench-flux-'));
  const cluster = await startRealCluster({ nodes: 1 });
  let flux: RealFlux | undefined;
  const runs: Record<Tool, Measurement[]> = { kubewait: [], flux: [] };
  try {
    flux = await startFlux(cluster, (line) => console.log(line));
    const stands = await Promise.all(TOOLS.map((tool) => setUp(cluster, flux!, tool, work)));
    for (let round = 0; round < rounds; round++) {
      const broken = await Promise.all(stands.map((stand) => fail(cluster, flux!, stand, round)));
      const order = round % 2 === 0 ? [0, 1] : [1, 0];
      const line: string[] = [];
      for (const i of order) {
        const m = await measureFix(cluster, stands[i]!, round, broken[i]!, fluxCli!, work);
        runs[stands[i]!.tool].push(m);
        line.push(`${stands[i]!.tool} ${formatMs(m.ms)} (${m.outcome}, fix applied ${m.appliedFix}, failed commit ran ${m.failedRuns}×)`);
        if (m.exit.code !== 0) console.log(`${stands[i]!.tool} exited ${m.exit.code}:\n${m.exit.stdout.slice(-3000)}\n${m.exit.stderr.slice(-3000)}`);
      }
      console.log(`round ${round + 1}/${rounds} (load ${os.loadavg()[0]!.toFixed(1)}): ${line.join('; ')}`);
    }
  } finally {
    await flux?.close();
    await cluster.close();
    rmSync(work, { recursive: true, force: true });
  }
  const text = section(runs, fluxVersion, { start: loadAtStart, end: os.loadavg()[0]! });
  console.log(text);
  writeFileSync(RESULTS_MD, setSection(readFileSync(RESULTS_MD, 'utf8'), 'flux_reconcile', text));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) await main();
