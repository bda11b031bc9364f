/**
 * Pods never created, through the engine on virtual time against the API server stand-in: a Deployment
 * whose ReplicaSet's FailedCreate says quota or a webhook denial fails after the 20 s grace (on the
 * engine's clock), a quota its rollout can free and an unreachable webhook keep it waiting.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startCluster, type TestCluster } from '../cluster/index.js';
import { deployment } from './fixtures.js';
import { namespace } from './helpers.js';
import { driveUntil, driveUntilSettled, runVirtual } from './virtual.js';
import { runEngine } from './helpers.js';
import { deploymentStatus } from './fixtures.js';
import { ManualTime } from '../../src/time.js';

let server: TestCluster;
beforeAll(async () => {
  server = await startCluster({ controllers: false });
});
afterAll(async () => {
  await server.close();
});

const QUOTA = 'Error creating: pods "web-5d8f-x" is forbidden: exceeded quota: team-a, requested: pods=1, used: pods=4, limited: pods=4';
const DENIED = 'Error creating: admission webhook "policy.example.com" denied the request: images must come from registry.example.com';
const TIMEOUT =
  'Error creating: Internal error occurred: failed calling webhook "policy.example.com": failed to call webhook: Post "https://policy.shop.svc:443/validate": context deadline exceeded';

function replicaSet(ns: string, owner: string, name: string, revision: number, replicas: number, available: number): Record<string, unknown> {
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name,
      namespace: ns,
      annotations: { 'deployment.kubernetes.io/revision': String(revision) },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: owner, controller: true }],
    },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'x' }] } },
    },
    status: { replicas: available, availableReplicas: available },
  };
}

/** A rollout whose new ReplicaSet cannot create its pod, for `message`; with an old ReplicaSet holding one. */
function rollout(ns: string, message: string, old: boolean, time: ManualTime): void {
  const created = server.create({
    ...deployment('web', { namespace: ns, state: 'progressing' }),
    spec: { ...(deployment('web').spec as object), strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 1 } } },
  });
  const uid = (created.metadata as { uid: string }).uid; // the stand-in gives its own
  if (old) server.create(replicaSet(ns, uid, 'web-1a2b', 1, 1, 1));
  server.create(replicaSet(ns, uid, 'web-5d8f', 2, 1, 0));
  const at = new Date(time.now()).toISOString().replace(/\.\d+Z$/, 'Z');
  server.create({
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: 'web-5d8f.1', namespace: ns },
    type: 'Warning',
    reason: 'FailedCreate',
    message,
    count: 4,
    firstTimestamp: at,
    lastTimestamp: at,
    involvedObject: { kind: 'ReplicaSet', name: 'web-5d8f', namespace: ns },
  });
}

describe('pods never created', () => {
  it.each([
    [
      'an exceeded quota the rollout cannot free',
      QUOTA,
      'QuotaExceeded',
      'ReplicaSet/web-5d8f: FailedCreate: exceeded quota: team-a, requested: pods=1, used: pods=4, limited: pods=4',
    ],
    [
      'a webhook denial',
      DENIED,
      'AdmissionDenied',
      'ReplicaSet/web-5d8f: FailedCreate: admission webhook "policy.example.com" denied the request: images must come from registry.example.com',
    ],
  ])('fails %s after the grace, naming it', async (_, message, cause, summary) => {
    const ns = namespace(server, `fc-${cause.toLowerCase()}`);
    const time = new ManualTime();
    rollout(ns, message, false, time);
    const result = await runVirtual(server, [{ type: 'deploy', name: 'web', namespace: ns }], { timeoutMs: 600_000 }, time);
    expect(result.outcome).toBe('failed');
    const web = result.targets[0]!;
    expect(web).toMatchObject({ status: 'Failed', message: summary });
    expect(web.diagnosis?.cause).toBe(cause);
    // The grace (20 s) on the engine's clock, from the event's first sighting (whole seconds): the diagnosis
    // looks again when the grace ends, whatever its backoff (issue 31: within the grace plus 1 s).
    expect(result.durationSeconds).toBeGreaterThanOrEqual(19);
    expect(result.durationSeconds).toBeLessThanOrEqual(21);
  });

  it('keeps waiting on an exceeded quota the rollout can free (an old ReplicaSet can scale down)', async () => {
    const ns = namespace(server, 'fc-releasable');
    const time = new ManualTime();
    rollout(ns, QUOTA, true, time);
    const result = await runVirtual(server, [{ type: 'deploy', name: 'web', namespace: ns }], { timeoutMs: 60_000 }, time);
    expect(result.outcome).toBe('timeout');
    expect(result.targets[0]).toMatchObject({ status: 'InProgress', diagnosis: { cause: 'QuotaExceeded', unrecoverable: false } });
    // The ReplicaSets were read for the quota rule: one GET of the Deployment and LISTs of ReplicaSets, no watch.
    const reads = server.counters.requests().filter((r) => r.namespace === ns && r.resource === 'replicasets');
    expect(reads.length).toBeGreaterThan(0);
    expect(reads.every((r) => r.verb === 'list')).toBe(true);
  });

  it('keeps waiting on a webhook that does not answer, warning once', async () => {
    const ns = namespace(server, 'fc-webhook-timeout');
    const time = new ManualTime();
    rollout(ns, TIMEOUT, false, time);
    const result = await runVirtual(server, [{ type: 'deploy', name: 'web', namespace: ns }], { timeoutMs: 60_000 }, time);
    expect(result.outcome).toBe('timeout');
    expect(result.targets[0]).toMatchObject({ status: 'InProgress', diagnosis: { cause: 'WebhookUnavailable', unrecoverable: false } });
    const said = result.warnings.filter((w) => w.includes('policy.example.com'));
    expect(said).toEqual([
      expect.stringMatching(/^admission webhook "policy.example.com" did not answer, so ReplicaSet\/web-5d8f cannot create pods until it does \(waiting\)/),
    ]);
  });

  it('judges only the current ReplicaSet`s FailedCreate: an old revision`s denial does not fail the rollout', async () => {
    const ns = namespace(server, 'fc-old-revision');
    const time = new ManualTime();
    const created = server.create({ ...deployment('web', { namespace: ns, state: 'progressing' }), spec: deployment('web').spec });
    const uid = (created.metadata as { uid: string }).uid;
    server.create(replicaSet(ns, uid, 'web-1a2b', 1, 0, 0));
    server.create(replicaSet(ns, uid, 'web-5d8f', 2, 1, 0));
    // Revision 1 was denied an hour ago; revision 2 is rolling out and creates its pods.
    const anHourAgo = new Date(time.now() - 3_600_000).toISOString().replace(/\.\d+Z$/, 'Z');
    server.create({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'web-1a2b.1', namespace: ns },
      type: 'Warning',
      reason: 'FailedCreate',
      message: DENIED,
      count: 12,
      firstTimestamp: anHourAgo,
      lastTimestamp: anHourAgo,
      involvedObject: { kind: 'ReplicaSet', name: 'web-1a2b', namespace: ns },
    });
    const running = runEngine(server, [{ type: 'deploy', name: 'web', namespace: ns }], { timeoutMs: 600_000, time });
    const startedAt = time.now();
    // Long enough for diagnosis rounds and the 20 s grace, measured from the old event or from now.
    await driveUntil(time, server, () => time.now() - startedAt >= 60_000, 'a minute of the rollout');
    const eventReads = server.counters.requests().filter((r) => r.namespace === ns && r.resource === 'events');
    expect(eventReads.length).toBeGreaterThan(0); // the diagnosis did read the old event
    server.patchStatus('apps/v1', 'Deployment', ns, 'web', deploymentStatus('ready'));

    const result = await driveUntilSettled(time, server, running);

    expect(result.outcome).toBe('ready');
    expect(result.targets[0]).toMatchObject({ status: 'Current' });
    expect(result.targets[0]?.diagnosis?.creation).toBeUndefined();
  });

  it('still judges the current ReplicaSet`s FailedCreate beside an old one`s', async () => {
    const ns = namespace(server, 'fc-both-revisions');
    const time = new ManualTime();
    rollout(ns, DENIED, false, time);
    const created = server.get('apps/v1', 'Deployment', ns, 'web')!;
    server.create(replicaSet(ns, created.metadata.uid, 'web-1a2b', 1, 0, 0));
    const at = new Date(time.now()).toISOString().replace(/\.\d+Z$/, 'Z');
    server.create({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'web-1a2b.1', namespace: ns },
      type: 'Warning',
      reason: 'FailedCreate',
      message: QUOTA,
      firstTimestamp: at,
      lastTimestamp: new Date(time.now() + 1000).toISOString().replace(/\.\d+Z$/, 'Z'),
      involvedObject: { kind: 'ReplicaSet', name: 'web-1a2b', namespace: ns },
    });
    const result = await runVirtual(server, [{ type: 'deploy', name: 'web', namespace: ns }], { timeoutMs: 600_000 }, time);
    expect(result.outcome).toBe('failed');
    expect(result.targets[0]?.diagnosis?.cause).toBe('AdmissionDenied');
    expect(result.targets[0]?.message).toContain('ReplicaSet/web-5d8f: FailedCreate: admission webhook');
  });
});
