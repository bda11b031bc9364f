/**
 * The real Flux controllers beside the real control plane (cluster.ts), for flux.test.ts: source-controller
 * and kustomize-controller v1.9.6 as scripts/real-cluster/build-flux.sh builds them from the Go module proxy,
 * their CRDs (config/crd/bases of the same module versions, kept beside the binaries), and Git repositories
 * served over smart HTTP on loopback by `git http-backend` behind a small CGI bridge. The controllers run as
 * processes of their own (processes.ts: own process group, stopped on close) with the cluster's admin
 * kubeconfig; their logs stay in the temp dir until close.
 */
import { execFile, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from './binaries.js';
import { freePort, type RealCluster } from './cluster.js';
import { logTail, startProcess, stopProcess, type Managed } from './processes.js';

const run = promisify(execFile);

export const FLUX_BUILD_SCRIPT = path.join(ROOT, 'scripts/real-cluster/build-flux.sh');
export const FLUX_CONTROLLERS = ['source-controller', 'kustomize-controller'] as const;
export const FLUX_NOT_BUILT =
  'the Flux controllers are not built (bash scripts/real-cluster/build-flux.sh, or npm run cluster:real:build, builds them; .ci/run always does)';

/** The bin directory build-flux.sh builds into when both controllers and the CRDs are there, else undefined. */
export function builtFluxDir(): string | undefined {
  let dir: string;
  try {
    dir = execFileSync('bash', [FLUX_BUILD_SCRIPT, '--print-dir'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
  const complete = FLUX_CONTROLLERS.every((name) => existsSync(path.join(dir, name))) && existsSync(path.join(dir, '..', 'crds'));
  return complete ? dir : undefined;
}

export const FLUX_CLI_BUILD_SCRIPT = path.join(ROOT, 'scripts/real-cluster/build-flux-cli.sh');
export const FLUX_CLI_NOT_BUILT = 'the flux CLI is not built (bash scripts/real-cluster/build-flux-cli.sh builds it; .ci/run does not)';

/** The flux CLI build-flux-cli.sh builds (for bench/flux-reconcile.ts), when its build is complete, else undefined. */
export function builtFluxCli(): string | undefined {
  let dir: string;
  try {
    dir = execFileSync('bash', [FLUX_CLI_BUILD_SCRIPT, '--print-dir'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
  return existsSync(path.join(dir, '.complete')) ? path.join(dir, 'flux') : undefined;
}

/** A Git repository served over smart HTTP, with a work tree the test commits in and pushes from. */
export interface GitRepo {
  /** The URL a GitRepository's spec.url names. */
  url: string;
  /** Writes `files` (null deletes one), commits, pushes to `main`; resolves with the commit's sha. */
  commit(files: Record<string, string | null>, message: string): Promise<string>;
}

export interface RealFlux {
  /** A new repository `name` (empty until the first commit). */
  repo(name: string): Promise<GitRepo>;
  /** The last lines of a controller's log, for an assertion's message. */
  logTail(controller: (typeof FLUX_CONTROLLERS)[number]): string;
  close(): Promise<void>;
}

const READY_TIMEOUT_MS = 60_000;

export async function startFlux(cluster: RealCluster, log: (line: string) => void = () => undefined): Promise<RealFlux> {
  const bin = builtFluxDir();
  if (!bin) throw new Error(FLUX_NOT_BUILT);
  const dir = mkdtempSync(path.join(tmpdir(), 'kubewait-flux-'));
  const crds = path.join(bin, '..', 'crds');
  await cluster.kubectl('apply', '--server-side', '-f', crds);
  await cluster.crdsEstablished(...readdirSync(crds).map((file) => file.replace(/^([^_]+)_(.+)\.yaml$/, '$2.$1')));

  const git = await startGitServer(path.join(dir, 'repos'));
  const processes: Managed[] = [];
  const close = async () => {
    await Promise.all(processes.map((p) => stopProcess(p)));
    await new Promise<void>((resolve) => git.server.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const env = { ...process.env, KUBECONFIG: cluster.kubeconfigPath };
    const common = async () => {
      const health = await freePort();
      return { health, args: [`--metrics-addr=127.0.0.1:${await freePort()}`, `--health-addr=127.0.0.1:${health}`, '--enable-leader-election=false'] };
    };
    const source = await common();
    const storage = await freePort();
    mkdirSync(path.join(dir, 'storage'));
    const sourceArgs = [
      ...source.args,
      `--storage-path=${path.join(dir, 'storage')}`,
      `--storage-addr=127.0.0.1:${storage}`,
      `--storage-adv-addr=127.0.0.1:${storage}`,
    ];
    processes.push(startProcess('source-controller', path.join(bin, 'source-controller'), sourceArgs, path.join(dir, 'source-controller.log'), env));
    const kustomize = await common();
    // Dependencies are checked again every 2 s instead of 30 s, so a dependsOn case ends in seconds.
    const kustomizeArgs = [...kustomize.args, '--requeue-dependency=2s'];
    processes.push(
      startProcess('kustomize-controller', path.join(bin, 'kustomize-controller'), kustomizeArgs, path.join(dir, 'kustomize-controller.log'), env),
    );
    await Promise.all([source.health, kustomize.health].map((port, i) => untilReady(port, processes[i]!)));
    log(`Flux controllers ready (git over HTTP at ${git.url})`);
  } catch (error) {
    await close();
    throw error;
  }
  return {
    repo: (name) => createRepo(dir, git.url, name),
    logTail: (controller) =>
      logTail(
        processes.find((p) => p.name === controller)!,
        40,
      ),
    close,
  };
}

/** Until the controller's /readyz answers 200 (rejects with its log's tail when it exits or takes too long). */
async function untilReady(port: number, managed: Managed): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let exited: string | undefined;
  void managed.exited.then((how) => (exited = how));
  while (Date.now() < deadline) {
    if (exited) throw new Error(`${managed.name} exited (${exited}):\n${logTail(managed)}`);
    const ok = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${managed.name} was not ready within ${READY_TIMEOUT_MS / 1000} s:\n${logTail(managed)}`);
}

/**
 * `git http-backend` (smart HTTP, read-only: the test pushes to the bare repository on disk) behind an HTTP
 * server on 127.0.0.1: one CGI process per request, its headers turned into the response's.
 */
export async function startGitServer(root: string): Promise<{ server: Server; url: string }> {
  mkdirSync(root, { recursive: true });
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const child = spawn('git', ['http-backend'], {
      env: {
        PATH: process.env.PATH,
        GIT_PROJECT_ROOT: root,
        GIT_HTTP_EXPORT_ALL: '1',
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.slice(1),
        REQUEST_METHOD: req.method ?? 'GET',
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        HTTP_CONTENT_ENCODING: req.headers['content-encoding'] ?? '',
        GIT_PROTOCOL: String(req.headers['git-protocol'] ?? ''),
        REMOTE_ADDR: '127.0.0.1',
      },
    });
    req.pipe(child.stdin);
    let head = Buffer.alloc(0);
    let headersSent = false;
    child.stdout.on('data', (chunk: Buffer) => {
      if (headersSent) return void res.write(chunk);
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      let status = 200;
      for (const line of head.subarray(0, end).toString('latin1').split('\r\n')) {
        const colon = line.indexOf(':');
        const [name, value] = [line.slice(0, colon).trim(), line.slice(colon + 1).trim()];
        if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10);
        else if (name) res.setHeader(name, value);
      }
      res.writeHead(status);
      headersSent = true;
      res.write(head.subarray(end + 4));
    });
    child.on('close', () => {
      if (!headersSent) res.writeHead(502);
      res.end();
    });
  });
  const port = await new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)));
  return { server, url: `http://127.0.0.1:${port}` };
}

export async function createRepo(dir: string, baseUrl: string, name: string): Promise<GitRepo> {
  const bare = path.join(dir, 'repos', `${name}.git`);
  const work = path.join(dir, 'work', name);
  mkdirSync(work, { recursive: true });
  const git = (cwd: string, ...args: string[]) => run('git', args, { cwd, env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } });
  await git(dir, 'init', '--quiet', '--bare', '--initial-branch=main', bare);
  await git(work, 'init', '--quiet', '--initial-branch=main');
  await git(work, 'config', 'user.email', 'test@kubewait.test');
  await git(work, 'config', 'user.name', 'kubewait test');
  await git(work, 'remote', 'add', 'origin', bare);
  return {
    url: `${baseUrl}/${name}.git`,
    async commit(files, message) {
      for (const [file, content] of Object.entries(files)) {
        const at = path.join(work, file);
        if (content === null) {
          if (existsSync(at)) unlinkSync(at);
          continue;
        }
        mkdirSync(path.dirname(at), { recursive: true });
        writeFileSync(at, content);
      }
      await git(work, 'add', '--all');
      await git(work, 'commit', '--quiet', '--allow-empty', '-m', message);
      await git(work, 'push', '--quiet', 'origin', 'main');
      return (await git(work, 'rev-parse', 'HEAD')).stdout.trim();
    },
  };
}
