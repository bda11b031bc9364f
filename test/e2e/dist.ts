/**
 * The end-to-end tests (and the demo) run `dist/index.js`, the bundle the runner executes. It is built
 * here, with `npm run package`, unless the last build on this machine was made from the current src/ and
 * package-lock.json and dist/ has not changed since, so a test run never judges a stale bundle (the first
 * run after `npm ci` always builds once, under a minute). Jest runs test files in parallel workers: a lock
 * directory makes the first one build and the others wait for it. dist/ is never committed by the tests.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const DIST_ENTRY = path.join(ROOT, 'dist/index.js');
const LOCK = path.join(ROOT, 'node_modules/.cache/kubewait-dist.lock');
/** Which sources the last build here was made from (node_modules/.cache: never committed, gone on npm ci). */
const STAMP = path.join(ROOT, 'node_modules/.cache/kubewait-dist.json');
const STALE_LOCK_MS = 5 * 60_000;

/** A hash of everything dist/ is built from. Content, not mtimes: a fresh clone's mtimes say nothing. */
function sourcesHash(): string {
  const hash = createHash('sha256');
  const add = (file: string) => hash.update(path.relative(ROOT, file)).update(readFileSync(file));
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? walk(path.join(dir, entry.name)) : [path.join(dir, entry.name)]));
  [...walk(path.join(ROOT, 'src')).sort(), path.join(ROOT, 'package-lock.json'), path.join(ROOT, 'scripts/package.ts')].forEach(add);
  return hash.digest('hex');
}

/** dist/index.js and the bundle it loads (src/boot.ts). */
const fileHash = (file: string) => {
  const hash = createHash('sha256').update(readFileSync(file));
  const bundle = path.join(path.dirname(file), 'kubewait.js');
  if (existsSync(bundle)) hash.update(readFileSync(bundle));
  return hash.digest('hex');
};

/** Stale unless the last build here was made from the current sources and dist/ is still that build. */
export function distIsStale(): boolean {
  if (!existsSync(DIST_ENTRY) || !existsSync(STAMP)) return true;
  const stamp = JSON.parse(readFileSync(STAMP, 'utf8')) as { sources?: string; dist?: string };
  return stamp.sources !== sourcesHash() || stamp.dist !== fileHash(DIST_ENTRY);
}

/** Builds dist/ now, up to date or not, and records what it was built from. */
export function buildDist(): void {
  const sources = sourcesHash();
  execFileSync('npm', ['run', 'package', '--silent'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  mkdirSync(path.dirname(STAMP), { recursive: true });
  writeFileSync(STAMP, JSON.stringify({ sources, dist: fileHash(DIST_ENTRY) }));
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
