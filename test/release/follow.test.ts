/**
 * settleRelease against the API server stand-in, with the records the real helm v4.1.4 wrote. The
 * cluster changes from inside onDecision, so each step happens after the read that saw the previous
 * state: no timing is assumed.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { settleRelease, type SettledRelease } from '../../src/release/follow.js';
import { KubeClient } from '../../src/kube/client.js';
import { loadKubeConfig } from '../../src/kube/kubeconfig.js';
import type { ReleaseDecision } from '../../src/release/policy.js';
import { InputError, type ReleaseMinRevision } from '../../src/settings.js';
import { startCluster, type TestCluster } from '../cluster/index.js';
import { releaseRecord, SECRET_VALUE, type RecordKey } from './fixtures/index.js';

let cluster: TestCluster;
let client: KubeClient;
const namespace = 'store';

// A cluster per test: the records (all in namespace store, as helm wrote them) start from nothing.
beforeEach(async () => {
  cluster = await startCluster({ controllers: false });
  cluster.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
  const secrets = { mask: () => {} };
  const loaded = loadKubeConfig({ kubeconfig: cluster.kubeconfig(), context: '' }, secrets, { env: {}, serviceAccountDir: '/nonexistent' });
  client = new KubeClient(loaded.kubeConfig, loaded.server, secrets);
});
afterEach(async () => {
  await client.close();
  await cluster.close();
});

const put = (...keys: RecordKey[]) => keys.forEach((key) => cluster.apply(releaseRecord(key)));

async function settle(
  name: string,
  onDecision: (decision: ReleaseDecision, controller: AbortController) => void = () => {},
  minRevision: ReleaseMinRevision = 0,
) {
  const controller = new AbortController();
  const decisions: ReleaseDecision[] = [];
  const warnings: string[] = [];
  const settled: SettledRelease = await settleRelease(client, namespace, name, {
    pollIntervalMs: 5,
    minRevision,
    signal: controller.signal,
    onDecision: (decision) => {
      decisions.push(decision);
      onDecision(decision, controller);
    },
    warn: (message) => warnings.push(message),
  });
  expect(JSON.stringify([settled, decisions, warnings])).not.toContain(SECRET_VALUE);
  return { settled, actions: decisions.map((decision) => decision.action), decisions, warnings };
}

const revisionOf = (settled: SettledRelease) => (settled.release === 'not-found' ? undefined : settled.release.revision);

describe('settleRelease', () => {
  it('waits for a deployed release at once', async () => {
    put('v1-deployed');
    const { settled, actions } = await settle('shop');
    expect(actions).toEqual(['wait']);
    expect(settled.decision).toMatchObject({
      action: 'wait',
      targets: expect.arrayContaining([expect.objectContaining({ type: 'Deployment', name: 'shop-web', namespace })]),
    });
  });

  it('waits for a release that appears only after it started, and says so first', async () => {
    const { settled, actions, decisions } = await settle('shop', (decision) => {
      if (decision.action === 'poll-again') put('v1-pending-install');
      if (decision.message.includes('pending-install')) put('v1-deployed');
    });
    expect(actions).toEqual(['poll-again', 'poll-again', 'wait']);
    expect(decisions[0]?.message).toMatch(/^Helm release shop does not exist in namespace store \(yet\): waiting for it to appear/);
    expect(revisionOf(settled)).toBe(1);
  });

  it('follows a pending upgrade until it completes, then waits for the new revision', async () => {
    put('v1-deployed', 'v2-pending-upgrade');
    const { settled, actions } = await settle('shop', (decision) => {
      if (decision.action === 'poll-again') put('v1-superseded', 'v2-deployed');
    });
    expect(actions).toEqual(['poll-again', 'wait']);
    expect(settled.release).toMatchObject({ revision: 2, status: 'deployed' });
  });

  it('fails at once on a failed release, with its targets to judge', async () => {
    put('v1-superseded', 'v2-deployed', 'v3-failed');
    const { settled, actions } = await settle('shop');
    expect(actions).toEqual(['fail']);
    expect(settled.decision.message).toBe('Helm release shop revision 3 failed: Upgrade "shop" failed: etcdserver: request timed out');
    expect(settled.decision).toMatchObject({ targets: expect.arrayContaining([expect.objectContaining({ name: 'shop-web' })]) });
  });

  it('turns an uninstall in progress into a deletion wait', async () => {
    put('v1-superseded', 'v2-deployed', 'v3-uninstalling');
    expect((await settle('shop')).actions).toEqual(['wait-deleted']);
  });

  it('returns what it was waiting for when the deadline comes first', async () => {
    put('v1-deployed', 'v2-pending-upgrade');
    const { settled, actions } = await settle('shop', (_decision, controller) => controller.abort());
    expect(actions).toEqual(['poll-again']);
    expect(settled.decision.message).toMatch(/revision 2 is pending-upgrade \(Preparing upgrade\): helm is still at work/);
    expect(revisionOf(settled)).toBe(2);
  });

  it('retries a read the server may recover from, with one warning', async () => {
    put('v1-deployed');
    cluster.faults.failNext(2, { status: 503, resource: 'secrets' });
    const { settled, warnings } = await settle('shop');
    expect(revisionOf(settled)).toBe(1);
    expect(warnings).toEqual([
      `Cannot read Helm release shop in namespace ${namespace} (503 Service Unavailable: The server is currently unable to handle the request); retrying every poll interval`,
    ]);
  });

  it('throws what waiting cannot fix: a broken record', async () => {
    put('v1-deployed');
    cluster.apply({ ...releaseRecord('v1-deployed'), data: { release: Buffer.from('not base64!').toString('base64') } });
    await expect(settle('shop')).rejects.toThrow(InputError);
  });
});

/** `release-min-revision`: a step started beside `helm upgrade` must not judge the release as it stood before. */
describe('settleRelease with release-min-revision', () => {
  it('next: the deployed revision present at the start is the old one; it waits for helm to record the upgrade', async () => {
    put('v1-deployed');
    const { settled, actions, decisions } = await settle(
      'shop',
      (decision) => {
        if (decision.message.includes('revision 1 is deployed')) put('v2-pending-upgrade');
        if (decision.message.includes('revision 2 is pending-upgrade')) put('v1-superseded', 'v2-deployed');
      },
      'next',
    );
    expect(actions).toEqual(['poll-again', 'poll-again', 'wait']);
    expect(decisions[0]?.message).toBe(
      'Helm release shop revision 1 is deployed, but revision 2 or newer is waited for (release-min-revision: next): reading the release again until helm records it',
    );
    expect(settled.release).toMatchObject({ revision: 2, status: 'deployed' });
  });

  it('next: a revision still pending at the start is the upgrade being written, and is followed', async () => {
    put('v1-deployed', 'v2-pending-upgrade');
    const { settled, actions } = await settle('shop', (decision) => decision.action === 'poll-again' && put('v1-superseded', 'v2-deployed'), 'next');
    expect(actions).toEqual(['poll-again', 'wait']);
    expect(revisionOf(settled)).toBe(2);
  });

  it('next: without a release at the start, its first revision counts', async () => {
    const { settled, actions } = await settle('shop', (decision) => decision.action === 'poll-again' && put('v1-deployed'), 'next');
    expect(actions).toEqual(['poll-again', 'wait']);
    expect(revisionOf(settled)).toBe(1);
  });

  it('N: every older revision is followed whatever its status, then revision N is judged as usual', async () => {
    put('v1-superseded', 'v2-deployed');
    const { settled, actions, decisions } = await settle('shop', (decision) => decision.action === 'poll-again' && put('v3-failed'), 3);
    expect(actions).toEqual(['poll-again', 'fail']);
    expect(decisions[0]?.message).toMatch(/^Helm release shop revision 2 is deployed, but revision 3 or newer is waited for \(release-min-revision: 3\)/);
    expect(revisionOf(settled)).toBe(3);
  });

  it('N already reached: waits at once, as without it', async () => {
    put('v1-superseded', 'v2-deployed');
    expect((await settle('shop', () => {}, 2)).actions).toEqual(['wait']);
  });
});
