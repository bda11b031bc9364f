/**
 * Targets that can never be satisfied: a type the cluster does not serve, a selector that matches nothing.
 * On virtual time against the stand-in, so `status-grace` is reached by moving the clock, never by sleeping;
 * `durationSeconds` is virtual too.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startCluster, type TestCluster } from '../cluster/index.js';
import { deployment } from './fixtures.js';
import { listed, namespace, runEngine } from './helpers.js';
import { ManualTime } from '../../src/time.js';
import { driveUntil, driveUntilSettled, runVirtual } from './virtual.js';

let server: TestCluster;

beforeAll(async () => {
  server = await startCluster({ controllers: false, crdEstablishDelayMs: 50 });
});
afterAll(async () => {
  await server.close();
});

const GRACE = { statusGraceMs: 5_000, timeoutMs: 60_000 };

function crd(group: string, plural: string, kind: string): object {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}` },
    spec: {
      group,
      scope: 'Namespaced',
      names: { plural, singular: kind.toLowerCase(), kind },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
    },
  };
}

describe('a type the cluster does not serve', () => {
  it('a near-miss of a served type is an input error at once, with the served type and its other names', async () => {
    const result = await runVirtual(server, [{ type: 'deploymnet', name: 'web', namespace: namespace(server, 'typo') }], GRACE);

    expect(result.outcome).toBe('failed');
    expect(result.error).toEqual({
      input: 'resources',
      message:
        'resource type "deploymnet" is not served by the cluster and no CRD defines it, so it cannot be waited for. Did you mean deployments.apps (deployment, deploy)?',
    });
    expect(result.durationSeconds).toBeLessThan(5); // before status-grace, on the virtual clock
  });

  it.each([
    ['a type of a group nobody serves', 'gizmos.example.com'],
    // Close to `services`, but a dotted group is a CRD's: Knative's Service while Knative is being installed.
    ['a served name in a group nobody serves', 'services.serving.knative.dev'],
  ])('%s waits status-grace for a CRD, then is an input error saying none defines it', async (_case, type) => {
    const result = await runVirtual(server, [{ type, name: 'main', namespace: namespace(server, `gizmo-${type.split('.')[0]}`) }], GRACE);

    expect(result.outcome).toBe('failed');
    expect(result.error?.input).toBe('resources');
    expect(result.error?.message).toContain(`resource type "${type}" is not served by the cluster within 5s (status-grace) and no CRD defines it`);
    expect(result.durationSeconds).toBeGreaterThanOrEqual(5);
    expect(result.durationSeconds).toBeLessThan(60);
  });

  it('a CRD installed within status-grace is waited for', async () => {
    const ns = namespace(server, 'crd-in-grace');
    const time = new ManualTime();
    const warnings: string[] = [];
    const running = runEngine(server, [{ type: 'gears.example.io', name: 'g', namespace: ns }], {
      ...GRACE,
      time,
      observer: { warning: (m) => warnings.push(m) },
    });
    await driveUntil(time, server, () => warnings.length > 0, 'the not-served warning');
    expect(warnings).toEqual([
      'resource type "gears.example.io" (in API group "example.io") is not served by the cluster yet; waiting for it for up to 5s (status-grace)',
    ]);
    server.create(crd('example.io', 'gears', 'Gear'));
    await server.waitFor(() =>
      (server.get('apiextensions.k8s.io/v1', 'CustomResourceDefinition', undefined, 'gears.example.io')?.status?.conditions ?? []).some(
        (c: { type: string; status: string }) => c.type === 'Established' && c.status === 'True',
      ),
    );
    server.create({ apiVersion: 'example.io/v1', kind: 'Gear', metadata: { name: 'g', namespace: ns }, spec: {} });

    const result = await driveUntilSettled(time, server, running);

    expect(result.error).toBeUndefined();
    expect(result.outcome).toBe('ready');
  });

  it('a type a CRD among the targets defines (the same deploy installs it) is waited for until the deadline', async () => {
    const ns = namespace(server, 'crd-in-manifests');
    const result = await runVirtual(
      server,
      [
        {
          type: 'CustomResourceDefinition',
          apiVersion: 'apiextensions.k8s.io/v1',
          name: 'sprockets.example.org',
          defines: { group: 'example.org', names: ['sprocket', 'sprockets'] },
        },
        { type: 'Sprocket', apiVersion: 'example.org/v1', name: 's', namespace: ns },
      ],
      { statusGraceMs: 1_000, timeoutMs: 20_000 },
    );

    expect(result.error).toBeUndefined();
    expect(result.outcome).toBe('timeout');
    expect(result.durationSeconds).toBeGreaterThanOrEqual(20);
  });
});

describe('a selector that matches nothing', () => {
  it('is an input error on `selector` once status-grace has passed since the first list, named by what it looked for', async () => {
    const ns = namespace(server, 'no-match');
    server.create(deployment('web', { namespace: ns, labels: { app: 'web' }, state: 'ready' }));

    const result = await runVirtual(server, [{ type: 'deploy', selector: 'app=wbe', namespace: ns }], GRACE);

    expect(result.outcome).toBe('failed');
    expect(result.error?.input).toBe('selector');
    expect(result.error?.message).toBe(
      'Input "selector" (app=wbe) matches no deployments in namespace no-match within 5s (status-grace) of the first list. Expected a selector that matches the objects\' labels, like selector: app=web (kubectl get deployments -n no-match --show-labels lists them).',
    );
    expect(result.durationSeconds).toBeGreaterThanOrEqual(5);
    expect(result.durationSeconds).toBeLessThan(60);
    expect(result.targets.map((t) => [t.name, t.selector, t.status])).toEqual([['(none matching app=wbe)', 'app=wbe', 'NotFound']]);
  });

  it('a bare type with no objects is an input error on `resources`', async () => {
    const ns = namespace(server, 'bare-empty');

    const result = await runVirtual(server, [{ type: 'deploy', namespace: ns }], GRACE);

    expect(result.error?.input).toBe('resources');
    expect(result.error?.message).toMatch(
      /^Input "resources" has a bare type that waits for every object of it, but no deployments exist in namespace bare-empty within 5s/,
    );
    expect(result.targets.map((t) => t.name)).toEqual(['(none found)']);
  });

  it('an object that matches within status-grace is waited for as usual', async () => {
    const ns = namespace(server, 'late-match');
    const time = new ManualTime();
    const running = runEngine(server, [{ type: 'deploy', selector: 'app=web', namespace: ns }], { ...GRACE, time });
    await driveUntil(time, server, () => listed(server, 'deployments', ns), 'the first list');
    server.create(deployment('web', { namespace: ns, labels: { app: 'web' }, state: 'ready' }));

    const result = await driveUntilSettled(time, server, running);

    expect(result.error).toBeUndefined();
    expect(result.outcome).toBe('ready');
    expect(result.targets.map((t) => t.name)).toEqual(['web']);
  });

  it('with wait-for: deleted, matching nothing is success, not an error', async () => {
    const ns = namespace(server, 'deleted-match');

    const result = await runVirtual(server, [{ type: 'deploy', selector: 'app=gone', namespace: ns }], {
      ...GRACE,
      statusGraceMs: 0,
      waitFor: { kind: 'deleted' },
    });

    expect(result.error).toBeUndefined();
    expect(result.outcome).toBe('ready');
  });
});
