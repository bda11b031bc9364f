/**
 * What dist/ is built from, as one hash: src/, package-lock.json, the build scripts and the version, by content (a fresh
 * clone's mtimes say nothing). `npm run package` records it in dist/build.json; the tests and the demo
 * compare it to decide whether the committed bundle is current or must be rebuilt.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Written beside the bundle by `npm run package`, committed with it. */
export const BUILD_RECORD = path.join(ROOT, 'dist/build.json');

export interface BuildRecord {
  /** `sourcesHash()` of what the bundles were built from. */
  sources: string;
  /** `distHash()` of the bundles as built. */
  dist: string;
}

/** The runner's entry (src/boot.ts), the action's bundle it loads, the command's entry (src/cli-boot.ts) and its bundle. */
export const DIST_ENTRY = path.join(ROOT, 'dist/index.js');
export const DIST_BUNDLE = path.join(ROOT, 'dist/kubewait.js');
export const DIST_CLI = path.join(ROOT, 'dist/cli.js');
export const DIST_CLI_BUNDLE = path.join(ROOT, 'dist/kubewait-cli.js');
const DIST_FILES = [DIST_ENTRY, DIST_BUNDLE, DIST_CLI, DIST_CLI_BUNDLE];
/** The directories of the bundles' chunks, relative to dist/ (scripts/package.ts splits both): the command's
 *  (in the npm package) and the action's. */
export const CHUNKS = 'chunks';
export const ACTION_CHUNKS = 'action';
const chunkFiles = (): string[] =>
  [CHUNKS, ACTION_CHUNKS].flatMap((chunks) => {
    const dir = path.join(ROOT, 'dist', chunks);
    return existsSync(dir)
      ? readdirSync(dir)
          .sort()
          .map((name) => path.join(dir, name))
      : [];
  });

export function sourcesHash(): string {
  const hash = createHash('sha256');
  const add = (file: string) => hash.update(path.relative(ROOT, file).split(path.sep).join('/')).update(readFileSync(file));
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? walk(path.join(dir, entry.name)) : [path.join(dir, entry.name)]));
  [
    ...walk(path.join(ROOT, 'src')).sort(),
    path.join(ROOT, 'package-lock.json'),
    path.join(ROOT, 'scripts/package.ts'),
    path.join(ROOT, 'scripts/bundle-plugins.ts'),
  ].forEach(add);
  // Of package.json the bundles hold the version alone (packageVersionOnly in scripts/bundle-plugins.ts).
  hash.update(`version ${(JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version}`);
  return hash.digest('hex');
}

/** Every built file as one hash: any one edited makes dist/ another build. */
export const distHash = (): string => {
  const hash = createHash('sha256');
  for (const file of [...DIST_FILES, ...chunkFiles()]) hash.update(path.relative(ROOT, file)).update(readFileSync(file));
  return hash.digest('hex');
};

/** Whether every built file exists. */
export const distExists = (): boolean => DIST_FILES.every((file) => existsSync(file));
