/**
 * GitOps targets on a real control plane (test/real/cluster.ts): the real Flux Kustomization and Argo CD
 * Application CRDs (test/real/fixtures/gitops/, their status schemas the controllers' own) served by
 * kube-apiserver, while the test plays the controller with the statuses kustomize-controller and the Argo CD
 * application controller write (test/status/gitops/statuses.ts), written as they write them: a JSON merge
 * patch of the status subresource (Flux's patch helper) and a merge patch of the Application, whose CRD has
 * no status subresource (Argo CD's persistAppStatus). kubectl validates strictly, so every status played is
 * one the real schema accepts; `dist/index.js` sees each through the real server's list and watch.
 * The parents are judged alone (`inventory: false`): the inventories these statuses list are not applied here;
 * test/e2e/gitops.e2e.test.ts judges inventories, and has these sequences on the stand-in. Skipped, with one line saying so, when
 * the binaries are not built; KUBEWAIT_REAL_CLUSTER=required turns a missing build into a failure.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { ResourceOutput } from '../../src/report/outputs.js';
import { ensureDist } from '../e2e/dist.js';
import { runAction } from '../e2e/runAction.js';
import { application, BUILD_FAILED, kustomization, NEW, NEW_SHA, OLD, OLD_SHA, PROGRESS_DEADLINE } from '../status/gitops/statuses.js';
import { builtBinDir, NOT_BUILT, ROOT } from './binaries.js';
import { auditEvents, startRealCluster, TOKEN_USER, type RealCluster } from './cluster.js';
import { namespace } from './objects.js';
import { controller } from './play.js';

const built = builtBinDir() !== undefined;
if (!built) {
  if (process.env.KUBEWAIT_REAL_CLUSTER === 'required') throw new Error(`KUBEWAIT_REAL_CLUSTER=required, but ${NOT_BUILT}`);
  process.stderr.write(`real-cluster GitOps suite skipped: ${NOT_BUILT}\n`);
}
const describeReal = built ? describe : describe.skip;

const FIXTURES = path.join(ROOT, 'test/real/fixtures/gitops');
const KUSTOMIZATION = 'kustomizations.kustomize.toolkit.fluxcd.io';
const APPLICATION = 'applications.argoproj.io';
const SHORT = NEW_SHA.slice(0, 7);
/** What Argo CD's Deployment health says while it rolls out (gitops-engine's health_deployment.go). */
const ROLLING_OUT = 'Waiting for rollout to finish: 1 old replicas are pending termination...';

let cluster: RealCluster;

const resourcesOf = (outputs: Record<string, string>) => JSON.parse(outputs.resources ?? '[]') as ResourceOutput[];

/** `object` in namespace `ns` (created first), without its status: the server ignores it on create when the
 *  CRD has a status subresource, so the status comes with writeStatus. */
async function create(ns: string, object: object): Promise<void> {
  await cluster.apply(namespace(ns));
  const { status: _status, ...rest } = object as { status?: unknown; metadata: Record<string, unknown> };
  await cluster.apply({ ...rest, metadata: { ...rest.metadata, namespace: ns } });
}

/** kustomize-controller's status write: a merge patch of the status subresource. */
const patchKustomization = (ns: string, status: object) =>
  cluster.kubectl('patch', KUSTOMIZATION, 'apps', '-n', ns, '--subresource=status', '--type=merge', '-p', JSON.stringify({ status }));

/** The Argo CD application controller's status write: a merge patch of the Application (no status subresource). */
const patchApplication = (ns: string, status: object) =>
  cluster.kubectl('patch', APPLICATION, 'shop', '-n', ns, '--type=merge', '-p', JSON.stringify({ status }));

/** The action's (the `token` user's) requests of `resource` in `ns`: `VERB` each, from the audit log. */
const verbsOn = (resource: string, ns: string) =>
  auditEvents(cluster, TOKEN_USER)
    .filter((e) => e.objectRef?.resource === resource && e.objectRef.namespace === ns)
    .map((e) => e.verb);

describeReal('GitOps targets on a real control plane', () => {
  beforeAll(async () => {
    await ensureDist();
    cluster = await startRealCluster({ nodes: 1 });
    // `create`, not `apply`: the Argo CD CRD is too large for apply's last-applied annotation, as for kubectl users.
    for (const file of readdirSync(FIXTURES).filter((name) => name.endsWith('.yaml'))) await cluster.kubectl('create', '-f', path.join(FIXTURES, file));
    await cluster.crdsEstablished(KUSTOMIZATION, APPLICATION);
  }, 240_000);

  afterAll(async () => {
    await cluster?.close();
  });

  it('the real schemas are in force: a status Flux would never write is refused', async () => {
    const ns = 'flux-schema';
    await create(ns, kustomization.object());
    // metav1.Condition requires lastTransitionTime, and a reason matching its pattern.
    const bad = { conditions: [{ type: 'Ready', status: 'True', reason: 'not a reason', message: 'x' }] };

    await expect(patchKustomization(ns, bad)).rejects.toThrow(/lastTransitionTime: Required value|reason in body should match/);
    await expect(patchKustomization(ns, kustomization.ready(OLD))).resolves.toContain('patched');
  }, 60_000);

  describe('Flux Kustomization with revision', () => {
    it('old revision ready -> new revision progressing -> applied and healthy: ready only then', async () => {
      const ns = 'flux-apply';
      await create(ns, kustomization.object());
      await patchKustomization(ns, kustomization.ready(OLD));
      const play = controller([
        { after: `Flux has not applied ${SHORT} yet; applied: ${OLD}`, write: () => patchKustomization(ns, kustomization.checkingHealth(OLD, NEW)) },
        { after: `attempting: ${NEW}`, write: () => patchKustomization(ns, kustomization.ready(NEW)) },
      ]);

      const run = await runAction(
        {
          kubeconfig: cluster.kubeconfig({ namespace: ns, user: 'token' }),
          resources: `${KUSTOMIZATION}/apps`,
          revision: SHORT,
          timeout: '90s',
          inventory: 'false',
        },
        { onStdout: play.onStdout, killAfterMs: 120_000 },
      );

      await play.done();
      expect(run.errors).toEqual([]);
      expect(run.outputs.result).toBe('ready');
      expect(resourcesOf(run.outputs)).toMatchObject([
        { kind: 'Kustomization', namespace: ns, name: 'apps', status: 'Current', message: `Applied revision: ${NEW}`, rule: 'gitops:flux-kustomization' },
      ]);
      // What the server holds is what was played: nothing pruned by the schema.
      const stored = JSON.parse(await cluster.kubectl('get', KUSTOMIZATION, 'apps', '-n', ns, '-o', 'json')) as { status: object };
      expect(stored.status).toEqual(kustomization.ready(NEW));
      // Every status after the first came through the one watch: no second LIST.
      expect(verbsOn('kustomizations', ns)).toEqual(['list', 'watch']);
    }, 150_000);

    it('the new revision does not build: failed with Flux’s message, not at the deadline', async () => {
      const ns = 'flux-build';
      await create(ns, kustomization.object());
      await patchKustomization(ns, kustomization.ready(OLD));
      const play = controller([
        { after: `Flux has not applied ${NEW_SHA} yet`, write: () => patchKustomization(ns, kustomization.failed(OLD, NEW, 'BuildFailed', BUILD_FAILED)) },
      ]);

      const run = await runAction(
        { kubeconfig: cluster.kubeconfig({ namespace: ns }), resources: `${KUSTOMIZATION}/apps`, revision: NEW_SHA, timeout: '90s', inventory: 'false' },
        { onStdout: play.onStdout, killAfterMs: 120_000 },
      );

      await play.done();
      expect(run.exitCode).toBe(1);
      expect(run.outputs.result).toBe('failed');
      const message = `BuildFailed (revision ${NEW}): ${BUILD_FAILED}`;
      expect(resourcesOf(run.outputs)).toMatchObject([{ name: 'apps', status: 'Failed', message, rule: 'gitops:flux-kustomization' }]);
      expect(run.errors.find((e) => e.properties.title === `Kustomization ${ns}/apps`)?.message).toContain(BUILD_FAILED);
      expect(Number(run.outputs.duration)).toBeLessThan(60); // failed, not timed out
    }, 150_000);
  });

  describe('Argo CD Application with revision', () => {
    it('Synced at the previous commit -> OutOfSync, syncing -> Synced, Progressing -> Healthy: ready only then', async () => {
      const ns = 'argo-sync';
      const healthy = application.status({
        sync: 'Synced',
        revision: NEW_SHA,
        health: 'Healthy',
        operation: application.operation('Succeeded', NEW_SHA, 'successfully synced (all tasks run)'),
      });
      await create(ns, application.object());
      await patchApplication(ns, application.status({ sync: 'Synced', revision: OLD_SHA, health: 'Healthy' }));
      const play = controller([
        {
          after: `Argo CD has not synced ${SHORT} yet; Synced at ${OLD_SHA}`,
          write: () =>
            patchApplication(
              ns,
              application.status({ sync: 'OutOfSync', revision: NEW_SHA, health: 'Healthy', operation: application.operation('Running', NEW_SHA, 'syncing') }),
            ),
        },
        {
          after: `Argo CD is syncing to ${NEW_SHA}`,
          write: () =>
            patchApplication(
              ns,
              application.status({
                sync: 'Synced',
                revision: NEW_SHA,
                health: 'Progressing',
                resourceHealth: { status: 'Progressing', message: ROLLING_OUT },
                operation: application.operation('Succeeded', NEW_SHA, 'successfully synced (all tasks run)'),
              }),
            ),
        },
        { after: `Synced at ${NEW_SHA}, health Progressing`, write: () => patchApplication(ns, healthy) },
      ]);

      const run = await runAction(
        {
          kubeconfig: cluster.kubeconfig({ namespace: ns, user: 'token' }),
          resources: `${APPLICATION}/shop`,
          revision: SHORT,
          timeout: '90s',
          inventory: 'false',
        },
        { onStdout: play.onStdout, killAfterMs: 120_000 },
      );

      await play.done();
      expect(run.errors).toEqual([]);
      expect(run.outputs.result).toBe('ready');
      expect(run.log.some((line) => line.includes(`Synced at ${NEW_SHA}, health Progressing: Deployment shop/api: Progressing: ${ROLLING_OUT}`))).toBe(true);
      expect(resourcesOf(run.outputs)).toMatchObject([
        { kind: 'Application', namespace: ns, name: 'shop', status: 'Current', message: `Synced to ${NEW_SHA}, Healthy`, rule: 'gitops:argocd-application' },
      ]);
      // What the server holds is what was played: nothing pruned by the schema.
      const stored = JSON.parse(await cluster.kubectl('get', APPLICATION, 'shop', '-n', ns, '-o', 'json')) as { status: object };
      expect(stored.status).toEqual(healthy);
      // Every status after the first came through the one watch: no second LIST.
      expect(verbsOn('applications', ns)).toEqual(['list', 'watch']);
    }, 150_000);

    it('Degraded at the new commit: failed with Argo CD’s message', async () => {
      const ns = 'argo-degraded';
      await create(ns, application.object());
      await patchApplication(ns, application.status({ sync: 'Synced', revision: OLD_SHA, health: 'Healthy' }));
      const play = controller([
        {
          after: `Argo CD has not synced ${SHORT} yet`,
          write: () =>
            patchApplication(
              ns,
              application.status({ sync: 'Synced', revision: NEW_SHA, health: 'Degraded', resourceHealth: { status: 'Degraded', message: PROGRESS_DEADLINE } }),
            ),
        },
      ]);

      const run = await runAction(
        { kubeconfig: cluster.kubeconfig({ namespace: ns }), resources: `${APPLICATION}/shop`, revision: SHORT, timeout: '90s', inventory: 'false' },
        { onStdout: play.onStdout, killAfterMs: 120_000 },
      );

      await play.done();
      expect(run.exitCode).toBe(1);
      expect(run.outputs.result).toBe('failed');
      const message = `Degraded at ${NEW_SHA}: Deployment shop/api: Degraded: ${PROGRESS_DEADLINE}`;
      expect(resourcesOf(run.outputs)).toMatchObject([{ name: 'shop', status: 'Failed', message, rule: 'gitops:argocd-application' }]);
      expect(run.summary).toContain('exceeded its progress deadline');
    }, 150_000);
  });
});
