/** diagnosePods: each failing reason, init containers, the image-pull grace, unschedulable pods, events. */
import { describe, expect, it } from '@jest/globals';
import { diagnosePods, type ContainerProblem } from '../../src/status/index.js';

const now = new Date('2026-12-02T10:00:00Z');
const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000).toISOString();

type Obj = Record<string, unknown>;
const pod = (name: string, status: Obj, metadata: Obj = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'ns', creationTimestamp: ago(600), ...metadata },
  status,
});
const waiting = (name: string, reason: string, message = '', extra: Obj = {}) => ({
  name,
  restartCount: 0,
  state: { waiting: { reason, message } },
  ...extra,
});

const only = (p: unknown): ContainerProblem => {
  const { problems } = diagnosePods([p], [], { now });
  expect(problems).toHaveLength(1);
  return problems[0]!;
};

describe('container reasons', () => {
  it.each<[string, string, boolean]>([
    ['ErrImagePull', 'rpc error: code = NotFound desc = failed to pull and unpack image "web:v2"', true],
    ['ImagePullBackOff', 'Back-off pulling image "web:v2"', true],
    ['InvalidImageName', 'Failed to apply default image tag "web:": invalid reference format', true],
    ['CreateContainerConfigError', 'secret "db" not found', true],
    ['CreateContainerError', 'container name "/k8s_web" is already in use', false],
    ['ErrImageNeverPull', 'Container image "web:v2" is not present with pull policy of Never', false],
    ['RunContainerError', 'failed to start container', false],
  ])('%s', (reason, message, unrecoverable) => {
    expect(only(pod('web-1', { phase: 'Pending', containerStatuses: [waiting('web', reason, message)] }))).toEqual({
      pod: 'web-1',
      container: 'web',
      init: false,
      reason,
      message,
      restartCount: 0,
      unrecoverable,
    });
  });

  it('CrashLoopBackOff carries the restart count and the last termination', () => {
    const status = {
      phase: 'Running',
      containerStatuses: [
        waiting('web', 'CrashLoopBackOff', 'back-off 5m0s restarting failed container=web', {
          restartCount: 6,
          lastState: { terminated: { reason: 'OOMKilled', exitCode: 137 } },
        }),
      ],
    };
    expect(only(pod('web-1', status))).toEqual({
      pod: 'web-1',
      container: 'web',
      init: false,
      reason: 'CrashLoopBackOff',
      message: 'restarted 6 times, last exit: OOMKilled (exit code 137)',
      restartCount: 6,
      lastTerminationReason: 'OOMKilled',
      unrecoverable: true,
    });
  });

  it.each<[string, Obj, string]>([
    ['exit code only', { exitCode: 1 }, 'restarted 3 times, last exit: exit code 1'],
    [
      'with termination message',
      { reason: 'Error', exitCode: 2, message: 'config missing\n' },
      'restarted 3 times, last exit: Error (exit code 2): config missing',
    ],
    ['no last state', {}, 'restarted 3 times'],
  ])('CrashLoopBackOff message: %s', (_name, terminated, message) => {
    const p = pod('web-1', {
      phase: 'Running',
      containerStatuses: [waiting('web', 'CrashLoopBackOff', '', { restartCount: 3, lastState: { terminated } })],
    });
    expect(only(p).message).toBe(message);
  });

  it('a terminated container with a non-zero exit is reported, not unrecoverable', () => {
    const p = pod('job-1', {
      phase: 'Failed',
      containerStatuses: [{ name: 'main', restartCount: 0, state: { terminated: { exitCode: 3, reason: 'Error', message: 'boom' } } }],
    });
    expect(only(p)).toEqual({
      pod: 'job-1',
      container: 'main',
      init: false,
      reason: 'Error',
      message: 'exited with code 3: boom',
      restartCount: 0,
      unrecoverable: false,
    });
  });

  it('a terminated container without reason reads as Error', () => {
    const p = pod('job-1', { containerStatuses: [{ name: 'main', state: { terminated: { exitCode: 1 } } }] });
    expect(only(p)).toMatchObject({ reason: 'Error', message: 'exited with code 1' });
  });

  it('healthy, creating and completed containers are not problems', () => {
    const p = pod('web-1', {
      phase: 'Pending',
      initContainerStatuses: [{ name: 'done', state: { terminated: { exitCode: 0, reason: 'Completed' } } }, waiting('next', 'PodInitializing')],
      containerStatuses: [waiting('web', 'ContainerCreating'), { name: 'side', state: { running: {} } }],
    });
    expect(diagnosePods([p], [], { now })).toEqual({ problems: [], events: [], summary: '', unrecoverable: false });
  });

  it('init containers are diagnosed and marked', () => {
    const p = pod('web-1', {
      phase: 'Pending',
      initContainerStatuses: [waiting('migrate', 'CrashLoopBackOff', '', { restartCount: 2, lastState: { terminated: { exitCode: 1, reason: 'Error' } } })],
      containerStatuses: [waiting('web', 'PodInitializing')],
    });
    const diagnosis = diagnosePods([p], [], { now });
    expect(diagnosis.problems).toEqual([expect.objectContaining({ container: 'migrate', init: true, reason: 'CrashLoopBackOff' })]);
    expect(diagnosis.summary).toBe('pod web-1: init container migrate: CrashLoopBackOff: restarted 2 times, last exit: Error (exit code 1)');
  });
});

describe('image pull grace', () => {
  const pulling = (age: number) =>
    pod('web-1', { phase: 'Pending', containerStatuses: [waiting('web', 'ErrImagePull', 'not found')] }, { creationTimestamp: ago(age) });
  it.each<[string, number, Obj, boolean]>([
    ['younger than the default 15 s', 14, {}, false],
    ['exactly the default 15 s', 15, {}, true],
    ['older than a custom grace', 61, { imagePullGraceMs: 60_000 }, true],
    ['younger than a custom grace', 59, { imagePullGraceMs: 60_000 }, false],
    ['zero grace', 0, { imagePullGraceMs: 0 }, true],
  ])('%s', (_name, age, opts, unrecoverable) => {
    const diagnosis = diagnosePods([pulling(age)], [], { now, ...opts });
    expect(diagnosis.problems[0]!.unrecoverable).toBe(unrecoverable);
    expect(diagnosis.unrecoverable).toBe(unrecoverable);
  });
  it('says when the grace ends while it runs, there and in the diagnosis', () => {
    const diagnosis = diagnosePods([pulling(5)], [], { now });
    const endsAt = now.getTime() + 10_000;
    expect(diagnosis.problems[0]).toMatchObject({ unrecoverable: false, finalAtMs: endsAt });
    expect(diagnosis.finalAtMs).toBe(endsAt);
    expect(diagnosePods([pulling(15)], [], { now })).not.toHaveProperty('finalAtMs');
  });
  it('the diagnosis is due again at the earliest grace end among its pods', () => {
    const younger = pod('web-2', { phase: 'Pending', containerStatuses: [waiting('web', 'ImagePullBackOff')] }, { creationTimestamp: ago(2) });
    expect(diagnosePods([younger, pulling(5)], [], { now }).finalAtMs).toBe(now.getTime() + 10_000);
  });
  it('no grace end for a pod that is not pulling', () => {
    const p = pod('web-1', { containerStatuses: [waiting('web', 'ContainerCreating')] }, { creationTimestamp: ago(1) });
    expect(diagnosePods([p], [], { now })).not.toHaveProperty('finalAtMs');
  });
  it('a pod without creationTimestamp counts as old (as kstatus reads it)', () => {
    const p = pod('web-1', { containerStatuses: [waiting('web', 'ImagePullBackOff')] }, { creationTimestamp: undefined });
    expect(only(p).unrecoverable).toBe(true);
  });
  it('the grace does not apply to other reasons', () => {
    const p = pod('web-1', { containerStatuses: [waiting('web', 'InvalidImageName')] }, { creationTimestamp: ago(1) });
    expect(only(p).unrecoverable).toBe(true);
  });
});

describe('pod-level problems', () => {
  it('Unschedulable is reported with the scheduler message but is not unrecoverable', () => {
    const message = '0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available.';
    const p = pod('web-1', {
      phase: 'Pending',
      conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message }],
    });
    const diagnosis = diagnosePods([p], [], { now });
    expect(diagnosis.problems).toEqual([{ pod: 'web-1', container: '', init: false, reason: 'Unschedulable', message, unrecoverable: false }]);
    expect(diagnosis.unrecoverable).toBe(false);
    expect(diagnosis.summary).toBe(`pod web-1: Unschedulable: ${message}`);
  });
  it('an evicted pod is reported with its reason', () => {
    const p = pod('web-1', { phase: 'Failed', reason: 'Evicted', message: 'The node was low on resource: memory.' });
    expect(only(p)).toEqual({
      pod: 'web-1',
      container: '',
      init: false,
      reason: 'Evicted',
      message: 'The node was low on resource: memory.',
      unrecoverable: false,
    });
  });
  it('pods being deleted are skipped', () => {
    const p = pod('web-1', { containerStatuses: [waiting('web', 'CrashLoopBackOff')] }, { deletionTimestamp: ago(1) });
    expect(diagnosePods([p], [], { now }).problems).toEqual([]);
  });
});

describe('summary and order', () => {
  const pulling = pod('web-b', { containerStatuses: [waiting('web', 'ImagePullBackOff', 'Back-off pulling image "web:v2"')] });
  const unschedulable = pod('web-a', {
    phase: 'Pending',
    conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: 'no nodes' }],
  });
  const creating = pod('web-c', { containerStatuses: [waiting('web', 'CreateContainerError', 'name in use')] });

  it('names the worst problem, and how many more there are', () => {
    const diagnosis = diagnosePods([unschedulable, creating, pulling], [], { now });
    expect(diagnosis.summary).toBe('pod web-b: container web: ImagePullBackOff: Back-off pulling image "web:v2" (and 2 more)');
    expect(diagnosis.unrecoverable).toBe(true);
  });
  it('lists problems by pod name whatever the input order', () => {
    const a = diagnosePods([pulling, creating, unschedulable], [], { now });
    const b = diagnosePods([creating, unschedulable, pulling], [], { now });
    expect(a).toEqual(b);
    expect(a.problems.map((p) => p.pod)).toEqual(['web-a', 'web-b', 'web-c']);
  });
  it('ignores entries that are not pods', () => {
    expect(diagnosePods([null, 'x', 3, { metadata: {} }, { status: 'x', metadata: { name: 'p' } }], [], { now })).toEqual({
      problems: [],
      events: [],
      summary: '',
      unrecoverable: false,
    });
  });
  it('with no container problem, the newest warning event is the summary', () => {
    const p = pod('web-1', { phase: 'Pending', containerStatuses: [waiting('web', 'ContainerCreating')] });
    const event = {
      type: 'Warning',
      reason: 'FailedMount',
      message: 'MountVolume.SetUp failed for volume "cfg" : configmap "cfg" not found',
      involvedObject: { kind: 'Pod', name: 'web-1', namespace: 'ns' },
      lastTimestamp: ago(5),
      count: 4,
    };
    const diagnosis = diagnosePods([p], [event], { now });
    expect(diagnosis.summary).toBe('Pod/web-1: FailedMount: MountVolume.SetUp failed for volume "cfg" : configmap "cfg" not found');
    expect(diagnosis.unrecoverable).toBe(false);
  });
});

describe('events', () => {
  const pods = [pod('web-1', {}), pod('web-2', {})];
  const core = (name: string, reason: string, message: string, lastTimestamp: string, extra: Obj = {}) => ({
    apiVersion: 'v1',
    kind: 'Event',
    type: 'Warning',
    reason,
    message,
    involvedObject: { kind: 'Pod', name, namespace: 'ns' },
    lastTimestamp,
    count: 1,
    ...extra,
  });

  it('keeps Warning events about the pods, newest first, and reads both Event shapes', () => {
    const events = [
      core('web-1', 'BackOff', 'Back-off restarting failed container', ago(30), { count: 7 }),
      {
        apiVersion: 'events.k8s.io/v1',
        kind: 'Event',
        type: 'Warning',
        reason: 'Failed',
        note: 'Failed to pull image "web:v2"',
        regarding: { kind: 'Pod', name: 'web-2', namespace: 'ns' },
        series: { count: 3, lastObservedTime: ago(10) },
        eventTime: ago(100),
      },
      core('web-1', 'Pulled', 'pulled', ago(1), { type: 'Normal' }),
      core('other', 'BackOff', 'not ours', ago(1)),
      { type: 'Warning', reason: 'FailedCreate', message: 'quota exceeded', involvedObject: { kind: 'ReplicaSet', name: 'web-rs' }, eventTime: ago(20) },
    ];
    expect(diagnosePods(pods, events, { now }).events).toEqual([
      { object: 'Pod/web-2', reason: 'Failed', message: 'Failed to pull image "web:v2"', count: 3, lastSeen: ago(10) },
      { object: 'ReplicaSet/web-rs', reason: 'FailedCreate', message: 'quota exceeded', count: 1, lastSeen: ago(20) },
      { object: 'Pod/web-1', reason: 'BackOff', message: 'Back-off restarting failed container', count: 7, lastSeen: ago(30) },
    ]);
  });

  it('merges duplicates (adding counts, keeping the newest time)', () => {
    const events = [
      core('web-1', 'BackOff', 'Back-off', ago(50), { count: 2 }),
      core('web-1', 'BackOff', 'Back-off', ago(5), { count: 3 }),
      core('web-1', 'BackOff', 'different', ago(40)),
    ];
    expect(diagnosePods(pods, events, { now }).events).toEqual([
      { object: 'Pod/web-1', reason: 'BackOff', message: 'Back-off', count: 5, lastSeen: ago(5) },
      { object: 'Pod/web-1', reason: 'BackOff', message: 'different', count: 1, lastSeen: ago(40) },
    ]);
  });

  it('keeps at most 5 by default, or maxEvents', () => {
    const events = Array.from({ length: 8 }, (_, i) => core('web-1', `R${i}`, 'm', ago(i)));
    expect(diagnosePods(pods, events, { now }).events.map((e) => e.reason)).toEqual(['R0', 'R1', 'R2', 'R3', 'R4']);
    expect(diagnosePods(pods, events, { now, maxEvents: 2 }).events.map((e) => e.reason)).toEqual(['R0', 'R1']);
  });

  it('orders events without a time last, ties by object, reason and message', () => {
    const events = [
      { type: 'Warning', reason: 'B', message: 'x', involvedObject: { kind: 'Pod', name: 'web-2' } },
      { type: 'Warning', reason: 'A', message: 'x', involvedObject: { kind: 'Pod', name: 'web-2' } },
      core('web-1', 'Z', 'z', ago(100)),
    ];
    expect(diagnosePods(pods, events, { now }).events.map((e) => `${e.object} ${e.reason}`)).toEqual(['Pod/web-1 Z', 'Pod/web-2 A', 'Pod/web-2 B']);
  });

  it('ignores malformed events', () => {
    const events = [
      null,
      'x',
      { type: 'Warning' },
      { type: 'Warning', involvedObject: 'web-1' },
      { type: 'Warning', reason: 'R', involvedObject: { kind: 'Pod', name: 'web-1' }, count: 'many' },
    ];
    expect(diagnosePods(pods, events, { now }).events).toEqual([{ object: 'Pod/web-1', reason: 'R', message: '', count: 1 }]);
  });
});
