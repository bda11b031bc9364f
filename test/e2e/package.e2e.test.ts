/**
 * The npm package as a user gets it: `npm pack`, then `npm install -g` of the tarball into an empty prefix,
 * offline with an empty npm cache, so the install succeeds only if the package needs nothing from a registry
 * (dist/cli.js is self-contained: every library is a build dependency). Then both installed names,
 * `kubewait` and `kubectl-kubewait`, run from the prefix's bin links: `--version`, and a real wait on the API
 * server stand-in, directly and as `kubectl kubewait` through the real kubectl.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startCluster, type TestCluster } from '../cluster/index.js';
import { ensureDist, ROOT } from './dist.js';
import { deployment } from './objects.js';
import { runCommand } from './runCommand.js';

/** What `npm i -g kubewait` may put on a user's disk (issue 21): the bundle, its licenses, the README. */
const MAX_INSTALLED_BYTES = 5 * 1024 * 1024;

const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };

let cluster: TestCluster;
let scratch: string;
let prefix: string;
let installed: string;

/** npm run by the Node the tests run on (24: the package's `engines`), with nothing of the developer's npm
 *  set-up: its own empty cache and HOME, no npm_config_* of an enclosing `npm test`. */
function npm(args: string[], cwd: string): string {
  const env = {
    PATH: [path.dirname(process.execPath), process.env.PATH ?? ''].join(path.delimiter),
    HOME: path.join(scratch, 'home'),
    npm_config_cache: path.join(scratch, 'npm-cache'),
    npm_config_update_notifier: 'false',
  };
  return execFileSync('npm', args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Bytes of every file under a directory, as installed (links counted as links). */
function bytesUnder(dir: string): number {
  return readdirSync(dir, { withFileTypes: true }).reduce((sum, entry) => {
    const file = path.join(dir, entry.name);
    return sum + (entry.isDirectory() ? bytesUnder(file) : lstatSync(file).size);
  }, 0);
}

beforeAll(async () => {
  await ensureDist();
  scratch = mkdtempSync(path.join(tmpdir(), 'kubewait-package-'));
  mkdirSync(path.join(scratch, 'home'));
  prefix = path.join(scratch, 'prefix');
  mkdirSync(prefix);
  const packed = JSON.parse(npm(['pack', '--json', '--ignore-scripts', '--pack-destination', scratch], ROOT)) as Array<{ filename: string }>;
  const tarball = path.join(scratch, packed[0]!.filename);
  npm(['install', '--global', '--prefix', prefix, '--offline', '--ignore-scripts', '--no-audit', '--no-fund', tarball], scratch);
  installed = path.join(prefix, 'lib/node_modules/kubewait');
  cluster = await startCluster({ speed: 0.2 });
}, 300_000);

afterAll(async () => {
  await cluster?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe('the npm package', () => {
  it('installs the command alone: no dependencies, under 5 MB', () => {
    expect(existsSync(path.join(installed, 'node_modules'))).toBe(false);
    expect(readdirSync(path.join(installed, 'dist')).sort()).toEqual(['chunks', 'cli.js', 'kubewait-cli.js', 'licenses.txt', 'package.json']);
    expect(bytesUnder(installed)).toBeLessThan(MAX_INSTALLED_BYTES);
  });

  it.each(['kubewait', 'kubectl-kubewait'])('runs as %s: --version prints the package version', async (name) => {
    const run = await runCommand(['--version'], { command: path.join(prefix, 'bin', name) });

    expect([run.exitCode, run.stdout, run.stderr]).toEqual([0, `kubewait ${manifest.version}\n`, '']);
  });

  it('waits for a ready Deployment as kubewait', async () => {
    cluster.create(deployment('web', { namespace: 'pkg-direct', readyAfterMs: 300 }));
    const kubeconfig = path.join(scratch, 'direct.yaml');
    cluster.writeKubeconfig(kubeconfig, { namespace: 'pkg-direct' });

    const run = await runCommand(['deployment/web', '--kubeconfig', kubeconfig, '--timeout', '60s'], { command: path.join(prefix, 'bin/kubewait') });

    expect([run.exitCode, run.stderr]).toEqual([0, '']);
    expect(run.stdout).toMatch(/^kubewait: ready after \d+\.\ds: 1 of 1 target ready$/m);
  }, 120_000);

  it('waits for a ready Deployment as kubectl kubewait, the installed kubectl-kubewait found on PATH', async () => {
    cluster.create(deployment('web', { namespace: 'pkg-plugin', readyAfterMs: 300 }));
    const kubeconfig = path.join(scratch, 'plugin.yaml');
    cluster.writeKubeconfig(kubeconfig, { namespace: 'pkg-plugin' });

    const run = await runCommand(['deployment/web', '--kubeconfig', kubeconfig, '--timeout', '60s'], {
      command: path.join(prefix, 'bin/kubectl-kubewait'),
      viaKubectl: true,
    });

    expect([run.exitCode, run.stderr]).toEqual([0, '']);
    expect(run.stdout).toMatch(/^kubewait: ready after \d+\.\ds: 1 of 1 target ready$/m);
  }, 120_000);
});
