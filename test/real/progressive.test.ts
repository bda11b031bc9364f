/**
 * Progressive delivery on a real control plane (test/real/cluster.ts): Argo Rollouts' Rollout and AnalysisRun
 * and Flagger's Canary CRDs, untrimmed from their repositories, served by kube-apiserver, while the test plays
 * the controllers with the statuses they write (test/status/progressive/statuses.ts): each a merge patch of the
 * status subresource (argo-rollouts' persistRolloutStatus patches; Flagger's UpdateStatus replaces, and the
 * sequences played never drop a field), so the server validates every status against the controller's own
 * schema. `dist/index.js` and `dist/cli.js` see each through the real server's list and watch.
 *
 * The CRDs are data read from the steering repository's shared/reference/crds/ (beside the clone, as CI lays
 * it): their upstream files are not copied into this repository. Skipped, with one line saying so, when the
 * binaries are not built or the CRDs are not there; KUBEWAIT_REAL_CLUSTER=required turns either into a failure.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ResourceOutput } from '../../src/report/outputs.js';
import { ensureDist } from '../e2e/dist.js';
import { runAction } from '../e2e/runAction.js';
import { runCommand } from '../e2e/runCommand.js';
import {
  analysisRun,
  analysisRunStatus,
  blueGreenStatus,
  canary,
  canaryStatus,
  canaryStatuses,
  FAILED_METRIC_MESSAGE,
  INCONCLUSIVE_MESSAGE,
  rollout,
  STEP_RUN,
} from '../status/progressive/statuses.js';
import { builtBinDir, NOT_BUILT, ROOT } from './binaries.js';
import { startRealCluster, type RealCluster } from './cluster.js';
import { namespace } from './objects.js';
import { controller } from './play.js';

/** The upstream CRDs are data kept beside the clone, never committed: the steering repository's shared/
 *  next to the clone, or on this machine's one. */
const CRD_DIRS = [path.join(ROOT, '..', 'shared', 'reference', 'crds'), '/work/shared/reference/crds'];
const CRD_NAMES = ['argo-rollouts-rollout-crd.yaml', 'argo-rollouts-analysis-run-crd.yaml', 'flagger-crd.yaml'];
const CRDS = CRD_DIRS.find((dir) => CRD_NAMES.every((file) => existsSync(path.join(dir, file)))) ?? CRD_DIRS[0]!;
const CRD_FILES = CRD_NAMES.map((file) => path.join(CRDS, file));
const missing = builtBinDir() === undefined ? NOT_BUILT : CRD_FILES.find((file) => !existsSync(file));
if (missing) {
  const why = missing === NOT_BUILT ? NOT_BUILT : `the upstream CRD ${missing} is not there`;
  // A missing binary is the build's to fix; the CRDs are data outside the repository, which a clone may not have.
  if (missing === NOT_BUILT && process.env.KUBEWAIT_REAL_CLUSTER === 'required') throw new Error(`KUBEWAIT_REAL_CLUSTER=required, but ${why}`);
  process.stderr.write(`real-cluster progressive-delivery suite skipped: ${why}\n`);
}
const describeReal = missing ? describe.skip : describe;

const ROLLOUTS = 'rollouts.argoproj.io';
const ANALYSIS_RUNS = 'analysisruns.argoproj.io';
const CANARIES = 'canaries.flagger.app';

let cluster: RealCluster;
let scratch: string;

const resourcesOf = (outputs: Record<string, string>) => JSON.parse(outputs.resources ?? '[]') as ResourceOutput[];
const withNamespace = <T extends { metadata: object }>(object: T, ns: string) => ({ ...object, metadata: { ...object.metadata, namespace: ns } });

/** The controller's status write: a merge patch of the status subresource. */
const patchStatus = (resource: string, ns: string, status: object) =>
  cluster.kubectl('patch', resource, 'web', '-n', ns, '--subresource=status', '--type=merge', '-p', JSON.stringify({ status }));

/** Revision 2 of a Rollout: created at revision 1, then its image changed (generation 2, as the statuses say). */
async function createRollout(ns: string, strategy: 'canary' | 'blueGreen' = 'canary'): Promise<void> {
  await cluster.apply(namespace(ns));
  const second = withNamespace(rollout(strategy), ns);
  const { generation: _generation, ...metadata } = second.metadata;
  const container = { name: 'web', image: 'registry.example/web:1' };
  await cluster.apply({ ...second, metadata, spec: { ...second.spec, template: { ...second.spec.template, spec: { containers: [container] } } } });
  await cluster.apply({ ...second, metadata });
}

/** A kubeconfig file for the command, in the run's scratch directory. */
function kubeconfigFile(ns: string): string {
  const file = path.join(scratch, `${ns}.yaml`);
  cluster.writeKubeconfig(file, { user: 'token' });
  return file;
}

async function createCanary(ns: string): Promise<void> {
  await cluster.apply(namespace(ns));
  const { generation: _generation, ...metadata } = withNamespace(canary(), ns).metadata;
  await cluster.apply({ ...canary(), metadata });
}

describeReal('progressive delivery on a real control plane', () => {
  beforeAll(async () => {
    await ensureDist();
    scratch = mkdtempSync(path.join(tmpdir(), 'kubewait-progressive-'));
    cluster = await startRealCluster({ nodes: 1 });
    // `create`, not `apply`: the Rollout CRD is too large for apply's last-applied annotation.
    for (const file of CRD_FILES) await cluster.kubectl('create', '-f', file);
    await cluster.crdsEstablished(ROLLOUTS, ANALYSIS_RUNS, CANARIES);
  }, 240_000);

  afterAll(async () => {
    await cluster?.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('the real schemas are in force: a status the controller would never write is refused', async () => {
    const ns = 'schemas';
    await createRollout(ns);
    // RolloutAnalysisRunStatus requires the run's name and status.
    await expect(patchStatus(ROLLOUTS, ns, { canary: { currentStepAnalysisRunStatus: { status: 'Running' } } })).rejects.toThrow(/name: Required value/);
    await createCanary(ns);
    await expect(patchStatus(CANARIES, ns, { phase: 'Promoted' })).rejects.toThrow(/Unsupported value: "Promoted"/);
  }, 60_000);

  describe('an Argo Rollout', () => {
    it('paused: step:2: step 0 -> its analysis at step 1 -> paused at step 2 of 5: ready there, with step and weight', async () => {
      const ns = 'rollout-step';
      await createRollout(ns);
      await patchStatus(ROLLOUTS, ns, canaryStatus.weight20());
      const play = controller([
        { after: 'canary step 0/5: waiting for it to pause at step 2', write: () => patchStatus(ROLLOUTS, ns, canaryStatus.analysisRunning()) },
        { after: 'canary step 1/5: waiting for it to pause at step 2', write: () => patchStatus(ROLLOUTS, ns, canaryStatus.pausedAtStep2()) },
      ]);

      const run = await runAction(
        { kubeconfig: cluster.kubeconfig({ namespace: ns }), resources: `${ROLLOUTS}/web`, paused: 'step:2', timeout: '90s' },
        { onStdout: play.onStdout, killAfterMs: 120_000 },
      );

      await play.done();
      expect(run.errors).toEqual([]);
      expect(run.outputs.result).toBe('ready');
      expect(resourcesOf(run.outputs)).toEqual([
        expect.objectContaining({
          kind: 'Rollout',
          name: 'web',
          status: 'Current',
          rule: 'builtin:argo-rollouts-rollout',
          message: `Rollout paused at canary step 3 of 5 (CanaryPauseStep), canary step 2/5, counted ready (paused: step:2); kubectl argo rollouts promote web -n ${ns} continues it`,
          step: '2/5',
          weight: 20,
        }),
      ]);
      expect(run.summary).toContain('canary step 2/5, weight 20 % — Rollout paused');
    }, 150_000);

    it('paused: analysis, through the command: the run passes and the controller moves on to step 2: ready', async () => {
      const ns = 'rollout-analysis';
      await createRollout(ns);
      await patchStatus(ROLLOUTS, ns, canaryStatus.analysisRunning());
      const play = controller([
        { after: `analysis ${STEP_RUN} Running at canary step 1/5`, write: () => patchStatus(ROLLOUTS, ns, canaryStatus.pausedAtStep2()) },
      ]);

      const kubeconfig = kubeconfigFile(ns);
      const run = await runCommand([`${ROLLOUTS}/web`, '-n', ns, '--kubeconfig', kubeconfig, '--paused', 'analysis', '--timeout', '90s', '-o', 'json'], {
        onOutput: play.onStdout,
        killAfterMs: 120_000,
      });

      await play.done();
      expect(run.exitCode).toBe(0);
      // The step log says where the canary stands before its message, as the summary row does.
      expect(run.stderr).toMatch(/: InProgress( after [\d.]+s)?: canary step 1\/5, weight \d+ %, analysis Running — /);
      const document = JSON.parse(run.stdout) as { result: string; resources: ResourceOutput[] };
      expect(document.result).toBe('ready');
      expect(document.resources).toEqual([
        expect.objectContaining({
          status: 'Current',
          message: `past its analysis step, at canary step 2/5, counted ready (paused: analysis); kubectl argo rollouts promote web -n ${ns} continues it`,
          step: '2/5',
          weight: 20,
        }),
      ]);
    }, 150_000);

    it('paused: analysis, through the command: the run fails, the controller aborts: failed with the run’s message naming the metric', async () => {
      const ns = 'rollout-analysis-failed';
      await createRollout(ns);
      await patchStatus(ROLLOUTS, ns, canaryStatus.analysisRunning());
      const play = controller([
        { after: `analysis ${STEP_RUN} Running at canary step 1/5`, write: () => patchStatus(ROLLOUTS, ns, canaryStatus.analysisFailed()) },
      ]);

      const kubeconfig = kubeconfigFile(ns);
      const run = await runCommand([`${ROLLOUTS}/web`, '-n', ns, '--kubeconfig', kubeconfig, '--paused', 'analysis', '--timeout', '90s', '-o', 'json'], {
        onOutput: play.onStdout,
        killAfterMs: 120_000,
      });

      await play.done();
      expect(run.exitCode).toBe(1);
      const document = JSON.parse(run.stdout) as { result: string; resources: ResourceOutput[] };
      expect(document.result).toBe('failed');
      expect(document.resources).toEqual([
        expect.objectContaining({
          status: 'Failed',
          message: `analysis ${STEP_RUN} Failed: ${FAILED_METRIC_MESSAGE}`,
          step: '0/5',
          weight: 0,
          analysis: 'Failed',
        }),
      ]);
    }, 150_000);

    it('paused: analysis: an inconclusive run fails at once, as it needs a human decision', async () => {
      const ns = 'rollout-inconclusive';
      await createRollout(ns);
      await patchStatus(ROLLOUTS, ns, canaryStatus.analysisRunning());
      const play = controller([{ after: `analysis ${STEP_RUN} Running`, write: () => patchStatus(ROLLOUTS, ns, canaryStatus.analysisInconclusive()) }]);

      const run = await runAction(
        { kubeconfig: cluster.kubeconfig({ namespace: ns }), resources: `${ROLLOUTS}/web`, paused: 'analysis', timeout: '90s' },
        { onStdout: play.onStdout, killAfterMs: 120_000 },
      );

      await play.done();
      expect(run.outputs.result).toBe('failed');
      expect(resourcesOf(run.outputs)).toEqual([
        expect.objectContaining({
          status: 'Failed',
          message: `analysis ${STEP_RUN} Inconclusive (${INCONCLUSIVE_MESSAGE}): needs a human decision: kubectl argo rollouts promote web -n ${ns} continues it, kubectl argo rollouts abort web -n ${ns} rolls it back`,
          analysis: 'Inconclusive',
        }),
      ]);
      expect(Number(run.outputs.duration)).toBeLessThan(60); // failed, not timed out
    }, 150_000);

    it('its AnalysisRun named as a target: Running -> Failed, with the message naming the metric (rule argo-rollouts-analysisrun)', async () => {
      const ns = 'analysisrun';
      await cluster.apply(namespace(ns));
      await cluster.apply(withNamespace(analysisRun(), ns));
      // The AnalysisRun CRD has no status subresource: the controller updates the whole object.
      const patchRun = (status: object) => cluster.kubectl('patch', ANALYSIS_RUNS, STEP_RUN, '-n', ns, '--type=merge', '-p', JSON.stringify({ status }));
      await patchRun(analysisRunStatus.running());
      const play = controller([{ after: 'phase Running', write: () => patchRun(analysisRunStatus.failed()) }]);

      const run = await runAction(
        { kubeconfig: cluster.kubeconfig({ namespace: ns }), resources: `${ANALYSIS_RUNS}/${STEP_RUN}`, timeout: '90s' },
        { onStdout: play.onStdout, killAfterMs: 120_000 },
      );

      await play.done();
      expect(run.outputs.result).toBe('failed');
      expect(resourcesOf(run.outputs)).toEqual([
        expect.objectContaining({
          kind: 'AnalysisRun',
          status: 'Failed',
          rule: 'builtin:argo-rollouts-analysisrun',
          message: expect.stringContaining(FAILED_METRIC_MESSAGE),
        }),
      ]);
    }, 150_000);

    it('blue-green with paused: ready: the preview scaling -> awaiting promotion (BlueGreenPause): ready', async () => {
      const ns = 'rollout-bluegreen';
      await createRollout(ns, 'blueGreen');
      await patchStatus(ROLLOUTS, ns, blueGreenStatus.previewScaling());
      const play = controller([{ after: 'waiting for preview to be ready', write: () => patchStatus(ROLLOUTS, ns, blueGreenStatus.previewPaused()) }]);

      const run = await runAction(
        { kubeconfig: cluster.kubeconfig({ namespace: ns }), resources: `${ROLLOUTS}/web`, paused: 'ready', timeout: '90s' },
        { onStdout: play.onStdout, killAfterMs: 120_000 },
      );

      await play.done();
      expect(run.outputs.result).toBe('ready');
      expect(resourcesOf(run.outputs)).toEqual([
        expect.objectContaining({
          status: 'Current',
          message: expect.stringMatching(/^Rollout paused \(BlueGreenPause\), counted ready \(paused: ready\)/),
          analysis: 'Successful',
        }),
      ]);
    }, 150_000);
  });

  describe('a Flagger Canary', () => {
    it('Succeeded from the previous deploy: not picked up yet -> analysed -> promoted: ready only at the new Succeeded', async () => {
      const ns = 'canary-stale';
      await createCanary(ns);
      await patchStatus(CANARIES, ns, canaryStatuses.succeededOld());
      const play = controller([
        { after: 'Flagger has not picked up this revision yet', write: () => patchStatus(CANARIES, ns, canaryStatuses.progressing(10)) },
        { after: 'canary weight 10 %', write: () => patchStatus(CANARIES, ns, canaryStatuses.promoting()) },
        { after: 'Promoting:', write: () => patchStatus(CANARIES, ns, canaryStatuses.finalising()) },
        { after: 'Finalising:', write: () => patchStatus(CANARIES, ns, canaryStatuses.succeededNew()) },
      ]);

      const run = await runAction(
        { kubeconfig: cluster.kubeconfig({ namespace: ns }), resources: `${CANARIES}/web`, timeout: '90s' },
        { onStdout: play.onStdout, killAfterMs: 120_000 },
      );

      await play.done();
      expect(run.outputs.result).toBe('ready');
      expect(resourcesOf(run.outputs)).toEqual([
        expect.objectContaining({
          kind: 'Canary',
          status: 'Current',
          rule: 'builtin:flagger-canary',
          message: 'Succeeded: Canary analysis completed successfully, promotion finished.',
          weight: 0,
          analysis: 'Successful',
        }),
      ]);
    }, 150_000);

    it('a new revision’s analysis fails: failed with Flagger’s message', async () => {
      const ns = 'canary-failed';
      await createCanary(ns);
      await patchStatus(CANARIES, ns, canaryStatuses.succeededOld());
      const play = controller([
        { after: 'Flagger has not picked up this revision yet', write: () => patchStatus(CANARIES, ns, canaryStatuses.progressing(30, 4)) },
        { after: 'failed checks 4', write: () => patchStatus(CANARIES, ns, canaryStatuses.failed()) },
      ]);

      const run = await runAction(
        { kubeconfig: cluster.kubeconfig({ namespace: ns }), resources: `${CANARIES}/web`, timeout: '90s' },
        { onStdout: play.onStdout, killAfterMs: 120_000 },
      );

      await play.done();
      expect(run.outputs.result).toBe('failed');
      expect(resourcesOf(run.outputs)).toEqual([
        expect.objectContaining({ status: 'Failed', message: 'Failed: Canary analysis failed, Deployment scaled to zero.' }),
      ]);
    }, 150_000);

    it('a first install: no status -> Initializing -> Initialized: ready', async () => {
      const ns = 'canary-first';
      await createCanary(ns);
      const play = controller([
        { after: 'waiting for Flagger to initialize it', write: () => patchStatus(CANARIES, ns, canaryStatuses.initializing()) },
        { after: 'Initializing:', write: () => patchStatus(CANARIES, ns, canaryStatuses.initialized()) },
      ]);

      const run = await runAction(
        { kubeconfig: cluster.kubeconfig({ namespace: ns }), resources: `${CANARIES}/web`, timeout: '90s' },
        { onStdout: play.onStdout, killAfterMs: 120_000 },
      );

      await play.done();
      expect(run.outputs.result).toBe('ready');
      expect(resourcesOf(run.outputs)).toEqual([expect.objectContaining({ status: 'Current', message: 'Initialized: Deployment initialization completed.' })]);
    }, 150_000);

    it.each([
      ['wait', 'timeout', 'InProgress'],
      ['ready', 'ready', 'Current'],
    ])(
      'WaitingPromotion under paused: %s: %s',
      async (paused, result, status) => {
        const ns = `canary-promotion-${paused}`;
        await createCanary(ns);
        await patchStatus(CANARIES, ns, canaryStatuses.succeededOld());
        const play = controller([
          { after: 'Flagger has not picked up this revision yet', write: () => patchStatus(CANARIES, ns, canaryStatuses.waitingPromotion()) },
        ]);

        const run = await runAction(
          { kubeconfig: cluster.kubeconfig({ namespace: ns }), resources: `${CANARIES}/web`, paused, timeout: paused === 'wait' ? '15s' : '90s' },
          { onStdout: play.onStdout, killAfterMs: 120_000 },
        );

        await play.done();
        expect(run.outputs.result).toBe(result);
        expect(resourcesOf(run.outputs)).toEqual([
          expect.objectContaining({
            status,
            message: expect.stringMatching(/^Canary analysis passed, waiting for approval to promote \(WaitingPromotion\)/),
          }),
        ]);
      },
      150_000,
    );
  });
});
