/**
 * kubewait's GitOps wait beside the flux CLI's own, same run (issue 20):
 *   npm run bench:gitops -- [--runs 5] [--flux PATH]
 *
 * The scenario: a Flux Kustomization `apps` Ready at the previous commit and its GitRepository, in the API
 * server stand-in serving the Flux CRDs (test/cluster/fixtures/gitops/). A step ships a new commit and waits:
 *
 * - flux: `flux reconcile kustomization apps` (fluxcd/flux2 cmd/flux/reconcile.go): annotates the object with
 *   `reconcile.fluxcd.io/requestedAt`, then polls every 2 s (its fixed `pollInterval`) until
 *   `status.lastHandledReconcileAt` is no longer the previous value and kstatus says Current. It is the flux
 *   command that waits on a Kustomization; it does not check the revision.
 * - kubewait: `dist/index.js` with `resources: kustomization/apps`, `revision: <sha>`, `reconcile: true`
 *   (the same annotation), `inventory: false` (the Kustomization alone, as flux judges it); and once more with
 *   the default `inventory: true`, the Deployment and Service its inventory lists being present and ready, so
 *   the second phase (reading the inventory, judging the workloads) is in the figure.
 *
 * This process plays kustomize-controller: once the waiter's annotation is on the object (checked every
 * millisecond) and 1.5 to 3.5 s more have passed (every waiter is in its wait loop by then; the random part
 * is flux's poll interval, so the write falls anywhere between two of its reads), it writes the status
 * of the new commit applied and Ready, recording the request as handled. The latency is that status write ->
 * the waiter's process exit, as this process sees both. A fresh stand-in per run; the waiters interleaved.
 *
 * Prints the figures and writes the marked section "gitops" of bench/RESULTS.md (bench/sections.ts). Never part
 * of `npm test`: timings.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import { startCluster, type TestCluster } from '../test/cluster/index.js';
import { ensureDist } from '../test/e2e/dist.js';
import { deployment } from '../test/e2e/objects.js';
import { builtFluxCli, FLUX_CLI_NOT_BUILT } from '../test/real/flux.js';
import { kustomization, NEW, NEW_SHA, OLD } from '../test/status/gitops/statuses.js';
import { now } from './fixture.js';
import { spawnMeasured, type Exit } from './process.js';
import { setSection } from './sections.js';
import { formatMs, formatSummary, median, summarize } from './stats.js';
import { actionEnv } from './waiters.js';

const execFileAsync = promisify(execFile);
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const FIXTURES = path.join(ROOT, 'test/cluster/fixtures/gitops');
const DIST = path.join(ROOT, 'dist/index.js');
const RESULTS_MD = path.join(ROOT, 'bench/RESULTS.md');
const NS = 'flux-system';
const REQUESTED_AT = 'reconcile.fluxcd.io/requestedAt';
/** After the annotation, before the status write: every waiter is then watching (kubewait) or polling (flux).
 *  Plus a random part as long as flux's poll interval, so the write falls anywhere between two of its reads. */
const SETTLE_MS = 1500;
const FLUX_POLL_MS = 2000;
const TIMEOUT = '2m';

type WaiterId = 'flux' | 'kubewait' | 'kubewait-inventory';

interface Run {
  /** The controller's status write -> the waiter's exit (ms). */
  latencyMs: number;
  /** The waiter's start -> its exit (ms). */
  totalMs: number;
  exit: Exit;
}

interface Stand {
  cluster: TestCluster;
  kubeconfig: string;
  work: string;
  close(): Promise<void>;
}

async function stand(withWorkloads: boolean): Promise<Stand> {
  const cluster = await startCluster({ speed: 1, crdEstablishDelayMs: 0 });
  for (const file of readdirSync(FIXTURES).filter((name) => name.endsWith('.yaml'))) {
    const crd = parse(readFileSync(path.join(FIXTURES, file), 'utf8')) as { metadata: { name: string } };
    cluster.create(crd);
    const established = () => {
      const status = cluster.get('apiextensions.k8s.io/v1', 'CustomResourceDefinition', undefined, crd.metadata.name)?.status as
        { conditions?: Array<{ type: string; status: string }> } | undefined;
      return status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True') === true;
    };
    await cluster.waitFor(established, 20_000);
  }
  cluster.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
  cluster.create(kustomization.object(kustomization.ready(OLD)));
  cluster.create({
    apiVersion: 'source.toolkit.fluxcd.io/v1',
    kind: 'GitRepository',
    metadata: { name: 'flux-system', namespace: NS },
    spec: { interval: '1m', url: 'https://github.com/example/fleet', ref: { branch: 'main' } },
  });
  if (withWorkloads) {
    // The objects the Kustomization's inventory lists (statuses.ts): shop/api, a Deployment and a Service.
    cluster.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } });
    cluster.create(deployment('api', { namespace: 'shop', replicas: 1 }));
    cluster.create({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'api', namespace: 'shop' },
      spec: { selector: { app: 'api' }, ports: [{ port: 80 }] },
    });
  }
  const work = mkdtempSync(path.join(tmpdir(), 'kubewait-bench-gitops-'));
  const kubeconfig = path.join(work, 'kubeconfig');
  writeFileSync(kubeconfig, cluster.kubeconfig({ namespace: NS }));
  return {
    cluster,
    kubeconfig,
    work,
    close: async () => {
      await cluster.close();
      rmSync(work, { recursive: true, force: true });
    },
  };
}

/**
 * kustomize-controller, played: once the Kustomization carries a reconcile request and SETTLE_MS have passed,
 * the new commit applied and Ready, the request handled. Resolves with the instant of that write.
 */
function controller(cluster: TestCluster): { wroteAt: Promise<number>; stop(): void } {
  let timer: NodeJS.Timeout | undefined;
  let settle: NodeJS.Timeout | undefined;
  const wroteAt = new Promise<number>((resolve) => {
    timer = setInterval(() => {
      const annotations = cluster.get('kustomize.toolkit.fluxcd.io/v1', 'Kustomization', NS, 'apps')?.metadata?.annotations;
      const requested = annotations?.[REQUESTED_AT];
      if (!requested) return;
      clearInterval(timer);
      settle = setTimeout(
        () => {
          cluster.patchStatus('kustomize.toolkit.fluxcd.io/v1', 'Kustomization', NS, 'apps', {
            ...kustomization.ready(NEW),
            lastHandledReconcileAt: requested,
          });
          resolve(now());
        },
        SETTLE_MS + Math.random() * FLUX_POLL_MS,
      );
    }, 1);
  });
  return {
    wroteAt,
    stop: () => {
      clearInterval(timer);
      clearTimeout(settle);
    },
  };
}

async function measure(id: WaiterId, flux: string | undefined): Promise<Run> {
  const s = await stand(id === 'kubewait-inventory');
  const played = controller(s.cluster);
  try {
    const started = now();
    const exit =
      id === 'flux'
        ? await spawnMeasured(flux!, ['reconcile', 'kustomization', 'apps', '-n', NS, '--kubeconfig', s.kubeconfig, '--timeout', TIMEOUT], {
            env: { PATH: process.env.PATH ?? '', HOME: s.work },
            killAfterMs: 150_000,
          }).done
        : await spawnMeasured(DIST, [], {
            node: true,
            env: actionEnv(
              {
                kubeconfig: readFileSync(s.kubeconfig, 'utf8'),
                resources: 'kustomization/apps',
                revision: NEW_SHA,
                reconcile: 'true',
                inventory: id === 'kubewait' ? 'false' : 'true',
                timeout: TIMEOUT,
              },
              s.work,
            ),
            cwd: s.work,
            killAfterMs: 150_000,
          }).done;
    const wroteAt = await Promise.race([played.wroteAt, Promise.resolve(Number.NaN)]);
    return { latencyMs: exit.exitAt - wroteAt, totalMs: exit.exitAt - started, exit };
  } finally {
    played.stop();
    await s.close();
  }
}

const LABELS: Record<WaiterId, string> = {
  flux: '`flux reconcile kustomization apps`',
  kubewait: 'kubewait `resources: kustomization/apps`, `revision`, `reconcile: true`, `inventory: false`',
  'kubewait-inventory': 'kubewait, the same with `inventory: true` (the default; its Deployment and Service ready)',
};

function section(
  runs: Partial<Record<WaiterId, Run[]>>,
  fluxVersion: string | undefined,
  fluxMissing: string | undefined,
  load: { start: number; end: number },
): string {
  const row = (id: WaiterId) => {
    const list = runs[id];
    if (!list) return `| ${LABELS[id]} | not run | | |`;
    return `| ${LABELS[id]} | ${formatSummary(summarize(list.map((r) => r.latencyMs)))} | ${formatSummary(summarize(list.map((r) => r.totalMs)))} | ${list.map((r) => r.exit.code).join(', ')} |`;
  };
  const medianOf = (id: WaiterId) => formatMs(median((runs[id] ?? []).map((r) => r.latencyMs)));
  return [
    '## GitOps: kubewait `revision` beside the flux CLI’s own wait',
    '',
    `Generated by \`npm run bench:gitops\` on ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')} (${fluxVersion ? `flux ${fluxVersion}` : 'no flux CLI'}; 1-min load average ${load.start.toFixed(2)} at start, ${load.end.toFixed(2)} at end on ${os.cpus().length} CPUs,`,
    'a machine shared with other work: the spread is partly theirs). A fresh stand-in per run serving the Flux CRDs; a Kustomization',
    'Ready at the previous commit and its GitRepository; this process plays kustomize-controller: once the waiter’s',
    `\`${REQUESTED_AT}\` annotation is on the Kustomization and ${SETTLE_MS / 1000} to ${(SETTLE_MS + FLUX_POLL_MS) / 1000} s more have passed (uniformly: the write falls anywhere`,
    'between two of flux’s reads), it writes the new commit applied and Ready, with `lastHandledReconcileAt` set to the request.',
    'Latency: that status write -> the waiter’s exit, as this process sees both. Both waiters talk TLS to the stand-in.',
    ...(fluxVersion
      ? [
          '',
          `flux ${fluxVersion} was built here from the Go module proxy’s \`github.com/fluxcd/flux2/v2@v2.9.5\`: \`go install …/cmd/flux@v2.9.5\``,
          'refuses it (its go.mod has a `replace` directive), so `scripts/real-cluster/build-flux-cli.sh` builds it as the main module',
          '(`go build -ldflags "-X main.VERSION=2.9.5" ./cmd/flux`), with a placeholder for the install manifests it embeds',
          '(`cmd/flux/manifests`, made by its release scripts; `flux reconcile` never reads them).',
        ]
      : []),
    '',
    '| waiter | status write -> exit | start -> exit | exit codes |',
    '|---|---:|---:|---|',
    row('flux'),
    row('kubewait'),
    row('kubewait-inventory'),
    '',
    ...(fluxMissing
      ? [`The flux CLI is missing: ${fluxMissing}`, '']
      : [
          `Medians ${medianOf('flux')} (flux) and ${medianOf('kubewait')} (kubewait): \`flux reconcile\` reads the object every 2 s (its fixed`,
          '`pollInterval`, not a flag), so it exits 0 to 2 s after the write; kubewait watches, and has exited tens of milliseconds later',
          '(its process exit included). flux waits for "my request handled and Ready", whatever the commit; kubewait for the shipped',
          'commit applied and Ready, so a reconcile that applied an older commit is not a green for it.',
          '',
        ]),
    `With \`inventory: true\` (median ${medianOf('kubewait-inventory')}) the step then reads the inventory and judges the Deployment and`,
    'Service it lists (one LIST and WATCH per type) before it exits: the cost of "through to the workloads".',
  ].join('\n');
}

async function fluxVersionOf(flux: string): Promise<string> {
  const { stdout } = await execFileAsync(flux, ['version', '--client']);
  return stdout.trim().replace(/^flux:\s*/, '');
}

async function main(): Promise<void> {
  const arg = (name: string) => {
    const at = process.argv.indexOf(name);
    return at >= 0 ? process.argv[at + 1] : undefined;
  };
  const count = Number(arg('--runs') ?? 5);
  // By default the flux CLI scripts/real-cluster/build-flux-cli.sh built from the Go module proxy.
  const fluxPath = arg('--flux') ?? builtFluxCli() ?? '';
  await ensureDist();
  let fluxVersion: string | undefined;
  let fluxMissing: string | undefined;
  if (!fluxPath) fluxMissing = `${FLUX_CLI_NOT_BUILT}.`;
  else if (!existsSync(fluxPath)) fluxMissing = `no executable at ${fluxPath}.`;
  else
    fluxVersion = await fluxVersionOf(fluxPath).catch((error: unknown) => {
      fluxMissing = `${fluxPath} does not run: ${String(error)}`;
      return undefined;
    });
  const loadAtStart = os.loadavg()[0] ?? Number.NaN;
  const ids: WaiterId[] = fluxMissing ? ['kubewait', 'kubewait-inventory'] : ['flux', 'kubewait', 'kubewait-inventory'];
  const runs: Partial<Record<WaiterId, Run[]>> = {};
  for (let i = 0; i < count; i++) {
    // Interleaved, so the machine's noise spreads over every waiter.
    const line: string[] = [];
    for (const id of ids) {
      const run = await measure(id, fluxVersion && fluxPath);
      (runs[id] ??= []).push(run);
      line.push(`${id} ${formatMs(run.latencyMs)} (exit ${run.exit.code})`);
      if (run.exit.code !== 0) console.log(`${id} exited ${run.exit.code}:\n${run.exit.stdout.slice(-2000)}\n${run.exit.stderr.slice(-2000)}`);
    }
    console.log(`run ${i + 1}/${count}: ${line.join(', ')}`);
  }
  const text = section(runs, fluxVersion, fluxMissing, { start: loadAtStart, end: os.loadavg()[0] ?? Number.NaN });
  console.log(text);
  writeFileSync(RESULTS_MD, setSection(readFileSync(RESULTS_MD, 'utf8'), 'gitops', text));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) await main();
