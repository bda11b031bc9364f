/**
 * The `reconcile` input end to end: `dist/index.js` and `dist/cli.js` against the API server stand-in serving
 * the Flux and Argo CD CRDs (test/cluster/fixtures/gitops/). The test plays the controller: it reads back the
 * annotations kubewait set (as kustomize-controller and source-controller would see them), then writes the
 * status the controller writes once it has handled the request, so the run ends only after the request.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ResourceOutput } from '../../src/report/outputs.js';
import { startCluster, type TestCluster } from '../cluster/index.js';
import { crdsIn, establishCrds } from '../cluster/testkit.js';
import { application, kustomization, NEW, NEW_SHA, OLD, OLD_SHA } from '../status/gitops/statuses.js';
import { ensureDist } from './dist.js';
import { runAction } from './runAction.js';
import { runCommand } from './runCommand.js';

const FIXTURES = new URL('../cluster/fixtures/gitops/', import.meta.url);
const KUSTOMIZATION = 'kustomizations.kustomize.toolkit.fluxcd.io';
const REQUESTED_AT = 'reconcile.fluxcd.io/requestedAt';
const ASKED = 'asked the GitOps controllers to reconcile now';
const SOURCES_ASKED = 'asked Flux to fetch the sources now';
const SHORT = NEW_SHA.slice(0, 7);
let cluster: TestCluster;

beforeAll(async () => {
  await ensureDist();
  cluster = await startCluster({
    crdEstablishDelayMs: 20,
    // Reads everything, writes nothing: a CI identity without `patch`.
    tokens: { 'read-only': [{ verbs: ['get', 'list', 'watch'], resources: ['*'], apiGroups: ['*'] }] },
  });
  await establishCrds(cluster, crdsIn(FIXTURES));
}, 300_000);

afterAll(async () => {
  await cluster?.close();
});

const resourcesOf = (outputs: Record<string, string>) => JSON.parse(outputs.resources!) as ResourceOutput[];
const annotationsOf = (apiVersion: string, kind: string, namespace: string, name: string): Record<string, string> =>
  cluster.get(apiVersion, kind, namespace, name)?.metadata?.annotations ?? {};

/** A Kustomization `apps` in `namespace`, ready for the previous commit, and its source GitRepository `flux-system`. */
function createFluxObjects(namespace: string): void {
  const object = kustomization.object(kustomization.ready(OLD)) as { metadata: Record<string, unknown> };
  cluster.create({ ...object, metadata: { ...object.metadata, namespace } });
  cluster.create({
    apiVersion: 'source.toolkit.fluxcd.io/v1',
    kind: 'GitRepository',
    metadata: { name: 'flux-system', namespace },
    spec: { interval: '1m', url: 'https://github.com/example/fleet', ref: { branch: 'main' } },
  });
}

/** kustomize-controller once it has handled the request `handled`: applied the new commit, recording the request. */
function applyNewRevision(namespace: string, handled: string | undefined): void {
  cluster.patchStatus('kustomize.toolkit.fluxcd.io/v1', 'Kustomization', namespace, 'apps', {
    ...kustomization.ready(NEW),
    ...(handled && { lastHandledReconcileAt: handled }),
  });
}

describe('reconcile: true', () => {
  it('annotates the GitRepository, then, once it has handled that, the Kustomization, as flux reconcile --with-source does', async () => {
    const ns = 'reconcile-flux';
    createFluxObjects(ns);
    let seenOnObject: string | undefined;
    let seenOnSource: string | undefined;
    let onObjectBeforeSourceHandled: string | undefined;
    let fetched = false;
    let played = false;

    const run = await runAction(
      {
        kubeconfig: cluster.kubeconfig({ namespace: ns }),
        resources: `${KUSTOMIZATION}/apps`,
        revision: SHORT,
        reconcile: 'true',
        inventory: 'false',
        timeout: '60s',
      },
      {
        onStdout: (stdout) => {
          if (!fetched && stdout.includes(SOURCES_ASKED)) {
            fetched = true;
            // source-controller: the object is asked only once the source has handled the request (fetched).
            seenOnSource = annotationsOf('source.toolkit.fluxcd.io/v1', 'GitRepository', ns, 'flux-system')[REQUESTED_AT];
            onObjectBeforeSourceHandled = annotationsOf('kustomize.toolkit.fluxcd.io/v1', 'Kustomization', ns, 'apps')[REQUESTED_AT];
            cluster.patchStatus('source.toolkit.fluxcd.io/v1', 'GitRepository', ns, 'flux-system', { lastHandledReconcileAt: seenOnSource });
          }
          if (played || !stdout.includes(ASKED)) return;
          played = true;
          // What the controllers read: the annotation on the object and on its source.
          seenOnObject = annotationsOf('kustomize.toolkit.fluxcd.io/v1', 'Kustomization', ns, 'apps')[REQUESTED_AT];
          applyNewRevision(ns, seenOnObject);
        },
      },
    );

    expect(run.errors).toEqual([]);
    expect(run.warnings).toEqual([]);
    expect(run.outputs.result).toBe('ready');
    expect(run.log).toEqual(expect.arrayContaining([expect.stringContaining(`${ASKED}: GitRepository ${ns}/flux-system, Kustomization ${ns}/apps`)]));
    // RFC 3339 with fractions of a second, as Flux's CLI writes it, the same on the source and the object.
    expect(seenOnObject).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z$/);
    expect(seenOnSource).toBe(seenOnObject);
    expect(onObjectBeforeSourceHandled).toBeUndefined();
    expect(Math.abs(Date.parse(seenOnObject!) - Date.now())).toBeLessThan(120_000);
    expect(resourcesOf(run.outputs)).toMatchObject([{ kind: 'Kustomization', name: 'apps', status: 'Current', message: `Applied revision: ${NEW}` }]);
  }, 120_000);

  it('with the inventory on too, the parents are read once for both: no more LISTs than without reconcile', async () => {
    const requests = (ns: string) => cluster.counters.requests().filter((r) => r.namespace === ns && r.resource === 'kustomizations');
    const lists = (records: Array<{ verb: string }>) => records.filter((r) => r.verb === 'list').length;
    for (const reconcile of ['false', 'true']) {
      const ns = `reconcile-inventory-${reconcile}`;
      // Flux never applies the commit: the run waits on the parent alone until its short deadline.
      createFluxObjects(ns);
      const run = await runAction({
        kubeconfig: cluster.kubeconfig({ namespace: ns }),
        resources: `${KUSTOMIZATION}/apps`,
        revision: SHORT,
        reconcile,
        // Long enough for the first looks on a loaded machine, shorter than the wing's 15 s net reread.
        timeout: '10s',
      });
      expect(run.outputs.result).toBe('timeout');
      // The engine's LIST and the wing's first read (which the reconcile request shares), then at most one
      // read when the engine's first look at the parent wakes the wing: whether it does depends on which comes
      // first, the engine's answer or the wing's sleep (a loaded machine saw 2 without and 3 with). Asking to
      // reconcile adds none: it added one when it read the parents itself (3 or 4).
      expect(lists(requests(ns))).toBeGreaterThanOrEqual(2);
      expect(lists(requests(ns))).toBeLessThanOrEqual(3);
      if (reconcile === 'true') {
        // The request annotates what the shared read found: before its first patch (of the source), no LIST
        // of its own beside the engine's and the shared one (the wing's reread, if any, comes after it).
        const inNamespace = cluster.counters.requests().filter((r) => r.namespace === ns);
        const firstPatch = inNamespace.findIndex((r) => r.verb === 'patch');
        expect(firstPatch).toBeGreaterThan(0);
        expect(lists(inNamespace.slice(0, firstPatch).filter((r) => r.resource === 'kustomizations'))).toBeLessThanOrEqual(2);
      }
    }
  }, 60_000);

  it('without patch: exactly one warning naming the verb and the resources, and the step still succeeds', async () => {
    const ns = 'reconcile-forbidden';
    createFluxObjects(ns);
    let played = false;

    const run = await runAction(
      {
        kubeconfig: cluster.kubeconfig({ namespace: ns, token: 'read-only' }),
        resources: `${KUSTOMIZATION}/apps`,
        revision: SHORT,
        reconcile: 'true',
        inventory: 'false',
        timeout: '60s',
      },
      {
        onStdout: (stdout) => {
          if (played || !stdout.includes('Not asked to reconcile now')) return;
          played = true;
          applyNewRevision(ns, undefined);
        },
      },
    );

    expect(run.exitCode).toBe(0);
    expect(run.errors).toEqual([]);
    expect(run.outputs.result).toBe('ready');
    const warnings = run.warnings.map((warning) => warning.message);
    expect(warnings).toEqual([
      `Not asked to reconcile now: patch is forbidden (403) on gitrepositories.source.toolkit.fluxcd.io in namespace ${ns}, ` +
        `kustomizations.kustomize.toolkit.fluxcd.io in namespace ${ns}. Grant the step the patch verb on them (README, "GitOps: Flux and Argo CD"), ` +
        'or set reconcile: false; the wait goes on, and the controller acts at its interval.',
    ]);
    expect(annotationsOf('kustomize.toolkit.fluxcd.io/v1', 'Kustomization', ns, 'apps')[REQUESTED_AT]).toBeUndefined();
  }, 120_000);

  it('the command (--reconcile): refreshes an Argo CD Application as Argo CD does', async () => {
    const ns = 'reconcile-argo';
    const object = application.object(application.status({ sync: 'Synced', revision: OLD_SHA, health: 'Healthy' })) as { metadata: Record<string, unknown> };
    cluster.apply({ ...object, metadata: { ...object.metadata, namespace: ns } });
    const kubeconfig = path.join(mkdtempSync(path.join(tmpdir(), 'kubewait-reconcile-')), 'config');
    writeFileSync(kubeconfig, cluster.kubeconfig({ namespace: ns }));
    let refresh: string | undefined;
    let played = false;

    const run = await runCommand(
      ['applications.argoproj.io/shop', '--revision', SHORT, '--reconcile', '--inventory=false', '--kubeconfig', kubeconfig, '--timeout', '60s', '-o', 'json'],
      {
        signalWhen: (output) => {
          if (played || !output.includes(ASKED)) return undefined;
          played = true;
          refresh = annotationsOf('argoproj.io/v1alpha1', 'Application', ns, 'shop')['argocd.argoproj.io/refresh'];
          // Argo CD refreshes and syncs the new commit (it writes the whole object: its CRD has no status subresource).
          const synced = application.object(application.status({ sync: 'Synced', revision: NEW_SHA, health: 'Healthy' })) as {
            metadata: Record<string, unknown>;
          };
          cluster.apply({ ...synced, metadata: { ...synced.metadata, namespace: ns } });
          return undefined;
        },
      },
    );

    expect(run.exitCode).toBe(0);
    expect(refresh).toBe('normal');
    const document = JSON.parse(run.stdout) as { result: string; resources: ResourceOutput[] };
    expect(document.result).toBe('ready');
    expect(document.resources).toMatchObject([{ kind: 'Application', name: 'shop', status: 'Current' }]);
  }, 120_000);
});
