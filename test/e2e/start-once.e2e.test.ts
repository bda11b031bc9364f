/**
 * The start-up (src/startup.ts), through dist/: Node starts once per run. dist/index.js used to restart
 * itself with V8 flags (`process.execve`), which ran a user's `NODE_OPTIONS=--require` preload twice in one
 * process (a tracer or an APM agent would start twice) and opened a second Node start, before any handler
 * of kubewait's, in which a cancel killed the step with nothing written. The preload here records each
 * Node start and announces the moments a signal is sent at; how often a signal at a given millisecond kills
 * the process is measured in bench/ (start-up), not asserted here.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startCluster, type TestCluster } from '../cluster/index.js';
import { ensureDist } from './dist.js';
import { deployment } from './objects.js';
import { runAction } from './runAction.js';
import { runCommand } from './runCommand.js';

/**
 * A `--require` preload, as a tracer's would be. Each Node start appends its PID to KUBEWAIT_PRELOAD_LOG.
 * A second start in the same process says `node started again` and holds 1 s there (before any code of
 * kubewait's runs, so a signal then meets Node's default handling); loading the bundle (dist/kubewait.js,
 * dist/kubewait-cli.js), the first thing after the start-up, says `loading the bundle` and holds 300 ms.
 * Lines go to the file descriptor KUBEWAIT_PRELOAD_FD (stdout for the action, whose runner reads it;
 * stderr for the command, whose stdout is the JSON document).
 */
const PRELOAD = `
const { appendFileSync, writeSync } = require('node:fs');
const { registerHooks } = require('node:module');
const say = (line) => writeSync(Number(process.env.KUBEWAIT_PRELOAD_FD), line + '\\n');
const hold = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
appendFileSync(process.env.KUBEWAIT_PRELOAD_LOG, process.pid + '\\n');
if (process.env.KUBEWAIT_PRELOAD_STARTED === String(process.pid)) {
  say('node started again');
  hold(1000);
}
process.env.KUBEWAIT_PRELOAD_STARTED = String(process.pid);
registerHooks({
  load(url, context, next) {
    if (/\\/dist\\/kubewait(-cli)?\\.js$/.test(url)) {
      say('loading the bundle');
      hold(300);
    }
    return next(url, context);
  },
});
`;

let cluster: TestCluster;
let scratch: string;
let preload: string;

beforeAll(async () => {
  await ensureDist();
  cluster = await startCluster();
  cluster.create(deployment('web', { namespace: 'start-once' }));
  scratch = mkdtempSync(path.join(tmpdir(), 'kubewait-start-once-'));
  preload = path.join(scratch, 'preload.cjs');
  writeFileSync(preload, PRELOAD);
}, 300_000);

afterAll(async () => {
  await cluster?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** The environment of a run with the preload, and the PIDs its Node starts recorded. */
function withPreload(name: string, fd: 1 | 2): { env: Record<string, string>; starts: () => string[] } {
  const log = path.join(scratch, `${name}.starts`);
  writeFileSync(log, '');
  return {
    env: { NODE_OPTIONS: `--require ${preload}`, KUBEWAIT_PRELOAD_LOG: log, KUBEWAIT_PRELOAD_FD: String(fd) },
    starts: () => readFileSync(log, 'utf8').split('\n').filter(Boolean),
  };
}

/** The first moment the preload announces: a second Node start, or the bundle loading after the start-up. */
const firstMoment = (output: string) => output.includes('node started again') || output.includes('loading the bundle');

describe('the action (dist/index.js)', () => {
  const inputs = () => ({ kubeconfig: cluster.kubeconfig({ namespace: 'start-once' }), resources: 'deployment/web', timeout: '60s' });

  it('runs a NODE_OPTIONS preload once, and the wait as ever', async () => {
    const preloaded = withPreload('action', 1);

    const run = await runAction(inputs(), { env: preloaded.env });

    expect(run.exitCode).toBe(0);
    expect(run.outputs).toMatchObject({ result: 'ready', ready: 'true' });
    expect(preloaded.starts()).toHaveLength(1);
  }, 120_000);

  it('a SIGTERM at its first moment after Node has started reports cancelled with every output', async () => {
    const preloaded = withPreload('action-signal', 1);

    const run = await runAction(inputs(), { env: preloaded.env, signalWhen: (stdout) => (firstMoment(stdout) ? 'SIGTERM' : undefined), killAfterMs: 60_000 });

    expect(run.stdout).not.toContain('node started again');
    expect(run.signal).toBeNull();
    expect(run.exitCode).toBe(1);
    expect(run.outputs).toMatchObject({ result: 'cancelled' });
    expect(run.outputs.resources).toBeDefined();
    expect(run.summary).not.toBe('');
  }, 120_000);
});

describe('the command (dist/cli.js)', () => {
  const args = () => {
    const kubeconfig = path.join(scratch, 'kubeconfig.yaml');
    cluster.writeKubeconfig(kubeconfig, { namespace: 'start-once' });
    return ['deployment/web', '-o', 'json', '--kubeconfig', kubeconfig, '--timeout', '60s'];
  };

  it('runs a NODE_OPTIONS preload once, and the wait as ever', async () => {
    const preloaded = withPreload('command', 2);

    const run = await runCommand(args(), { env: preloaded.env, nodeArgs: [] });

    expect(run.exitCode).toBe(0);
    expect((JSON.parse(run.stdout) as { result: string }).result).toBe('ready');
    expect(preloaded.starts()).toHaveLength(1);
  }, 120_000);

  it('a SIGINT at its first moment after Node has started ends in the JSON document and exit 130', async () => {
    const preloaded = withPreload('command-signal', 2);

    const run = await runCommand(args(), {
      env: preloaded.env,
      nodeArgs: [],
      signalWhen: (output) => (firstMoment(output) ? 'SIGINT' : undefined),
      killAfterMs: 60_000,
    });

    expect(run.stderr).toContain('loading the bundle');
    expect(run.signal).toBeNull();
    expect(run.exitCode).toBe(130);
    expect(JSON.parse(run.stdout) as { result: string; resources: Array<{ name: string }> }).toMatchObject({
      result: 'cancelled',
      resources: [{ name: 'web' }],
    });
  }, 120_000);
});
