/**
 * Malformed input: computeStatus never throws. Where kstatus's Compute returns an error the result is Unknown
 * with kstatus's error text; where kstatus is lenient, the documented default applies.
 */
import { describe, expect, it } from '@jest/globals';
import { computeStatus, type StatusResult } from '../../src/status/index.js';

const now = new Date('2026-12-02T10:00:00Z');
const unknown = (message: string): StatusResult => ({ status: 'Unknown', message, conditions: [] });
const widget = (rest: Record<string, unknown>) => ({ apiVersion: 'example.com/v1', kind: 'Widget', ...rest });
const pod = (status: unknown) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, status });

describe('not an object', () => {
  it.each([
    ['null', null, 'resource is not an object: got <nil>'],
    ['undefined', undefined, 'resource is not an object: got <nil>'],
    ['a string', 'Deployment/web', 'resource is not an object: got string'],
    ['a number', 3, 'resource is not an object: got int64'],
    ['an array', [{ kind: 'Pod' }], 'resource is not an object: got []interface {}'],
  ])('%s', (_name, input, message) => {
    expect(computeStatus(input, { now })).toEqual(unknown(message));
  });
});

describe('strict fields give Unknown with the kstatus error', () => {
  it.each<[string, unknown, string]>([
    [
      'observedGeneration "3"',
      widget({ metadata: { generation: 3 }, status: { observedGeneration: '3' } }),
      'looking up status.observedGeneration from resource: .status.observedGeneration accessor error: 3 is of the type string, expected int64',
    ],
    [
      'observedGeneration null',
      widget({ metadata: { generation: 3 }, status: { observedGeneration: null } }),
      'looking up status.observedGeneration from resource: .status.observedGeneration accessor error: <nil> is of the type <nil>, expected int64',
    ],
    [
      'generation "2"',
      widget({ metadata: { generation: '2' } }),
      'looking up metadata.generation from resource: .metadata.generation accessor error: 2 is of the type string, expected int64',
    ],
    [
      'generation 1.5',
      widget({ metadata: { generation: 1.5 } }),
      'looking up metadata.generation from resource: .metadata.generation accessor error: 1.5 is of the type float64, expected int64',
    ],
    [
      'status a string while looking for observedGeneration',
      widget({ metadata: { generation: 1 }, status: 'ok' }),
      'looking up status.observedGeneration from resource: .status.observedGeneration accessor error: ok is of the type string, expected map[string]interface{}',
    ],
    [
      'metadata a string',
      widget({ metadata: 'x' }),
      'looking up metadata.deletionTimestamp from resource: .metadata.deletionTimestamp accessor error: x is of the type string, expected map[string]interface{}',
    ],
    [
      'deletionTimestamp a number',
      widget({ metadata: { deletionTimestamp: 5 } }),
      'looking up metadata.deletionTimestamp from resource: .metadata.deletionTimestamp accessor error: 5 is of the type int64, expected string',
    ],
    ['status a string', widget({ status: 'ok' }), 'cannot restore struct from: string'],
    ['status an array', widget({ status: [] }), 'cannot restore struct from: slice'],
    ['conditions an object', widget({ status: { conditions: {} } }), 'cannot restore slice from map'],
    ['conditions a string', widget({ status: { conditions: 'Ready' } }), 'cannot restore slice from string'],
    ['condition a string', widget({ status: { conditions: ['Ready'] } }), 'cannot restore struct from: string'],
    ['condition with numeric type', widget({ status: { conditions: [{ type: 3, status: 'True' }] } }), 'cannot convert int64 to string'],
    ['condition with float type', widget({ status: { conditions: [{ type: 1.5 }] } }), 'unrecognized type: string'],
    ['condition with numeric status', widget({ status: { conditions: [{ type: 'Ready', status: 1 }] } }), 'cannot convert int64 to v1.ConditionStatus'],
    ['condition with boolean status', widget({ status: { conditions: [{ type: 'Ready', status: true }] } }), 'unrecognized type: string'],
    ['condition with object message', widget({ status: { conditions: [{ type: 'Ready', message: {} }] } }), 'unrecognized type: string'],
    ['unknown pod phase', pod({ phase: 'Unknown' }), 'unknown phase Unknown'],
    [
      'containerStatuses not a list',
      pod({ phase: 'Running', containerStatuses: 'x' }),
      '.status.containerStatuses accessor error: x is of the type string, expected []interface{}',
    ],
    [
      'containerStatuses null',
      pod({ phase: 'Running', containerStatuses: null }),
      '.status.containerStatuses accessor error: <nil> is of the type <nil>, expected []interface{}',
    ],
    // kstatus panics on these (unchecked type assertions); the panic text becomes the message.
    [
      'containerStatus not an object',
      pod({ phase: 'Running', containerStatuses: [5] }),
      'interface conversion: interface {} is int64, not map[string]interface {}',
    ],
    ['container name null', pod({ phase: 'Running', containerStatuses: [{ name: null }] }), 'interface conversion: interface {} is nil, not string'],
    [
      'waiting reason a number',
      pod({ phase: 'Running', containerStatuses: [{ name: 'a', state: { waiting: { reason: 7 } } }] }),
      'interface conversion: interface {} is int64, not string',
    ],
    ['malformed conditions on a built-in kind', { apiVersion: 'apps/v1', kind: 'Deployment', status: { conditions: 'x' } }, 'cannot restore slice from string'],
  ])('%s', (_name, input, message) => {
    expect(computeStatus(input, { now })).toEqual(unknown(message));
  });
});

describe('lenient fields and absent parts give the documented default', () => {
  it.each<[string, unknown, string, string]>([
    ['status null', pod(null), 'InProgress', 'Pod phase not available'],
    ['conditions null', widget({ status: { conditions: null } }), 'Current', 'Resource is current'],
    ['a null condition is empty', widget({ status: { conditions: [null, { type: 'Ready', status: 'True' }] } }), 'Current', 'Resource is Ready'],
    ['condition fields missing', widget({ status: { conditions: [{ type: 'Ready', status: 'False' }] } }), 'InProgress', ''],
    [
      'unknown condition fields are ignored',
      widget({ status: { conditions: [{ type: 'Ready', status: 'True', extra: [1] }] } }),
      'Current',
      'Resource is Ready',
    ],
    ['missing metadata', { apiVersion: 'apps/v1', kind: 'Deployment' }, 'InProgress', 'Replicas: 0/1'],
    ['missing apiVersion and kind', { metadata: { name: 'x' } }, 'Current', 'Resource is current'],
    ['kind not a string', { apiVersion: 'v1', kind: 5 }, 'Current', 'Resource is current'],
    [
      'string replicas',
      { apiVersion: 'apps/v1', kind: 'StatefulSet', spec: { replicas: '3' }, status: { replicas: 1, readyReplicas: 1, currentReplicas: 1 } },
      'Current',
      'All replicas scheduled as expected. Replicas: 1',
    ],
    [
      'boolean suspend as string',
      { apiVersion: 'batch/v1', kind: 'Job', spec: { suspend: 'true' }, status: { conditions: [{ type: 'Suspended', status: 'True' }] } },
      'InProgress',
      'Job not started',
    ],
    [
      'creationTimestamp not RFC 3339',
      {
        ...pod({ phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable' }] }),
        metadata: { creationTimestamp: 'yesterday' },
      },
      'Failed',
      'Pod could not be scheduled',
    ],
    [
      'deletion wins over malformed conditions',
      widget({ metadata: { deletionTimestamp: '2026-01-01T00:00:00Z' }, status: { conditions: 'x' } }),
      'Terminating',
      'Resource scheduled for deletion',
    ],
    [
      'generation mismatch wins over malformed conditions',
      widget({ metadata: { generation: 2 }, status: { observedGeneration: 1, conditions: 'x' } }),
      'InProgress',
      'Widget generation is 2, but latest observed generation is 1',
    ],
    [
      'crash-loop scan skips entries without name or state',
      pod({ phase: 'Running', containerStatuses: [{}, { name: 'a' }, { name: 'b', state: {} }, { name: 'c', state: { waiting: {} } }] }),
      'InProgress',
      'Pod is running but is not Ready',
    ],
  ])('%s', (_name, input, status, message) => {
    const result = computeStatus(input, { now });
    expect({ status: result.status, message: result.message }).toEqual({ status, message });
  });
});
