/**
 * The end-to-end tests run `dist/index.js`, the bundle the runner executes. It is built here, with
 * `npm run package`, when it is missing or older than anything it is built from (src/, package-lock.json),
 * so a test run never judges a stale bundle. Jest runs test files in parallel workers: a lock directory
 * makes the first one build and the others wait for it. dist/ is never committed by the tests.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const DIST_ENTRY = path.join(ROOT, 'dist/index.js');
const LOCK = path.join(ROOT, 'node_modules/.cache/kubewait-dist.lock');
const STALE_LOCK_MS = 5 * 60_000;

function newestMtime(entry: string): number {
  const stats = statSync(entry);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return Math.max(stats.mtimeMs, ...readdirSync(entry).map((name) => newestMtime(path.join(entry, name))));
}

export function distIsStale(): boolean {
  if (!existsSync(DIST_ENTRY)) return true;
  const built = statSync(DIST_ENTRY).mtimeMs;
  return [path.join(ROOT, 'src'), path.join(ROOT, 'package-lock.json')].some((input) => newestMtime(input) > built);
}

/** Builds dist/ unless it is up to date; safe to call from every test file. */
export async function ensureDist(): Promise<string> {
  for (;;) {
    if (!distIsStale()) return DIST_ENTRY;
    if (takeLock()) {
      try {
        if (distIsStale()) execFileSync('npm', ['run', 'package', '--silent'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
        return DIST_ENTRY;
      } finally {
        rmSync(LOCK, { recursive: true, force: true });
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

function takeLock(): boolean {
  mkdirSync(path.dirname(LOCK), { recursive: true });
  try {
    mkdirSync(LOCK);
    return true;
  } catch {
    // A lock left by a killed run would block forever; past a build's worst case it is taken over.
    const lock = statSync(LOCK, { throwIfNoEntry: false });
    if (lock && Date.now() - lock.mtimeMs > STALE_LOCK_MS) rmSync(LOCK, { recursive: true, force: true });
    return false;
  }
}
