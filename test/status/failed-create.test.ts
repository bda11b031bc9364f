/** Pods never created: a controller's FailedCreate classified, its grace, its recovery, and how the pod
 *  diagnosis words it (summary, cause, unrecoverable). Messages as the real controllers write them. */
import { describe, expect, it } from '@jest/globals';
import { classifyCreationMessage, creationFailure } from '../../src/status/failed-create.js';
import { diagnosePods } from '../../src/status/index.js';

const now = new Date('2026-12-02T10:00:00Z');
const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000).toISOString();

const QUOTA =
  'Error creating: pods "api-7c9f5-x2x4q" is forbidden: exceeded quota: team-a, requested: limits.cpu=750m, used: limits.cpu=3600m, limited: limits.cpu=4';
const WEBHOOK_DENIED = 'Error creating: admission webhook "policy.example.com" denied the request: images must come from registry.example.com';
const POLICY_DENIED =
  "Error creating: pods \"api-7c9f5-abcde\" is forbidden: ValidatingAdmissionPolicy 'require-team' with binding 'require-team' denied request: every pod needs a team label";
const INVALID =
  'Error creating: Pod "api-7c9f5-abcde" is invalid: spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit';
const WEBHOOK_TIMEOUT =
  'Error creating: Internal error occurred: failed calling webhook "policy.example.com": failed to call webhook: Post "https://policy.shop.svc:443/validate?timeout=10s": context deadline exceeded';
const STATEFULSET_QUOTA =
  'create Pod db-0 in StatefulSet db failed error: pods "db-0" is forbidden: exceeded quota: team-a, requested: pods=1, used: pods=10, limited: pods=10';

const failedCreate = (message: string, firstAgo: number, lastAgo = firstAgo, kind = 'ReplicaSet', name = 'api-7c9f5') => ({
  type: 'Warning',
  reason: 'FailedCreate',
  message,
  involvedObject: { kind, name, namespace: 'shop' },
  firstTimestamp: ago(firstAgo),
  lastTimestamp: ago(lastAgo),
  count: 3,
});
const pod = (name: string, createdAgo: number) => ({ metadata: { name, namespace: 'shop', creationTimestamp: ago(createdAgo) }, status: { phase: 'Running' } });

describe('classifyCreationMessage', () => {
  it.each([
    [QUOTA, 'QuotaExceeded', 'exceeded quota: team-a, requested: limits.cpu=750m, used: limits.cpu=3600m, limited: limits.cpu=4', undefined],
    [STATEFULSET_QUOTA, 'QuotaExceeded', 'exceeded quota: team-a, requested: pods=1, used: pods=10, limited: pods=10', undefined],
    [
      WEBHOOK_DENIED,
      'AdmissionDenied',
      'admission webhook "policy.example.com" denied the request: images must come from registry.example.com',
      'admission webhook "policy.example.com"',
    ],
    [
      POLICY_DENIED,
      'AdmissionDenied',
      expect.stringMatching(/^ValidatingAdmissionPolicy 'require-team' .*every pod needs a team label$/),
      "ValidatingAdmissionPolicy 'require-team'",
    ],
    [INVALID, 'InvalidSpec', expect.stringMatching(/^Pod "api-7c9f5-abcde" is invalid: spec\.containers/), undefined],
    [
      WEBHOOK_TIMEOUT,
      'WebhookUnavailable',
      expect.stringMatching(/^failed calling webhook "policy.example.com".*context deadline exceeded$/),
      'admission webhook "policy.example.com"',
    ],
    [
      'Error creating: pods "x" is forbidden: error looking up service account shop/api: serviceaccount "api" not found',
      'CreateFailed',
      expect.stringContaining('serviceaccount "api" not found'),
      undefined,
    ],
  ])('%s', (message, cause, detail, admission) => {
    const classified = classifyCreationMessage(message);
    expect(classified).toEqual({ cause, detail, ...(admission ? { admission } : {}) });
  });
});

describe('creationFailure', () => {
  it.each([
    ['an invalid spec, past the grace', INVALID, 25, true],
    ['an invalid spec, within the grace', INVALID, 5, false],
    ['a webhook denial, past the grace', WEBHOOK_DENIED, 25, true],
    ['a policy denial, past the grace', POLICY_DENIED, 25, true],
    ['a quota the rollout cannot free, past the grace', QUOTA, 25, true],
    ['a webhook that timed out, however long', WEBHOOK_TIMEOUT, 3600, false],
  ])('%s', (_, message, firstAgo, unrecoverable) => {
    const failure = creationFailure([failedCreate(message, firstAgo, 1)], [], { now });
    expect(failure).toMatchObject({ object: 'ReplicaSet/api-7c9f5', unrecoverable });
  });

  it('takes the grace from the options (on the given clock)', () => {
    expect(creationFailure([failedCreate(INVALID, 5)], [], { now, graceMs: 5000 })?.unrecoverable).toBe(true);
    expect(creationFailure([failedCreate(INVALID, 5)], [], { now, graceMs: 5001 })?.unrecoverable).toBe(false);
  });

  it('says when a final-looking failure in its grace becomes final, and nothing for one that is final or retried', () => {
    const firstSeenMs = now.getTime() - 5000;
    expect(creationFailure([failedCreate(INVALID, 5)], [], { now, graceMs: 20_000 })?.finalAtMs).toBe(firstSeenMs + 20_000);
    expect(creationFailure([failedCreate(INVALID, 25)], [], { now, graceMs: 20_000 })).not.toHaveProperty('finalAtMs');
    expect(creationFailure([failedCreate(WEBHOOK_TIMEOUT, 5)], [], { now, graceMs: 20_000 })).not.toHaveProperty('finalAtMs');
    expect(creationFailure([failedCreate(QUOTA, 5)], [], { now, canReleaseQuota: true })).not.toHaveProperty('finalAtMs');
  });

  it('is over once a pod of the workload was created after the last failure (the controller got through)', () => {
    const events = [failedCreate(QUOTA, 60, 30)];
    expect(creationFailure(events, [pod('api-1', 20)], { now })).toBeUndefined();
    // Created in the same second as the failure, or before: the failure stands.
    expect(creationFailure(events, [pod('api-1', 30), pod('api-0', 600)], { now })).toMatchObject({ cause: 'QuotaExceeded', unrecoverable: true });
  });

  it('keeps a quota failure retried while the rollout can free quota, and final only once seen again after', () => {
    const events = [failedCreate(QUOTA, 60, 1)];
    expect(creationFailure(events, [], { now, canReleaseQuota: true })?.unrecoverable).toBe(false);
    // The old ReplicaSet freed room 10 s ago, and the controller failed again since: the grace counts from then.
    const freedAt = now.getTime() - 10_000;
    expect(creationFailure(events, [], { now, quotaReleasableAtMs: freedAt })?.unrecoverable).toBe(false);
    expect(creationFailure(events, [], { now: new Date(now.getTime() + 15_000), quotaReleasableAtMs: freedAt })?.unrecoverable).toBe(true);
    // Not seen again since the room was freed (the old condition): not final, however long ago.
    const stale = [failedCreate(QUOTA, 60, 40)];
    expect(creationFailure(stale, [], { now, quotaReleasableAtMs: now.getTime() - 30_000 })?.unrecoverable).toBe(false);
  });

  it('reads the newest FailedCreate, of any controller kind, and never a pod event', () => {
    const events = [
      failedCreate(WEBHOOK_TIMEOUT, 120, 90),
      failedCreate(STATEFULSET_QUOTA, 60, 2, 'StatefulSet', 'db'),
      { ...failedCreate(INVALID, 60, 1), involvedObject: { kind: 'Pod', name: 'db-0' } },
    ];
    expect(creationFailure(events, [], { now })).toMatchObject({ cause: 'QuotaExceeded', object: 'StatefulSet/db' });
    expect(creationFailure([{ ...failedCreate(QUOTA, 60), type: 'Normal' }], [], { now })).toBeUndefined();
  });
});

describe('diagnosePods with pods never created', () => {
  it('a FailedCreate in its grace makes the diagnosis due again when the grace ends', () => {
    expect(diagnosePods([], [failedCreate(INVALID, 5)], { now }).finalAtMs).toBe(now.getTime() - 5_000 + 20_000);
  });

  it('is unrecoverable with the controller, the reason and the quota figures in its summary, and a cause', () => {
    const diagnosis = diagnosePods([], [failedCreate(QUOTA, 30, 2)], { now });
    expect(diagnosis).toMatchObject({
      unrecoverable: true,
      cause: 'QuotaExceeded',
      summary: 'ReplicaSet/api-7c9f5: FailedCreate: exceeded quota: team-a, requested: limits.cpu=750m, used: limits.cpu=3600m, limited: limits.cpu=4',
    });
  });

  it('names a crash-looping pod first while the creation failure is still in its grace', () => {
    const crashing = {
      metadata: { name: 'api-0', namespace: 'shop', creationTimestamp: ago(600) },
      status: { containerStatuses: [{ name: 'api', restartCount: 5, state: { waiting: { reason: 'CrashLoopBackOff' } } }] },
    };
    const diagnosis = diagnosePods([crashing], [failedCreate(INVALID, 5, 5)], { now });
    expect(diagnosis.cause).toBe('CrashLoop');
    expect(diagnosis.summary).toMatch(/^pod api-0: container api: CrashLoopBackOff/);
  });

  it('gives each pod problem its cause class', () => {
    const waitingPod = (reason: string) => ({
      metadata: { name: 'p', namespace: 'shop', creationTimestamp: ago(600) },
      status: { containerStatuses: [{ name: 'c', state: { waiting: { reason } } }] },
    });
    expect(diagnosePods([waitingPod('ImagePullBackOff')], [], { now }).cause).toBe('ImagePull');
    expect(diagnosePods([waitingPod('CreateContainerConfigError')], [], { now }).cause).toBe('ContainerConfig');
    expect(diagnosePods([], [], { now }).cause).toBeUndefined();
  });
});

describe('unschedulable pods and the autoscaler', () => {
  const unschedulable = {
    metadata: { name: 'api-0', namespace: 'shop', creationTimestamp: ago(600) },
    status: {
      phase: 'Pending',
      conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: '0/3 nodes are available: 3 Insufficient cpu.' }],
    },
  };
  const refusal = (reason: string, message: string, firstAgo: number, type = 'Normal') => ({
    type,
    reason,
    message,
    involvedObject: { kind: 'Pod', name: 'api-0' },
    firstTimestamp: ago(firstAgo),
    lastTimestamp: ago(1),
  });

  it('waits for a node, with the scheduler summary, while no autoscaler refused', () => {
    const diagnosis = diagnosePods([unschedulable], [], { now });
    expect(diagnosis).toMatchObject({ unrecoverable: false, cause: 'Unschedulable' });
    expect(diagnosis.summary).toBe('pod api-0: Unschedulable: 0/3 nodes are available: 3 Insufficient cpu.');
  });

  it.each([
    ['cluster-autoscaler', refusal('NotTriggerScaleUp', "pod didn't trigger scale-up: 1 max node group size reached", 30)],
    [
      'karpenter',
      refusal('FailedScheduling', 'Failed to schedule pod, incompatible with nodepool "default", no instance type satisfied resources', 30, 'Warning'),
    ],
  ])('fails once %s said it will not add a node, after the grace', (who, event) => {
    const diagnosis = diagnosePods([unschedulable], [event], { now });
    expect(diagnosis.unrecoverable).toBe(true);
    expect(diagnosis.summary).toContain(`; ${who}: `);
    expect(diagnosePods([unschedulable], [{ ...event, firstTimestamp: ago(5) }], { now }).unrecoverable).toBe(false);
  });

  it('says when a refusal in its grace becomes final, so the diagnosis is made again then', () => {
    const event = refusal('NotTriggerScaleUp', "pod didn't trigger scale-up: 1 max node group size reached", 5);
    const diagnosis = diagnosePods([unschedulable], [event], { now });
    const endsAt = now.getTime() + 15_000; // the 20 s creation grace, from the refusal's first sighting
    expect(diagnosis.problems[0]).toMatchObject({ reason: 'Unschedulable', unrecoverable: false, finalAtMs: endsAt });
    expect(diagnosis.finalAtMs).toBe(endsAt);
    expect(diagnosePods([unschedulable], [], { now })).not.toHaveProperty('finalAtMs');
  });
});
