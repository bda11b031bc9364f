/** podsToExplain: which pods explain a target (per kind and revision), worst first, and per failing container
 *  which log to read or why there is none. Objects are shaped as a v1.35 cluster returns them. */
import { describe, expect, it } from '@jest/globals';
import { podsToExplain, type ContainerToExplain } from '../../src/status/explain-pods.js';

type Obj = Record<string, unknown>;
const NS = 'shop';
const T0 = Date.parse('2026-12-02T10:00:00Z');
const at = (seconds: number) => new Date(T0 + seconds * 1000).toISOString();
const ref = (kind: string, name: string, uid: string) => ({
  apiVersion: kind === 'ReplicaSet' || kind === 'StatefulSet' || kind === 'DaemonSet' ? 'apps/v1' : 'batch/v1',
  kind,
  name,
  uid,
  controller: true,
  blockOwnerDeletion: true,
});

function pod(
  name: string,
  o: { owner?: Obj; labels?: Obj; phase?: string; ready?: boolean; started?: number; containers?: Obj[]; init?: Obj[]; status?: Obj; deleting?: boolean } = {},
): Obj {
  return {
    metadata: {
      name,
      namespace: NS,
      uid: `uid-${name}`,
      creationTimestamp: at(o.started ?? 0),
      labels: o.labels ?? {},
      ...(o.owner ? { ownerReferences: [o.owner] } : {}),
      ...(o.deleting ? { deletionTimestamp: at(100) } : {}),
    },
    spec: { nodeName: 'node-1', containers: [{ name: 'api', image: 'shop/api:2.0' }] },
    status: {
      phase: o.phase ?? 'Running',
      conditions: [
        { type: 'Ready', status: o.ready ? 'True' : 'False' },
        { type: 'PodScheduled', status: 'True' },
      ],
      startTime: at(o.started ?? 0),
      ...(o.init ? { initContainerStatuses: o.init } : {}),
      containerStatuses: o.containers ?? [running('api', o.ready ?? false)],
      ...o.status,
    },
  };
}
const running = (name: string, ready: boolean, extra: Obj = {}): Obj => ({
  name,
  ready,
  restartCount: 0,
  started: true,
  state: { running: { startedAt: at(0) } },
  lastState: {},
  containerID: `containerd://${name}`,
  ...extra,
});
const crashing = (name: string, restarts: number, last: Obj = { exitCode: 1, reason: 'Error' }): Obj => ({
  name,
  ready: false,
  restartCount: restarts,
  started: false,
  state: { waiting: { reason: 'CrashLoopBackOff', message: `back-off 40s restarting failed container=${name} pod=x_shop(uid)` } },
  lastState: { terminated: { ...last, startedAt: at(1), finishedAt: at(2), containerID: `containerd://${name}-${restarts}` } },
});
const waitingOn = (name: string, reason: string, message?: string): Obj => ({
  name,
  ready: false,
  restartCount: 0,
  started: false,
  state: { waiting: { reason, ...(message ? { message } : {}) } },
  lastState: {},
});
const terminated = (name: string, exitCode: number, reason: string, message?: string): Obj => ({
  name,
  ready: false,
  restartCount: 0,
  started: false,
  lastState: {},
  state: { terminated: { exitCode, reason, ...(message ? { message } : {}), startedAt: at(1), finishedAt: at(5), containerID: `containerd://${name}-done` } },
});

const names = (pods: Array<{ name: string }>) => pods.map((p) => p.name);

describe('which pods explain a target', () => {
  const deploy = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'api', namespace: NS, uid: 'd-1' } };
  const rs = (hash: string, revision: string) => ({
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name: `api-${hash}`,
      namespace: NS,
      uid: `rs-${hash}`,
      labels: { 'pod-template-hash': hash },
      annotations: { 'deployment.kubernetes.io/revision': revision },
      ownerReferences: [ref('Deployment', 'api', 'd-1')],
    },
  });
  const rsPod = (name: string, hash: string, extra: Parameters<typeof pod>[1] = {}) =>
    pod(name, { owner: ref('ReplicaSet', `api-${hash}`, `rs-${hash}`), labels: { app: 'api', 'pod-template-hash': hash }, ...extra });
  const deployPods = [
    rsPod('api-old11-aaaaa', 'old11', { containers: [crashing('api', 9)] }), // an old rollout, crashing too
    rsPod('api-new22-bbbbb', 'new22', { containers: [crashing('api', 3)] }),
    rsPod('api-new22-ccccc', 'new22', { containers: [running('api', true)], ready: true }),
    pod('other-ddddd', { containers: [crashing('api', 1)] }),
  ];

  it.each<[string, Obj, Obj[], Obj, string[]]>([
    ["a Deployment: its newest ReplicaSet's not-ready pods", deploy, deployPods, { replicaSets: [rs('new22', '10'), rs('old11', '9')] }, ['api-new22-bbbbb']],
    // Revisions compare as numbers: 10 is newer than 9.
    ['a Deployment: newest by revision number', deploy, deployPods, { replicaSets: [rs('old11', '9'), rs('new22', '10')] }, ['api-new22-bbbbb']],
    ['a Deployment without its ReplicaSets: pods of any of them', deploy, deployPods, {}, ['api-old11-aaaaa', 'api-new22-bbbbb']],
    [
      "a StatefulSet: the update revision's pods",
      { kind: 'StatefulSet', metadata: { name: 'db', namespace: NS, uid: 's-1' }, status: { updateRevision: 'db-7c9f', currentRevision: 'db-55aa' } },
      [
        pod('db-0', { owner: ref('StatefulSet', 'db', 's-1'), labels: { 'controller-revision-hash': 'db-55aa' }, containers: [crashing('api', 4)] }),
        pod('db-1', { owner: ref('StatefulSet', 'db', 's-1'), labels: { 'controller-revision-hash': 'db-7c9f' }, containers: [crashing('api', 1)] }),
      ],
      {},
      ['db-1'],
    ],
    [
      "a DaemonSet: the newest ControllerRevision's pods",
      { kind: 'DaemonSet', metadata: { name: 'agent', namespace: NS, uid: 'ds-1' } },
      [
        pod('agent-x1', { owner: ref('DaemonSet', 'agent', 'ds-1'), labels: { 'controller-revision-hash': '6d5f' }, containers: [crashing('api', 2)] }),
        pod('agent-x2', { owner: ref('DaemonSet', 'agent', 'ds-1'), labels: { 'controller-revision-hash': '8b7c' } }),
      ],
      {
        controllerRevisions: [
          {
            kind: 'ControllerRevision',
            revision: 1,
            metadata: { name: 'agent-6d5f', labels: { 'controller-revision-hash': '6d5f' }, ownerReferences: [ref('DaemonSet', 'agent', 'ds-1')] },
          },
          {
            kind: 'ControllerRevision',
            revision: 2,
            metadata: { name: 'agent-8b7c', labels: { 'controller-revision-hash': '8b7c' }, ownerReferences: [ref('DaemonSet', 'agent', 'ds-1')] },
          },
        ],
      },
      ['agent-x2'],
    ],
    [
      'a Job: its pods by controller uid, the legacy label too',
      { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'migrate', namespace: NS, uid: 'j-1' } },
      [
        pod('migrate-new', {
          labels: { 'batch.kubernetes.io/controller-uid': 'j-1' },
          phase: 'Failed',
          containers: [terminated('api', 1, 'Error')],
          started: 20,
        }),
        pod('migrate-legacy', { labels: { 'controller-uid': 'j-1' }, phase: 'Failed', containers: [terminated('api', 1, 'Error')], started: 10 }),
        pod('migrate-other-job', { labels: { 'batch.kubernetes.io/controller-uid': 'j-2' }, phase: 'Failed', containers: [terminated('api', 1, 'Error')] }),
        pod('migrate-done', { labels: { 'batch.kubernetes.io/controller-uid': 'j-1' }, phase: 'Succeeded', containers: [terminated('api', 0, 'Completed')] }),
      ],
      {},
      ['migrate-new', 'migrate-legacy'], // newest first
    ],
    [
      'a bare Pod: itself, even when nothing is wrong with its containers',
      { kind: 'Pod', metadata: { name: 'solo', namespace: NS } },
      [pod('solo', { containers: [running('api', true)], ready: true }), pod('solo-2', { containers: [crashing('api', 2)] })],
      {},
      ['solo'],
    ],
    [
      'pods on their way out are left out',
      { kind: 'ReplicaSet', metadata: { name: 'api-new22', namespace: NS, uid: 'rs-new22' } },
      [rsPod('api-new22-gone', 'new22', { containers: [crashing('api', 5)], deleting: true }), rsPod('api-new22-here', 'new22')],
      {},
      ['api-new22-here'],
    ],
  ])('%s', (_what, target, pods, extra, expected) => {
    expect(names(podsToExplain({ target, pods, ...extra }))).toEqual(expected);
  });

  it('worst first, at most 3: failed or crash-looping, then failing to start, then unschedulable, then not ready; more restarts, then newest', () => {
    const owner = ref('ReplicaSet', 'api-h', 'rs-h');
    const pods = [
      pod('not-ready', { owner, started: 50 }),
      pod('unschedulable', {
        owner,
        containers: [],
        phase: 'Pending',
        status: { conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: '0/3 nodes are available: 3 Insufficient cpu.' }] },
      }),
      pod('pull', { owner, phase: 'Pending', containers: [waitingOn('api', 'ImagePullBackOff', 'Back-off pulling image "shop/api:2.0"')] }),
      pod('crash-2', { owner, containers: [crashing('api', 2)], started: 30 }),
      pod('crash-7', { owner, containers: [crashing('api', 7)], started: 10 }),
      pod('crash-2-newer', { owner, containers: [crashing('api', 2)], started: 40 }),
    ];
    const target = { kind: 'ReplicaSet', metadata: { name: 'api-h', namespace: NS, uid: 'rs-h' } };
    expect(names(podsToExplain({ target, pods }))).toEqual(['crash-7', 'crash-2-newer', 'crash-2']);
    expect(names(podsToExplain({ target, pods, max: 10 }))).toEqual(['crash-7', 'crash-2-newer', 'crash-2', 'pull', 'unschedulable', 'not-ready']);
    expect(podsToExplain({ target, pods, max: 10 })[4]).toMatchObject({
      reason: 'Unschedulable',
      message: '0/3 nodes are available: 3 Insufficient cpu.',
      containers: [],
    });
  });
});

describe('what to show for each container', () => {
  const explain = (p: Obj): ContainerToExplain[] =>
    podsToExplain({ target: { kind: 'Pod', metadata: { name: 'p', namespace: NS } }, pods: [p] })[0]!.containers;
  const base = { namespace: NS, pod: 'p', init: false };

  it.each<[string, Obj, Array<Partial<ContainerToExplain>>]>([
    [
      'a crash loop: the previous run, its exit code and reason',
      pod('p', { containers: [crashing('api', 4, { exitCode: 1, reason: 'Error', message: 'missing DATABASE_URL' })] }),
      [
        {
          ...base,
          container: 'api',
          reason: 'CrashLoopBackOff',
          message: 'missing DATABASE_URL',
          restartCount: 4,
          exitCode: 1,
          terminationReason: 'Error',
          previous: true,
        },
      ],
    ],
    [
      'OOMKilled in a crash loop',
      pod('p', { containers: [crashing('api', 2, { exitCode: 137, reason: 'OOMKilled' })] }),
      [{ container: 'api', reason: 'CrashLoopBackOff', exitCode: 137, terminationReason: 'OOMKilled', previous: true }],
    ],
    [
      'a terminated container (a Job pod, restartPolicy Never): the current run, not previous',
      pod('p', { phase: 'Failed', containers: [terminated('api', 3, 'Error', 'relation "orders" does not exist')] }),
      [{ container: 'api', reason: 'Error', message: 'relation "orders" does not exist', exitCode: 3, terminationReason: 'Error', previous: false }],
    ],
    [
      'an image that cannot be pulled: no logs, the waiting reason instead',
      pod('p', { phase: 'Pending', containers: [waitingOn('api', 'ImagePullBackOff', 'Back-off pulling image "shop/api:2.0"')] }),
      [{ container: 'api', reason: 'ImagePullBackOff', previous: false, noLogs: 'ImagePullBackOff: Back-off pulling image "shop/api:2.0"' }],
    ],
    [
      'a missing secret: no logs',
      pod('p', { phase: 'Pending', containers: [waitingOn('api', 'CreateContainerConfigError', 'secret "db-credentials" not found')] }),
      [{ container: 'api', noLogs: 'CreateContainerConfigError: secret "db-credentials" not found' }],
    ],
    [
      'a failing init container; the containers waiting for it are not listed',
      pod('p', { phase: 'Pending', init: [crashing('wait-for-db', 5)], containers: [waitingOn('api', 'PodInitializing')] }),
      [{ container: 'wait-for-db', init: true, reason: 'CrashLoopBackOff', previous: true, restartCount: 5 }],
    ],
    [
      'a completed init container is fine; a running but unready container shows its current log',
      pod('p', { init: [terminated('migrate', 0, 'Completed')], containers: [running('api', false)] }),
      [{ container: 'api', reason: 'NotReady', previous: false }],
    ],
    [
      'running and unready after restarts: the run that crashed',
      pod('p', {
        containers: [running('api', false, { restartCount: 2, lastState: { terminated: { exitCode: 2, reason: 'Error', containerID: 'containerd://x' } } })],
      }),
      [{ container: 'api', reason: 'NotReady', exitCode: 2, previous: true, restartCount: 2 }],
    ],
    [
      'only containers still being created: shown, with no logs',
      pod('p', { phase: 'Pending', containers: [waitingOn('api', 'ContainerCreating')] }),
      [{ container: 'api', reason: 'ContainerCreating', noLogs: 'ContainerCreating' }],
    ],
    [
      'a healthy sidecar beside a failing container is not listed',
      pod('p', { containers: [crashing('api', 1), running('proxy', true)] }),
      [{ container: 'api' }],
    ],
  ])('%s', (_what, p, expected) => {
    const containers = explain(p);
    expect(containers).toHaveLength(expected.length);
    expected.forEach((e, i) => expect(containers[i]).toMatchObject(e));
  });

  it("a pod's own warning events come with it, newest first", () => {
    const event = (reason: string, seconds: number, name = 'p') => ({
      type: 'Warning',
      reason,
      message: `${reason} happened`,
      count: 1,
      lastTimestamp: at(seconds),
      involvedObject: { kind: 'Pod', name, namespace: NS },
    });
    const [explained] = podsToExplain({
      target: { kind: 'Pod', metadata: { name: 'p', namespace: NS } },
      pods: [pod('p', { containers: [crashing('api', 1)] })],
      events: [
        event('BackOff', 10),
        event('Unhealthy', 20),
        event('BackOff', 30, 'other-pod'),
        { ...event('FailedCreate', 40), involvedObject: { kind: 'ReplicaSet', name: 'p' } },
      ],
    });
    expect(explained!.events.map((e) => e.reason)).toEqual(['Unhealthy', 'BackOff']);
  });
});
