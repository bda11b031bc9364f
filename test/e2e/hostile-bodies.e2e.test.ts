/**
 * Hostile conditions, round three (issue 34), end to end through `dist/index.js`: what an API server sends is
 * bounded whatever it is (a huge number in a LIST item behind gzip, an error body without end), and what a
 * controller writes (a revision with bidirectional and control characters) is shown, never acted on. The
 * hostile answers come from a server in front of the stand-in (intercept.ts); the peak RSS
 * from the kernel (`VmHWM`, read at exit by bench/probe.mjs), with the slack memory.e2e.test.ts explains.
 */
import { beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { ResourceOutput } from '../../src/report/outputs.js';
import { crdsIn, establishCrds } from '../cluster/testkit.js';
import { kustomization, NEW_SHA } from '../status/gitops/statuses.js';
import { ROOT } from './dist.js';
import { deployment } from './objects.js';
import { runAction } from './runAction.js';
import { hostileKit } from './hostile.js';
import { interceptingServer, isList } from './intercept.js';

const kit = hostileKit();
const PROBE = path.join(ROOT, 'bench/probe.mjs');
const MiB = 1024 * 1024;

/** The run's peak RSS in MiB, through the probe preloaded with NODE_OPTIONS. */
function probed(name: string) {
  const file = path.join(kit.scratch, `${name}-probe.json`);
  return {
    env: { NODE_OPTIONS: `--import ${PROBE}`, KUBEWAIT_BENCH_PROBE: file },
    peakMiB: () => (JSON.parse(readFileSync(file, 'utf8')) as { peakRssKiB: number }).peakRssKiB / 1024,
  };
}

const resourcesOf = (outputs: Record<string, string>) => JSON.parse(outputs.resources!) as ResourceOutput[];

describe('every value and every body is bounded', () => {
  // Before: the 100 MB number was read whole, decompressed and parsed (hundreds of MiB).
  it('a LIST whose gzip body holds a 100 MB number is refused naming the bound; the peak RSS stays bounded', async () => {
    kit.cluster.create(deployment('web', { namespace: 'bomb', readyAfterMs: 100 }));
    const bomb = gzipSync(`{"kind":"DeploymentList","apiVersion":"apps/v1","metadata":{"resourceVersion":"1"},"items":[{"n":${'9'.repeat(100 * MiB)}}]}`);
    const front = await interceptingServer(
      kit.cluster,
      (request) =>
        isList(request, 'deployments', 'bomb')
          ? (response) => {
              response.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' });
              response.end(bomb);
            }
          : undefined,
      'bomb',
    );
    const probe = probed('bomb');
    try {
      const run = await runAction({ kubeconfig: front.kubeconfig, resources: 'deployment/web', timeout: '6s' }, { env: probe.env, killAfterMs: 120_000 });
      expect(run.signal).toBeNull();
      expect(run.outputs.result).toBe('timeout');
      expect(resourcesOf(run.outputs)).toMatchObject([
        { name: 'web', message: expect.stringContaining('was refused: it holds a value of more than 1024 characters outside strings') },
      ]);
      expect(probe.peakMiB()).toBeLessThan(250);
    } finally {
      await front.close();
    }
  }, 180_000);

  // Before: client.ts kept a non-2xx body whole, however long (a 300 MB one peaked at 1,585 MiB).
  it('a 500 whose body never ends is read no further than its bound: the wait goes on, the peak RSS stays bounded', async () => {
    kit.cluster.create(deployment('web', { namespace: 'endless', readyAfterMs: 100 }));
    let errorBodies = 0;
    const front = await interceptingServer(
      kit.cluster,
      (request) => {
        if (!isList(request, 'deployments', 'endless') || errorBodies++ > 0) return undefined;
        return (response) => {
          response.writeHead(500, { 'Content-Type': 'application/json' });
          // 400 MB, written only as fast as it is read.
          let left = 400;
          const chunk = 'x'.repeat(MiB);
          const more = () => {
            while (left > 0 && !response.destroyed) {
              left--;
              if (!response.write(chunk)) return void response.once('drain', more);
            }
            response.end();
          };
          more();
        };
      },
      'endless',
    );
    const probe = probed('endless');
    try {
      const run = await runAction({ kubeconfig: front.kubeconfig, resources: 'deployment/web', timeout: '60s' }, { env: probe.env, killAfterMs: 120_000 });
      // The 500 is retried as any server error is, and the second LIST answers.
      expect(run.outputs.result).toBe('ready');
      expect(probe.peakMiB()).toBeLessThan(250);
    } finally {
      await front.close();
    }
  }, 180_000);
});

describe('what the cluster writes is shown, never acted on', () => {
  const FIXTURES = new URL('../cluster/fixtures/gitops/', import.meta.url);
  beforeAll(async () => {
    await establishCrds(kit.cluster, crdsIn(FIXTURES));
  }, 120_000);

  // Before: the revision reached the step log, the annotation and the summary with its \u202e, NUL and ESC.
  it('a revision with bidirectional and control characters reaches the log, the annotation and the summary without them', async () => {
    const hostile = `main@sha1:0ld\u202efed\u0000\u001b[2J\u001b]0;pwned\u0007\u2066x\u2069`;
    const object = kustomization.object(kustomization.ready(hostile)) as { metadata: Record<string, unknown> };
    kit.cluster.create({ ...object, metadata: { ...object.metadata, namespace: 'bidi' } });
    const run = await runAction(
      {
        kubeconfig: kit.cluster.kubeconfig({ namespace: 'bidi' }),
        resources: 'kustomizations.kustomize.toolkit.fluxcd.io/apps',
        revision: NEW_SHA,
        inventory: 'false',
        timeout: '3s',
      },
      { killAfterMs: 60_000 },
    );
    expect(run.outputs.result).toBe('timeout');
    const shown = [run.stdout, run.summary, ...run.errors.map((e) => `${e.message}\n${e.properties.title ?? ''}`)].join('\n');
    // The revision is there, as text.
    expect(run.stdout).toContain('main@sha1:0ldfed');
    expect(run.errors.some((e) => e.message.includes('main@sha1:0ldfed'))).toBe(true);
    expect(run.summary).toContain('main@sha1:0ldfed');
    // eslint-disable-next-line no-control-regex -- what must not be shown is control characters
    expect(shown).not.toMatch(/[\u0000\u0007\u001b\u202e\u2066\u2069]/);
  }, 120_000);
});
