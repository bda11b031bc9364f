/**
 * The real Argo CD beside the real control plane (cluster.ts), for argocd.test.ts: argocd-application-controller
 * and argocd-repo-server v3.6.2 as scripts/real-cluster/build-argocd.sh builds them from the Go module proxy,
 * the Application and AppProject CRDs of the same module version (kept beside the binary), Debian's
 * redis-server as their cache, and Git repositories served over smart HTTP on loopback (flux.ts's server).
 *
 * What an install's manifests would give the controller is made here, no more: the `argocd` namespace, its
 * `argocd-cm` ConfigMap and `argocd-secret` Secret (empty: the settings manager reads both), and the `default`
 * AppProject (the API server creates it on a real install; it is not run here). The destination
 * `https://kubernetes.default.svc` is this control plane through the admin kubeconfig
 * (ARGOCD_FAKE_IN_CLUSTER, as Argo CD's own Procfile runs it locally). Every process runs in a process group
 * of its own (processes.ts), on loopback ports, with its files in the temp dir; logs stay there until close.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT } from './binaries.js';
import { freePort, type RealCluster } from './cluster.js';
import { createRepo, startGitServer, type GitRepo } from './flux.js';
import { logTail, startProcess, stopProcess, type Managed } from './processes.js';

export const ARGOCD_BUILD_SCRIPT = path.join(ROOT, 'scripts/real-cluster/build-argocd.sh');
export const ARGOCD_NAMESPACE = 'argocd';
export const ARGOCD_NOT_BUILT = 'Argo CD is not built (opt-in: bash scripts/real-cluster/build-argocd.sh builds it, about 30 minutes cold; .ci/run does not)';
export const REDIS_MISSING = 'redis-server is not installed (apt-get install redis-server)';

const COMPONENTS = ['redis-server', 'argocd-repo-server', 'argocd-application-controller'] as const;
type Component = (typeof COMPONENTS)[number];

/** The bin directory build-argocd.sh builds into when the binary and the CRDs are there, else undefined. */
export function builtArgoCdDir(): string | undefined {
  let dir: string;
  try {
    dir = execFileSync('bash', [ARGOCD_BUILD_SCRIPT, '--print-dir'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
  return existsSync(path.join(dir, '.complete')) && existsSync(path.join(dir, '..', 'crds')) ? dir : undefined;
}

/** redis-server on PATH, else undefined. */
export function redisServer(): string | undefined {
  try {
    return execFileSync('bash', ['-c', 'command -v redis-server'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() || undefined;
  } catch {
    return undefined;
  }
}

export interface RealArgoCd {
  /** A new repository `name` (empty until the first commit). */
  repo(name: string): Promise<GitRepo>;
  /** The last lines of a component's log, for an assertion's message. */
  logTail(component: Component): string;
  close(): Promise<void>;
}

export interface ArgoCdOptions {
  /** How often the controller compares every Application with Git (its --app-resync), in seconds. */
  resyncSeconds?: number;
}

const READY_TIMEOUT_MS = 90_000;

export async function startArgoCd(cluster: RealCluster, options: ArgoCdOptions = {}, log: (line: string) => void = () => undefined): Promise<RealArgoCd> {
  const bin = builtArgoCdDir();
  if (!bin) throw new Error(ARGOCD_NOT_BUILT);
  const redis = redisServer();
  if (!redis) throw new Error(REDIS_MISSING);
  const dir = mkdtempSync(path.join(tmpdir(), 'kubewait-argocd-'));
  const crds = path.join(bin, '..', 'crds');
  await cluster.kubectl('apply', '--server-side', '-f', crds);
  await cluster.crdsEstablished('applications.argoproj.io', 'appprojects.argoproj.io');
  await cluster.apply(...installObjects());

  const git = await startGitServer(path.join(dir, 'repos'));
  const processes: Managed[] = [];
  const close = async () => {
    // The controller first: it would only log the repo server and redis going away.
    for (const name of [...COMPONENTS].reverse()) {
      const managed = processes.find((p) => p.name === name);
      if (managed) await stopProcess(managed);
    }
    await new Promise<void>((resolve) => git.server.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const redisPort = await freePort();
    processes.push(
      startProcess(
        'redis-server',
        redis,
        ['--bind', '127.0.0.1', '--port', String(redisPort), '--save', '', '--appendonly', 'no', '--dir', dir],
        path.join(dir, 'redis.log'),
      ),
    );
    await untilListening(redisPort, processes[0]!);

    const tmp = path.join(dir, 'tmp');
    for (const sub of ['tmp', 'tls', 'ssh', 'gpg/keys', 'gpg/source']) mkdirSync(path.join(dir, sub), { recursive: true });
    const env = {
      ...process.env,
      // The repo server runs git-verify-wrapper.sh from PATH (build-argocd.sh keeps it beside the binary).
      PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`,
      KUBECONFIG: cluster.kubeconfigPath,
      // The in-cluster destination is this control plane through KUBECONFIG (Argo CD's Procfile does the same).
      ARGOCD_FAKE_IN_CLUSTER: 'true',
      // Everything the components would find under /app/config or /tmp in their images, in the temp dir.
      TMPDIR: tmp,
      ARGOCD_TLS_DATA_PATH: path.join(dir, 'tls'),
      ARGOCD_SSH_DATA_PATH: path.join(dir, 'ssh'),
      ARGOCD_GNUPGHOME: path.join(dir, 'gpg/keys'),
      ARGOCD_GPG_DATA_PATH: path.join(dir, 'gpg/source'),
      ARGOCD_GPG_ENABLED: 'false',
      ARGOCD_ASK_PASS_SOCK: path.join(dir, 'ask-pass.sock'),
      GIT_TERMINAL_PROMPT: '0',
    };
    const redisAddress = `127.0.0.1:${redisPort}`;
    const repoPort = await freePort();
    const repoMetrics = await freePort();
    processes.push(
      startProcess(
        'argocd-repo-server',
        path.join(bin, 'argocd'),
        [
          'argocd-repo-server',
          '--address=127.0.0.1',
          `--port=${repoPort}`,
          '--metrics-address=127.0.0.1',
          `--metrics-port=${repoMetrics}`,
          `--redis=${redisAddress}`,
          '--disable-tls',
          // A branch is resolved to its commit again after 1 s instead of 3 min, so each resync sees a push.
          '--revision-cache-expiration=1s',
          // Its default, a CA file under /app/config, is refused with --disable-tls.
          '--client-ca-path=',
          '--logformat=text',
        ],
        path.join(dir, 'repo-server.log'),
        env,
      ),
    );
    const controllerMetrics = await freePort();
    const resync = String(options.resyncSeconds ?? 3);
    processes.push(
      startProcess(
        'argocd-application-controller',
        path.join(bin, 'argocd'),
        [
          'argocd-application-controller',
          `--namespace=${ARGOCD_NAMESPACE}`,
          `--redis=${redisAddress}`,
          `--repo-server=127.0.0.1:${repoPort}`,
          '--repo-server-plaintext',
          `--metrics-port=${controllerMetrics}`,
          `--app-resync=${resync}`,
          '--app-resync-jitter=0',
          // A failing manifest generation is retried at the next resync, not after the default 30 s pause.
          '--repo-error-grace-period-seconds=0',
          '--status-processors=4',
          '--operation-processors=4',
          '--logformat=text',
        ],
        path.join(dir, 'application-controller.log'),
        env,
      ),
    );
    await Promise.all([
      untilHealthy(`http://127.0.0.1:${repoMetrics}/metrics`, processes[1]!),
      untilHealthy(`http://127.0.0.1:${controllerMetrics}/healthz`, processes[2]!),
    ]);
    log(`Argo CD ready (git over HTTP at ${git.url})`);
  } catch (error) {
    await close();
    throw error;
  }
  return {
    repo: (name) => createRepo(dir, git.url, name),
    logTail: (component) =>
      logTail(
        processes.find((p) => p.name === component)!,
        40,
      ),
    close,
  };
}

/** What an install's manifests give the controller and it cannot run without (module header). */
function installObjects(): object[] {
  const labels = (name: string) => ({ 'app.kubernetes.io/name': name, 'app.kubernetes.io/part-of': 'argocd' });
  return [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ARGOCD_NAMESPACE } },
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'argocd-cm', namespace: ARGOCD_NAMESPACE, labels: labels('argocd-cm') } },
    { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'argocd-secret', namespace: ARGOCD_NAMESPACE, labels: labels('argocd-secret') } },
    {
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'AppProject',
      metadata: { name: 'default', namespace: ARGOCD_NAMESPACE },
      spec: {
        sourceRepos: ['*'],
        destinations: [{ server: '*', namespace: '*' }],
        clusterResourceWhitelist: [{ group: '*', kind: '*' }],
      },
    },
  ];
}

/** Until a TCP connection to the port succeeds (rejects with the log's tail when the process exits or takes too long). */
async function untilListening(port: number, managed: Managed): Promise<void> {
  await until(managed, () => canConnect(port));
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.end();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Until `url` answers 200. */
async function untilHealthy(url: string, managed: Managed): Promise<void> {
  await until(managed, () =>
    fetch(url).then(
      (response) => response.ok,
      () => false,
    ),
  );
}

async function until(managed: Managed, ready: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let exited: string | undefined;
  void managed.exited.then((how) => (exited = how));
  while (Date.now() < deadline) {
    if (exited) throw new Error(`${managed.name} exited (${exited}):\n${logTail(managed)}`);
    if (await ready()) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${managed.name} was not ready within ${READY_TIMEOUT_MS / 1000} s:\n${logTail(managed)}`);
}
