import { describe, expect, it } from '@jest/globals';
import { completeResources, outputsFor } from '../../src/report/outputs.js';
import { failed, fromFile, pending, ready, result, target } from './fixtures.js';

describe('outputsFor', () => {
  it('reports a successful wait', () => {
    const out = outputsFor(result([ready('web', { seconds: 12.36 })], { durationSeconds: 12.81 }));
    expect(out).toEqual({
      result: 'ready',
      ready: 'true',
      resources:
        '[{"apiVersion":"apps/v1","kind":"Deployment","namespace":"shop","name":"web","status":"Current","message":"Deployment is available. Replicas: 3","seconds":12.4,"rule":"kstatus"}]',
      pending: '',
      failed: '',
      duration: '12.8',
      'release-revision': '',
      'release-status': '',
      clusters: '',
      'rolled-back': '',
      'rollback-result': '',
    });
  });

  it('takes the complete resources JSON it is given when it fits, and cuts its own when it does not', () => {
    const whole = result(Array.from({ length: 20 }, (_, i) => ready(`web-${i}`)));
    const complete = completeResources(whole);
    expect(outputsFor(whole, { completeResources: complete }).resources).toBe(complete);
    expect(outputsFor(whole).resources).toBe(complete);
    const cut = outputsFor(whole, { maxBytes: 1000 }).resources;
    expect(cut).toMatch(/"truncated":true/);
    expect(outputsFor(whole, { maxBytes: 1000, completeResources: complete }).resources).toBe(cut);
  });

  it('gives the Helm release revision and status, and keeps opted-out targets out of failed and pending', () => {
    const optional = failed('optional', { done: true, optedOut: true, message: 'not waited for (kubewait.io/wait: false): ImagePullBackOff' });
    const out = outputsFor({
      ...result([ready('web'), optional]),
      release: { name: 'shop', namespace: 'store', revision: 3, status: 'deployed', title: 'shop revision 3', message: 'deployed' },
    });
    expect([out['release-revision'], out['release-status'], out.pending, out.failed, out.result]).toEqual(['3', 'deployed', '', '', 'ready']);
    expect(JSON.parse(out.resources)).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'optional', status: 'Failed' })]));
  });

  it('lists every target in every outcome, with file and line where known', () => {
    const targets = [
      failed('api', { ...fromFile('k8s/api.yaml', 20), seconds: 30.04 }),
      pending('worker', { kind: 'StatefulSet' }),
      target({
        apiVersion: 'v1',
        kind: 'Namespace',
        namespace: '',
        name: 'shop',
        status: 'Terminating',
        message: 'Resource scheduled for deletion',
        done: false,
        seconds: 0,
      }),
      ready('web'),
    ];
    const out = outputsFor(result(targets, { outcome: 'timeout', durationSeconds: 300 }));
    expect(out.result).toBe('timeout');
    expect(out.ready).toBe('false');
    expect(out.duration).toBe('300');
    expect(out.pending).toBe('shop/Deployment/api\nshop/StatefulSet/worker\nNamespace/shop');
    expect(out.failed).toBe('shop/Deployment/api');
    expect(JSON.parse(out.resources)).toEqual([
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        namespace: 'shop',
        name: 'api',
        status: 'Failed',
        message: 'Progress deadline exceeded',
        seconds: 30,
        rule: 'kstatus',
        file: 'k8s/api.yaml',
        line: 20,
      },
      {
        apiVersion: 'apps/v1',
        kind: 'StatefulSet',
        namespace: 'shop',
        name: 'worker',
        status: 'InProgress',
        message: 'Ready: 1/3',
        seconds: 0,
        rule: 'kstatus',
      },
      {
        apiVersion: 'v1',
        kind: 'Namespace',
        namespace: '',
        name: 'shop',
        status: 'Terminating',
        message: 'Resource scheduled for deletion',
        seconds: 0,
        rule: 'kstatus',
      },
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        namespace: 'shop',
        name: 'web',
        status: 'Current',
        message: 'Deployment is available. Replicas: 3',
        seconds: 12.4,
        rule: 'kstatus',
      },
    ]);
  });

  it('keeps the documented field order in the JSON', () => {
    const out = outputsFor(result([failed('api', { ...fromFile('a.yaml', 3) })]));
    expect(Object.keys(JSON.parse(out.resources)[0])).toEqual([
      'apiVersion',
      'kind',
      'namespace',
      'name',
      'status',
      'message',
      'seconds',
      'rule',
      'file',
      'line',
    ]);
  });

  it('counts wait-for deleted successes (NotFound, done) as neither pending nor failed', () => {
    const gone = target({ status: 'NotFound', message: 'Resource not found', done: true, seconds: 4 });
    const out = outputsFor(result([gone]));
    expect(out).toMatchObject({ result: 'ready', ready: 'true', pending: '', failed: '' });
  });

  it('reports an input error found after resolution with every target still listed', () => {
    const out = outputsFor(result([pending('a'), pending('b')], { outcome: 'failed', error: { input: 'resources', message: 'ambiguous type' } }));
    expect(out.result).toBe('error');
    expect(out.pending).toBe('shop/Deployment/a\nshop/Deployment/b');
    expect(JSON.parse(out.resources)).toHaveLength(2);
  });

  it('escapes messages as JSON, never breaking the array', () => {
    const out = outputsFor(result([failed('x', { message: 'quote " newline \n tab \t' })]));
    expect(JSON.parse(out.resources)[0].message).toBe('quote " newline \n tab \t');
  });
});
