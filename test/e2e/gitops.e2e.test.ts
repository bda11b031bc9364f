/**
 * GitOps end to end: `dist/index.js` and `dist/cli.js` against the API server stand-in serving the real
 * Flux and Argo CD CRDs (test/cluster/fixtures/gitops/), while the test plays the controller: it writes the
 * statuses kustomize-controller and the Argo CD application controller write (test/status/gitops/statuses.ts),
 * each once kubewait has logged that it judged the previous one, so that a loaded machine sees every step.
 * The cases about the GitOps objects' own verdicts set `inventory: false`: the objects their fixtures list as
 * applied are not in the stand-in; "through to the workloads" creates them.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ResourceOutput } from '../../src/report/outputs.js';
import { startCluster, type TestCluster } from '../cluster/index.js';
import { crdsIn, establishCrds } from '../cluster/testkit.js';
import {
  application,
  BUILD_FAILED,
  HEALTH_CHECK_FAILED,
  helmRelease,
  kustomization,
  NEW,
  NEW_SHA,
  OLD,
  OLD_SHA,
  PROGRESS_DEADLINE,
} from '../status/gitops/statuses.js';
import { ensureDist } from './dist.js';
import { configMap, deployment } from './objects.js';
import { releaseManifest, releaseRecord } from '../release/fixtures/index.js';
import { parseAllDocuments } from 'yaml';
import { runAction } from './runAction.js';
import { runCommand } from './runCommand.js';

const FIXTURES = new URL('../cluster/fixtures/gitops/', import.meta.url);
const KUSTOMIZATION = 'kustomizations.kustomize.toolkit.fluxcd.io';
const APPLICATION = 'applications.argoproj.io';
const SHORT = NEW_SHA.slice(0, 7);
let cluster: TestCluster;

beforeAll(async () => {
  await ensureDist();
  cluster = await startCluster({
    crdEstablishDelayMs: 20,
    // Everything, but only in the namespaces of the RBAC case: as a Role in each would grant it.
    tokens: { 'gitops-role': [{ verbs: ['*'], resources: ['*'], apiGroups: ['*'], namespaces: ['inv-rbac', 'inv-rbac-shop'] }] },
  });
  await establishCrds(cluster, crdsIn(FIXTURES));
}, 300_000);

afterAll(async () => {
  await cluster?.close();
});

const resourcesOf = (outputs: Record<string, string>) => JSON.parse(outputs.resources!) as ResourceOutput[];

/** A Kustomization `apps` in `namespace` with `status`, as kustomize-controller left it. */
function createKustomization(namespace: string, status: object): void {
  const object = kustomization.object(status) as { metadata: Record<string, unknown> };
  cluster.create({ ...object, metadata: { ...object.metadata, namespace } });
}

/** An Application `shop` in `namespace`. Argo CD writes the whole object (its CRD has no status subresource). */
function writeApplication(namespace: string, status: object): void {
  const object = application.object(status) as { metadata: Record<string, unknown> };
  cluster.apply({ ...object, metadata: { ...object.metadata, namespace } });
}

/**
 * The controller, played in steps: each step's status is written once stdout (so far) contains its `after`
 * text, i.e. once kubewait has judged the status before it.
 */
function controller(steps: Array<{ after: string | RegExp; write: () => void }>): (stdout: string) => undefined {
  let next = 0;
  return (stdout) => {
    while (next < steps.length) {
      const { after, write } = steps[next]!;
      if (typeof after === 'string' ? !stdout.includes(after) : !after.test(stdout)) break;
      next++;
      write();
    }
    return undefined;
  };
}

describe('Flux Kustomization with revision', () => {
  it('old revision ready -> new revision progressing -> applied and healthy: ready only then', async () => {
    const ns = 'flux-apply';
    createKustomization(ns, kustomization.ready(OLD));
    const write = (status: object) => () => cluster.patchStatus('kustomize.toolkit.fluxcd.io/v1', 'Kustomization', ns, 'apps', status);
    const play = controller([
      { after: `Flux has not applied ${SHORT} yet; applied: ${OLD}`, write: write(kustomization.checkingHealth(OLD, NEW)) },
      { after: `attempting: ${NEW}`, write: write(kustomization.ready(NEW)) },
    ]);

    const run = await runAction(
      { kubeconfig: cluster.kubeconfig({ namespace: ns }), resources: `${KUSTOMIZATION}/apps`, revision: SHORT, timeout: '60s', inventory: 'false' },
      { onStdout: play },
    );

    expect(run.errors).toEqual([]);
    expect(run.outputs.result).toBe('ready');
    expect(run.log.some((line) => line.includes(`Flux has not applied ${SHORT} yet; applied: ${OLD}`))).toBe(true);
    expect(run.log.some((line) => line.includes(`attempting: ${NEW}`))).toBe(true);
    expect(resourcesOf(run.outputs)).toMatchObject([
      { kind: 'Kustomization', namespace: ns, name: 'apps', status: 'Current', message: `Applied revision: ${NEW}`, rule: 'gitops:flux-kustomization' },
    ]);
  }, 120_000);

  it('the new revision does not build: failed with Flux’s message, at once', async () => {
    const ns = 'flux-build';
    createKustomization(ns, kustomization.ready(OLD));
    const play = controller([
      {
        after: `Flux has not applied ${NEW_SHA} yet`,
        write: () =>
          cluster.patchStatus('kustomize.toolkit.fluxcd.io/v1', 'Kustomization', ns, 'apps', kustomization.failed(OLD, NEW, 'BuildFailed', BUILD_FAILED)),
      },
    ]);

    const run = await runAction(
      { kubeconfig: cluster.kubeconfig({ namespace: ns }), resources: `${KUSTOMIZATION}/apps`, revision: NEW_SHA, timeout: '60s', inventory: 'false' },
      { onStdout: play },
    );

    expect(run.exitCode).toBe(1);
    expect(run.outputs.result).toBe('failed');
    const message = `BuildFailed (revision ${NEW}): ${BUILD_FAILED}`;
    expect(resourcesOf(run.outputs)).toMatchObject([{ name: 'apps', status: 'Failed', message, rule: 'gitops:flux-kustomization' }]);
    expect(run.errors.some((error) => error.message.includes(BUILD_FAILED))).toBe(true);
    expect(Number(run.outputs.duration)).toBeLessThan(30); // failed, not timed out
  }, 120_000);

  it('the command: ready for the previous commit is not ready (exit 2 at the deadline, saying why)', async () => {
    const ns = 'flux-cli';
    createKustomization(ns, kustomization.ready(OLD));
    const kubeconfig = path.join(mkdtempSync(path.join(tmpdir(), 'kubewait-gitops-')), 'config');
    writeFileSync(kubeconfig, cluster.kubeconfig({ namespace: ns }));

    const run = await runCommand([
      `${KUSTOMIZATION}/apps`,
      '--revision',
      `main@sha1:${NEW_SHA}`,
      '--kubeconfig',
      kubeconfig,
      '--timeout',
      // The verdict at the deadline needs a first look before it: 3 s was too short on a loaded machine.
      '10s',
      '--inventory=false',
      '-o',
      'json',
    ]);

    expect(run.exitCode).toBe(2);
    const document = JSON.parse(run.stdout) as { result: string; resources: ResourceOutput[] };
    expect(document.result).toBe('timeout');
    expect(document.resources).toMatchObject([
      { name: 'apps', status: 'InProgress', message: `Flux has not applied main@sha1:${NEW_SHA} yet; applied: ${OLD}` },
    ]);
  }, 120_000);
});

describe('Flux Kustomization without revision', () => {
  it('a failed health check fails with Flux’s message instead of waiting out the timeout', async () => {
    const ns = 'flux-norevision';
    createKustomization(ns, kustomization.failed(OLD, NEW, 'HealthCheckFailed', HEALTH_CHECK_FAILED));

    const run = await runAction({ kubeconfig: cluster.kubeconfig({ namespace: ns }), resources: `${KUSTOMIZATION}/apps`, timeout: '20s', inventory: 'false' });

    expect(run.outputs.result).toBe('failed');
    const message = `HealthCheckFailed (revision ${NEW}): ${HEALTH_CHECK_FAILED}`;
    expect(resourcesOf(run.outputs)).toMatchObject([{ name: 'apps', status: 'Failed', message, rule: 'gitops:flux-kustomization' }]);
  }, 120_000);
});

describe('Flux HelmRelease with revision', () => {
  it('released at the previous commit -> upgrading -> upgraded: ready only then', async () => {
    const ns = 'flux-helm';
    const OLD_CHART = `0.1.0+${OLD_SHA.slice(0, 12)}`;
    const NEW_CHART = `0.1.0+${NEW_SHA.slice(0, 12)}`;
    const object = helmRelease.object(helmRelease.ready(OLD_CHART)) as { metadata: Record<string, unknown> };
    cluster.create({ ...object, metadata: { ...object.metadata, namespace: ns } });
    const write = (status: object) => () => cluster.patchStatus('helm.toolkit.fluxcd.io/v2', 'HelmRelease', ns, 'shop', status);
    const play = controller([
      { after: `Flux has not released ${SHORT} yet; released: shop@${OLD_CHART} (deployed)`, write: write(helmRelease.upgrading(OLD_CHART, NEW_CHART)) },
      { after: `Flux is releasing ${NEW_CHART}`, write: write(helmRelease.ready(NEW_CHART, 2)) },
    ]);

    const run = await runAction(
      {
        kubeconfig: cluster.kubeconfig({ namespace: ns }),
        resources: 'helmreleases.helm.toolkit.fluxcd.io/shop',
        revision: SHORT,
        timeout: '60s',
        inventory: 'false',
      },
      { onStdout: play },
    );

    expect(run.errors).toEqual([]);
    expect(run.outputs.result).toBe('ready');
    expect(run.log.some((line) => line.includes(`Flux is releasing ${NEW_CHART}: Running 'upgrade' action`))).toBe(true);
    expect(resourcesOf(run.outputs)).toMatchObject([{ kind: 'HelmRelease', name: 'shop', status: 'Current', rule: 'gitops:flux-helmrelease' }]);
  }, 120_000);
});

describe('Argo CD Application', () => {
  it('with revision: Synced and Healthy at the previous commit is not ready until the new one is', async () => {
    const ns = 'argo-revision';
    writeApplication(ns, application.status({ sync: 'Synced', revision: OLD_SHA, health: 'Healthy' }));
    const play = controller([
      {
        after: `Argo CD has not synced ${SHORT} yet; Synced at ${OLD_SHA}`,
        write: () =>
          writeApplication(
            ns,
            application.status({ sync: 'OutOfSync', revision: NEW_SHA, health: 'Healthy', operation: application.operation('Running', NEW_SHA, 'syncing') }),
          ),
      },
      {
        after: `Argo CD is syncing to ${NEW_SHA}`,
        write: () =>
          writeApplication(
            ns,
            application.status({
              sync: 'Synced',
              revision: NEW_SHA,
              health: 'Healthy',
              operation: application.operation('Succeeded', NEW_SHA, 'successfully synced (all tasks run)'),
            }),
          ),
      },
    ]);

    const run = await runAction(
      { kubeconfig: cluster.kubeconfig({ namespace: ns }), resources: `${APPLICATION}/shop`, revision: SHORT, timeout: '60s', inventory: 'false' },
      { onStdout: play },
    );

    expect(run.errors).toEqual([]);
    expect(run.outputs.result).toBe('ready');
    expect(run.log.some((line) => line.includes(`Argo CD is syncing to ${NEW_SHA}`))).toBe(true);
    expect(resourcesOf(run.outputs)).toMatchObject([
      { kind: 'Application', name: 'shop', status: 'Current', message: `Synced to ${NEW_SHA}, Healthy`, rule: 'gitops:argocd-application' },
    ]);
  }, 120_000);

  it('with revision: Degraded at the new commit fails with Argo CD’s message', async () => {
    const ns = 'argo-degraded';
    writeApplication(ns, application.status({ sync: 'Synced', revision: OLD_SHA, health: 'Healthy' }));
    const play = controller([
      {
        after: `Argo CD has not synced ${SHORT} yet`,
        write: () =>
          writeApplication(
            ns,
            application.status({ sync: 'Synced', revision: NEW_SHA, health: 'Degraded', resourceHealth: { status: 'Degraded', message: PROGRESS_DEADLINE } }),
          ),
      },
    ]);

    const run = await runAction(
      { kubeconfig: cluster.kubeconfig({ namespace: ns }), resources: `${APPLICATION}/shop`, revision: SHORT, timeout: '60s', inventory: 'false' },
      { onStdout: play },
    );

    expect(run.outputs.result).toBe('failed');
    const message = `Degraded at ${NEW_SHA}: Deployment shop/api: Degraded: ${PROGRESS_DEADLINE}`;
    expect(resourcesOf(run.outputs)).toMatchObject([{ name: 'shop', status: 'Failed', message, rule: 'gitops:argocd-application' }]);
    expect(run.summary).toContain('exceeded its progress deadline');
  }, 120_000);

  it('without revision, the command: a Degraded Application fails (kstatus alone called it ready)', async () => {
    const ns = 'argo-builtin';
    writeApplication(
      ns,
      application.status({ sync: 'Synced', revision: NEW_SHA, health: 'Degraded', resourceHealth: { status: 'Degraded', message: PROGRESS_DEADLINE } }),
    );
    const kubeconfig = path.join(mkdtempSync(path.join(tmpdir(), 'kubewait-gitops-')), 'config');
    writeFileSync(kubeconfig, cluster.kubeconfig({ namespace: ns }));

    const run = await runCommand([`${APPLICATION}/shop`, '--kubeconfig', kubeconfig, '--timeout', '30s', '--inventory=false', '-o', 'json']);

    expect(run.exitCode).toBe(1);
    const document = JSON.parse(run.stdout) as { result: string; resources: ResourceOutput[] };
    expect(document.result).toBe('failed');
    expect(document.resources).toMatchObject([{ name: 'shop', status: 'Failed', rule: 'builtin:argocd-application' }]);
  }, 120_000);
});

/** kustomize-controller's inventory entries (`<namespace>_<name>_<group>_<kind>`, cli-utils ObjMetadata) of `objects`. */
function inventoryOf(...objects: Array<{ apiVersion: string; kind: string; metadata: { namespace: string; name: string } }>) {
  return {
    entries: objects.map(({ apiVersion, kind, metadata }) => {
      const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
      return { id: `${metadata.namespace}_${metadata.name}_${group}_${kind}`, v: version };
    }),
  };
}

const annotationOf = (run: { errors: Array<{ message: string; properties: Record<string, string> }> }, title: string) =>
  run.errors.find((e) => e.properties.title === title)?.message ?? '';

describe('through to the workloads (inventory)', () => {
  it('a Kustomization at the shipped revision whose Deployment crash-loops: failed, naming it under its parent, its cause and log tail', async () => {
    const ns = 'inv-crash';
    const api = deployment('api', { namespace: 'inv-crash-shop', replicas: 1, podFailure: 'CrashLoopBackOff' });
    cluster.create(api);
    // Applied, health checks running: Flux would say HealthCheckFailed only after its 4m30s timeout.
    createKustomization(ns, { ...kustomization.checkingHealth(OLD, NEW), inventory: inventoryOf(api) });

    const run = await runAction({ kubeconfig: cluster.kubeconfig({ namespace: ns }), resources: `${KUSTOMIZATION}/apps`, revision: SHORT, timeout: '90s' });

    expect(run.exitCode).toBe(1);
    expect(run.outputs.result).toBe('failed');
    expect(resourcesOf(run.outputs)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'Kustomization', name: 'apps', status: 'InProgress' }),
        expect.objectContaining({
          kind: 'Deployment',
          namespace: 'inv-crash-shop',
          name: 'api',
          status: 'Failed',
          parent: { kind: 'Kustomization', namespace: ns, name: 'apps' },
        }),
      ]),
    );
    const annotation = annotationOf(run, `Kustomization ${ns}/apps -> Deployment inv-crash-shop/api`);
    expect(annotation).toContain('CrashLoopBackOff');
    expect(annotation).toContain('container api: exit 1: panic: missing DATABASE_URL');
    expect(run.summary).toContain(`Kustomization ${ns}/apps -&gt; Deployment inv-crash-shop/api`);
    expect(run.summary).toContain(`applied by Kustomization ${ns}/apps`);
    expect(run.summary).toMatch(/container api \(previous run\): exit 1: panic: missing DATABASE_URL/);
    expect(run.summary).toContain('goroutine 1 [running]:');
  }, 150_000);

  it('Flux already reports HealthCheckFailed: failed with Flux’s message, and the crash-looping Deployment named and explained', async () => {
    const ns = 'inv-healthcheck';
    const api = deployment('api', { namespace: 'inv-healthcheck-shop', replicas: 1, podFailure: 'CrashLoopBackOff' });
    cluster.create(api);
    createKustomization(ns, { ...kustomization.failed(OLD, NEW, 'HealthCheckFailed', HEALTH_CHECK_FAILED), inventory: inventoryOf(api) });

    const run = await runAction({ kubeconfig: cluster.kubeconfig({ namespace: ns }), resources: `${KUSTOMIZATION}/apps`, revision: SHORT, timeout: '90s' });

    expect(run.outputs.result).toBe('failed');
    expect(resourcesOf(run.outputs).map((r) => `${r.kind} ${r.namespace}/${r.name} ${r.status}`)).toEqual([
      `Kustomization ${ns}/apps Failed`,
      'Deployment inv-healthcheck-shop/api Failed',
    ]);
    expect(annotationOf(run, `Kustomization ${ns}/apps`)).toContain(HEALTH_CHECK_FAILED);
    expect(annotationOf(run, `Kustomization ${ns}/apps -> Deployment inv-healthcheck-shop/api`)).toContain(
      'container api: exit 1: panic: missing DATABASE_URL',
    );
  }, 150_000);

  it('old revision ready -> new revision applied, health checks running -> ready: the new inventory is waited for, under its parent', async () => {
    const ns = 'inv-ready';
    const web = deployment('web', { namespace: 'inv-ready-shop', replicas: 1, readyAfterMs: 300 });
    const settings = configMap('settings', { namespace: 'inv-ready-shop' });
    cluster.create(web);
    cluster.create(settings);
    createKustomization(ns, { ...kustomization.ready(OLD), inventory: inventoryOf(web) });
    const write = (status: object) => () => cluster.patchStatus('kustomize.toolkit.fluxcd.io/v1', 'Kustomization', ns, 'apps', status);
    const play = controller([
      // The new revision adds the ConfigMap: only the inventory of the shipped revision is taken.
      { after: `Flux has not applied ${SHORT} yet`, write: write({ ...kustomization.checkingHealth(OLD, NEW), inventory: inventoryOf(web, settings) }) },
      { after: 'applied 2 objects: waiting for them too', write: write({ ...kustomization.ready(NEW), inventory: inventoryOf(web, settings) }) },
    ]);

    // The Deployment is named too: it is one target, reported under its parent.
    const resources = `${KUSTOMIZATION}/apps\ninv-ready-shop/deploy/web`;
    const run = await runAction({ kubeconfig: cluster.kubeconfig({ namespace: ns }), resources, revision: SHORT, timeout: '60s' }, { onStdout: play });

    expect(run.errors).toEqual([]);
    expect(run.outputs.result).toBe('ready');
    const parent = { kind: 'Kustomization', namespace: ns, name: 'apps' };
    expect(resourcesOf(run.outputs)).toEqual([
      expect.objectContaining({ kind: 'Kustomization', name: 'apps', status: 'Current', message: `Applied revision: ${NEW}` }),
      expect.objectContaining({ kind: 'Deployment', namespace: 'inv-ready-shop', name: 'web', status: 'Current', parent }),
      expect.objectContaining({ kind: 'ConfigMap', namespace: 'inv-ready-shop', name: 'settings', status: 'Current', parent }),
    ]);
    expect(run.log.some((line) => line.includes(`Kustomization ${ns}/apps applied 2 objects: waiting for them too`))).toBe(true);
  }, 120_000);

  it('while Flux has not applied the revision, the parents are read again when they change, not every poll interval', async () => {
    const ns = 'inv-quiet';
    createKustomization(ns, kustomization.ready(OLD));
    const lists = () => cluster.counters.requests().filter((r) => r.verb === 'list' && r.resource === 'kustomizations' && r.namespace === ns).length;

    const run = await runAction({
      kubeconfig: cluster.kubeconfig({ namespace: ns }),
      resources: `${KUSTOMIZATION}/apps`,
      revision: SHORT,
      'poll-interval': '100ms',
      timeout: '4s',
    });

    expect(run.outputs.result).toBe('timeout');
    expect(resourcesOf(run.outputs)).toMatchObject([{ kind: 'Kustomization', name: 'apps', status: 'InProgress' }]);
    // The engine's LIST (then its watch) and the wing's first read; a read every 100 ms was about 40.
    expect(lists()).toBeGreaterThanOrEqual(2);
    expect(lists()).toBeLessThanOrEqual(4);
  }, 60_000);

  it('inventory: false judges the Kustomization alone', async () => {
    const ns = 'inv-off';
    const web = deployment('web', { namespace: 'inv-off-shop', replicas: 1, podFailure: 'CrashLoopBackOff' });
    cluster.create(web);
    createKustomization(ns, { ...kustomization.ready(NEW), inventory: inventoryOf(web) });

    const run = await runAction({
      kubeconfig: cluster.kubeconfig({ namespace: ns }),
      resources: `${KUSTOMIZATION}/apps`,
      revision: SHORT,
      inventory: 'false',
      timeout: '30s',
    });

    expect(run.outputs.result).toBe('ready');
    expect(resourcesOf(run.outputs)).toMatchObject([{ kind: 'Kustomization', name: 'apps', status: 'Current' }]);
  }, 120_000);

  it('an inventory larger than the step may wait for: an error of input inventory naming the parent, before any object is listed', async () => {
    const ns = 'inv-huge';
    const entries = Array.from({ length: 20_001 }, (_, i) => ({ id: `inv-huge-shop_cm-${i}__ConfigMap`, v: 'v1' }));
    createKustomization(ns, { ...kustomization.ready(NEW), inventory: { entries } });

    const run = await runAction({ kubeconfig: cluster.kubeconfig({ namespace: ns }), resources: `${KUSTOMIZATION}/apps`, revision: SHORT, timeout: '60s' });

    expect(run.outputs.result).toBe('error');
    const annotation = run.errors.find((e) => e.properties.title === 'kubewait: input "inventory"')?.message ?? '';
    expect(annotation).toContain(`Kustomization ${ns}/apps (20001) applied 20001 objects; kubewait waits for at most 20000`);
    expect(run.errors.map((e) => e.message).join('\n')).not.toContain('Input "selector"');
    // The cap came before the objects: none of them was listed or watched.
    expect(cluster.counters.requests().filter((r) => r.namespace === 'inv-huge-shop')).toEqual([]);
    expect(resourcesOf(run.outputs).map((r) => `${r.kind} ${r.namespace}/${r.name}`)).toEqual([`Kustomization ${ns}/apps`]);
  }, 120_000);

  it('a namespace of the inventory the step may not list: one warning, the rest judged, no false verdict', async () => {
    const ns = 'inv-rbac';
    const web = deployment('web', { namespace: 'inv-rbac-shop', replicas: 1, readyAfterMs: 300 });
    const hidden = deployment('worker', { namespace: 'inv-rbac-other', replicas: 1, readyAfterMs: 300 });
    cluster.create(web);
    cluster.create(hidden);
    createKustomization(ns, { ...kustomization.ready(NEW), inventory: inventoryOf(web, hidden) });

    const run = await runAction({
      kubeconfig: cluster.kubeconfig({ namespace: ns, token: 'gitops-role' }),
      resources: `${KUSTOMIZATION}/apps`,
      revision: SHORT,
      timeout: '60s',
    });

    expect(run.outputs.result).toBe('ready');
    expect(resourcesOf(run.outputs).map((r) => `${r.kind} ${r.namespace}/${r.name}`)).toEqual(['Kustomization inv-rbac/apps', 'Deployment inv-rbac-shop/web']);
    const warnings = run.warnings.map((w) => w.message).filter((m) => m.includes('inv-rbac-other'));
    expect(warnings).toEqual([expect.stringContaining('deployments.apps in namespace inv-rbac-other: listing them is forbidden (403)')]);
  }, 120_000);

  it('an Argo CD Application synced to the shipped revision whose Deployment crash-loops: failed, naming it under the Application', async () => {
    const ns = 'inv-argo';
    const api = deployment('api', { namespace: 'inv-argo-shop', replicas: 1, podFailure: 'CrashLoopBackOff' });
    cluster.create(api);
    const status = application.status({ sync: 'Synced', revision: NEW_SHA, health: 'Progressing' });
    // Argo CD lists what it applied; the Service is in this list, the hook Job is not a target.
    status.resources = [
      { group: 'apps', version: 'v1', kind: 'Deployment', namespace: 'inv-argo-shop', name: 'api', status: 'Synced', health: { status: 'Progressing' } },
      { group: 'batch', version: 'v1', kind: 'Job', namespace: 'inv-argo-shop', name: 'migrate', status: 'Synced', hook: true } as never,
    ];
    writeApplication(ns, status);

    const run = await runAction({ kubeconfig: cluster.kubeconfig({ namespace: ns }), resources: `${APPLICATION}/shop`, revision: SHORT, timeout: '90s' });

    expect(run.outputs.result).toBe('failed');
    expect(resourcesOf(run.outputs).map((r) => `${r.kind} ${r.namespace}/${r.name} ${r.status}`)).toEqual([
      `Application ${ns}/shop InProgress`,
      'Deployment inv-argo-shop/api Failed',
    ]);
    expect(annotationOf(run, `Application ${ns}/shop -> Deployment inv-argo-shop/api`)).toContain('container api: exit 1: panic: missing DATABASE_URL');
  }, 150_000);

  it('a HelmRelease at the shipped chart version: its Helm release’s objects, the crash-looping Deployment named under it', async () => {
    const ns = 'inv-helm';
    // The golden records of release shop in namespace store (helm v4), and the objects of its revision 2 as helm created them.
    for (const key of ['v1-superseded', 'v2-deployed'] as const) cluster.create(releaseRecord(key));
    const objects = parseAllDocuments(releaseManifest('v2-deployed'))
      .map((d) => d.toJS() as Record<string, any> | null)
      .flatMap((o) => (o === null ? [] : o.kind === 'List' ? (o.items as Array<Record<string, any>>) : [o]))
      .map((o) => (o.kind === 'Namespace' || o.metadata.namespace ? o : { ...o, metadata: { ...o.metadata, namespace: 'store' } }));
    for (const object of objects) {
      if (object.kind === 'Deployment') object.spec.template.metadata.annotations = { 'kubewait.test/pod-failure': 'CrashLoopBackOff' };
      cluster.create(object);
    }
    const NEW_CHART = `0.1.0+${NEW_SHA.slice(0, 12)}`;
    const object = helmRelease.object({ ...helmRelease.upgrading(`0.1.0+${OLD_SHA.slice(0, 12)}`, NEW_CHART), storageNamespace: 'store' }) as {
      metadata: Record<string, unknown>;
    };
    cluster.create({ ...object, metadata: { ...object.metadata, namespace: ns } });

    const run = await runAction({
      kubeconfig: cluster.kubeconfig({ namespace: ns }),
      resources: 'helmreleases.helm.toolkit.fluxcd.io/shop',
      revision: SHORT,
      timeout: '90s',
    });

    expect(run.outputs.result).toBe('failed');
    const failed = resourcesOf(run.outputs).filter((r) => r.status === 'Failed');
    expect(failed).toEqual([
      expect.objectContaining({ kind: 'Deployment', namespace: 'store', name: 'shop-web', parent: { kind: 'HelmRelease', namespace: ns, name: 'shop' } }),
    ]);
    expect(resourcesOf(run.outputs).length).toBeGreaterThan(3); // the release's other objects, judged too
    expect(annotationOf(run, `HelmRelease ${ns}/shop -> Deployment store/shop-web`)).toContain('CrashLoopBackOff');
  }, 150_000);

  it('the command: the crash-looping Deployment of a Kustomization, under its parent in the log and the JSON (exit 1)', async () => {
    const ns = 'inv-cli';
    const api = deployment('api', { namespace: 'inv-cli-shop', replicas: 1, podFailure: 'CrashLoopBackOff' });
    cluster.create(api);
    createKustomization(ns, { ...kustomization.checkingHealth(OLD, NEW), inventory: inventoryOf(api) });
    const kubeconfig = path.join(mkdtempSync(path.join(tmpdir(), 'kubewait-gitops-')), 'config');
    writeFileSync(kubeconfig, cluster.kubeconfig({ namespace: ns }));

    const run = await runCommand([`${KUSTOMIZATION}/apps`, '--revision', NEW_SHA, '--kubeconfig', kubeconfig, '--timeout', '90s', '-o', 'json']);

    expect(run.exitCode).toBe(1);
    const document = JSON.parse(run.stdout) as { result: string; resources: ResourceOutput[] };
    expect(document.result).toBe('failed');
    expect(document.resources).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'Deployment', name: 'api', status: 'Failed', parent: { kind: 'Kustomization', namespace: ns, name: 'apps' } }),
      ]),
    );
    expect(run.stderr).toContain(`kustomization/apps (${ns}) -> deployment/api (inv-cli-shop): Failed`);
  }, 150_000);
});
