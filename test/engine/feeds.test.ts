/**
 * Targets that arrive during the wait (`TargetFeed`, src/engine/feeds.ts) against the API server stand-in, on
 * virtual time: the engine is not ready while a feed runs, takes each added target with its own goal and
 * parent, fails with a feed's failure once every target has a verdict, and reports what a feed never judged.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { FeedContext, TargetFeed } from '../../src/engine/types.js';
import { FAILED_JUDGING_MS, LAST_LOOK_MS } from '../../src/engine/index.js';
import type { TargetReport } from '../../src/result.js';
import { ManualTime } from '../../src/time.js';
import { startCluster, type TestCluster } from '../cluster/index.js';
import { configMap, deployment, deploymentStatus } from './fixtures.js';
import { brief, namespace } from './helpers.js';
import { runVirtual } from './virtual.js';

let server: TestCluster;

beforeAll(async () => {
  server = await startCluster({ controllers: false });
});
afterAll(async () => {
  await server.close();
});

/** A feed that does what `script` says with its context, on the run's clock. */
function feed(script: (ctx: FeedContext) => Promise<void>): TargetFeed {
  return { run: script };
}

/** Sleeps `ms` on the run's clock, or until the wait is over. */
function sleep(ctx: FeedContext, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = ctx.time.setTimer(ms, resolve);
    ctx.signal.addEventListener('abort', () => {
      ctx.time.clearTimer(timer);
      resolve();
    });
  });
}

const names = (targets: TargetReport[]) => targets.map(brief).sort();

describe('targets that arrive during the wait', () => {
  it('is not ready while a feed runs, and judges what it adds like the inputs’ own targets', async () => {
    const ns = namespace(server, 'feed-late');
    server.create(configMap('mine', {}, ns));
    server.create(configMap('applied', {}, ns));
    const time = new ManualTime();
    const started = time.now();
    let addedAt = 0;

    const result = await runVirtual(
      server,
      [{ type: 'configmap', name: 'mine', namespace: ns }],
      {
        feeds: [
          feed(async (ctx) => {
            await sleep(ctx, 5_000);
            addedAt = ctx.time.now();
            ctx.add([{ type: 'configmap', name: 'applied', namespace: ns }], { parent: { kind: 'Kustomization', namespace: 'flux-system', name: 'apps' } });
          }),
        ],
      },
      time,
    );

    expect(result.outcome).toBe('ready');
    // The input's target was ready at once; the wait went on for the feed.
    expect(addedAt - started).toBe(5_000);
    expect(names(result.targets)).toEqual([
      `ConfigMap/${ns}/applied Current done: Resource is always ready`,
      `ConfigMap/${ns}/mine Current done: Resource is always ready`,
    ]);
    expect(result.targets.find((t) => t.name === 'applied')?.parent).toEqual({ kind: 'Kustomization', namespace: 'flux-system', name: 'apps' });
    expect(result.targets.find((t) => t.name === 'mine')?.parent).toBeUndefined();
  });

  it('gives added targets their own goal: deleted beside ready, the report naming it when it is every target’s', async () => {
    const ns = namespace(server, 'feed-goal');
    server.create(configMap('stays', {}, ns));
    const time = new ManualTime();

    const mixed = await runVirtual(
      server,
      [{ type: 'configmap', name: 'stays', namespace: ns }],
      { feeds: [feed(async (ctx) => ctx.add([{ type: 'configmap', name: 'gone', namespace: ns }], { goal: { kind: 'deleted' } }))] },
      time,
    );
    expect(mixed.outcome).toBe('ready');
    expect(names(mixed.targets)).toEqual([
      `ConfigMap/${ns}/gone NotFound done: does not exist`,
      `ConfigMap/${ns}/stays Current done: Resource is always ready`,
    ]);
    expect(mixed.waitFor).toBeUndefined();

    const alone = await runVirtual(server, [], {
      feeds: [feed(async (ctx) => ctx.add([{ type: 'configmap', name: 'gone', namespace: ns }], { goal: { kind: 'deleted' } }))],
    });
    expect(alone.outcome).toBe('ready');
    expect(alone.waitFor).toEqual({ kind: 'deleted' });
  });

  it('the same object added by a feed and named by the inputs is one target, reported under its parent', async () => {
    const ns = namespace(server, 'feed-twice');
    server.create(configMap('both', {}, ns));
    const parent = { kind: 'Application', namespace: 'argocd', name: 'shop' };

    const result = await runVirtual(server, [{ type: 'cm', name: 'both', namespace: ns }], {
      feeds: [feed(async (ctx) => ctx.add([{ type: 'ConfigMap', apiVersion: 'v1', name: 'both', namespace: ns }], { parent }))],
    });

    expect(result.targets).toHaveLength(1);
    expect(result.targets[0]).toMatchObject({ name: 'both', status: 'Current', parent });
  });

  it('a feed’s failure fails the wait once every target has a verdict, within FAILED_JUDGING_MS', async () => {
    const ns = namespace(server, 'feed-fail');
    server.create(deployment('web', { namespace: ns }));
    const time = new ManualTime();
    const started = time.now();

    const result = await runVirtual(
      server,
      [],
      {
        feeds: [
          feed(async (ctx) => {
            ctx.add([{ type: 'deployment', name: 'web', namespace: ns }]);
            ctx.fail('Helm release shop failed');
          }),
        ],
      },
      time,
    );

    expect(result.outcome).toBe('failed');
    expect(result.cancelled).toBe(false);
    // The Deployment never gets there: it is judged for the whole window, then the wait fails anyway.
    expect(time.now() - started).toBe(FAILED_JUDGING_MS);
    expect(result.targets.map((t) => `${t.kind}/${t.name} ${t.status}`)).toEqual(['Deployment/web InProgress']);
  });

  it('reports the targets a feed will not judge, named as discovery knows their types, and times out at the deadline', async () => {
    const ns = namespace(server, 'feed-unjudged');
    const time = new ManualTime();
    const started = time.now();

    const result = await runVirtual(
      server,
      [],
      {
        timeoutMs: 10_000,
        feeds: [
          feed(async (ctx) => {
            await sleep(ctx, 60_000); // helm is still at work when the deadline comes
            ctx.notJudged(
              [
                { type: 'deploy', name: 'web', namespace: ns },
                { type: 'namespace', name: ns },
              ],
              'not judged: Helm release shop is pending-upgrade',
            );
          }),
        ],
      },
      time,
    );

    expect(result.outcome).toBe('timeout');
    expect(time.now() - started).toBe(10_000);
    expect(result.targets.map((t) => `${t.apiVersion} ${t.kind} ${t.namespace}/${t.name} ${t.status}: ${t.message}`)).toEqual([
      `apps/v1 Deployment ${ns}/web Unknown: not judged: Helm release shop is pending-upgrade`,
      `v1 Namespace /${ns} Unknown: not judged: Helm release shop is pending-upgrade`,
    ]);
  });

  it('the objects of a parent that fails are judged for FAILED_JUDGING_MS only when they came in that window', async () => {
    const ns = namespace(server, 'feed-parent');
    server.create(deployment('parent', { namespace: ns }));
    server.create(deployment('child', { namespace: ns, state: 'progressing' }));
    const parent = { kind: 'Deployment', namespace: ns, name: 'parent' };
    const fail = () => server.patchStatus('apps/v1', 'Deployment', ns, 'parent', deploymentStatus('deadline'));

    // Followed for longer than the window before its parent failed: it has had its look, the wait ends after the last look.
    let time = new ManualTime();
    let failedAt = 0;
    const longFollowed = await runVirtual(
      server,
      [{ type: 'deployment', name: 'parent', namespace: ns }],
      {
        timeoutMs: 120_000,
        feeds: [
          feed(async (ctx) => {
            ctx.add([{ type: 'deployment', name: 'child', namespace: ns }], { parent });
            await sleep(ctx, FAILED_JUDGING_MS + 5_000);
            failedAt = ctx.time.now();
            fail();
          }),
        ],
      },
      time,
    );
    expect(longFollowed.outcome).toBe('failed');
    expect(time.now() - failedAt).toBeLessThanOrEqual(LAST_LOOK_MS);

    // Added when its parent had already failed: judged for the window (it never gets there here).
    time = new ManualTime();
    const started = time.now();
    const justAdded = await runVirtual(
      server,
      [{ type: 'deployment', name: 'parent', namespace: ns }],
      { timeoutMs: 120_000, feeds: [feed(async (ctx) => ctx.add([{ type: 'deployment', name: 'child', namespace: ns }], { parent }))] },
      time,
    );
    expect(justAdded.outcome).toBe('failed');
    expect(time.now() - started).toBe(FAILED_JUDGING_MS);
    expect(justAdded.targets.find((t) => t.name === 'child')).toMatchObject({ status: 'InProgress', parent });
  });
});
