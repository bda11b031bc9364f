/**
 * Several clusters' results -> one: the outcome by `cluster-policy`, a cluster that could not be judged
 * named in the step's error, every target with its cluster, and the per-cluster outputs, summary and
 * annotation titles the report derives from them.
 */
import { describe, expect, it } from '@jest/globals';
import { combineClusterRuns } from '../../src/fleet/combine.js';
import { annotationsFor, outputsFor, renderSummary } from '../../src/report/index.js';
import type { ClusterRun, RunResult } from '../../src/result.js';
import { failed, pending, ready } from '../report/fixtures.js';

const rejected = { input: 'kubeconfig', message: 'the API server rejected the credentials (401 Unauthorized)' };

function run(name: string, result: Partial<RunResult>, extra: Partial<ClusterRun> = {}): ClusterRun {
  return {
    name,
    server: `https://${name}.example.com:6443`,
    context: `${name}-ctx`,
    result: { outcome: 'ready', cancelled: false, durationSeconds: 3, targets: [ready('api')], warnings: [], ...result },
    ...extra,
  };
}

const waitFor = { kind: 'ready' } as const;

describe('combineClusterRuns', () => {
  it('is ready when every cluster is, with every target named by its cluster', () => {
    const result = combineClusterRuns([run('eu-west', {}), run('us-east', { durationSeconds: 7 })], 'all', false);
    expect(result.outcome).toBe('ready');
    expect(result.error).toBeUndefined();
    expect(result.durationSeconds).toBe(7);
    expect(result.targets.map((t) => [t.cluster, t.name])).toEqual([
      ['eu-west', 'api'],
      ['us-east', 'api'],
    ]);
    // The clusters' own results keep their targets as they were (no cluster): their sections need none.
    expect(result.clusters?.[0]?.result.targets[0]?.cluster).toBeUndefined();
  });

  it('fails when a target failed in any cluster, and times out when one only timed out', () => {
    expect(combineClusterRuns([run('a', {}), run('b', { outcome: 'failed', targets: [failed('api')] })], 'all', false).outcome).toBe('failed');
    expect(combineClusterRuns([run('a', {}), run('b', { outcome: 'timeout', targets: [pending('api')], unstable: 'x' })], 'all', false)).toMatchObject({
      outcome: 'timeout',
      unstable: 'x',
    });
  });

  it('names the cluster that could not be judged in the step error, while the others are still reported', () => {
    const result = combineClusterRuns(
      [run('eu-west', { outcome: 'failed', error: rejected, targets: [] }), run('us-east', {}), run('ap', { outcome: 'failed', error: rejected })],
      'all',
      false,
    );
    expect(result.outcome).toBe('failed');
    expect(result.error).toEqual({ input: 'kubeconfig', message: `[eu-west] ${rejected.message} (and 1 more: ap)` });
    expect(result.targets.map((t) => t.cluster)).toEqual(['us-east', 'ap']);
  });

  it('with policy any, is ready when one cluster is, whatever the others say', () => {
    const runs = [run('eu-west', { outcome: 'failed', error: rejected, targets: [] }), run('us-east', {})];
    expect(combineClusterRuns(runs, 'any', false)).toMatchObject({ outcome: 'ready', cancelled: false });
    expect(combineClusterRuns(runs, 'any', false).error).toBeUndefined();
    expect(combineClusterRuns([runs[0]!], 'any', false).error?.input).toBe('kubeconfig');
  });

  it('is cancelled only when the job was, and prefixes each warning with its cluster', () => {
    const result = combineClusterRuns([run('a', { warnings: ['watch forbidden, polling'] })], 'all', true);
    expect(result.cancelled).toBe(true);
    expect(result.warnings).toEqual(['[a] watch forbidden, polling']);
  });
});

describe('the report of several clusters', () => {
  const stopped = run(
    'us-east',
    { outcome: 'timeout', cancelled: true, targets: [pending('api')] },
    { stopped: 'a target failed in cluster eu-west (fail-fast)' },
  );
  const result = combineClusterRuns(
    [
      run('ap', {}),
      stopped,
      run('eu-west', { outcome: 'failed', targets: [failed('api'), ready('web')] }),
      run('sa', { outcome: 'failed', error: rejected, targets: [] }),
    ],
    'all',
    false,
  );

  it('gives each resource its cluster and each cluster its own result in the clusters output', () => {
    const outputs = outputsFor(result);
    expect(JSON.parse(outputs.resources)[0]).toMatchObject({ cluster: 'ap', kind: 'Deployment', name: 'api' });
    expect(outputs.failed).toBe('[eu-west] shop/Deployment/api');
    expect(JSON.parse(outputs.clusters)).toEqual({
      ap: { result: 'ready', server: 'https://ap.example.com:6443', context: 'ap-ctx', ready: true, failed: [], pending: [], duration: 3 },
      'us-east': expect.objectContaining({ result: 'cancelled', stopped: true, ready: false, pending: ['Deployment shop/api'] }),
      'eu-west': expect.objectContaining({ result: 'failed', failed: ['Deployment shop/api'], pending: ['Deployment shop/api'] }),
      sa: expect.objectContaining({ result: 'error', server: 'https://sa.example.com:6443', error: rejected.message }),
    });
    expect(outputs.result).toBe('error');
  });

  it('titles annotations with the cluster', () => {
    const titles = annotationsFor(result, waitFor, { failFast: true }).map((a) => a.title);
    expect(titles).toContain('[eu-west] Deployment shop/api');
  });

  it('writes one summary section per cluster, the worst first, after counts per cluster', () => {
    const markdown = renderSummary(result, { server: '', context: '', waitFor });
    const headings = markdown.split('\n').filter((line) => line.startsWith('## '));
    expect(headings).toHaveLength(5);
    expect(headings.slice(1).map((line) => /`([^`]+)`/.exec(line)?.[1])).toEqual(['sa', 'eu-west', 'us-east', 'ap']);
    expect(markdown).toContain('| `eu-west` | ❌ failed | 1 of 2 | 1 | `eu-west-ctx` |');
    expect(markdown).toContain('| `us-east` | 🛑 cancelled (stopped: a target failed in cluster eu-west (fail-fast)) | 0 of 1 |');
    expect(markdown).toContain('https://eu-west.example.com:6443');
  });
});
