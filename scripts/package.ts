/**
 * `npm run package`: bundles src/index.ts into dist/kubewait.js and src/boot.ts into dist/index.js, the
 * file the `node24` runner executes (it installs the signal handlers, then loads dist/kubewait.js: see
 * src/boot.ts), src/cli.ts into dist/kubewait-cli.js with the chunks it loads in dist/chunks/, and
 * src/cli-boot.ts into dist/cli.js, the command (package.json `bin`: `kubewait`, `kubectl-kubewait`; it loads
 * dist/kubewait-cli.js the same way), and lists the licenses of every bundled package in dist/licenses.txt.
 *
 * Both bundles are split where src/ loads a module with `import()`: the command's into dist/chunks/ (its
 * `--version` and `--help` compile and evaluate about 0.2 MB instead of the whole bundle, and a wait loads
 * client-node, the engine and CEL only then: bench/RESULTS.md, start-up), the action's into dist/action/
 * (not in the npm package). The action's chunks keep what a run may not use (the GitHub reports' Octokit,
 * the health-checks glob) off its start, and V8 compiles each file on its own: as one 1.9 MB file the
 * action peaked 12 MB higher, most of it the parser's memory (bench/RESULTS.md, memory).
 * Both go through scripts/bundle-plugins.ts, which keeps what client-node, undici and client-node's proxy
 * agents would evaluate for nothing off the start path (and CEL and yaml, until first used), and takes
 * Node's builtins with `require`.
 *
 * Why esbuild and not ncc: bench/RESULTS.md measures both on the same source. esbuild tree-shakes
 * client-node's ES modules and hoists scopes; ncc keeps every module in a webpack wrapper. The esbuild
 * bundle is less than half the size, evaluates about 120 ms faster and peaks about 50 MB lower, and
 * builds in about a second instead of about 25 s. The output is deterministic, so CI can check that the
 * committed dist/ matches src/.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
  lazyYaml,
  packageVersionOnly,
} from './bundle-plugins.js';
import { ACTION_CHUNKS, BUILD_RECORD, CHUNKS, distHash, sourcesHash, type BuildRecord } from './sources-hash.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIST = path.join(ROOT, 'dist');

/** The bundle is an ES module; the CommonJS packages it inlines still call `require`. */
const REQUIRE_SHIM = "import { createRequire as __kubewaitCreateRequire } from 'node:module'; const require = __kubewaitCreateRequire(import.meta.url);";

/** Entry (src/ENTRY.ts), its bundle (dist/NAME.js), and the directory of its chunks (dist/CHUNKS/). */
const BUNDLES: Array<[entry: string, name: string, chunks: string]> = [
  ['index', 'kubewait', ACTION_CHUNKS],
  ['cli', 'kubewait-cli', CHUNKS],
];

/** The tiny entries (src/ENTRY.ts as dist/NAME.js) that install the signal handlers, then load their bundle.
 *  The runner starts the action's on Node 24; the command's runs on whatever Node a user has and must parse
 *  there to say which Node it needs (src/cli/node-version.ts), so it is built for Node 12.20, the oldest whose ES
 *  modules have `import()`: esbuild lowers newer syntax and refuses what it cannot (top-level await). */
const ENTRIES: Array<[entry: string, name: string, bundle: string, banner: string, target: string]> = [
  ['boot', 'index', './kubewait.js', '', 'node24'],
  ['cli-boot', 'cli', './kubewait-cli.js', '#!/usr/bin/env node', 'node12.20'],
];

async function main(): Promise<void> {
  rmSync(DIST, { recursive: true, force: true });
  mkdirSync(DIST, { recursive: true });
  const inputs = new Set<string>();
  for (const [entry, name, chunks] of BUNDLES) {
    const result = await build({
      entryPoints: { [name]: path.join(ROOT, 'src', `${entry}.ts`) },
      outdir: DIST,
      splitting: true,
      chunkNames: `${chunks}/[name]-[hash]`,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node24',
      minify: true,
      legalComments: 'none', // collected into licenses.txt instead
      banner: { js: REQUIRE_SHIM }, // every chunk: each is a module of its own
      metafile: true,
      logLevel: 'warning',
      plugins: [
        clientNodeSideEffectFree,
        lazyUndici,
        lazyProxyAgents,
        lazyClientNodeHelpers,
        lazyCel,
        lazyYaml(ROOT),
        builtinsByRequire,
        packageVersionOnly(ROOT),
      ],
    });
    Object.keys(result.metafile.inputs).forEach((input) => inputs.add(input));
    const outputs = Object.entries(result.metafile.outputs);
    const bytes = outputs.reduce((sum, [, output]) => sum + output.bytes, 0);
    const files = outputs.length > 1 ? ` in ${outputs.length} files` : '';
    console.log(`dist/${name}.js: ${(bytes / 1024 / 1024).toFixed(2)} MiB${files} from ${Object.keys(result.metafile.inputs).length} modules`);
  }
  // The runner's entry and the command's: tiny, so the signal handlers are in place before a 2 MB bundle is parsed.
  for (const [entry, name, bundle, banner, target] of ENTRIES) {
    await build({
      entryPoints: [path.join(ROOT, 'src', `${entry}.ts`)],
      outfile: path.join(DIST, `${name}.js`),
      bundle: true,
      platform: 'node',
      format: 'esm',
      target,
      minify: true,
      external: [bundle],
      ...(banner && { banner: { js: banner } }),
      logLevel: 'warning',
    });
  }
  // The command runs as `kubewait` from npm's bin links and as `kubectl-kubewait` from PATH.
  chmodSync(path.join(DIST, 'cli.js'), 0o755);
  // dist/ runs as an ES module even when copied out of this package.
  writeFileSync(path.join(DIST, 'package.json'), JSON.stringify({ type: 'module' }, null, 2) + '\n');
  writeFileSync(path.join(DIST, 'licenses.txt'), licensesText([...inputs].sort()));
  // What these bundles were built from: a clone whose src/ matches uses the committed dist/ as it is.
  const record: BuildRecord = { sources: sourcesHash(), dist: distHash() };
  writeFileSync(BUILD_RECORD, JSON.stringify(record, null, 2) + '\n');
}

/** One entry per bundled package (name, license, license text), sorted, like ncc's licenses.txt. */
function licensesText(inputs: string[]): string {
  const packageDirs = new Set<string>();
  for (const input of inputs) {
    const match = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (match?.[1]) packageDirs.add(path.join(ROOT, match[1]));
  }
  const entries = [...packageDirs].map(describePackage).sort((a, b) => a.name.localeCompare(b.name));
  return entries.map((e) => `${e.name}\n${e.license}\n${e.text}`.trimEnd() + '\n').join('\n');
}

function describePackage(dir: string): { name: string; license: string; text: string } {
  const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name: string; license?: string };
  const file = ['LICENSE', 'LICENSE.md', 'LICENSE.txt', 'license', 'LICENCE', 'license.md']
    .map((name) => path.join(dir, name))
    .find((candidate) => existsSync(candidate));
  return { name: manifest.name, license: manifest.license ?? 'UNKNOWN', text: file ? readFileSync(file, 'utf8') : '' };
}

await main();
