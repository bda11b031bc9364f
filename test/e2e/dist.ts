/**
 * The end-to-end tests (and the demo) run `dist/index.js`, the bundle the runner executes, and `dist/cli.js`,
 * the command. Both are built here, with `npm run package`, unless they are the build of the current src/ and
 * package-lock.json: as the build
 * record committed with it says (dist/build.json, so a fresh clone and the demo use the committed bundle), or
 * as the last build on this machine says. A test run never judges a stale bundle. Jest runs test files in parallel workers: a lock
 * directory makes the first one build and the others wait for it. dist/ is never committed by the tests.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { BUILD_RECORD, DIST_CLI, DIST_ENTRY, distExists, distHash, sourcesHash } from '../../scripts/sources-hash.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export { DIST_CLI, DIST_ENTRY };
const LOCK = path.join(ROOT, 'node_modules/.cache/kubewait-dist.lock');
/** Which sources the last build here was made from (node_modules/.cache: never committed, gone on npm ci). */
export const STAMP = path.join(ROOT, 'node_modules/.cache/kubewait-dist.json');
const STALE_LOCK_MS = 5 * 60_000;

/** Stale unless both bundles are the build of the current sources: by the build record committed with them
 *  (dist/build.json, so a fresh clone uses the committed bundles), or by the last build on this machine. */
export function distIsStale(): boolean {
  if (!distExists()) return true;
  const sources = sourcesHash();
  const dist = distHash();
  const matches = (file: string) => {
    if (!existsSync(file)) return false;
    const record = JSON.parse(readFileSync(file, 'utf8')) as { sources?: string; dist?: string };
    return record.sources === sources && record.dist === dist;
  };
  return !matches(BUILD_RECORD) && !matches(STAMP);
}

/** Builds dist/ now, up to date or not, and records what it was built from. */
export function buildDist(): void {
  const sources = sourcesHash();
  execFileSync('npm', ['run', 'package', '--silent'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  mkdirSync(path.dirname(STAMP), { recursive: true });
  writeFileSync(STAMP, JSON.stringify({ sources, dist: distHash() }));
}

/** Builds dist/ unless it is up to date; safe to call from every test file. */
export async function ensureDist(): Promise<string> {
  for (;;) {
    if (!distIsStale()) return DIST_ENTRY;
    if (takeLock()) {
      try {
        if (distIsStale()) buildDist();
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
