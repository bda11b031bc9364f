/**
 * The bundles being compared: dist/index.js, the bundle the runner executes (built by `npm run package`
 * when stale), and, built to a temp dir (never committed), an ncc bundle and an esbuild bundle of the same
 * src/index.ts — so the bundler comparison holds whichever bundler `npm run package` uses. Plus two
 * reference points for start-up: an esbuild bundle of only the client-node exports src/kube uses (the
 * floor client-node sets), and an empty script (Node itself).
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type BuildOptions } from 'esbuild';
import { buildDist, distIsStale, ensureDist } from '../test/e2e/dist.js';
import { now } from './fixture.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface Bundle {
  id: string;
  label: string;
  entry: string;
  bytes: number;
  /** Wall time of the build in this run (undefined when an up-to-date bundle was reused). */
  buildMs?: number;
}

export interface Bundles {
  dist: Bundle;
  /** Not built in quick runs (it takes ~30 s). */
  ncc?: Bundle;
  esbuild: Bundle;
  clientNodeFloor: Bundle;
  empty: Bundle;
  dispose(): void;
}

/** ESM output needs `require` for the CommonJS packages it inlines. */
const REQUIRE_SHIM = "import { createRequire as __benchCreateRequire } from 'node:module'; const require = __benchCreateRequire(import.meta.url);";

/** Both esbuild bundles here are built as `npm run package` builds dist/ (minus its license file). */
const ESBUILD_OPTIONS = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node24',
  minify: true,
  banner: { js: REQUIRE_SHIM },
  logLevel: 'error',
} satisfies BuildOptions;

/** What src/kube imports from client-node: the least of it any bundle of kubewait must evaluate. */
const CLIENT_NODE_FLOOR = `
import { HttpMethod, IsomorphicFetchHttpLibrary, KubeConfig, RequestContext, Watch } from '@kubernetes/client-node';
globalThis.__kubewaitBenchKeep = [HttpMethod, IsomorphicFetchHttpLibrary, KubeConfig, RequestContext, Watch];
`;

export async function prepareBundles(options: { rebuildDist: boolean; ncc: boolean }): Promise<Bundles> {
  const scratch = mkdtempSync(path.join(tmpdir(), 'kubewait-bundles-'));

  let distBuildMs: number | undefined;
  if (options.rebuildDist) {
    const started = now();
    buildDist();
    distBuildMs = now() - started;
  } else if (distIsStale()) {
    const started = now();
    await ensureDist();
    distBuildMs = now() - started;
  }
  // A private copy: other work in this tree (e2e tests rebuild dist/ when src/ changes) must not swap or
  // delete the bundle under a running benchmark.
  // All of dist/: index.js is the loader of kubewait.js (src/boot.ts), and cli.js the command (bench/cli-startup.ts).
  const distEntry = path.join(scratch, 'dist/index.js');
  cpSync(path.join(ROOT, 'dist'), path.join(scratch, 'dist'), { recursive: true });

  let ncc: Bundle | undefined;
  if (options.ncc) {
    // ncc with the flags `npm run package` used before it moved to esbuild, without the license file.
    const nccDir = path.join(scratch, 'ncc');
    const started = now();
    execFileSync(path.join(ROOT, 'node_modules/.bin/ncc'), ['build', path.join(ROOT, 'src/index.ts'), '-o', nccDir, '--minify', '--quiet'], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const entry = path.join(nccDir, 'index.js');
    // src/index.ts imports main.js dynamically, which ncc emits as a separate chunk: count every file.
    const bytes = readdirSync(nccDir)
      .filter((name) => name.endsWith('.js'))
      .reduce((sum, name) => sum + statSync(path.join(nccDir, name)).size, 0);
    ncc = { id: 'ncc', label: 'ncc --minify (entry + chunks; ncc leaves the main.js chunk unminified)', entry, bytes, buildMs: now() - started };
  }

  const esbuildEntry = path.join(scratch, 'esbuild/index.mjs');
  const started = now();
  await build({ ...ESBUILD_OPTIONS, entryPoints: [path.join(ROOT, 'src/index.ts')], outfile: esbuildEntry });
  const esbuildMs = now() - started;

  const floorEntry = path.join(scratch, 'floor/index.mjs');
  await build({ ...ESBUILD_OPTIONS, stdin: { contents: CLIENT_NODE_FLOOR, resolveDir: ROOT, loader: 'js' }, outfile: floorEntry });

  const emptyEntry = path.join(scratch, 'empty.mjs');
  writeFileSync(emptyEntry, '');

  const size = (file: string) => statSync(file).size;
  return {
    dist: {
      id: 'dist',
      label: 'dist/index.js + the bundle it loads (npm run package)',
      entry: distEntry,
      bytes: size(distEntry) + size(path.join(scratch, 'dist/kubewait.js')),
      buildMs: distBuildMs,
    },
    ncc,
    esbuild: { id: 'esbuild', label: 'esbuild (same src)', entry: esbuildEntry, bytes: size(esbuildEntry), buildMs: esbuildMs },
    clientNodeFloor: { id: 'floor', label: 'client-node alone (esbuild, the exports src/kube uses)', entry: floorEntry, bytes: size(floorEntry) },
    empty: { id: 'node', label: 'node, empty script', entry: emptyEntry, bytes: 0 },
    dispose: () => rmSync(scratch, { recursive: true, force: true }),
  };
}
