/**
 * What the command loads to start: `--version`, `--help` and a bad flag read a few hundred KB of dist/, not
 * the 1-2 MB a wait needs (client-node, the engine, CEL); scripts/package.ts splits dist/cli.js where src/
 * loads a module with `import()`. Measured by the files Node loads (a module hook in a preload), not by
 * time, so it holds on a busy machine; bench/RESULTS.md has the times.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startCluster, type TestCluster } from '../cluster/index.js';
import { DIST_CLI, ensureDist, ROOT } from './dist.js';
import { deployment } from './objects.js';
import { runCommand } from './runCommand.js';

/** At most what `--version` may load from dist/: the entry, the flag parser and what it imports. */
const START_PATH_MAX_BYTES = 300 * 1024;

let cluster: TestCluster;
let scratch: string;
let preload: string;

beforeAll(async () => {
  await ensureDist();
  cluster = await startCluster({ speed: 0.2 });
  scratch = mkdtempSync(path.join(tmpdir(), 'kubewait-startup-'));
  preload = path.join(scratch, 'loaded.mjs');
  writeFileSync(
    preload,
    [
      "import { registerHooks } from 'node:module';",
      "import { writeFileSync } from 'node:fs';",
      'const loaded = [];',
      "registerHooks({ load(url, context, next) { if (url.startsWith('file:')) loaded.push(url); return next(url, context); } });",
      "process.on('exit', () => writeFileSync(process.env.KUBEWAIT_LOADED_FILE, loaded.join('\\n')));",
    ].join('\n'),
  );
}, 300_000);

afterAll(async () => {
  await cluster?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** Runs the command with the preload; the dist/ files it loaded and their bytes. */
async function loadedBy(args: string[], name: string): Promise<{ exitCode: number | null; files: string[]; bytes: number }> {
  const record = path.join(scratch, `${name}.txt`);
  // dist/cli.js itself, also when KUBEWAIT_BIN names another build: this is about how dist/ is split.
  const run = await runCommand([DIST_CLI, ...args], { command: process.execPath, env: { NODE_OPTIONS: `--import ${preload}`, KUBEWAIT_LOADED_FILE: record } });
  const dist = path.join(ROOT, 'dist') + path.sep;
  const files = readFileSync(record, 'utf8')
    .split('\n')
    .filter((url) => url.startsWith('file:'))
    .map((url) => fileURLToPath(url))
    .filter((file) => file.startsWith(dist));
  return { exitCode: run.exitCode, files, bytes: files.reduce((sum, file) => sum + statSync(file).size, 0) };
}

describe('the start path of dist/cli.js', () => {
  it.each([
    ['--version', ['--version'], 0],
    ['--help', ['--help'], 0],
    ['a bad flag', ['--timeout', 'soon', 'deployment/web'], 3],
  ])('%s loads at most 300 KB of dist/', async (name, args, exitCode) => {
    const loaded = await loadedBy(args, name.replace(/\W/g, ''));

    expect(loaded.exitCode).toBe(exitCode);
    expect(loaded.files).toContain(path.join(ROOT, 'dist/cli.js'));
    expect(loaded.bytes).toBeLessThan(START_PATH_MAX_BYTES);
  });

  it('a wait loads the rest (the hook sees every chunk) and is ready', async () => {
    cluster.create(deployment('web', { namespace: 'startup', readyAfterMs: 100 }));
    const kubeconfig = path.join(scratch, 'kubeconfig.yaml');
    cluster.writeKubeconfig(kubeconfig, { namespace: 'startup' });

    const loaded = await loadedBy(['deployment/web', '--kubeconfig', kubeconfig, '--timeout', '60s'], 'wait');

    expect(loaded.exitCode).toBe(0);
    expect(loaded.bytes).toBeGreaterThan(START_PATH_MAX_BYTES);
  }, 120_000);
});
