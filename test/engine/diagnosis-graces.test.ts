/**
 * Pod diagnosis's graced failures through the engine on virtual time against the API server stand-in: an
 * image that cannot be pulled and an autoscaler's refusal to add a node fail a Deployment as soon as they
 * have stood for their grace, whatever the backoff of the diagnosis rounds (up to 15 s apart: before each
 * failure said when its grace ends, the round after it came up to that late). A FailedCreate's grace is the
 * same rule (src/status/standing.ts), tested in failed-create.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DEFAULT_IMAGE_PULL_GRACE_MS } from '../../src/status/index.js';
import { DEFAULT_CREATION_GRACE_MS } from '../../src/status/failed-create.js';
import { ManualTime } from '../../src/time.js';
import { startCluster, type TestCluster } from '../cluster/index.js';
import { deployment, pod } from './fixtures.js';
import { namespace } from './helpers.js';
import { runVirtual } from './virtual.js';

let server: TestCluster;
beforeAll(async () => {
  server = await startCluster({ controllers: false });
});
afterAll(async () => {
  await server.close();
});

/** The stand-in stamps `creationTimestamp` in whole seconds of real time, where the virtual clock starts. */
const wholeSeconds = (ms: number) => Math.floor(ms / 1000) * 1000;
/** The round is due 1 ms after a grace ends and virtual time stands still while the engine reads and judges:
 *  anything later is the backoff's (on main before the fix: 0.2 to 1.2 s late for a 15 s grace, depending on
 *  the start's fraction of a second; 9.5 s for a 40 s grace; 3.4 s for the autoscaler's 20 s). */
const MARGIN_MS = 100;

describe('graced pod failures end the wait when their grace ends', () => {
  it.each([DEFAULT_IMAGE_PULL_GRACE_MS, 40_000])('an image that cannot be pulled from the start, with a %i ms grace', async (graceMs) => {
    const ns = namespace(server, `grace-pull-${graceMs}`);
    const time = new ManualTime();
    server.create(deployment('web', { namespace: ns, state: 'progressing' }));
    const created = server.create(
      pod('web-5d8f-abcde', {
        namespace: ns,
        app: 'web',
        owner: { kind: 'ReplicaSet', name: 'web-5d8f' },
        image: 'web:nope',
        waiting: { reason: 'ImagePullBackOff', message: 'Back-off pulling image "web:nope"' },
      }),
    );
    const result = await runVirtual(server, [{ type: 'deploy', name: 'web', namespace: ns }], { timeoutMs: 600_000, imagePullGraceMs: graceMs }, time);

    expect(result.outcome).toBe('failed');
    expect(result.targets[0]).toMatchObject({ status: 'Failed', diagnosis: { cause: 'ImagePull', unrecoverable: true } });
    // From the pod's creation as the server wrote it (whole seconds, on the real clock: a busy machine may have
    // crossed a second since the engine's clock was set).
    const graceEndsAt = Date.parse(created.metadata.creationTimestamp) + graceMs;
    expect(time.now()).toBeGreaterThanOrEqual(graceEndsAt);
    expect(time.now()).toBeLessThanOrEqual(graceEndsAt + MARGIN_MS);
  });

  it('an unschedulable pod whose node the cluster-autoscaler refused to add', async () => {
    const ns = namespace(server, 'grace-scale-up');
    const time = new ManualTime();
    const since = new Date(wholeSeconds(time.now())).toISOString().replace(/\.\d+Z$/, 'Z');
    server.create(deployment('web', { namespace: ns, state: 'progressing' }));
    server.create(pod('web-5d8f-abcde', { namespace: ns, app: 'web', owner: { kind: 'ReplicaSet', name: 'web-5d8f' }, unschedulableSince: since }));
    server.create({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'web-5d8f-abcde.1', namespace: ns },
      type: 'Normal',
      reason: 'NotTriggerScaleUp',
      message: "pod didn't trigger scale-up: 1 max node group size reached",
      count: 1,
      firstTimestamp: since,
      lastTimestamp: since,
      involvedObject: { kind: 'Pod', name: 'web-5d8f-abcde', namespace: ns },
    });
    const result = await runVirtual(server, [{ type: 'deploy', name: 'web', namespace: ns }], { timeoutMs: 600_000 }, time);

    expect(result.outcome).toBe('failed');
    expect(result.targets[0]).toMatchObject({ status: 'Failed', diagnosis: { cause: 'Unschedulable', unrecoverable: true } });
    expect(result.targets[0]?.diagnosis?.summary).toContain("cluster-autoscaler: pod didn't trigger scale-up");
    const graceEndsAt = Date.parse(since) + DEFAULT_CREATION_GRACE_MS;
    expect(time.now()).toBeGreaterThanOrEqual(graceEndsAt);
    expect(time.now()).toBeLessThanOrEqual(graceEndsAt + MARGIN_MS);
  });
});
