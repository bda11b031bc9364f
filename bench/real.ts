/**
 * `npm run bench:real [-- --sizes=1,100,1000 --runs=3 --no-helm]`: kubewait on the real control plane of
 * test/real/ (kube-apiserver, controller manager and scheduler v1.35, kwok nodes), side by side in one run
 * with `kubectl wait`, `kubectl rollout status` and Helm 4's `helm upgrade --install --wait=watcher`;
 * writes bench/REAL-CLUSTER.md and replaces its copy in bench/RESULTS.md (the appendix bench/run.ts
 * carries). Needs `npm run cluster:real:build`.
 *
 * - **Gate**: the Deployments (1 replica each) are created with a nodeSelector no node satisfies, so every
 *   pod waits Unschedulable while the waiters start; once every waiter has opened a watch (the audit log
 *   says so) and 2 s more, the nodes get the label, the real scheduler binds the pods and kwok makes them
 *   Ready (no delay). kubewait and both kubectl commands wait on the same Deployments at once; helm
 *   installs a chart of the same Deployments in a namespace of its own and waits for them.
 * - **Latency**, two definitions, both from watches of this process (independent of the waiters), to the
 *   waiter's exit as this process saw it: (a) **after the status** — from the arrival of the Deployment
 *   status event that made the last Deployment Current (kstatus: observed generation, every replica
 *   updated, ready and available, Progressing NewReplicaSetAvailable, Available True), which is as close
 *   to the API server's write as a client gets: the waiter's own share; (b) **after the last pod Ready**
 *   — from the pod event that made the last pod Ready: (a) plus the deployment controller's lag.
 * - **Runs**: `--runs=N` (default 1) repeats kubewait and both kubectl commands N times per size, each in a
 *   fresh namespace (the previous one deleted first, so its garbage collection does not share the CPU);
 *   helm runs once per size (minutes at 100 and more, so one run tells the order of magnitude).
 * - **Requests**: the kube-apiserver's audit log, one event per request, for the waiter's own user.
 * Timings on a shared 2-core machine: the control plane, the waiters and the observer share the CPUs.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { kubectlPath } from '../test/cluster/kubectl.js';
import { ensureDist } from '../test/e2e/dist.js';
import { auditEvents, startRealCluster, type RealCluster } from '../test/real/cluster.js';
import { helmPath } from '../test/real/helm.js';
import { now } from './fixture.js';
import { spawnMeasured, type Exit } from './process.js';
import { setAppendix } from './sections.js';
import { formatMs, formatSummary, summarize } from './stats.js';
import { actionEnv } from './waiters.js';

const OUT = fileURLToPath(new URL('./REAL-CLUSTER.md', import.meta.url));
const RESULTS_MD = fileURLToPath(new URL('./RESULTS.md', import.meta.url));
const HEADING = '## Real control plane (bench/real.ts)';
const GATE = 'kubewait.bench/gate';
const PART_OF = { 'app.kubernetes.io/part-of': 'bench' };
const WAITERS = ['kubewait', 'kubectl-wait', 'kubectl-rollout', 'helm'] as const;
type WaiterId = (typeof WAITERS)[number];
const LABEL: Record<WaiterId, string> = {
  kubewait: 'kubewait (dist/index.js, watch)',
  'kubectl-wait': 'kubectl wait --for=condition=Available deployment --all',
  'kubectl-rollout': 'kubectl rollout status deployment -l ...',
  helm: 'helm upgrade --install --wait=watcher',
};

interface Row {
  size: number;
  run: number;
  waiter: WaiterId;
  ok: boolean;
  /** (a): exit minus the arrival of the status event that made the last Deployment Current. */
  afterStatusMs: number;
  /** (b): exit minus the arrival of the pod event that made the last pod Ready. */
  afterPodMs: number;
  /** 1-min load average as the gate opened. */
  load: number;
  /** Node waiters (the probe's exit event): from the JS exit event to the process being gone. */
  teardownMs?: number;
  requests: Record<string, number>;
  problem?: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const log = (line: string) => process.stderr.write(`${line}\n`);

function deploymentDoc(name: string, ns: string) {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: ns, labels: { app: name, ...PART_OF } },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name, ...PART_OF } },
        spec: { nodeSelector: { [GATE]: 'open' }, containers: [{ name: 'app', image: 'registry.example.com/app:1.0' }] },
      },
    },
  };
}
const names = (size: number) => Array.from({ length: size }, (_, i) => `app-${String(i).padStart(4, '0')}`);

interface Watched {
  metadata: { name: string; resourceVersion: string; generation?: number };
  spec?: { replicas?: number };
  status?: {
    observedGeneration?: number;
    replicas?: number;
    updatedReplicas?: number;
    readyReplicas?: number;
    availableReplicas?: number;
    conditions?: Array<{ type: string; status: string; reason?: string }>;
  };
}

const condition = (o: Watched, type: string) => o.status?.conditions?.find((c) => c.type === type);
const podReady = (pod: Watched) => condition(pod, 'Ready')?.status === 'True';
/** kstatus's Current for a Deployment (cli-utils pkg/kstatus/status/core.go deploymentConditions),
 *  written out here so that the observer does not share the judge of the waiter it measures. */
function deploymentCurrent(d: Watched): boolean {
  const want = d.spec?.replicas ?? 1;
  const s = d.status ?? {};
  const progressing = condition(d, 'Progressing');
  return (
    (s.observedGeneration ?? 0) >= (d.metadata.generation ?? 0) &&
    (s.replicas ?? 0) === want &&
    (s.updatedReplicas ?? 0) === want &&
    (s.readyReplicas ?? 0) >= want &&
    (s.availableReplicas ?? 0) >= want &&
    progressing?.status === 'True' &&
    progressing.reason === 'NewReplicaSetAvailable' &&
    condition(d, 'Available')?.status === 'True'
  );
}

/** Resolves with the instant (this process's, at the chunk's arrival, before parsing) the `count`-th
 *  distinct object of `ns` was seen `isReady` by a watch of this process (resumed from the last
 *  resourceVersion if the server ends it). */
function lastReadyAt(
  cluster: RealCluster,
  ns: string,
  resource: 'pods' | 'deployments',
  count: number,
  isReady: (o: Watched) => boolean,
): { at: Promise<number>; stop: () => void } {
  const config = parse(cluster.kubeconfig({ user: 'token' })) as { users: Array<{ user: { token: string } }> };
  const token = config.users[0]?.user.token ?? '';
  const apiPath = resource === 'pods' ? `/api/v1/namespaces/${ns}/pods` : `/apis/apps/v1/namespaces/${ns}/deployments`;
  const ready = new Set<string>();
  let stopped = false;
  let lastRv: string | undefined;
  let current: ReturnType<typeof request> | undefined;
  let resolveAt: (t: number) => void = () => undefined;
  const at = new Promise<number>((resolve) => (resolveAt = resolve));
  const connect = () => {
    if (stopped) return;
    const url = new URL(`${apiPath}?watch=1${lastRv ? `&resourceVersion=${lastRv}` : ''}`, cluster.url);
    current = request(url, { ca: cluster.caPem, headers: { authorization: `Bearer ${token}` } }, (res) => {
      let buffered = '';
      res.setEncoding('utf8').on('data', (chunk: string) => {
        const t = now();
        buffered += chunk;
        const lines = buffered.split('\n');
        buffered = lines.pop() ?? '';
        for (const line of lines.filter(Boolean)) {
          const event = JSON.parse(line) as { type: string; object: Watched };
          if (event.type === 'ERROR')
            lastRv = undefined; // 410 Gone: start over with a fresh list
          else lastRv = event.object.metadata.resourceVersion;
          if (event.type !== 'ERROR' && isReady(event.object)) ready.add(event.object.metadata.name);
        }
        if (ready.size >= count) resolveAt(t);
      });
      res.on('end', () => setTimeout(connect, 100));
    });
    current.on('error', () => setTimeout(connect, 200));
    current.end();
  };
  connect();
  return {
    at,
    stop: () => {
      stopped = true;
      current?.destroy();
    },
  };
}

/** Both observers of one namespace: the last Deployment Current (a) and the last pod Ready (b). */
function observe(cluster: RealCluster, ns: string, count: number) {
  const status = lastReadyAt(cluster, ns, 'deployments', count, deploymentCurrent);
  const pods = lastReadyAt(cluster, ns, 'pods', count, podReady);
  return {
    status,
    pods,
    stop: () => {
      status.stop();
      pods.stop();
    },
  };
}

/** The observer's instant, or an error once every waiter has exited and the observer still has not
 *  seen all pods Ready a minute later (never a hang). */
async function lastReadyOrFail(at: Promise<number>, waiters: Array<Promise<Exit>>, what: string): Promise<number> {
  const late = Promise.all(waiters)
    .then(() => sleep(60_000))
    .then((): number => {
      throw new Error(`${what}: every waiter exited, but not every pod was seen Ready`);
    });
  return Promise.race([at, late]);
}

async function setGate(cluster: RealCluster, open: boolean): Promise<void> {
  await cluster.kubectl('label', 'nodes', '--all', '--overwrite', open ? `${GATE}=open` : `${GATE}-`);
}

/** Waits until every user has opened a watch (kubectl wait: its first one); fails if a waiter exits first. */
async function armed(cluster: RealCluster, users: string[], waiters: Array<[WaiterId, Promise<Exit>]>, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited: string | undefined;
  for (const [w, done] of waiters)
    void done.then(
      (exit) =>
        (exited ??= `${w} exited (${exit.code ?? exit.signal}) before the gate opened: ${(exit.stdout + exit.stderr).trim().split('\n').slice(-5).join(' / ')}`),
    );
  while (!users.every((u) => auditEvents(cluster, u).some((e) => e.verb === 'watch'))) {
    if (exited) throw new Error(exited);
    if (Date.now() > deadline)
      throw new Error(`not armed within ${timeoutMs / 1000} s: ${users.filter((u) => !auditEvents(cluster, u).some((e) => e.verb === 'watch')).join(', ')}`);
    await sleep(200);
  }
  await sleep(2000);
}

const countVerbs = (cluster: RealCluster, user: string) =>
  auditEvents(cluster, user).reduce<Record<string, number>>((acc, e) => ({ ...acc, [e.verb]: (acc[e.verb] ?? 0) + 1 }), {});

function helmChart(dir: string, size: number): string {
  const chart = path.join(dir, 'chart');
  mkdirSync(path.join(chart, 'templates'), { recursive: true });
  writeFileSync(path.join(chart, 'Chart.yaml'), 'apiVersion: v2\nname: bench\nversion: 0.1.0\n');
  writeFileSync(
    path.join(chart, 'templates', 'deployments.yaml'),
    names(size)
      .map((n) => `---\n${JSON.stringify(deploymentDoc(n, '{{ .Release.Namespace }}'))}\n`)
      .join(''),
  );
  return chart;
}

/** The gate's users: one per waiter, size and run, so that the audit log tells each run's requests apart. */
const userOf = (w: WaiterId, size: number, run: number) => `bench-${w}-${size}-${run}`;

/** One row per waiter from one observed wait: both latencies, or the failure. */
async function rowOf(
  cluster: RealCluster,
  w: WaiterId,
  size: number,
  run: number,
  exit: Exit,
  seen: { status: number; pods: number },
  load: number,
): Promise<Row> {
  return {
    size,
    run,
    waiter: w,
    ok: exit.code === 0,
    afterStatusMs: exit.exitAt - seen.status,
    afterPodMs: exit.exitAt - seen.pods,
    load,
    ...(exit.probe && { teardownMs: exit.exitAt - exit.probe.exitAt }),
    requests: countVerbs(cluster, userOf(w, size, run)),
    ...(exit.code !== 0 && { problem: (exit.stdout + exit.stderr).trim().split('\n').slice(-3).join(' / ') }),
  };
}

/** Opens the gate once `waiters` all watch; resolves with both observers' instants. */
async function gateAndObserve(
  cluster: RealCluster,
  ns: string,
  size: number,
  users: string[],
  waiters: Array<[WaiterId, Promise<Exit>]>,
): Promise<{ status: number; pods: number; load: number }> {
  const observers = observe(cluster, ns, size);
  try {
    await armed(cluster, users, waiters);
    const load = loadavg()[0] ?? 0;
    await setGate(cluster, true);
    const exits = waiters.map(([, done]) => done);
    const [status, pods] = await Promise.all([
      lastReadyOrFail(observers.status.at, exits, `${ns} Deployments`),
      lastReadyOrFail(observers.pods.at, exits, `${ns} pods`),
    ]);
    return { status, pods, load };
  } finally {
    observers.stop();
  }
}

async function prepare(cluster: RealCluster, ns: string, users: string[], docs: object[]): Promise<void> {
  await setGate(cluster, false);
  await cluster.apply(
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } },
    ...users.map((user) => ({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: user },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: user }],
    })),
  );
  // kubectl apply of 1,000 objects in one go: chunks keep each request body small.
  for (let i = 0; i < docs.length; i += 200) await cluster.apply(...docs.slice(i, i + 200));
}

/** Deletes a run's namespace and waits (up to 5 min) until it is gone, so that the next run does not share
 *  the CPU with the garbage collection of 1,000 Deployments, ReplicaSets and pods. */
async function dispose(cluster: RealCluster, ns: string): Promise<void> {
  await cluster.kubectl('delete', 'namespace', ns, '--timeout=5m').catch((err: unknown) => log(`  ${ns} not gone in 5 min: ${String(err)}`));
}

/** kubewait and both kubectl commands on the same Deployments at once. */
async function measureRun(cluster: RealCluster, tools: { kubectl: string; dist: string }, size: number, run: number, scratch: string): Promise<Row[]> {
  const ns = `real-${size}-${run}`;
  const waiters = ['kubewait', 'kubectl-wait', 'kubectl-rollout'] as const;
  const all = names(size);
  await prepare(
    cluster,
    ns,
    waiters.map((w) => userOf(w, size, run)),
    all.map((n) => deploymentDoc(n, ns)),
  );
  const kubectlEnv = (w: WaiterId) => {
    const file = path.join(scratch, `${w}-${size}-${run}.kubeconfig`);
    cluster.writeKubeconfig(file, { user: userOf(w, size, run), namespace: ns });
    return { PATH: process.env.PATH ?? '', HOME: scratch, KUBECONFIG: file };
  };
  const resources = all.map((n) => `${ns}/deploy/${n}`).join('\n');
  const kwScratch = mkdtempSync(path.join(scratch, 'kubewait-'));
  const started: Array<[WaiterId, Promise<Exit>]> = [
    [
      'kubewait',
      spawnMeasured(tools.dist, [], {
        node: true,
        env: actionEnv({ kubeconfig: cluster.kubeconfig({ user: userOf('kubewait', size, run), namespace: ns }), resources, timeout: '10m' }, kwScratch),
        cwd: kwScratch,
        killAfterMs: 900_000,
      }).done,
    ],
    [
      'kubectl-wait',
      spawnMeasured(tools.kubectl, ['wait', '--for=condition=Available', 'deployment', '--all', '-n', ns, '--timeout=10m'], {
        env: kubectlEnv('kubectl-wait'),
        killAfterMs: 900_000,
      }).done,
    ],
    [
      'kubectl-rollout',
      spawnMeasured(tools.kubectl, ['rollout', 'status', 'deployment', '-l', 'app.kubernetes.io/part-of=bench', '-n', ns, '--timeout=10m'], {
        env: kubectlEnv('kubectl-rollout'),
        killAfterMs: 900_000,
      }).done,
    ],
  ];
  const seen = await gateAndObserve(
    cluster,
    ns,
    size,
    waiters.map((w) => userOf(w, size, run)),
    started,
  );
  const rows: Row[] = [];
  for (const [w, done] of started) rows.push(await rowOf(cluster, w, size, run, await done, seen, seen.load));
  rmSync(kwScratch, { recursive: true, force: true });
  await dispose(cluster, ns);
  return rows;
}

/** Helm installs a chart of its own copy of the Deployments, gated the same way, and waits for them. */
async function measureHelm(cluster: RealCluster, helmPathname: string, size: number, scratch: string): Promise<Row> {
  const ns = `helm-${size}`;
  const user = userOf('helm', size, 1);
  await prepare(cluster, ns, [user], []);
  const chart = helmChart(scratch, size);
  const helmHome = path.join(scratch, `helm-home-${size}`);
  const kubeconfig = path.join(scratch, `helm-${size}.kubeconfig`);
  cluster.writeKubeconfig(kubeconfig, { user, namespace: ns });
  const helm = spawnMeasured(helmPathname, ['upgrade', '--install', 'bench', chart, '-n', ns, '--wait=watcher', '--timeout', '10m'], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: helmHome,
      KUBECONFIG: kubeconfig,
      HELM_CACHE_HOME: path.join(helmHome, 'cache'),
      HELM_CONFIG_HOME: path.join(helmHome, 'config'),
      HELM_DATA_HOME: path.join(helmHome, 'data'),
    },
    killAfterMs: 900_000,
  }).done;
  const seen = await gateAndObserve(cluster, ns, size, [user], [['helm', helm]]);
  const row = await rowOf(cluster, 'helm', size, 1, await helm, seen, seen.load);
  await dispose(cluster, ns);
  return row;
}

function render(rows: Row[], meta: { startedAt: Date; seconds: number; load: [number, number]; runs: number }): string {
  const requests = (r: Row) => {
    const total = Object.values(r.requests).reduce((a, b) => a + b, 0);
    return `${total} (${Object.entries(r.requests)
      .sort()
      .map(([v, n]) => `${v} ${n}`)
      .join(', ')})`;
  };
  const groups = new Map<string, Row[]>();
  for (const r of rows) groups.set(`${r.size} ${r.waiter}`, [...(groups.get(`${r.size} ${r.waiter}`) ?? []), r]);
  const cell = (rs: Row[], pick: (r: Row) => number) => formatSummary(summarize(rs.filter((r) => r.ok).map(pick)));
  const loads = (rs: Row[]) => {
    const s = summarize(rs.map((r) => r.load));
    return s.min === s.max ? s.min.toFixed(2) : `${s.min.toFixed(2)}–${s.max.toFixed(2)}`;
  };
  const failures = rows.filter((r) => !r.ok);
  return [
    HEADING,
    '',
    `Generated by \`npm run bench:real\` on ${meta.startedAt.toISOString().replace(/\.\d+Z$/, 'Z')} in ${meta.seconds.toFixed(1)} s (1-min load average ${meta.load[0].toFixed(2)} at start, ${meta.load[1].toFixed(2)} at end; the machine has 2 cores shared with other engineers' work, so the load is not this bench's alone). kube-apiserver, kube-controller-manager and kube-scheduler v1.35.4, etcd v3.6.16, 3 kwok v0.8.0 nodes, all on this machine; ${meta.runs} run${meta.runs === 1 ? '' : 's'} per size of kubewait and both kubectl commands, one of helm.`,
    '',
    "Deployments of 1 replica, gated by a nodeSelector until every waiter watches. Two latencies to the waiter's exit, both from watches of the bench process itself: **(a) after the status** is from the arrival of the Deployment status event that made the last Deployment Current (kstatus), the nearest a client gets to the API server's write: the waiter's own share; **(b) after the last pod Ready** is from the pod event that made the last pod Ready, so it adds the deployment controller's status update. Medians of the successful runs with their range; the load is the 1-min load average as each gate opened. Requests are the kube-apiserver's audit log for the waiter's own user in the first run (discovery included, as `get`). kubewait, `kubectl wait` and `kubectl rollout status` wait on the same Deployments at once; helm installs its own copy and waits with `--wait=watcher`.",
    '',
    '| Deployments | waiter | ok | (a) after the last status | (b) after the last pod Ready | load | API requests |',
    '| ---: | --- | --- | ---: | ---: | ---: | --- |',
    ...[...groups.values()].map((rs) => {
      const first = rs[0]!;
      return `| ${first.size} | ${LABEL[first.waiter]} | ${rs.filter((r) => r.ok).length}/${rs.length} | ${cell(rs, (r) => r.afterStatusMs)} | ${cell(rs, (r) => r.afterPodMs)} | ${loads(rs)} | ${requests(first)} |`;
    }),
    '',
    ...(failures.length === 0
      ? []
      : ['Failures:', '', ...failures.map((r) => `- ${r.size} Deployments, run ${r.run}, ${LABEL[r.waiter]}: ${r.problem ?? ''}`), '']),
  ].join('\n');
}

async function main(): Promise<void> {
  const sizesArg = process.argv.find((a) => a.startsWith('--sizes='))?.slice('--sizes='.length);
  const sizes = (sizesArg ?? '1,100,1000').split(',').map(Number);
  if (sizes.some((n) => !Number.isInteger(n) || n < 1 || n > 2000))
    throw new Error(`--sizes must be whole numbers from 1 to 2000, e.g. --sizes=1,100,1000 (got "${sizesArg}")`);
  const runsArg = process.argv.find((a) => a.startsWith('--runs='))?.slice('--runs='.length);
  const runs = Number(runsArg ?? '1');
  if (!Number.isInteger(runs) || runs < 1 || runs > 20) throw new Error(`--runs must be a whole number from 1 to 20, e.g. --runs=3 (got "${runsArg}")`);
  const withHelm = !process.argv.includes('--no-helm');
  const startedAt = new Date();
  const load0 = loadavg()[0] ?? 0;
  const dist = await ensureDist();
  const [kubectl, helm] = [await kubectlPath(), await helmPath()];
  const users = sizes.flatMap((size) => Array.from({ length: runs }, (_, i) => WAITERS.map((w) => userOf(w, size, i + 1))).flat());
  const cluster = await startRealCluster({ users, log: (line) => log(`real cluster: ${line}`) });
  // Interrupted: stop the control plane (its processes are in groups of their own) before exiting.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void cluster.close().finally(() => process.exit(130)));
  const scratch = mkdtempSync(path.join(tmpdir(), 'kubewait-bench-real-'));
  const rows: Row[] = [];
  const show = (r: Row) =>
    log(
      `  ${LABEL[r.waiter]}: ${r.ok ? 'ok' : 'FAILED'} (a) ${formatMs(r.afterStatusMs)} (b) ${formatMs(r.afterPodMs)}${r.teardownMs === undefined ? '' : ` (of which after the JS exit event: ${formatMs(r.teardownMs)})`}, load ${r.load.toFixed(2)}, ${Object.values(r.requests).reduce((a, b) => a + b, 0)} requests`,
    );
  try {
    for (const size of sizes) {
      for (let run = 1; run <= runs; run++) {
        log(`${size} Deployments, run ${run}/${runs} ...`);
        const measured = await measureRun(cluster, { kubectl, dist }, size, run, scratch);
        measured.forEach(show);
        rows.push(...measured);
      }
      if (withHelm) {
        log(`${size} Deployments, helm ...`);
        const row = await measureHelm(cluster, helm, size, scratch);
        show(row);
        rows.push(row);
      }
    }
  } finally {
    await cluster.close();
    rmSync(scratch, { recursive: true, force: true });
  }
  const report = render(rows, { startedAt, seconds: (Date.now() - startedAt.getTime()) / 1000, load: [load0, loadavg()[0] ?? 0], runs });
  writeFileSync(OUT, report);
  // RESULTS.md carries this file as an appendix (bench/run.ts): the copy there is replaced in place.
  writeFileSync(RESULTS_MD, setAppendix(readFileSync(RESULTS_MD, 'utf8'), HEADING, report));
  log(`wrote ${OUT} and its copy in ${RESULTS_MD}`);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
