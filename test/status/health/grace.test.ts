/** status-grace: a custom resource without status waits for its controller, then kstatus judges it with a warning. */
import { expect, test } from '@jest/globals';
import { declaresStatusSubresource, statusGrace } from '../../../src/status/health/grace.js';

const CREATED = Date.parse('2026-11-30T08:00:00Z');
const widget = (status?: unknown, creationTimestamp = '2026-11-30T08:00:00Z') => ({
  apiVersion: 'example.com/v1',
  kind: 'Widget',
  metadata: { name: 'w', namespace: 'prod', creationTimestamp },
  ...(status === undefined ? {} : { status }),
});
const at = (seconds: number) => new Date(CREATED + seconds * 1000);
const options = { graceMs: 30_000, hasStatusSubresource: true, firstSeenMs: CREATED };

test.each([
  [
    'no status, within the grace',
    widget(),
    { ...options, now: at(10) },
    {
      decision: 'wait',
      result: { status: 'InProgress', message: 'waiting for its controller to report status (status-grace 30s)' },
      endsAtMs: CREATED + 30_000,
    },
  ],
  ['empty status, within the grace', widget({}), { ...options, now: at(29.9) }, { decision: 'wait' }],
  ['null status, within the grace', widget(null), { ...options, now: at(1) }, { decision: 'wait' }],
  [
    'no status, grace passed',
    widget(),
    { ...options, now: at(30) },
    {
      decision: 'expired',
      warning:
        'prod/Widget/w has no status after status-grace 30s, so it is judged by kstatus alone (Current). If its controller reports readiness some other way, add a rule for it to the health-checks input (Flux healthCheckExprs format).',
    },
  ],
  [
    'an old object first seen now still gets the grace from first sight',
    widget(undefined, '2026-01-01T00:00:00Z'),
    { ...options, now: at(5) },
    { decision: 'wait', endsAtMs: CREATED + 30_000 },
  ],
  [
    'a cluster clock ahead of the runner cannot shorten the grace',
    widget(undefined, '2026-11-30T08:00:20Z'),
    { ...options, now: at(40) },
    { decision: 'wait', endsAtMs: CREATED + 50_000 },
  ],
  ['a status with anything in it: kstatus', widget({ observedGeneration: 1 }), { ...options, now: at(1) }, { decision: 'kstatus' }],
  ['a CRD without a status subresource: kstatus', widget(), { ...options, hasStatusSubresource: false, now: at(1) }, { decision: 'kstatus' }],
  ['status-grace 0s: plain kstatus', widget(), { ...options, graceMs: 0, now: at(1) }, { decision: 'kstatus' }],
  [
    'a fractional grace is printed as such',
    widget(),
    { ...options, graceMs: 1500, now: at(1) },
    { decision: 'wait', result: { message: 'waiting for its controller to report status (status-grace 1.5s)' } },
  ],
])('%s', (_name, obj, opts, expected) => {
  expect(statusGrace(obj, opts)).toMatchObject(expected);
});

const crd = (versions: unknown[]) => ({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', spec: { group: 'example.com', versions } });
test.each([
  ['a version with a status subresource', crd([{ name: 'v1', served: true, subresources: { status: {} } }]), 'v1', true],
  [
    'any served version, when none is named',
    crd([
      { name: 'v1beta1', served: true },
      { name: 'v1', served: true, subresources: { status: {} } },
    ]),
    undefined,
    true,
  ],
  [
    'only the named version counts',
    crd([
      { name: 'v1beta1', served: true },
      { name: 'v1', served: true, subresources: { status: {} } },
    ]),
    'v1beta1',
    false,
  ],
  ['a scale subresource only', crd([{ name: 'v1', served: true, subresources: { scale: { specReplicasPath: '.spec.replicas' } } }]), 'v1', false],
  ['no subresources', crd([{ name: 'v1', served: true }]), 'v1', false],
  ['not a CRD', { kind: 'ConfigMap' }, 'v1', false],
])('declaresStatusSubresource: %s', (_name, object, version, expected) => {
  expect(declaresStatusSubresource(object, version)).toBe(expected);
});
