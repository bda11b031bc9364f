/**
 * Memory, end to end through `dist/index.js` against the API server stand-in (issues 21 and 24): what kubewait
 * holds of a live object is bounded, whatever the object carries. The peak RSS comes from the kernel
 * (`VmHWM`, read at exit by bench/probe.mjs, preloaded through NODE_OPTIONS), in MiB; the bound is 2.5 times
 * a normal run's ~100 MB (slack for a loaded machine), and below what holding the object costs at all (its
 * text and its parsed string: 200 MB more; the build before this bound peaked at 520 MB).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startCluster, type TestCluster } from '../cluster/index.js';
import { ensureDist, ROOT } from './dist.js';
import { deployment } from './objects.js';
import { runAction } from './runAction.js';

const PROBE = path.join(ROOT, 'bench/probe.mjs');
const MiB = 1024 * 1024;

let cluster: TestCluster;
let scratch: string;
beforeAll(async () => {
  // As every e2e suite: a dist/ being rebuilt by another suite's worker is waited for, never run half-written.
  await ensureDist();
  cluster = await startCluster({ speed: 0.2 });
  scratch = mkdtempSync(path.join(tmpdir(), 'kubewait-memory-'));
}, 300_000);
afterAll(async () => {
  await cluster?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe('what is kept of a live object', () => {
  it('a Deployment carrying a 100 MB annotation is judged and reported, and the peak RSS stays bounded', async () => {
    const huge = deployment('huge', { namespace: 'memory', readyAfterMs: 300 });
    huge.metadata.annotations['example.com/blob'] = 'x'.repeat(100 * MiB);
    cluster.create(huge);
    cluster.create(deployment('plain', { namespace: 'memory', readyAfterMs: 300 }));
    const probe = path.join(scratch, 'probe.json');

    const run = await runAction(
      { kubeconfig: cluster.kubeconfig({ namespace: 'memory' }), resources: 'deployment/huge\ndeployment/plain', timeout: '60s' },
      // killAfterMs and the test's timeout only catch a hang: a 100 MB object takes a loaded machine minutes.
      { env: { NODE_OPTIONS: `--import ${PROBE}`, KUBEWAIT_BENCH_PROBE: probe }, killAfterMs: 240_000 },
    );

    // On failure the run's own errors say what went wrong (toMatchObject showed only `result: error`).
    expect({ result: run.outputs.result, errors: run.errors.map((e) => e.message) }).toEqual({ result: 'ready', errors: [] });
    expect(run.outputs.ready).toBe('true');
    const reported = JSON.parse(run.outputs.resources!) as Array<{ name: string; status: string }>;
    expect(reported.map((r) => [r.name, r.status]).sort()).toEqual([
      ['huge', 'Current'],
      ['plain', 'Current'],
    ]);
    expect(run.summary).toContain('huge');
    // Nothing of the annotation reaches the report.
    expect(run.stdout + run.summary).not.toContain('x'.repeat(1000));
    const { peakRssKiB } = JSON.parse(readFileSync(probe, 'utf8')) as { peakRssKiB: number };
    expect(peakRssKiB / 1024).toBeLessThan(250);
  }, 300_000);
});
