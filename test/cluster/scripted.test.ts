/** The scripted-status controller: custom resources whose status follows `kubewait.test/status-script`. */
import { afterAll, beforeAll, describe, expect, it, test } from '@jest/globals';
import { crdFor, fillGeneration, parseScript } from './controllers/scripted.js';
import { startCluster, type TestCluster } from './index.js';
import { kubeConfigFor, RecordedWatch, until } from './testkit.js';
import { evaluateHealth } from '../../src/status/health/evaluate.js';
import { resolveRules } from '../../src/status/health/resolve.js';

const T = 20_000;
let cluster: TestCluster;

const established = (name: string) => () =>
  cluster
    .get('apiextensions.k8s.io/v1', 'CustomResourceDefinition', undefined, name)
    ?.status?.conditions?.some((c: { type: string; status: string }) => c.type === 'Established' && c.status === 'True') === true;

beforeAll(async () => {
  cluster = await startCluster({ speed: 0.1, crdEstablishDelayMs: 20 });
  cluster.create(crdFor({ group: 'cert-manager.io', kind: 'Certificate', plural: 'certificates' }));
  cluster.create(crdFor({ group: 'argoproj.io', kind: 'Rollout', plural: 'rollouts', versions: ['v1alpha1'] }));
  await until(established('certificates.cert-manager.io'), 'Certificate CRD', T);
  await until(established('rollouts.argoproj.io'), 'Rollout CRD', T);
});
afterAll(async () => {
  await cluster.close();
});

const ready = (status: string, message = '') => ({ type: 'Ready', status, reason: status === 'True' ? 'Ready' : 'Pending', message });
const issuing = (status: string) => ({
  type: 'Issuing',
  status,
  reason: status === 'True' ? 'Renewing' : 'Issued',
  message: status === 'True' ? 'Renewing certificate' : 'issued',
});

describe('status scripts', () => {
  it('write each step through the status subresource, in order, seen over the real watch API', async () => {
    const script = [
      { afterMs: 300, status: { observedGeneration: '$generation', conditions: [ready('True', 'Certificate is up to date')] } },
      { afterMs: 600, status: { observedGeneration: '$generation', conditions: [ready('True', 'Certificate is up to date'), issuing('True')] } },
      { afterMs: 900, status: { observedGeneration: '$generation', conditions: [ready('True', 'Certificate is up to date'), issuing('False')] } },
    ];
    const watch = await RecordedWatch.start(kubeConfigFor(cluster), '/apis/cert-manager.io/v1/namespaces/default/certificates', {
      fieldSelector: 'metadata.name=web-tls',
    });
    try {
      cluster.create({
        apiVersion: 'cert-manager.io/v1',
        kind: 'Certificate',
        metadata: { name: 'web-tls', namespace: 'default', annotations: { 'kubewait.test/status-script': JSON.stringify(script) } },
        spec: { secretName: 'web-tls' },
      });
      await until(() => watch.events.length >= 4, 'four watch events', T);
      const rule = resolveRules({ user: [], builtin: true }).ruleFor('cert-manager.io/v1', 'Certificate');
      expect(rule?.id).toBe('builtin:cert-manager-certificate');
      if (!rule) return;
      // The built-in rule on what a watcher sees: no status, ready, re-issuing, ready again.
      expect(watch.events.map((e) => [e.type, evaluateHealth(rule, e.object).status])).toEqual([
        ['ADDED', 'InProgress'],
        ['MODIFIED', 'Current'],
        ['MODIFIED', 'InProgress'],
        ['MODIFIED', 'Current'],
      ]);
      expect(watch.events[1]?.object.status.observedGeneration).toBe(1);
    } finally {
      watch.stop();
    }
  });

  it('start again for a new generation, with "$generation:string" for controllers that write strings', async () => {
    const script = [
      { afterMs: 0, status: { observedGeneration: '$generation:string', phase: 'Progressing' } },
      { afterMs: 3000, status: { observedGeneration: '$generation:string', phase: 'Healthy' } },
    ];
    const rollout = (image: string) => ({
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'Rollout',
      metadata: { name: 'web', namespace: 'default', annotations: { 'kubewait.test/status-script': JSON.stringify(script) } },
      spec: { replicas: 1, template: { spec: { containers: [{ name: 'web', image }] } } },
    });
    cluster.create(rollout('web:1'));
    await until(() => cluster.get('argoproj.io/v1alpha1', 'Rollout', 'default', 'web')?.status?.phase === 'Healthy', 'first rollout healthy', T);
    cluster.apply(rollout('web:2'));
    await until(() => cluster.get('argoproj.io/v1alpha1', 'Rollout', 'default', 'web')?.status?.observedGeneration === '2', 'second generation observed', T);
    expect(cluster.get('argoproj.io/v1alpha1', 'Rollout', 'default', 'web')?.status?.phase).toBe('Progressing');
    await until(() => cluster.get('argoproj.io/v1alpha1', 'Rollout', 'default', 'web')?.status?.phase === 'Healthy', 'second rollout healthy', T);
  });

  it('leave an object without a script alone', async () => {
    cluster.create({ apiVersion: 'cert-manager.io/v1', kind: 'Certificate', metadata: { name: 'plain', namespace: 'default' }, spec: {} });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(cluster.get('cert-manager.io/v1', 'Certificate', 'default', 'plain')?.status).toBeUndefined();
  });
});

describe('parseScript', () => {
  test.each([
    ['[{"afterMs": 0, "status": {"phase": "Ready"}}]', [{ afterMs: 0, status: { phase: 'Ready' } }]],
    ['[]', []],
    ['{"afterMs": 0}', 'not a JSON list of steps'],
    ['[{"afterMs": "1s", "status": {}}]', 'step 0 is not {"afterMs": <number>, "status": {...}}'],
    ['[{"afterMs": 1, "status": []}]', 'step 0 is not {"afterMs": <number>, "status": {...}}'],
    ['[{afterMs: 1}]', expect.stringMatching(/^not JSON: /)],
  ])('%s', (text, expected) => {
    expect(parseScript(text)).toEqual(expected);
  });

  test('fillGeneration replaces the placeholders anywhere in the status', () => {
    expect(
      fillGeneration(
        { observedGeneration: '$generation', conditions: [{ observedGeneration: '$generation', message: 'gen $generation' }], s: '$generation:string' },
        3,
      ),
    ).toEqual({
      observedGeneration: 3,
      conditions: [{ observedGeneration: 3, message: 'gen $generation' }],
      s: '3',
    });
  });
});
