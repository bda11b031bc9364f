/**
 * dist/index.js restarts itself once with the action's Node flags (src/node-flags.ts): the process the runner
 * started, the same PID, runs the wait with them, and the wait and its report are the same as ever. What the
 * flags save is measured in bench/ (memory), not asserted here.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { NODE_FLAGS } from '../../src/node-flags.js';
import { startCluster, type TestCluster } from '../cluster/index.js';
import { ensureDist } from './dist.js';
import { deployment } from './objects.js';
import { runAction } from './runAction.js';

let cluster: TestCluster;

beforeAll(async () => {
  await ensureDist();
  cluster = await startCluster();
}, 300_000);

afterAll(async () => {
  await cluster?.close();
});

/** The command line of a running process, as the kernel has it (after an execve, the new one). */
const commandLine = (pid: number): string[] => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);

describe('the Node flags of the action', () => {
  it('runs the wait in the process the runner started, with the flags, and reports as ever', async () => {
    cluster.create(deployment('web', { namespace: 'flags', readyAfterMs: 1_500 }));
    let seen: string[] | undefined;

    const run = await runAction(
      { kubeconfig: cluster.kubeconfig({ namespace: 'flags' }), resources: 'deployment/web', timeout: '60s' },
      {
        onStdout(stdout, pid) {
          // Once the wait has begun, the process the runner spawned (same PID) is the restarted one.
          if (seen === undefined && stdout.includes('Waiting for 1 target')) seen = commandLine(pid);
        },
      },
    );

    expect(run.exitCode).toBe(0);
    expect(run.outputs).toMatchObject({ result: 'ready', ready: 'true' });
    expect(seen).toBeDefined();
    expect(seen).toEqual(expect.arrayContaining([...NODE_FLAGS]));
    expect(seen?.at(-1)).toMatch(/dist\/index\.js$/);
    // Restarted once: each flag appears once.
    for (const flag of NODE_FLAGS) expect(seen?.filter((arg) => arg === flag)).toHaveLength(1);
  }, 120_000);
});
