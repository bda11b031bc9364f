/**
 * GitOps against the real Flux controllers (issue 30): source-controller and kustomize-controller v1.9.6
 * (scripts/real-cluster/build-flux.sh) on the real control plane, fetching commits the test pushes to a
 * repository served over smart HTTP on loopback (`git http-backend`, flux.ts). Each case runs `dist/index.js`
 * (or `dist/cli.js`) with the Kustomization and the commit's sha as `revision`, the inventory on (the
 * default), and checks the verdict against what Flux itself did: a first deploy, a commit that prunes an
 * object, a build failure, a path not found, an unschedulable Deployment added, a dependency not ready, a
 * suspended Kustomization, and a fix pushed right after a failed commit with `reconcile`; when
 * scripts/real-cluster/build-flux-cli.sh has built the flux CLI, that fix once more beside `flux reconcile ks --with-source`.
 * Skipped, with one line saying why, when the control plane or the controllers are not built;
 * KUBEWAIT_REAL_CLUSTER=required turns a missing control plane into a failure, KUBEWAIT_REAL_FLUX=required
 * missing controllers (.ci/run sets each once it has built them).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { ResourceOutput } from '../../src/report/outputs.js';
import { ensureDist } from '../e2e/dist.js';
import { runAction } from '../e2e/runAction.js';
import { runCommand } from '../e2e/runCommand.js';
import { deployment } from '../e2e/objects.js';
import { builtBinDir, NOT_BUILT } from './binaries.js';
import { startRealCluster, TOKEN_USER, type RealCluster } from './cluster.js';
import { builtFluxCli, builtFluxDir, FLUX_CLI_NOT_BUILT, FLUX_NOT_BUILT, startFlux, type GitRepo, type RealFlux } from './flux.js';
import { namespace } from './objects.js';
import { kustomization, NEW, OLD } from '../status/gitops/statuses.js';

const missing = builtBinDir() === undefined ? NOT_BUILT : builtFluxDir() === undefined ? FLUX_NOT_BUILT : undefined;
if (missing) {
  // .ci/run sets KUBEWAIT_REAL_FLUX=required once it has built the controllers (it leaves them to the next run
  // when it had to build the control plane cold): then their absence is a failure.
  if (process.env.KUBEWAIT_REAL_FLUX === 'required') throw new Error(`KUBEWAIT_REAL_FLUX=required, but ${missing}`);
  if (process.env.KUBEWAIT_REAL_CLUSTER === 'required' && missing === NOT_BUILT) throw new Error(`KUBEWAIT_REAL_CLUSTER=required, but ${missing}`);
  process.stderr.write(`real Flux suite skipped: ${missing}\n`);
}
const describeReal = missing ? describe.skip : describe;
// The flux CLI (scripts/real-cluster/build-flux-cli.sh) is built for the bench only: its one case here runs when it is.
const fluxCli = builtFluxCli();
if (!missing && !fluxCli) process.stderr.write(`real Flux suite: the case beside the flux CLI skipped: ${FLUX_CLI_NOT_BUILT}\n`);
const itWithFluxCli = fluxCli ? it : it.skip;

const KUSTOMIZATION = 'kustomizations.kustomize.toolkit.fluxcd.io';
const REQUESTED_AT = 'reconcile.fluxcd.io/requestedAt';
/** Flux's health checks of a commit: long enough for a Deployment on this control plane, short for a failure. */
const FLUX_TIMEOUT = '20s';

let cluster: RealCluster;
let flux: RealFlux;

const resourcesOf = (outputs: Record<string, string>) => JSON.parse(outputs.resources ?? '[]') as ResourceOutput[];
const yaml = (...objects: object[]) => objects.map((o) => JSON.stringify(o)).join('\n---\n');
const kustomizationFile = (...resources: string[]) => yaml({ apiVersion: 'kustomize.config.k8s.io/v1beta1', kind: 'Kustomization', resources });
/** An object for the repository: no namespace (the Kustomization's targetNamespace places it). */
function inRepository<T extends { metadata: { namespace?: string } }>(object: T): T {
  const { namespace: _placed, ...metadata } = object.metadata;
  return { ...object, metadata };
}
/** A Deployment kwok runs (ready 300 ms after its pod is bound); `image` tells commits apart. */
const api = (image = '1.0') => {
  const d = inRepository(deployment('api', { replicas: 1, readyAfterMs: 300 }));
  d.spec.template.spec.containers[0]!.image = `registry.example.com/api:${image}`;
  return d;
};
const settings = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' }, data: { level: 'info' } };
/** A Deployment whose pod no node can take (the real scheduler says Unschedulable), or, fixed, one that runs. */
const web = (schedulable = false) => {
  const d = inRepository(deployment('web', { replicas: 1, readyAfterMs: 300 }));
  const spec = d.spec.template.spec as Record<string, unknown>;
  if (!schedulable) spec.nodeSelector = { 'kubewait.test/no-such-node': 'true' };
  return d;
};

/** The first commit of a case: `apps/` with the api Deployment and the settings ConfigMap. */
const FIRST = { 'apps/kustomization.yaml': kustomizationFile('api.yaml', 'settings.yaml'), 'apps/api.yaml': yaml(api()), 'apps/settings.yaml': yaml(settings) };

interface Case {
  ns: string;
  repo: GitRepo;
}

interface SetUpOptions {
  sourceInterval?: string;
  kustomizations?: Array<{ name: string; path: string; dependsOn?: string[] }>;
}

/** A namespace, a repository with FIRST as its first commit, its GitRepository and the Kustomization(s). */
async function setUp(ns: string, options: SetUpOptions = {}): Promise<Case & { first: string }> {
  const repo = await flux.repo(ns);
  const first = await repo.commit(FIRST, 'first');
  await createFluxObjects(ns, repo, options);
  return { ns, repo, first };
}

/** The namespace, the GitRepository of `repo` and the Kustomization(s). */
async function createFluxObjects(ns: string, repo: GitRepo, options: SetUpOptions = {}): Promise<void> {
  await cluster.apply(namespace(ns));
  await cluster.apply({
    apiVersion: 'source.toolkit.fluxcd.io/v1',
    kind: 'GitRepository',
    metadata: { name: 'repo', namespace: ns },
    spec: { interval: options.sourceInterval ?? '2s', url: repo.url, ref: { branch: 'main' }, timeout: '20s' },
  });
  for (const k of options.kustomizations ?? [{ name: 'apps', path: './apps' }])
    await cluster.apply({
      apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
      kind: 'Kustomization',
      metadata: { name: k.name, namespace: ns },
      spec: {
        interval: '1h',
        path: k.path,
        prune: true,
        wait: true,
        timeout: FLUX_TIMEOUT,
        retryInterval: '1h',
        targetNamespace: ns,
        sourceRef: { kind: 'GitRepository', name: 'repo' },
        ...(k.dependsOn && { dependsOn: k.dependsOn.map((name) => ({ name })) }),
      },
    });
}

interface KustomizationStatus {
  lastAppliedRevision?: string;
  history?: Array<{ lastReconciledStatus: string; totalReconciliations: number; metadata?: { revision?: string } }>;
  conditions?: Array<{ type: string; status: string; reason: string; message: string }>;
}

async function kustomizationStatus(ns: string, name = 'apps'): Promise<KustomizationStatus> {
  return (JSON.parse(await cluster.kubectl('get', KUSTOMIZATION, name, '-n', ns, '-o', 'json')) as { status?: KustomizationStatus }).status ?? {};
}

/** Until `check` holds for the Kustomization's status (rejects with the controllers' logs after 120 s). */
async function until(ns: string, what: string, check: (status: KustomizationStatus) => boolean, name = 'apps'): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (!check(await kustomizationStatus(ns, name))) {
    if (Date.now() > deadline)
      throw new Error(`Kustomization ${ns}/${name}: ${what} not within 120 s\n${flux.logTail('source-controller')}\n${flux.logTail('kustomize-controller')}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
const applied = (ns: string, sha: string) => until(ns, `applied ${sha}`, (s) => s.lastAppliedRevision === `main@sha1:${sha}`);

const waitFor = (ns: string, revision: string, inputs: Record<string, string> = {}) =>
  runAction(
    { kubeconfig: cluster.kubeconfig({ namespace: ns, user: 'token' }), resources: `${KUSTOMIZATION}/apps`, revision, timeout: '120s', ...inputs },
    { killAfterMs: 180_000 },
  );

/** Every status field the played states set, cleared (a merge patch keeps what it does not name). */
const EMPTY_STATUS = { lastAppliedRevision: null, lastAttemptedRevision: null, inventory: null, history: null, conditions: null, observedGeneration: null };
const prefixed = (prefix: string, states: Record<string, object>) => Object.fromEntries(Object.entries(states).map(([k, v]) => [`${prefix}${k}`, v]));

const byName = (resources: ResourceOutput[], kind: string, name: string) => resources.find((r) => r.kind === kind && r.name === name);

/** The Kustomization's history entries of `commit` that ended in HealthCheckFailed. */
const failedRuns = (status: KustomizationStatus, commit: string) =>
  (status.history ?? []).filter((h) => h.metadata?.revision === `main@sha1:${commit}` && h.lastReconciledStatus === 'HealthCheckFailed');

/** Pushes a commit adding a Deployment no node can take, has the source fetch it (it polls hourly in these cases),
 *  and waits for Flux's HealthCheckFailed for it. Returns the commit. */
async function failedCommit(ns: string, repo: GitRepo): Promise<string> {
  const broken = await repo.commit(
    { 'apps/kustomization.yaml': kustomizationFile('api.yaml', 'settings.yaml', 'web.yaml'), 'apps/web.yaml': yaml(web()) },
    'web',
  );
  await cluster.kubectl('annotate', '--overwrite', 'gitrepositories.source.toolkit.fluxcd.io', 'repo', '-n', ns, `${REQUESTED_AT}=${new Date().toISOString()}`);
  await until(ns, 'HealthCheckFailed for the failing commit', (s) => failedRuns(s, broken).length > 0);
  return broken;
}

describeReal('GitOps against the real Flux controllers', () => {
  beforeAll(async () => {
    await ensureDist();
    cluster = await startRealCluster({ nodes: 1 });
    flux = await startFlux(cluster);
  }, 300_000);

  afterAll(async () => {
    await flux?.close();
    await cluster?.close();
  });

  it('the played statuses (test/status/gitops/statuses.ts, `real`) are ones the real CRD accepts', async () => {
    const ns = 'flux-played';
    await cluster.apply(namespace(ns));
    // Suspended: kustomize-controller leaves it alone, so what the server holds is what was played.
    const played = kustomization.object() as { metadata: Record<string, unknown>; spec: Record<string, unknown> };
    await cluster.apply({ ...played, metadata: { ...played.metadata, namespace: ns }, spec: { ...played.spec, suspend: true } });
    const states = {
      ...kustomization.real(OLD, NEW),
      ...prefixed('first.', kustomization.real('', NEW, true)),
      dependencyNotReady: kustomization.dependencyNotReady(OLD),
    };
    for (const [state, status] of Object.entries(states)) {
      await expect(
        cluster.kubectl(
          'patch',
          KUSTOMIZATION,
          'apps',
          '-n',
          ns,
          '--subresource=status',
          '--type=merge',
          '-p',
          JSON.stringify({ status: { ...EMPTY_STATUS, ...status } }),
        ),
      ).resolves.toContain(`patched`);
      const stored = (JSON.parse(await cluster.kubectl('get', KUSTOMIZATION, 'apps', '-n', ns, '-o', 'json')) as { status: object }).status;
      expect({ state, stored }).toEqual({ state, stored: status });
    }
  }, 120_000);

  it('a first deploy: ready once Flux applied the commit and its Deployment is ready, the Deployment judged under its parent', async () => {
    const ns = 'flux-first';
    const repo = await flux.repo(ns);
    const sha = await repo.commit(FIRST, 'first');
    // kubewait starts before anything exists: Flux has no inventory yet, and the first write has none.
    const running = waitFor(ns, sha);
    await createFluxObjects(ns, repo);
    const run = await running;

    expect(run.errors).toEqual([]);
    expect(run.outputs.result).toBe('ready');
    const resources = resourcesOf(run.outputs);
    expect(byName(resources, 'Kustomization', 'apps')).toMatchObject({ status: 'Current', message: `Applied revision: main@sha1:${sha}` });
    expect(byName(resources, 'Deployment', 'api')).toMatchObject({
      namespace: ns,
      status: 'Current',
      parent: { kind: 'Kustomization', namespace: ns, name: 'apps' },
    });
    expect(byName(resources, 'ConfigMap', 'settings')).toMatchObject({ status: 'Current' });
  }, 300_000);

  it('a commit that removes an object: Flux prunes it, and it is no target (never "to be created again")', async () => {
    const { ns, repo, first } = await setUp('flux-prune');
    await applied(ns, first);
    const sha = await repo.commit(
      { 'apps/kustomization.yaml': kustomizationFile('api.yaml'), 'apps/settings.yaml': null, 'apps/api.yaml': yaml(api('1.1')) },
      'prune',
    );
    const run = await waitFor(ns, sha);

    expect(run.errors).toEqual([]);
    expect(run.outputs.result).toBe('ready');
    const resources = resourcesOf(run.outputs);
    expect(byName(resources, 'ConfigMap', 'settings')).toBeUndefined();
    expect(byName(resources, 'Deployment', 'api')).toMatchObject({ status: 'Current', parent: { name: 'apps' } });
    expect(byName(resources, 'Kustomization', 'apps')).toMatchObject({ message: `Applied revision: main@sha1:${sha}` });
  }, 300_000);

  it('a commit that does not build: failed with Flux’s BuildFailed message, the previous inventory not judged', async () => {
    const { ns, repo, first } = await setUp('flux-build');
    await applied(ns, first);
    const sha = await repo.commit({ 'apps/kustomization.yaml': kustomizationFile('api.yaml', 'missing.yaml') }, 'broken');
    const run = await waitFor(ns, sha);

    expect(run.outputs.result).toBe('failed');
    const resources = resourcesOf(run.outputs);
    expect(byName(resources, 'Kustomization', 'apps')).toMatchObject({
      status: 'Failed',
      message: expect.stringMatching(new RegExp(`^BuildFailed \\(revision main@sha1:${sha}\\): .*missing\\.yaml`)),
    });
    // Nothing of this commit was applied: the objects of the previous one are not its inventory.
    expect(resources.filter((r) => r.parent)).toEqual([]);
  }, 300_000);

  it('the command: a commit without the Kustomization’s path fails with Flux’s "kustomization path not found" (exit 1)', async () => {
    const { ns, repo, first } = await setUp('flux-path');
    await applied(ns, first);
    const sha = await repo.commit(
      { 'apps/kustomization.yaml': null, 'apps/api.yaml': null, 'apps/settings.yaml': null, 'moved/README.md': 'moved\n' },
      'moved',
    );
    const kubeconfig = `${cluster.kubeconfigPath}.${ns}`;
    cluster.writeKubeconfig(kubeconfig, { namespace: ns, user: 'token' });
    const run = await runCommand([`${KUSTOMIZATION}/apps`, '--revision', sha, '--kubeconfig', kubeconfig, '--timeout', '120s', '-o', 'json'], {
      killAfterMs: 180_000,
    });

    expect(run.exitCode).toBe(1);
    const result = JSON.parse(run.stdout) as { result: string; resources: ResourceOutput[] };
    expect(result.result).toBe('failed');
    expect(byName(result.resources, 'Kustomization', 'apps')).toMatchObject({
      status: 'Failed',
      message: expect.stringContaining(`ArtifactFailed (revision main@sha1:${sha}): kustomization path not found`),
    });
  }, 300_000);

  it('a commit that adds an unschedulable Deployment: the new Deployment is judged under its parent, Unschedulable, no container named', async () => {
    const { ns, repo, first } = await setUp('flux-unschedulable');
    await applied(ns, first);
    const sha = await repo.commit(
      { 'apps/kustomization.yaml': kustomizationFile('api.yaml', 'settings.yaml', 'web.yaml'), 'apps/web.yaml': yaml(web()) },
      'web',
    );
    const run = await waitFor(ns, sha);

    expect(run.outputs.result).toBe('failed');
    const resources = resourcesOf(run.outputs);
    const added = byName(resources, 'Deployment', 'web');
    expect(added).toMatchObject({ namespace: ns, parent: { kind: 'Kustomization', name: 'apps' } });
    expect(added?.message).toContain('Unschedulable');
    expect(added?.message).not.toMatch(/in container/);
    expect(byName(resources, 'Kustomization', 'apps')).toMatchObject({ status: 'Failed', message: expect.stringContaining('HealthCheckFailed') });
  }, 300_000);

  it('a dependency not ready: at the deadline, Flux’s DependencyNotReady naming the dependency', async () => {
    const ns = 'flux-depends';
    const { first } = await setUp(ns, {
      kustomizations: [
        { name: 'infra', path: './not-in-the-repository' },
        { name: 'apps', path: './apps', dependsOn: ['infra'] },
      ],
    });
    await until(ns, 'DependencyNotReady', (s) => (s.conditions ?? []).some((c) => c.reason === 'DependencyNotReady'));
    const run = await waitFor(ns, first, { timeout: '8s' });

    expect(run.outputs.result).toBe('timeout');
    expect(byName(resourcesOf(run.outputs), 'Kustomization', 'apps')).toMatchObject({
      status: 'InProgress',
      message: expect.stringContaining(`Flux says DependencyNotReady: dependency '${ns}/infra'`),
    });
  }, 300_000);

  it('suspended: at the deadline, the Kustomization says it is suspended', async () => {
    const { ns, repo, first } = await setUp('flux-suspended');
    await applied(ns, first);
    await cluster.kubectl('patch', KUSTOMIZATION, 'apps', '-n', ns, '--type=merge', '-p', '{"spec":{"suspend":true}}');
    const sha = await repo.commit({ 'apps/api.yaml': yaml(api('1.1')) }, 'while suspended');
    const run = await waitFor(ns, sha, { timeout: '8s' });

    expect(run.outputs.result).toBe('timeout');
    expect(byName(resourcesOf(run.outputs), 'Kustomization', 'apps')).toMatchObject({
      status: 'InProgress',
      message: expect.stringContaining('the Kustomization is suspended (spec.suspend: true)'),
    });
  }, 300_000);

  it('a fix pushed right after a failed commit, with reconcile: the source first, the Kustomization once it fetched; Flux never re-runs the failed commit', async () => {
    // The source is fetched only when asked: the test asks for the failing commit, kubewait for the fix.
    const { ns, repo, first } = await setUp('flux-fix', { sourceInterval: '1h' });
    await applied(ns, first);
    const broken = await failedCommit(ns, repo);
    const fix = await repo.commit({ 'apps/web.yaml': yaml(web(true)) }, 'fix');
    const run = await waitFor(ns, fix, { reconcile: 'true' });

    expect(run.errors).toEqual([]);
    expect(run.outputs.result).toBe('ready');
    expect(byName(resourcesOf(run.outputs), 'Deployment', 'web')).toMatchObject({ status: 'Current', parent: { name: 'apps' } });
    // The order the API server saw: kubewait annotated the GitRepository, source-controller wrote its status
    // (the new artifact), and only then kubewait annotated the Kustomization.
    const events = readFileSync(cluster.auditLogPath, 'utf8')
      .split('\n')
      .filter((line) => line.includes(`"namespace":"${ns}"`) && line.includes('"stage":"ResponseComplete"'))
      .map((line) => JSON.parse(line) as { verb: string; user: { username: string }; objectRef?: { resource?: string; subresource?: string } });
    const index = (match: (e: (typeof events)[number]) => boolean) => events.findIndex(match);
    const askedSource = index((e) => e.user.username === TOKEN_USER && e.verb === 'patch' && e.objectRef?.resource === 'gitrepositories');
    const askedKustomization = index((e) => e.user.username === TOKEN_USER && e.verb === 'patch' && e.objectRef?.resource === 'kustomizations');
    const fetched = events.findIndex(
      (e, i) => i > askedSource && e.user.username !== TOKEN_USER && e.objectRef?.resource === 'gitrepositories' && e.objectRef.subresource === 'status',
    );
    expect(askedSource).toBeGreaterThanOrEqual(0);
    expect(fetched).toBeGreaterThan(askedSource);
    expect(askedKustomization).toBeGreaterThan(fetched);
    // Flux did not run the failed commit again (with its whole health-check timeout) before the fix: its
    // HealthCheckFailed snapshot was reconciled once (History.Upsert counts a repeat of the same build and outcome).
    expect(failedRuns(await kustomizationStatus(ns), broken)).toMatchObject([{ totalReconciliations: 1 }]);
  }, 300_000);

  itWithFluxCli(
    'a fix right after a failed commit, kubewait `reconcile` beside the real `flux reconcile ks --with-source`: both ready on the fix',
    async () => {
      const { ns, repo, first } = await setUp('flux-cli', { sourceInterval: '1h' });
      await applied(ns, first);
      await failedCommit(ns, repo);
      const fix = await repo.commit({ 'apps/web.yaml': yaml(web(true)) }, 'fix');
      const home = mkdtempSync(path.join(tmpdir(), 'kubewait-flux-cli-'));
      const kubeconfig = path.join(home, 'kubeconfig');
      cluster.writeKubeconfig(kubeconfig, { namespace: ns, user: 'token' });
      try {
        // Side by side, each asking on its own: neither's request makes Flux run the failed commit again.
        const [run, cli] = await Promise.all([
          waitFor(ns, fix, { reconcile: 'true' }),
          promisify(execFile)(fluxCli!, ['reconcile', 'kustomization', 'apps', '--with-source', '-n', ns, '--kubeconfig', kubeconfig, '--timeout', '120s'], {
            env: { PATH: process.env.PATH, HOME: home },
          }),
        ]);

        expect(run.errors).toEqual([]);
        expect(run.outputs.result).toBe('ready');
        expect(byName(resourcesOf(run.outputs), 'Deployment', 'web')).toMatchObject({ status: 'Current', parent: { name: 'apps' } });
        // flux exited 0 (promisify rejects otherwise) once the Kustomization was Ready. It names the lastAppliedRevision of
        // the read that saw Ready, which can still be the previous one (Flux writes the conditions first): the status
        // read after both says the fix.
        expect(cli.stderr).toContain('applied revision main@sha1:');
        expect((await kustomizationStatus(ns)).lastAppliedRevision).toBe(`main@sha1:${fix}`);
      } finally {
        rmSync(home, { recursive: true, force: true });
      }
    },
    300_000,
  );
});
