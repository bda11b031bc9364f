/**
 * `npm run bench:real [-- --sizes=1,100,1000]`: kubewait on the real control plane of test/real/ (kube-
 * apiserver, controller manager and scheduler v1.35, kwok nodes), side by side in one run with
 * `kubectl wait`, `kubectl rollout status` and Helm 4's `helm upgrade --install --wait=watcher`; writes
 * bench/REAL-CLUSTER.md, which bench/RESULTS.md includes. Needs `npm run cluster:real:build`.
 *
 * - **Gate**: the Deployments (1 replica each) are created with a nodeSelector no node satisfies, so every
 *   pod waits Unschedulable while the waiters start; once every waiter has opened a watch (the audit log
 *   says so) and 2 s more, the nodes get the label, the real scheduler binds the pods and kwok makes them
 *   Ready (no delay). kubewait and both kubectl commands wait on the same Deployments at once; helm
 *   installs a chart of the same Deployments in a namespace of its own and waits for them.
 * - **Latency**: from the instant the last pod turned Ready (a pod watch of this process saw it) to the waiter's exit. It includes the deployment controller's status update after the pod.
 * - **Requests**: the kube-apiserver's audit log, one event per request, for the waiter's own user.
 * Timings on a shared 2-core machine: the control plane, the waiters and the observer share the CPUs.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
import { formatMs } from './stats.js';
import { actionEnv } from './waiters.js';

const OUT = fileURLToPath(new URL('./REAL-CLUSTER.md', import.meta.url));
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
  waiter: WaiterId;
  ok: boolean;
  latencyMs: number;
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

/** Resolves with the instant the `count`-th distinct pod of `ns` was seen Ready, by a watch of this process
 *  (resumed from the last resourceVersion if the server ends it). */
function lastPodReady(cluster: RealCluster, ns: string, count: number): { at: Promise<number>; stop: () => void } {
  const config = parse(cluster.kubeconfig({ user: 'token' })) as { users: Array<{ user: { token: string } }> };
  const token = config.users[0]?.user.token ?? '';
  const ready = new Set<string>();
  let stopped = false;
  let lastRv: string | undefined;
  let current: ReturnType<typeof request> | undefined;
  let resolveAt: (t: number) => void = () => undefined;
  const at = new Promise<number>((resolve) => (resolveAt = resolve));
  const connect = () => {
    if (stopped) return;
    const url = new URL(`/api/v1/namespaces/${ns}/pods?watch=1${lastRv ? `&resourceVersion=${lastRv}` : ''}`, cluster.url);
    current = request(url, { ca: cluster.caPem, headers: { authorization: `Bearer ${token}` } }, (res) => {
      let buffered = '';
      res.setEncoding('utf8').on('data', (chunk: string) => {
        const t = now();
        buffered += chunk;
        const lines = buffered.split('\n');
        buffered = lines.pop() ?? '';
        for (const line of lines.filter(Boolean)) {
          const event = JSON.parse(line) as {
            type: string;
            object: { metadata: { name: string; resourceVersion: string }; status?: { conditions?: Array<{ type: string; status: string }> } };
          };
          if (event.type === 'ERROR')
            lastRv = undefined; // 410 Gone: start over with a fresh list
          else lastRv = event.object.metadata.resourceVersion;
          if (event.object.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')) ready.add(event.object.metadata.name);
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

async function measureSize(cluster: RealCluster, tools: { kubectl: string; helm: string; dist: string }, size: number, scratch: string): Promise<Row[]> {
  const ns = `real-${size}`;
  const helmNs = `helm-${size}`;
  const users = Object.fromEntries(WAITERS.map((w) => [w, `bench-${w}-${size}`])) as Record<WaiterId, string>;
  const kubeconfigOf = (w: WaiterId, namespace: string) => {
    const file = path.join(scratch, `${w}-${size}.kubeconfig`);
    cluster.writeKubeconfig(file, { user: users[w], namespace });
    return file;
  };
  await setGate(cluster, false);
  await cluster.apply(
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } },
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: helmNs } },
    ...WAITERS.map((w) => ({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: users[w] },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: users[w] }],
    })),
  );
  // kubectl apply of 1,000 objects in one go: chunks keep each request body small.
  const all = names(size);
  for (let i = 0; i < all.length; i += 200) await cluster.apply(...all.slice(i, i + 200).map((n) => deploymentDoc(n, ns)));

  const rows: Row[] = [];
  const observe = lastPodReady(cluster, ns, size);
  const kubectlEnv = (w: WaiterId) => ({ PATH: process.env.PATH ?? '', HOME: scratch, KUBECONFIG: kubeconfigOf(w, ns) });
  const resources = all.map((n) => `${ns}/deploy/${n}`).join('\n');
  const kwScratch = mkdtempSync(path.join(scratch, 'kubewait-'));
  const started: Array<[WaiterId, Promise<Exit>]> = [
    [
      'kubewait',
      spawnMeasured(tools.dist, [], {
        node: true,
        env: actionEnv({ kubeconfig: cluster.kubeconfig({ user: users.kubewait, namespace: ns }), resources, timeout: '10m' }, kwScratch),
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
  await armed(cluster, [users.kubewait, users['kubectl-wait'], users['kubectl-rollout']], started);
  await setGate(cluster, true);
  const lastReady = await lastReadyOrFail(
    observe.at,
    started.map(([, done]) => done),
    ns,
  );
  observe.stop();
  for (const [w, done] of started) {
    const exit = await done;
    rows.push({
      size,
      waiter: w,
      ok: exit.code === 0,
      latencyMs: exit.exitAt - lastReady,
      requests: countVerbs(cluster, users[w]),
      ...(exit.code !== 0 && { problem: (exit.stdout + exit.stderr).trim().split('\n').slice(-3).join(' / ') }),
    });
  }
  rmSync(kwScratch, { recursive: true, force: true });

  // Helm creates its own copy of the Deployments, gated the same way, and waits for them.
  await setGate(cluster, false);
  const chart = helmChart(scratch, size);
  const helmObserve = lastPodReady(cluster, helmNs, size);
  const helmHome = path.join(scratch, `helm-home-${size}`);
  const helm = spawnMeasured(tools.helm, ['upgrade', '--install', 'bench', chart, '-n', helmNs, '--wait=watcher', '--timeout', '10m'], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: helmHome,
      KUBECONFIG: kubeconfigOf('helm', helmNs),
      HELM_CACHE_HOME: path.join(helmHome, 'cache'),
      HELM_CONFIG_HOME: path.join(helmHome, 'config'),
      HELM_DATA_HOME: path.join(helmHome, 'data'),
    },
    killAfterMs: 900_000,
  }).done;
  await armed(cluster, [users.helm], [['helm', helm]]);
  await setGate(cluster, true);
  const helmReady = await lastReadyOrFail(helmObserve.at, [helm], helmNs);
  helmObserve.stop();
  const helmExit = await helm;
  rows.push({
    size,
    waiter: 'helm',
    ok: helmExit.code === 0,
    latencyMs: helmExit.exitAt - helmReady,
    requests: countVerbs(cluster, users.helm),
    ...(helmExit.code !== 0 && { problem: (helmExit.stdout + helmExit.stderr).trim().split('\n').slice(-3).join(' / ') }),
  });

  // Free the control plane for the next size.
  await cluster.kubectl('delete', 'namespace', ns, helmNs, '--wait=false');
  return rows;
}

function render(rows: Row[], meta: { startedAt: Date; seconds: number; load: [number, number] }): string {
  const requests = (r: Row) => {
    const total = Object.values(r.requests).reduce((a, b) => a + b, 0);
    return `${total} (${Object.entries(r.requests)
      .sort()
      .map(([v, n]) => `${v} ${n}`)
      .join(', ')})`;
  };
  return [
    '## Real control plane (bench/real.ts)',
    '',
    `Generated by \`npm run bench:real\` on ${meta.startedAt.toISOString().replace(/\.\d+Z$/, 'Z')} in ${meta.seconds.toFixed(1)} s (1-min load average ${meta.load[0].toFixed(2)} at start, ${meta.load[1].toFixed(2)} at end). kube-apiserver, kube-controller-manager and kube-scheduler v1.35.4, etcd v3.6.16, 3 kwok v0.8.0 nodes, all on this machine; one run per size.`,
    '',
    "Deployments of 1 replica, gated by a nodeSelector until every waiter watches; latency is from the last pod Ready (seen by a pod watch of the bench itself) to the waiter's exit, so it includes the deployment controller's status update; requests are the kube-apiserver's audit log for the waiter's own user (discovery included, as `get`). kubewait, `kubectl wait` and `kubectl rollout status` wait on the same Deployments at once; helm installs its own copy and waits with `--wait=watcher`.",
    '',
    '| Deployments | waiter | ok | latency after last pod Ready | API requests |',
    '| ---: | --- | --- | ---: | --- |',
    ...rows.map((r) => `| ${r.size} | ${LABEL[r.waiter]} | ${r.ok ? 'yes' : `no: ${r.problem ?? ''}`} | ${formatMs(r.latencyMs)} | ${requests(r)} |`),
    '',
  ].join('\n');
}

async function main(): Promise<void> {
  const sizesArg = process.argv.find((a) => a.startsWith('--sizes='))?.slice('--sizes='.length);
  const sizes = (sizesArg ?? '1,100,1000').split(',').map(Number);
  if (sizes.some((n) => !Number.isInteger(n) || n < 1 || n > 2000))
    throw new Error(`--sizes must be whole numbers from 1 to 2000, e.g. --sizes=1,100,1000 (got "${sizesArg}")`);
  const startedAt = new Date();
  const load0 = loadavg()[0] ?? 0;
  const dist = await ensureDist();
  const [kubectl, helm] = [await kubectlPath(), await helmPath()];
  const users = sizes.flatMap((size) => WAITERS.map((w) => `bench-${w}-${size}`));
  const cluster = await startRealCluster({ users, log: (line) => log(`real cluster: ${line}`) });
  // Interrupted: stop the control plane (its processes are in groups of their own) before exiting.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void cluster.close().finally(() => process.exit(130)));
  const scratch = mkdtempSync(path.join(tmpdir(), 'kubewait-bench-real-'));
  const rows: Row[] = [];
  try {
    for (const size of sizes) {
      log(`${size} Deployments ...`);
      const measured = await measureSize(cluster, { kubectl, helm, dist }, size, scratch);
      for (const r of measured)
        log(`  ${LABEL[r.waiter]}: ${r.ok ? 'ok' : 'FAILED'} ${formatMs(r.latencyMs)}, ${Object.values(r.requests).reduce((a, b) => a + b, 0)} requests`);
      rows.push(...measured);
    }
  } finally {
    await cluster.close();
    rmSync(scratch, { recursive: true, force: true });
  }
  writeFileSync(OUT, render(rows, { startedAt, seconds: (Date.now() - startedAt.getTime()) / 1000, load: [load0, loadavg()[0] ?? 0] }));
  log(`wrote ${OUT}`);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
