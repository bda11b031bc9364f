/**
 * Where scripts/real-cluster/build.sh puts the control-plane binaries, and whether they are there.
 * build.sh alone knows the cache key (it reads the pins from the wrapper modules), so it is asked with
 * --print-dir, which builds nothing. KUBEWAIT_REAL_CLUSTER_BIN points at another directory of the same
 * five binaries instead.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const BUILD_SCRIPT = path.join(ROOT, 'scripts/real-cluster/build.sh');
export const BINARIES = ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kwok'] as const;
export type Binary = (typeof BINARIES)[number];

/** The bin directory build.sh builds into (whether or not it has been built). */
export function binDir(): string {
  const override = process.env.KUBEWAIT_REAL_CLUSTER_BIN;
  if (override) return path.resolve(override);
  return execFileSync('bash', [BUILD_SCRIPT, '--print-dir'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
}

/** The bin directory when every binary is in it, else undefined (also when build.sh cannot even say
 *  where that is, e.g. on a machine without Go). */
export function builtBinDir(): string | undefined {
  let dir: string;
  try {
    dir = binDir();
  } catch {
    return undefined;
  }
  return BINARIES.every((name) => existsSync(path.join(dir, name))) ? dir : undefined;
}

export const NOT_BUILT = 'the real control-plane binaries are not built (npm run cluster:real:build builds them; .ci/run always does)';
