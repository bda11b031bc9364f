/**
 * The single executable (`npm run sea`, scripts/sea.ts): built, or reused from its cache outside the clone,
 * then run with nothing but itself: a PATH without Node, an empty environment but HOME. It answers
 * `--version`, `--help` and a bad flag, waits for a ready Deployment on the stand-in, says why one is not
 * ready at the deadline, and works as `kubectl kubewait` through the real kubectl. The whole command suite
 * runs against it with `KUBEWAIT_BIN=$(npm run sea --silent | tail -n 1) npx jest test/e2e/cli.e2e.test.ts`.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildSea } from '../../scripts/sea.js';
import { startCluster, type TestCluster } from '../cluster/index.js';
import { ROOT } from './dist.js';
import { deployment } from './objects.js';
import { runCommand, type CommandOptions } from './runCommand.js';

const { version } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };

let cluster: TestCluster;
let executable: string;
let scratch: string;

beforeAll(async () => {
  executable = await buildSea(() => {});
  cluster = await startCluster({ speed: 0.2 });
  scratch = mkdtempSync(path.join(tmpdir(), 'kubewait-sea-e2e-'));
}, 600_000);

afterAll(async () => {
  await cluster?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** The executable alone: nothing on PATH but the plugin link kubectl looks for. */
function alone(extra: Partial<CommandOptions> = {}): CommandOptions {
  return { command: executable, standalone: true, ...extra };
}

describe('the single executable', () => {
  it('prints the package version, the help and a bad flag without Node on PATH', async () => {
    const versionRun = await runCommand(['--version'], alone());
    const help = await runCommand(['--help'], alone());
    const bad = await runCommand(['deployment/web', '--timeout', 'soon'], alone());

    expect([versionRun.exitCode, versionRun.stdout, versionRun.stderr]).toEqual([0, `kubewait ${version}\n`, '']);
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toContain(`kubewait ${version}: wait until Kubernetes resources are ready`);
    expect([bad.exitCode, bad.stdout]).toEqual([3, '']);
    expect(bad.stderr).toMatch(/^kubewait: --timeout is "soon": expected a duration like 90s/);
  });

  it('waits for a ready Deployment, and says why one is not ready at the deadline', async () => {
    cluster.create(deployment('web', { namespace: 'sea', readyAfterMs: 300 }));
    cluster.create(deployment('api', { namespace: 'sea', podFailure: 'ImagePullBackOff' }));
    const kubeconfig = path.join(scratch, 'sea.yaml');
    cluster.writeKubeconfig(kubeconfig, { namespace: 'sea' });

    const ready = await runCommand(['deployment/web', '--kubeconfig', kubeconfig, '--timeout', '60s'], alone());
    const stuck = await runCommand(['deployment/api', '--kubeconfig', kubeconfig, '--timeout', '3s', '-o', 'json'], alone());

    expect([ready.exitCode, ready.stderr]).toEqual([0, '']);
    expect(ready.stdout).toMatch(/^kubewait: ready after \d+\.\ds: 1 of 1 target ready$/m);
    expect(stuck.exitCode).not.toBe(0);
    const document = JSON.parse(stuck.stdout) as { result: string; resources: Array<{ name: string; message: string }> };
    expect(document.result).toMatch(/^(timeout|failed)$/);
    expect(document.resources[0]?.message).toMatch(/ImagePullBackOff|ErrImagePull/);
  }, 120_000);

  it('runs as kubectl kubewait through the real kubectl', async () => {
    cluster.create(deployment('web', { namespace: 'sea-plugin', readyAfterMs: 300 }));
    const kubeconfig = path.join(scratch, 'sea-plugin.yaml');
    cluster.writeKubeconfig(kubeconfig, { namespace: 'sea-plugin' });

    const run = await runCommand(['deployment/web', '--kubeconfig', kubeconfig, '--timeout', '60s'], alone({ viaKubectl: true }));

    expect([run.exitCode, run.stderr]).toEqual([0, '']);
    expect(run.stdout).toMatch(/^kubewait: ready after \d+\.\ds: 1 of 1 target ready$/m);
  }, 120_000);
});
