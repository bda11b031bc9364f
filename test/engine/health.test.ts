/**
 * The engine with health rules, status-grace and stable-for, against the API server stand-in with statuses
 * written by the test (no controllers): which rule judges, what is warned (and only once), when a window
 * starts again.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { crdFor } from '../cluster/controllers/scripted.js';
import { startCluster, type TestCluster } from '../cluster/index.js';
import { until } from '../cluster/testkit.js';
import { resolveRules } from '../../src/status/health/resolve.js';
import { loadHealthChecks } from '../../src/status/health/load.js';
import { workspaceFiles } from '../../src/workspace-files.js';
import { deployment, deploymentStatus } from './fixtures.js';
import { brief, following, namespace, runEngine } from './helpers.js';
import { ManualTime } from '../../src/time.js';
import { driveUntilSettled, runVirtual } from './virtual.js';

let server: TestCluster;

const CRDS = [
  crdFor({ group: 'example.com', kind: 'Widget', plural: 'widgets' }),
  crdFor({ group: 'example.com', kind: 'Gadget', plural: 'gadgets', statusSubresource: false }),
  crdFor({ group: 'kustomize.toolkit.fluxcd.io', kind: 'Kustomization', plural: 'kustomizations' }),
];

beforeAll(async () => {
  server = await startCluster({
    controllers: false,
    crdEstablishDelayMs: 20,
    tokens: { 'no-crds': [{ verbs: ['list', 'watch'], resources: ['widgets'], apiGroups: ['example.com'] }] },
  });
  for (const crd of CRDS) server.create(crd);
  for (const crd of CRDS as Array<{ metadata: { name: string } }>) {
    await until(() => isEstablished(crd.metadata.name), crd.metadata.name, 20_000);
  }
});
afterAll(async () => {
  await server.close();
});

function isEstablished(name: string): boolean {
  const crd = server.get('apiextensions.k8s.io/v1', 'CustomResourceDefinition', undefined, name);
  return crd?.status?.conditions?.some((c: { type: string; status: string }) => c.type === 'Established' && c.status === 'True') === true;
}

const object = (apiVersion: string, kind: string, ns: string, name: string, extra: object = {}) => ({
  apiVersion,
  kind,
  metadata: { name, namespace: ns },
  ...extra,
});

async function userRules(text: string) {
  const { rules, problems } = await loadHealthChecks(text, workspaceFiles(process.cwd()));
  expect(problems).toEqual([]);
  return resolveRules({ user: rules, builtin: true });
}

describe('status-grace', () => {
  it.each([
    ['a CRD with a status subresource: waits, then kstatus with a warning', 'widgets.example.com', 'Widget', 'admin', true],
    ['a CRD without one: kstatus at once', 'gadgets.example.com', 'Gadget', 'admin', false],
    ['CRDs unreadable (RBAC): assumes a status subresource, says so once', 'widgets.example.com', 'Widget', 'no-crds', true],
  ])(
    '%s',
    async (_title, type, kind, token, waits) => {
      const ns = namespace(server, `grace-${kind.toLowerCase()}-${token}`);
      server.create(object('example.com/v1', kind, ns, 'a'));
      server.create(object('example.com/v1', kind, ns, 'b'));

      const result = await runVirtual(
        server,
        [
          { type, name: 'a', namespace: ns },
          { type, name: 'b', namespace: ns },
        ],
        { statusGraceMs: 400, token },
      );

      expect(result.outcome).toBe('ready');
      const waited = result.targets.map((t) => t.history.some((h) => h.message === 'waiting for its controller to report status (status-grace 0.4s)'));
      // Without a status subresource it may show the wait only while its CRD is being read.
      if (waits) expect(waited).toEqual([true, true]);
      expect(result.targets.map((t) => t.message)).toEqual(['Resource is current', 'Resource is current']);
      const expected = [
        ...(token === 'no-crds'
          ? [
              'cannot read CustomResourceDefinitions (widgets.example.com and others): status-grace assumes every custom resource has a status subresource — grant get on customresourcedefinitions.apiextensions.k8s.io to let kubewait check',
            ]
          : []),
        ...(waits
          ? ['a', 'b'].map(
              (n) =>
                `${ns}/${kind}/${n} has no status after status-grace 0.4s, so it is judged by kstatus alone (Current). If its controller reports readiness some other way, add a rule for it to the health-checks input (Flux healthCheckExprs format).`,
            )
          : []),
      ];
      expect(result.warnings.sort()).toEqual(expected.sort());
      expect(result.targets.map((t) => t.rule)).toEqual(['kstatus', 'kstatus']);
    },
    60_000,
  );

  it('reads each CRD once per run', async () => {
    const ns = namespace(server, 'grace-once');
    for (const name of ['a', 'b', 'c']) server.create(object('example.com/v1', 'Widget', ns, name));
    server.counters.reset();
    await runVirtual(
      server,
      ['a', 'b', 'c'].map((name) => ({ type: 'widgets.example.com', name, namespace: ns })),
      { statusGraceMs: 200 },
    );
    expect(server.counters.requests().filter((r) => r.resource === 'customresourcedefinitions')).toHaveLength(1);
  }, 60_000);
});

describe('health rules in the engine', () => {
  it('warns once per target and rule when an expression cannot be evaluated, and keeps it in progress', async () => {
    const ns = namespace(server, 'evalwarn');
    server.create(object('example.com/v1', 'Widget', ns, 'w', { spec: {}, status: { phase: 'Starting' } }));
    const healthRules = await userRules('- apiVersion: example.com/v1\n  kind: Widget\n  current: spec.size == 3\n');
    const time = new ManualTime(); // stands still while the test changes the object, then runs to the deadline
    const running = runEngine(server, [{ type: 'widgets.example.com', name: 'w', namespace: ns }], { healthRules, timeoutMs: 1500, time });
    await following(server, 'widgets', ns);
    server.patchStatus('example.com/v1', 'Widget', ns, 'w', { phase: 'Running' });
    const result = await driveUntilSettled(time, server, running);

    expect(result.outcome).toBe('timeout');
    expect(result.targets.map(brief)).toEqual([
      'Widget/evalwarn/w InProgress: cannot evaluate the current expression of health-checks[0]: it references the missing field spec.size',
    ]);
    expect(result.targets[0]?.rule).toBe('health-checks[0]');
    expect(result.warnings).toEqual([
      'Widget evalwarn/w: cannot evaluate the current expression of health-checks[0]: it references the missing field spec.size (expression: spec.size == 3); the object is treated as in progress',
    ]);
  }, 60_000);

  it('warns once that a Flux object is suspended', async () => {
    const ns = namespace(server, 'suspended');
    const ready = { conditions: [{ type: 'Ready', status: 'True', reason: 'ReconciliationSucceeded', message: 'Applied revision: main@sha1:abc' }] };
    server.create(object('kustomize.toolkit.fluxcd.io/v1', 'Kustomization', ns, 'apps', { spec: { suspend: true }, status: ready }));
    const result = await runEngine(server, [{ type: 'kustomizations.kustomize.toolkit.fluxcd.io', name: 'apps', namespace: ns }], { statusGraceMs: 30_000 });
    expect(result.outcome).toBe('ready');
    expect(result.warnings).toEqual([`Kustomization ${ns}/apps is suspended (spec.suspend: true): Flux does not reconcile it, so its readiness may be stale`]);
  }, 60_000);
});

describe('stable-for', () => {
  it('a target that leaves the desired status within the window starts it again', async () => {
    const ns = namespace(server, 'stable');
    server.create(deployment('web', { namespace: ns, state: 'ready' }));
    const transitions: string[] = [];
    const time = new ManualTime(); // stands still while the target leaves and comes back, then runs the window out
    const running = runEngine(server, [{ type: 'deploy', name: 'web', namespace: ns }], {
      stableForMs: 1500,
      observer: { transition: (t) => transitions.push(t.status) },
      time,
    });
    await until(() => transitions.includes('Current'), 'Current', 20_000);
    server.patchStatus('apps/v1', 'Deployment', ns, 'web', deploymentStatus('progressing'));
    await until(() => transitions.includes('InProgress'), 'InProgress', 20_000);
    server.patchStatus('apps/v1', 'Deployment', ns, 'web', deploymentStatus('ready'));
    const result = await driveUntilSettled(time, server, running);

    expect(result.outcome).toBe('ready');
    expect(result.durationSeconds).toBeGreaterThanOrEqual(1.5); // a whole window after it came back
    expect(result.warnings).toHaveLength(1);
    expect(result.warnings[0]).toMatch(
      /^stable-for: Deployment\/web left the desired status [\d.]+s into the 1.5s window; the window starts again once every target is back$/,
    );
  }, 60_000);

  it('Jobs are exempt: a run of Jobs alone ends when they are complete', async () => {
    const ns = namespace(server, 'stablejobs');
    const complete = {
      conditions: [
        { type: 'SuccessCriteriaMet', status: 'True' },
        { type: 'Complete', status: 'True' },
      ],
      succeeded: 1,
    };
    server.create(object('batch/v1', 'Job', ns, 'migrate', { spec: { template: { spec: { containers: [{ name: 'm', image: 'm' }] } } }, status: complete }));
    const result = await runEngine(server, [{ type: 'jobs', name: 'migrate', namespace: ns }], { stableForMs: 3_600_000 });
    expect(result.outcome).toBe('ready');
    expect(result.unstable).toBeUndefined();
  }, 60_000);

  it('deletion waits are exempt: a target already gone ends the wait at once', async () => {
    const ns = namespace(server, 'stabledeleted');
    const result = await runEngine(server, [{ type: 'deploy', name: 'gone', namespace: ns }], { waitFor: { kind: 'deleted' }, stableForMs: 3_600_000 });
    expect(result.outcome).toBe('ready');
    expect(result.targets.map(brief)).toEqual(['Deployment/stabledeleted/gone NotFound done: does not exist']);
  }, 60_000);
});
