/** serviceServing and ingressServing: Pulumi's rules, in words that say what is missing. */
import { describe, expect, it } from '@jest/globals';
import { ingressServing, serviceServing } from '../../src/serving/judge.js';

type Obj = Record<string, unknown>;
const service = (spec: Obj = {}, status: Obj = {}) => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name: 'web' },
  spec: { selector: { app: 'web' }, ...spec },
  status,
});
const slice = (...endpoints: Obj[]) => ({ metadata: { labels: { 'kubernetes.io/service-name': 'web' } }, endpoints });
const endpoint = (ip: string, ready?: boolean) => ({ addresses: [ip], ...(ready === undefined ? {} : { conditions: { ready } }) });

describe('serviceServing', () => {
  it.each<[string, unknown, unknown[], boolean, string]>([
    ['no slice', service(), [], false, 'the Service selects no pod: is `spec.selector` right?'],
    ['an empty slice', service(), [slice()], false, 'the Service selects no pod: is `spec.selector` right?'],
    [
      'endpoints none ready',
      service(),
      [slice(endpoint('10.0.0.1', false), endpoint('10.0.0.2', false))],
      false,
      'the Service selects 2 pods, none ready: the pods are not ready, or a readiness probe fails',
    ],
    ['a ready endpoint', service(), [slice(endpoint('10.0.0.1', true), endpoint('10.0.0.2', false))], true, '1 ready endpoint'],
    ['ready absent counts as ready', service(), [slice(endpoint('10.0.0.1'))], true, '1 ready endpoint'],
    ['endpoints across slices', service(), [slice(endpoint('10.0.0.1', true)), slice(endpoint('10.0.0.2', true))], true, '2 ready endpoints'],
    [
      'a LoadBalancer without its address',
      service({ type: 'LoadBalancer' }),
      [slice(endpoint('10.0.0.1', true))],
      false,
      'the LoadBalancer was not given an external address yet: does the cluster provide LoadBalancer Services?',
    ],
    [
      'a LoadBalancer with its address',
      service({ type: 'LoadBalancer' }, { loadBalancer: { ingress: [{ ip: '203.0.113.7' }] } }),
      [slice(endpoint('10.0.0.1', true))],
      true,
      '1 ready endpoint',
    ],
    ['headless: exempt', service({ clusterIP: 'None' }), [], true, 'a headless Service: no endpoints to wait for'],
    ['ExternalName: exempt', service({ type: 'ExternalName', externalName: 'db.example.com' }), [], true, 'an ExternalName Service: no endpoints to wait for'],
    ['no selector: exempt', { spec: {} }, [], true, 'no selector: its endpoints are managed by hand'],
  ])('%s', (_, svc, slices, serving, message) => {
    expect(serviceServing(svc, slices)).toMatchObject({ serving, message });
  });

  it('lists the ready addresses, sorted, so that a change can be told', () => {
    expect(serviceServing(service(), [slice(endpoint('10.0.0.9', true), endpoint('10.0.0.1', true))]).addresses).toEqual(['10.0.0.1', '10.0.0.9']);
  });
});

describe('ingressServing', () => {
  it('needs an address', () => {
    expect(ingressServing({ status: {} })).toMatchObject({
      serving: false,
      message: 'the Ingress has no address yet: is an ingress controller running for its class?',
    });
    expect(ingressServing({ status: { loadBalancer: { ingress: [{ hostname: 'lb.example.com' }] } } })).toMatchObject({
      serving: true,
      message: 'address lb.example.com',
    });
  });
});
