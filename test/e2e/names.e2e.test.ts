/**
 * How targets are named when their type cannot be resolved, end to end: `pending`, `failed` and annotation
 * titles use NAMESPACE/KIND/NAME for built-in kinds even when discovery fails, and a type that is not served
 * (its scope unknown) never gets the default namespace.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startCluster, type TestCluster } from '../cluster/index.js';
import { ensureDist } from './dist.js';
import { runAction } from './runAction.js';

let cluster: TestCluster;

beforeAll(async () => {
  await ensureDist();
  cluster = await startCluster({ speed: 0.3 });
}, 300_000);

afterAll(async () => {
  await cluster?.close();
});

describe('target names without discovery', () => {
  it('discovery failing: built-in aliases are reported by Kind, with the namespace only where the kind has one', async () => {
    // A cluster of its own: discovery fails on every request to it.
    const broken = await startCluster({ speed: 0.3 });
    broken.faults.failNext(100_000, { status: 503, verb: 'discovery' });
    try {
      const run = await runAction({
        kubeconfig: broken.kubeconfig({ namespace: 'shop' }),
        resources: 'shop/deploy/redis-master\nsts/db\nns/shop',
        timeout: '3s',
      });

      expect(run.exitCode).toBe(1);
      expect(run.outputs.pending?.split('\n')).toEqual(['shop/Deployment/redis-master', 'shop/StatefulSet/db', 'Namespace/shop']);
      const titles = run.errors.map((e) => e.properties.title).filter(Boolean);
      expect(titles).toEqual(expect.arrayContaining(['Deployment shop/redis-master', 'StatefulSet shop/db', 'Namespace shop']));
      expect(run.errors.find((e) => e.properties.title === 'Deployment shop/redis-master')?.message).toMatch(/cannot discover the API server's resource types/);
    } finally {
      await broken.close();
    }
  }, 150_000);

  it('a type that is not served: its scope is unknown, so no default namespace is made up', async () => {
    const run = await runAction({ kubeconfig: cluster.kubeconfig({ namespace: 'shop' }), resources: 'clusterissuer/letsencrypt', timeout: '2s' });

    expect(run.exitCode).toBe(1);
    expect(run.outputs.pending).toBe('clusterissuer/letsencrypt');
    const resources = JSON.parse(run.outputs.resources!) as Array<{ namespace: string }>;
    expect(resources.map((r) => r.namespace)).toEqual(['']);
    expect(run.errors.map((e) => e.properties.title)).toContain('clusterissuer letsencrypt');
  }, 150_000);
});
