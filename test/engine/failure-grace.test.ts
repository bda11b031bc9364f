/**
 * `failure-grace` in the engine, on virtual time against the API server stand-in: a health rule's Failed
 * that recovers within the grace does not end the wait; one that holds ends it once the grace is over; a
 * kstatus Failed (a Deployment past its progress deadline) is not delayed.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { crdFor } from '../cluster/controllers/scripted.js';
import { startCluster, type TestCluster } from '../cluster/index.js';
import { until } from '../cluster/testkit.js';
import { resolveRules } from '../../src/status/health/resolve.js';
import { loadHealthChecks } from '../../src/status/health/load.js';
import { workspaceFiles } from '../../src/workspace-files.js';
import { ManualTime } from '../../src/time.js';
import { deployment } from './fixtures.js';
import { following, namespace, runEngine } from './helpers.js';
import { driveUntil, driveUntilSettled, runVirtual } from './virtual.js';

let server: TestCluster;
const CRD = crdFor({ group: 'example.com', kind: 'Widget', plural: 'widgets' });

beforeAll(async () => {
  server = await startCluster({ controllers: false, crdEstablishDelayMs: 20 });
  server.create(CRD);
  await until(
    () =>
      server
        .get('apiextensions.k8s.io/v1', 'CustomResourceDefinition', undefined, 'widgets.example.com')
        ?.status?.conditions?.some((c: { type: string; status: string }) => c.type === 'Established' && c.status === 'True') === true,
    'the Widget CRD',
    20_000,
  );
});
afterAll(async () => {
  await server.close();
});

async function rules() {
  const text = "- apiVersion: example.com/v1\n  kind: Widget\n  current: status.phase == 'Healthy'\n  failed: status.phase == 'Degraded'\n";
  const { rules: user, problems } = await loadHealthChecks(text, workspaceFiles(process.cwd()));
  expect(problems).toEqual([]);
  return resolveRules({ user, builtin: true });
}

const widget = (ns: string, phase: string) => ({
  apiVersion: 'example.com/v1',
  kind: 'Widget',
  metadata: { name: 'w', namespace: ns },
  spec: {},
  status: { phase },
});

describe('failure-grace', () => {
  it('a Degraded that recovers within the grace does not end the wait', async () => {
    const ns = namespace(server, 'fg-recovers');
    server.create(widget(ns, 'Degraded'));
    const time = new ManualTime();
    const started = time.now();
    const running = runEngine(server, [{ type: 'widgets.example.com', name: 'w', namespace: ns }], {
      healthRules: await rules(),
      failureGraceMs: 30_000,
      timeoutMs: 120_000,
      time,
    });
    await following(server, 'widgets', ns);
    await driveUntil(time, server, () => time.now() - started >= 10_000, '10 s of virtual time');
    server.patchStatus('example.com/v1', 'Widget', ns, 'w', { phase: 'Healthy' });
    const result = await driveUntilSettled(time, server, running);

    expect(result.outcome).toBe('ready');
    expect(result.targets[0]).toMatchObject({ status: 'Current', done: true });
    // It was held, not failed: the history says InProgress with the grace, never Failed.
    expect(result.targets[0]!.history.map((h) => h.status)).not.toContain('Failed');
    expect(result.targets[0]!.history.some((h) => /failure-grace 30s/.test(h.message))).toBe(true);
  }, 60_000);

  it('a Degraded that holds ends the wait once the grace is over', async () => {
    const ns = namespace(server, 'fg-holds');
    server.create(widget(ns, 'Degraded'));
    const result = await runVirtual(server, [{ type: 'widgets.example.com', name: 'w', namespace: ns }], {
      healthRules: await rules(),
      failureGraceMs: 30_000,
      timeoutMs: 600_000,
    });

    expect(result.outcome).toBe('failed');
    expect(result.targets[0]).toMatchObject({ status: 'Failed', rule: 'health-checks[0]' });
    expect(result.durationSeconds).toBeGreaterThanOrEqual(30);
    expect(result.durationSeconds).toBeLessThan(35);
  }, 60_000);

  it('without the grace, a Degraded ends the wait at once (the default)', async () => {
    const ns = namespace(server, 'fg-off');
    server.create(widget(ns, 'Degraded'));
    const result = await runVirtual(server, [{ type: 'widgets.example.com', name: 'w', namespace: ns }], { healthRules: await rules(), timeoutMs: 600_000 });

    expect(result.outcome).toBe('failed');
    expect(result.durationSeconds).toBeLessThan(2);
  }, 60_000);

  it('a kstatus Failed (progress deadline exceeded) is not delayed', async () => {
    const ns = namespace(server, 'fg-kstatus');
    server.create(deployment('web', { namespace: ns, state: 'deadline' }));
    const result = await runVirtual(server, [{ type: 'deploy', name: 'web', namespace: ns }], { failureGraceMs: 300_000, timeoutMs: 600_000 });

    expect(result.outcome).toBe('failed');
    expect(result.durationSeconds).toBeLessThan(2);
  }, 60_000);
});
