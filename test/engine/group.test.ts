/** The pure core of the engine: a group's targets fed with objects (no I/O), with the real status library. */
import { describe, expect, it } from '@jest/globals';
import { GroupState } from '../../src/engine/group.js';
import { SCHEDULE_WINDOW_MS } from '../../src/status/index.js';
import type { GroupContext } from '../../src/engine/group.js';
import { SelectorSet } from '../../src/engine/selector-set.js';
import { Tracker } from '../../src/engine/tracker.js';
import type { TargetState } from '../../src/engine/tracker.js';
import type { EngineObserver, TargetReport } from '../../src/result.js';
import type { WaitFor } from '../../src/settings.js';
import type { ResourceType } from '../../src/kube/index.js';
import type { Diagnosis } from '../../src/status/types.js';
import { configMap, deployment, pod } from './fixtures.js';

const DEPLOYMENTS: ResourceType = {
  group: 'apps',
  version: 'v1',
  resource: 'deployments',
  kind: 'Deployment',
  namespaced: true,
  singular: 'deployment',
  shortNames: ['deploy'],
  verbs: [],
};
const CONFIGMAPS: ResourceType = {
  group: '',
  version: 'v1',
  resource: 'configmaps',
  kind: 'ConfigMap',
  namespaced: true,
  singular: 'configmap',
  shortNames: ['cm'],
  verbs: [],
};
const PODS: ResourceType = { group: '', version: 'v1', resource: 'pods', kind: 'Pod', namespaced: true, singular: 'pod', shortNames: ['po'], verbs: [] };

function setup(type: ResourceType, opts: { waitFor?: WaitFor; now?: () => Date } = {}) {
  const transitions: Array<[string, string | undefined, string]> = [];
  const observer: EngineObserver = { transition: (t, previous) => transitions.push([t.name || `(${t.selector})`, previous, t.status]) };
  const tracker = new Tracker(observer);
  tracker.announcing = true;
  const scheduled: Array<{ at: number; run: () => void }> = [];
  const pendingNamespaces: string[] = [];
  const ctx: GroupContext = {
    tracker,
    waitFor: opts.waitFor ?? { kind: 'ready' },
    jobCompletion: true,
    now: opts.now ?? (() => new Date()),
    schedule: (at, run) => scheduled.push({ at, run }),
    workloadPending: (ns) => pendingNamespaces.push(ns),
    statusGraceMs: 0,
    statusSubresource: () => false,
    watchPodsWhenDone: false,
    warn: () => undefined,
  };
  const group = new GroupState(type, 'default', ctx);
  const named = (name: string): TargetState => {
    const state = tracker.add({ apiVersion: 'v1', kind: type.kind, namespace: 'default', name }, { status: 'Unknown', message: '', done: false });
    group.addNamed(name, state);
    return state;
  };
  const selector = (text: string, ownerless = false): (() => TargetReport[]) => {
    const placeholder = tracker.add(
      { apiVersion: 'v1', kind: type.kind, namespace: 'default', name: '', selector: text },
      { status: 'Unknown', message: '', done: false },
    );
    const set = new SelectorSet(placeholder, tracker, text, 'default', ctx.waitFor);
    const members = group.addSelector(ownerless, set);
    return () => [...(set.empty ? [set.placeholder] : []), ...members()].map((s) => s.report);
  };
  const list = (...objects: unknown[]) => {
    group.beginList();
    for (const o of objects) group.upsert(structuredClone(o));
    group.endList();
  };
  return { tracker, group, named, selector, list, transitions, scheduled, pendingNamespaces };
}

const brief = (r: TargetReport) => [r.name, r.status, r.done, r.message];

describe('named targets, wait-for ready', () => {
  it('waits for a missing object, follows it to Current and back when deleted', () => {
    const { group, named, list, tracker, transitions } = setup(DEPLOYMENTS);
    const web = named('web');
    expect(brief(web.report)).toEqual(['web', 'Unknown', false, 'waiting for the first list of deployments.apps in namespace "default"']);
    list();
    expect(brief(web.report)).toEqual(['web', 'NotFound', false, 'not found; waiting for it to be created']);
    group.upsert(deployment('web', { state: 'progressing' }));
    expect(web.report).toMatchObject({ status: 'InProgress', message: 'Available: 0/1', done: false });
    group.upsert(deployment('web', { state: 'ready' }));
    expect(web.report).toMatchObject({ status: 'Current', done: true });
    expect(tracker.pending).toBe(0);
    group.remove('web');
    expect(brief(web.report)).toEqual(['web', 'NotFound', false, 'deleted; waiting for it to be created again']);
    expect(tracker.pending).toBe(1);
    expect(web.report.history.map((h) => h.status)).toEqual(['NotFound', 'InProgress', 'Current', 'NotFound']);
    expect(transitions.map((t) => t[2])).toEqual(['Unknown', 'NotFound', 'InProgress', 'Current', 'NotFound']);
  });

  it('counts a Failed target (ProgressDeadlineExceeded)', () => {
    const { group, named, list, tracker } = setup(DEPLOYMENTS);
    const web = named('web');
    list(deployment('web', { state: 'deadline' }));
    expect(web.report).toMatchObject({ status: 'Failed', message: 'Progress deadline exceeded', done: false });
    expect(tracker.failed).toBe(1);
    group.upsert(deployment('web', { state: 'ready' }));
    expect(tracker.failed).toBe(0);
  });

  it('a relist that misses an object treats it as deleted', () => {
    const { named, list } = setup(CONFIGMAPS);
    const a = named('a');
    list(configMap('a'));
    expect(a.report).toMatchObject({ status: 'Current', done: true });
    list();
    expect(a.report).toMatchObject({ status: 'NotFound', done: false });
  });

  it('reports the same object named twice once', () => {
    const { group, named, tracker } = setup(CONFIGMAPS);
    const first = named('a');
    const again = tracker.add({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: 'a' }, { status: 'Unknown', message: '', done: false });
    // The state already reporting it comes back, so that the engine can retire the second one.
    expect(group.addNamed('a', again)).toBe(first);
  });

  it('uses a server-side filter only when one target makes it exact', () => {
    const one = setup(CONFIGMAPS);
    one.named('a');
    expect(one.group.serverFilter()).toEqual({ fieldSelector: 'metadata.name=a' });
    one.named('b');
    expect(one.group.serverFilter()).toEqual({});
    const sel = setup(CONFIGMAPS);
    sel.selector('app=web');
    expect(sel.group.serverFilter()).toEqual({ labelSelector: 'app=web' });
    sel.selector('tier=db');
    expect(sel.group.serverFilter()).toEqual({});
  });
});

describe('wait-for deleted', () => {
  const waitFor: WaitFor = { kind: 'deleted' };

  it.each([
    ['absent from the start', [] as unknown[], [], 'does not exist'],
    ['deleted while waiting', [configMap('a')], [(g: GroupState) => g.remove('a')], 'deleted'],
    [
      're-created with a new UID (a missed delete)',
      [configMap('a', {}, 'default', 'uid-1')],
      [(g: GroupState) => g.upsert(configMap('a', {}, 'default', 'uid-2'))],
      'deleted (an object with the same name was created again since)',
    ],
  ])('is done when %s', (_name, initial, steps, message) => {
    const { group, named, list } = setup(CONFIGMAPS, { waitFor });
    const a = named('a');
    list(...initial);
    for (const step of steps) step(group);
    expect(a.report).toMatchObject({ status: 'NotFound', done: true, message });
  });

  it('stays done when the object is created again after its deletion', () => {
    const { group, named, list } = setup(CONFIGMAPS, { waitFor });
    const a = named('a');
    list(configMap('a', {}, 'default', 'uid-1'));
    expect(a.report).toMatchObject({ status: 'Current', done: false, message: 'still exists' });
    group.remove('a');
    group.upsert(configMap('a', {}, 'default', 'uid-2'));
    expect(a.report).toMatchObject({ status: 'NotFound', done: true });
  });

  it('a selector that matches nothing is done', () => {
    const { selector, list } = setup(CONFIGMAPS, { waitFor });
    const reports = selector('app=web');
    list();
    expect(reports().map(brief)).toEqual([['', 'NotFound', true, 'no configmaps match app=web in namespace default']]);
  });
});

describe('selector targets', () => {
  it('follow the live set: zero matches, members joining, relabelled and deleted members leaving', () => {
    const { group, selector, list, tracker } = setup(DEPLOYMENTS);
    const reports = selector('app in (web,api)');
    list(deployment('other'));
    expect(reports().map(brief)).toEqual([['', 'NotFound', false, 'no deployments match app in (web,api) in namespace default yet']]);
    expect(tracker.pending).toBe(1);

    group.upsert(deployment('web', { state: 'ready' }));
    group.upsert(deployment('api', { state: 'progressing' }));
    expect(reports().map((r) => [r.name, r.status, r.selector])).toEqual([
      ['api', 'InProgress', 'app in (web,api)'],
      ['web', 'Current', 'app in (web,api)'],
    ]);
    expect(tracker.pending).toBe(1);

    group.upsert(deployment('api', { state: 'progressing', labels: { app: 'renamed' } }));
    expect(reports().map(brief)).toEqual([['web', 'Current', true, expect.any(String)]]);
    expect(tracker.pending).toBe(0);

    group.remove('web');
    expect(reports().map((r) => [r.name, r.status])).toEqual([['', 'NotFound']]);
    expect(tracker.pending).toBe(1);
  });

  it('ownerless selects only objects without a controller', () => {
    const { selector, list } = setup(DEPLOYMENTS);
    const reports = selector('', true);
    list(deployment('mine', { state: 'ready' }), deployment('managed', { state: 'ready', owned: true }));
    expect(reports().map((r) => r.name)).toEqual(['mine']);
  });

  it('an empty selector selects every object', () => {
    const { selector, list } = setup(CONFIGMAPS);
    const reports = selector('');
    list();
    expect(reports().map((r) => r.message)).toEqual(['no configmaps exist in namespace default yet']);
    list(configMap('a'), configMap('b'));
    expect(reports().map((r) => r.name)).toEqual(['a', 'b']);
  });

  it('leaves an object named explicitly to the named target', () => {
    const { named, selector, list } = setup(CONFIGMAPS);
    const a = named('a');
    const reports = selector('');
    list(configMap('a'), configMap('b'));
    expect(a.report.status).toBe('Current');
    expect(reports().map((r) => r.name)).toEqual(['b']);
  });
});

describe('condition and jsonpath goals', () => {
  it.each<[WaitFor, string, boolean, string]>([
    [{ kind: 'condition', type: 'available', value: 'true' }, 'Current', true, 'condition available=true'],
    [
      { kind: 'condition', type: 'Available', value: 'False' },
      'InProgress',
      false,
      'waiting for condition Available=False: it is True (MinimumReplicasAvailable)',
    ],
    [{ kind: 'condition', type: 'Frozen', value: 'True' }, 'InProgress', false, 'waiting for condition Frozen=True: the object has no Frozen condition yet'],
    [{ kind: 'jsonpath', expression: '{.status.readyReplicas}', value: '1' }, 'Current', true, 'jsonpath {.status.readyReplicas}=1'],
    [{ kind: 'jsonpath', expression: '{.status.readyReplicas}', value: '3' }, 'InProgress', false, 'waiting for {.status.readyReplicas}=3: it is "1"'],
  ])('%j on a ready Deployment', (waitFor, status, done, message) => {
    const { named, list } = setup(DEPLOYMENTS, { waitFor });
    const web = named('web');
    list(deployment('web', { state: 'ready' }));
    expect(web.report).toMatchObject({ status, done, message });
  });
});

describe('pod diagnosis and time', () => {
  const unrecoverable: Diagnosis = {
    problems: [{ pod: 'web-1', container: 'app', init: false, reason: 'ImagePullBackOff', message: 'Back-off pulling image "nope"', unrecoverable: true }],
    events: [],
    summary: 'container app: ImagePullBackOff: Back-off pulling image "nope"',
    unrecoverable: true,
  };

  it('offers pending workloads for diagnosis and fails fast on an unrecoverable diagnosis', () => {
    const { group, named, list, pendingNamespaces, tracker } = setup(DEPLOYMENTS);
    const web = named('web');
    list(deployment('web', { state: 'progressing' }));
    expect(pendingNamespaces).toContain('default');
    const subject = group.pendingWorkloads()[0]!;
    expect(subject).toMatchObject({ kind: 'Deployment', name: 'web' });
    expect(subject.ownsPod(pod('web-1', { app: 'web' }))).toBe(true);
    expect(subject.ownsPod(pod('db-1', { app: 'db' }))).toBe(false);
    subject.apply(unrecoverable);
    expect(web.report).toMatchObject({ status: 'Failed', message: unrecoverable.summary, diagnosis: unrecoverable });
    expect(tracker.failed).toBe(1);
    group.upsert(deployment('web', { state: 'ready' }));
    expect(web.report.status).toBe('Current');
    expect(web.report.diagnosis).toBeUndefined();
    expect(group.pendingWorkloads()).toEqual([]);
  });

  it('offers only the workloads still pending: not one that became ready, nor one that was deleted', () => {
    const { group, named, list } = setup(DEPLOYMENTS);
    for (const name of ['web', 'api', 'gone']) named(name);
    list(deployment('web', { state: 'progressing' }), deployment('api', { state: 'progressing' }), deployment('gone', { state: 'progressing' }));
    expect(group.pendingWorkloads().map((s) => s.name)).toEqual(['web', 'api', 'gone']);

    group.upsert(deployment('api', { state: 'ready' }));
    group.remove('gone');

    expect(group.pendingWorkloads().map((s) => s.name)).toEqual(['web']);
    group.upsert(deployment('api', { state: 'progressing' }));
    expect(
      group
        .pendingWorkloads()
        .map((s) => s.name)
        .sort(),
    ).toEqual(['api', 'web']);
  });

  it('offers only the workloads pending since the cutoff, the longest pending first; one pending anew goes to the back', () => {
    let nowMs = 1_000_000;
    const { group, named, list } = setup(DEPLOYMENTS, { now: () => new Date(nowMs) });
    for (const name of ['web', 'api', 'db']) named(name);
    list(deployment('web', { state: 'progressing' }));
    nowMs += 1_000;
    group.upsert(deployment('api', { state: 'progressing' }));
    nowMs += 1_000;
    group.upsert(deployment('db', { state: 'progressing' }));
    const names = (cutoffMs?: number) => group.pendingWorkloads(cutoffMs).map((s) => s.name);

    expect(names(1_000_000 - 1)).toEqual([]);
    expect(names(1_000_000)).toEqual(['web']);
    expect(names(1_001_500)).toEqual(['web', 'api']);
    expect(group.pendingWorkloads(1_001_500).map((s) => s.pendingSince)).toEqual([1_000_000, 1_001_000]);
    expect(group.hasPendingWorkloads()).toBe(true);

    // web is ready, then pending again: it has been pending only since then, behind db.
    group.upsert(deployment('web', { state: 'ready' }));
    expect(names()).toEqual(['api', 'db']);
    nowMs += 1_000;
    group.upsert(deployment('web', { state: 'progressing' }));
    expect(names()).toEqual(['api', 'db', 'web']);
    expect(names(1_002_000)).toEqual(['api', 'db']);
    // A round asks again: the same subjects, not new ones per round.
    expect(group.pendingWorkloads()[0]).toBe(group.pendingWorkloads()[0]);

    for (const name of ['api', 'db', 'web']) group.upsert(deployment(name, { state: 'ready' }));
    expect(names()).toEqual([]);
    expect(group.hasPendingWorkloads()).toBe(false);
  });

  it('keeps a pending workload whose object is deleted and created again in line, with its pending time', () => {
    let nowMs = 5_000;
    const { group, named, list } = setup(DEPLOYMENTS, { now: () => new Date(nowMs) });
    named('web');
    list(deployment('web', { state: 'progressing' }));
    group.remove('web');
    expect(group.pendingWorkloads()).toEqual([]);
    nowMs += 10_000;
    group.upsert(deployment('web', { state: 'progressing' }));
    expect(group.pendingWorkloads(5_000).map((s) => [s.name, s.pendingSince])).toEqual([['web', 5_000]]);
  });

  it('offers a pending bare Pod by its name, and a workload whose selector no pod can match with no pods', () => {
    const pods = setup(PODS);
    pods.named('p');
    pods.list(pod('p', { app: 'p', unschedulableSince: new Date().toISOString() }));
    const bare = pods.group.pendingWorkloads()[0]!;
    expect(bare.ownsPod(pod('p', { app: 'other' }))).toBe(true);
    expect(bare.ownsPod(pod('q', { app: 'p' }))).toBe(false);

    const { group, named, list } = setup(DEPLOYMENTS);
    named('web');
    const odd = deployment('web', { state: 'progressing' }) as { spec: { selector: unknown } };
    odd.spec.selector = { matchExpressions: [{ key: 'app', operator: 'Near', values: ['web'] }] };
    list(odd);
    expect(group.pendingWorkloads()[0]!.ownsPod(pod('web-1', { app: 'web' }))).toBe(false);
  });

  it.each<WaitFor>([
    { kind: 'condition', type: 'Available', value: 'True' },
    { kind: 'jsonpath', expression: '{.status.readyReplicas}', value: '1' },
  ])('a %j goal keeps waiting with the diagnosis attached (as kubectl wait)', (waitFor) => {
    const { group, named, list, tracker } = setup(DEPLOYMENTS, { waitFor });
    const web = named('web');
    list(deployment('web', { state: 'progressing' }));
    group.pendingWorkloads()[0]!.apply(unrecoverable);
    expect(web.report).toMatchObject({ status: 'InProgress', done: false, diagnosis: unrecoverable });
    expect(tracker.failed).toBe(0);
  });

  it('re-checks an unschedulable pod when its 15 s window ends (kstatus turns it Failed)', () => {
    let now = Date.parse('2026-01-01T00:00:05Z');
    const { named, list, scheduled } = setup(PODS, { now: () => new Date(now) });
    const p = named('p');
    list(pod('p', { app: 'p', unschedulableSince: '2026-01-01T00:00:00Z' }));
    expect(p.report.status).toBe('InProgress');
    expect(scheduled).toHaveLength(1);
    expect(scheduled[0]?.at).toBe(Date.parse('2026-01-01T00:00:00Z') + SCHEDULE_WINDOW_MS + 100);
    now = scheduled[0]!.at;
    scheduled[0]!.run();
    expect(p.report).toMatchObject({ status: 'Failed', done: false });
    expect(p.report.message).toBe('Pod could not be scheduled');
  });
});

describe('the kubewait.io/wait: "false" opt-out', () => {
  const optedOut = (object: Record<string, unknown>, value = 'false') => {
    const metadata = object.metadata as Record<string, unknown>;
    return { ...object, metadata: { ...metadata, annotations: { 'kubewait.io/wait': value } } };
  };

  it.each([
    ['a Failed named target', 'deadline', 'Failed'],
    ['an InProgress named target', 'progressing', 'InProgress'],
  ] as const)('%s keeps its status, is reported as not waited for, and neither holds nor fails the wait', (_, state, status) => {
    const { named, list, tracker, pendingNamespaces } = setup(DEPLOYMENTS);
    const web = named('web');
    list(optedOut(deployment('web', { state })));
    expect(web.report).toMatchObject({ status, done: true, optedOut: true });
    expect(web.report.message).toMatch(/^not waited for \(kubewait\.io\/wait: false\): /);
    expect([tracker.pending, tracker.failed]).toEqual([0, 0]);
    expect(pendingNamespaces).toEqual([]); // nothing waits for it, so its pods are not diagnosed
  });

  it('holds the wait again once the annotation is removed, and only the exact string "false" opts out', () => {
    const { group, named, list, tracker } = setup(DEPLOYMENTS);
    const web = named('web');
    list(optedOut(deployment('web', { state: 'progressing' })));
    expect(tracker.pending).toBe(0);
    group.upsert({ ...deployment('web', { state: 'progressing' }), metadata: { ...(deployment('web').metadata as object), resourceVersion: '2' } });
    expect(web.report).toMatchObject({ status: 'InProgress', done: false });
    expect(web.report.optedOut).toBeUndefined();
    expect(tracker.pending).toBe(1);
    group.upsert(optedOut(deployment('web', { state: 'progressing' }), 'False'));
    expect(web.report).toMatchObject({ done: false });
  });

  it('applies to selector members too', () => {
    const { list, selector, tracker } = setup(DEPLOYMENTS);
    const members = selector('tier=web');
    list(optedOut(deployment('a', { labels: { tier: 'web' }, state: 'deadline' })), deployment('b', { labels: { tier: 'web' }, state: 'ready' }));
    expect(members().map((r) => [r.name, r.status, r.done, r.optedOut])).toEqual([
      ['a', 'Failed', true, true],
      ['b', 'Current', true, undefined],
    ]);
    expect([tracker.pending, tracker.failed]).toEqual([0, 0]);
  });
});
