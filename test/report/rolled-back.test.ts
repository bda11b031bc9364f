/**
 * The rollback's words, the same in every report: the `rolled-back` lines, `rollback-result`, and the
 * "Rolled back" section after the failure's in the job summary and the pull-request comment.
 */
import { describe, expect, it } from '@jest/globals';
import type { RollbackReport, RunResult, TargetReport } from '../../src/result.js';
import { renderSummary } from '../../src/report/summary.js';
import { renderPrComment } from '../../src/report/github/comment-body.js';
import type { GitHubRunContext } from '../../src/report/github/run-context.js';
import { rollbackOutputs, rolledBackLine } from '../../src/report/rolled-back.js';
import { outputsFor } from '../../src/report/outputs.js';

function target(name: string, extra: Partial<TargetReport> = {}): TargetReport {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    namespace: 'shop',
    name,
    status: 'Current',
    message: 'Deployment is available. Replicas: 2',
    rule: 'kstatus',
    done: true,
    seconds: 3,
    history: [],
    conditions: [],
    ...extra,
  };
}

const rollback: RollbackReport = {
  result: 'failed',
  durationSeconds: 12,
  workloads: [
    { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name: 'api', action: 'rolled-back', fromRevision: 7, toRevision: 6, target: target('api') },
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      namespace: 'shop',
      name: 'web',
      action: 'rolled-back',
      fromRevision: 3,
      toRevision: 2,
      target: target('web', { status: 'Failed', done: false, message: 'ImagePullBackOff' }),
    },
    { apiVersion: 'batch/v1', kind: 'Job', namespace: 'shop', name: 'migrate', action: 'refused', reason: 'Jobs are never rolled back' },
    { apiVersion: 'apps/v1', kind: 'StatefulSet', namespace: 'shop', name: 'db', action: 'unchanged', reason: 'no previous revision to roll back to' },
  ],
};

const failure: RunResult = {
  outcome: 'failed',
  cancelled: false,
  durationSeconds: 40,
  warnings: [],
  targets: [target('api', { status: 'Failed', done: false, message: 'Progress deadline exceeded' })],
  rollback,
};

describe('rolled-back', () => {
  it('says one line per workload: the revisions and how it ended, or why not', () => {
    expect(rollback.workloads.map(rolledBackLine)).toEqual([
      'shop/Deployment/api revision 7 -> 6: ready',
      'shop/Deployment/web revision 3 -> 2: failed (ImagePullBackOff)',
      'shop/Job/migrate: refused (Jobs are never rolled back)',
      'shop/StatefulSet/db: nothing to do (no previous revision to roll back to)',
    ]);
    expect(rolledBackLine({ ...rollback.workloads[0]!, cluster: 'eu' })).toBe('[eu] shop/Deployment/api revision 7 -> 6: ready');
  });

  it('sets the two outputs, empty when rollback did not act, and leaves the result the wait’s', () => {
    expect(rollbackOutputs({})).toEqual({ 'rolled-back': '', 'rollback-result': '' });
    const outputs = outputsFor(failure);
    expect({ result: outputs.result, rollback: outputs['rollback-result'] }).toEqual({ result: 'failed', rollback: 'failed' });
    expect(outputs['rolled-back'].split('\n')).toHaveLength(4);
  });

  it('puts "Rolled back" after the failure in the summary and the pull-request comment', () => {
    const summary = renderSummary(failure, { server: 'https://k8s', context: 'ci', waitFor: { kind: 'ready' } });
    expect(summary.indexOf('### Rolled back')).toBeGreaterThan(summary.indexOf('Progress deadline exceeded'));
    expect(summary).toContain('`shop/Deployment/web` | 3 → 2 | failed (ImagePullBackOff)');

    const run: GitHubRunContext = {
      eventName: 'pull_request',
      owner: 'o',
      repo: 'r',
      sha: 'abc',
      serverUrl: 'https://github.com',
      apiUrl: '',
      runId: 42,
      workflow: 'deploy',
      job: 'verify',
      matrix: '',
      jobId: 99,
    };
    const comment = renderPrComment({ result: failure, waitFor: { kind: 'ready' }, run });
    expect(comment.indexOf('### Rolled back')).toBeGreaterThan(comment.indexOf('Progress deadline exceeded'));
  });
});
