/**
 * reportResult and reportSetupFailure write through a `ReportWriter`: here a recording one, to check exactly
 * what reaches the runner and in which order (runner-files.test.ts checks the real writers' files and commands).
 */
import { afterAll, beforeEach, describe, expect, it } from '@jest/globals';
import { appendFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { RunResult } from '../../src/result.js';
import { rehearseReport, reportResult, reportSetupFailure, type ReportWriter } from '../../src/report/index.js';
import { failed, fromFile, imagePullDiagnosis, pending, ready, result } from './fixtures.js';

const calls: Array<[string, ...unknown[]]> = [];
/** The job summary is appended to the file the runner names, as on a real runner. */
const summaryDir = mkdtempSync(path.join(tmpdir(), 'kubewait-summary-'));
const summaryPath = path.join(summaryDir, 'step-summary.md');
const writtenSummary = () => (existsSync(summaryPath) ? readFileSync(summaryPath, 'utf8') : '');
let summaryFile: string | undefined;

const writer: ReportWriter = {
  setOutputs(outputs) {
    for (const [name, value] of Object.entries(outputs)) calls.push(['setOutput', name, value]);
  },
  error: (message, properties) => calls.push(['error', message, properties]),
  warning: (message) => calls.push(['warning', message]),
  info: (message) => calls.push(['info', message]),
  startGroup: (name) => calls.push(['startGroup', name]),
  endGroup: () => calls.push(['endGroup']),
  setSecret: (secret) => calls.push(['setSecret', secret]),
  appendSummary(markdown) {
    if (!summaryFile) throw new Error('GITHUB_STEP_SUMMARY is not set');
    appendFileSync(summaryFile, markdown);
  },
};

const run = { serverUrl: 'https://github.com', repository: 'acme/shop', runId: 7, sha: 'abc' };
const base = { server: 'https://10.0.0.1:6443', context: 'ci', summary: true, waitFor: { kind: 'ready' as const }, failFast: true, run };

function named(kind: string) {
  return calls.filter((c) => c[0] === kind);
}

beforeEach(() => {
  calls.length = 0;
  rmSync(summaryPath, { force: true });
  summaryFile = summaryPath;
});

afterAll(() => {
  rmSync(summaryDir, { recursive: true, force: true });
});

describe('reportResult', () => {
  const failure: RunResult = result([
    ready('web'),
    failed('api', { ...fromFile('k8s/api.yaml', 20), diagnosis: imagePullDiagnosis('api', 'api:v2') }),
    pending('worker'),
  ]);

  it('sets every output first, then logs, annotates and writes the summary', () => {
    reportResult(failure, base, writer);
    expect(writtenSummary()).not.toBe('');
    expect(calls.map((c) => (c[0] === 'setOutput' ? `setOutput:${c[1]}` : c[0]))).toEqual([
      'setOutput:result',
      'setOutput:ready',
      'setOutput:resources',
      'setOutput:pending',
      'setOutput:failed',
      'setOutput:duration',
      'setOutput:release-revision',
      'setOutput:release-status',
      'setOutput:clusters',
      'setOutput:rolled-back',
      'setOutput:rollback-result',
      'setOutput:smoke',
      'setOutput:resources-file',
      'info',
      'error',
    ]);
    expect(Object.fromEntries(named('setOutput').map(([, n, v]) => [n, v]))).toEqual({
      result: 'failed',
      ready: 'false',
      resources: JSON.stringify([
        {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          namespace: 'shop',
          name: 'web',
          status: 'Current',
          message: 'Deployment is available. Replicas: 3',
          cause: '',
          seconds: 12.4,
          rule: 'kstatus',
        },
        {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          namespace: 'shop',
          name: 'api',
          status: 'Failed',
          message: 'Progress deadline exceeded',
          cause: 'ProgressDeadline',
          seconds: 30,
          rule: 'kstatus',
          file: 'k8s/api.yaml',
          line: 20,
        },
        {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          namespace: 'shop',
          name: 'worker',
          status: 'InProgress',
          message: 'Ready: 1/3',
          cause: 'NotReady',
          seconds: 0,
          rule: 'kstatus',
        },
      ]),
      pending: 'shop/Deployment/api\nshop/Deployment/worker',
      failed: 'shop/Deployment/api',
      duration: '42.4',
      'release-revision': '',
      'release-status': '',
      clusters: '',
      'rolled-back': '',
      'rollback-result': '',
      smoke: '',
      'resources-file': expect.stringMatching(/resources\.json$/),
    });
    // The file holds the same JSON, never cut.
    const outputs = Object.fromEntries(named('setOutput').map(([, n, v]) => [n, v]));
    expect(readFileSync(outputs['resources-file'], 'utf8')).toBe(outputs.resources);
  });

  it('annotates the failed target with title, file, line and diagnosis', () => {
    reportResult(failure, base, writer);
    expect(named('error')).toEqual([
      [
        'error',
        'Failed after 30.0s: Progress deadline exceeded\ncontainer api of pod api-7d9c-abcde: ImagePullBackOff: Back-off pulling image "api:v2"\nevent Failed on Pod/api-7d9c-abcde (x4): Failed to pull image "api:v2": not found',
        { title: 'Deployment shop/api', file: 'k8s/api.yaml', startLine: 20 },
      ],
    ]);
  });

  it('writes the rendered summary once', () => {
    reportResult(failure, base, writer);
    expect(writtenSummary()).toMatch(/^## ❌ kubewait: 1 of 3 targets failed\n/);
    expect(writtenSummary()).toContain('[Workflow run](https://github.com/acme/shop/actions/runs/7)');
    expect(writtenSummary().match(/^## /gm)).toHaveLength(1);
  });

  it('writes no summary when the summary input is false', () => {
    reportResult(failure, { ...base, summary: false }, writer);
    expect(existsSync(summaryPath)).toBe(false);
    expect(named('setOutput')).toHaveLength(13);
  });

  it('warns instead of throwing when the summary cannot be written, keeping the outputs', () => {
    summaryFile = undefined;
    expect(() => reportResult(result([ready('a')]), base, writer)).not.toThrow();
    expect(named('warning')).toEqual([['warning', 'kubewait: could not write the job summary: GITHUB_STEP_SUMMARY is not set']]);
    expect(named('setOutput')).toHaveLength(13);
  });

  it('annotates nothing on success and says so in the log', () => {
    reportResult(result([ready('a')], { durationSeconds: 3 }), base, writer);
    expect(named('error')).toEqual([]);
    expect(named('info')).toEqual([['info', 'kubewait: ready after 3.0s: 1 of 1 target ready']]);
  });

  it('passes fail-fast on: without it, targets pending at the deadline of a failed wait are annotated', () => {
    const r = result([failed('bad'), pending('slow')], { outcome: 'failed', durationSeconds: 300 });
    reportResult(r, { ...base, failFast: false }, writer);
    expect(named('error').map((c) => (c[2] as { title: string }).title)).toEqual(['Deployment shop/bad', 'Deployment shop/slow']);
    calls.length = 0;
    reportResult(r, base, writer);
    expect(named('error').map((c) => (c[2] as { title: string }).title)).toEqual(['Deployment shop/bad']);
  });

  it('reports the input error by name', () => {
    reportResult(result([pending('a')], { outcome: 'failed', error: { input: 'resources', message: 'type "foo" is ambiguous' } }), base, writer);
    expect(named('error')[0]).toEqual(['error', 'type "foo" is ambiguous', { title: 'kubewait: input "resources"' }]);
  });
});

describe('reportSetupFailure', () => {
  it('annotates the input, sets the outputs for no targets and writes a summary naming the input', () => {
    reportSetupFailure({ input: 'timeout', message: 'Input "timeout" is "5 minutes": expected a duration like 90s or 5m.' }, { summary: true, run }, writer);
    const outputs = Object.fromEntries(named('setOutput').map(([, n, v]) => [n, v]));
    expect(outputs).toEqual({
      result: 'error',
      ready: 'false',
      resources: '[]',
      pending: '',
      failed: '',
      duration: '0',
      'release-revision': '',
      'release-status': '',
      clusters: '',
      'rolled-back': '',
      'rollback-result': '',
      smoke: '',
      'resources-file': expect.stringMatching(/resources\.json$/),
    });
    expect(readFileSync(outputs['resources-file'], 'utf8')).toBe('[]');
    expect(named('error')).toEqual([['error', 'Input "timeout" is "5 minutes": expected a duration like 90s or 5m.', { title: 'kubewait: input "timeout"' }]]);
    expect(writtenSummary()).toContain('## ❌ kubewait: stopped: a problem with input `timeout`');
    expect(writtenSummary()).toContain('> [!CAUTION]\n> Input &quot;timeout&quot; is &quot;5 minutes&quot;: expected a duration like 90s or 5m.');
  });

  it('writes no summary when asked not to', () => {
    reportSetupFailure({ input: 'kubeconfig', message: 'no context "prod"' }, { summary: false }, writer);
    expect(existsSync(summaryPath)).toBe(false);
    expect(named('setOutput')).toHaveLength(13);
  });
});

describe('rehearseReport', () => {
  it('renders the report of a sample and writes nothing: no file, no output, no summary, no log', () => {
    // The runner's files as the action's writer finds them, from the environment: each must stay as it is.
    const runnerTemp = mkdtempSync(path.join(tmpdir(), 'kubewait-runner-temp-'));
    const files = mkdtempSync(path.join(tmpdir(), 'kubewait-runner-files-'));
    const env = { RUNNER_TEMP: runnerTemp, GITHUB_OUTPUT: path.join(files, 'output'), GITHUB_STEP_SUMMARY: path.join(files, 'summary') };
    const saved = Object.fromEntries(Object.keys(env).map((name) => [name, process.env[name]]));
    Object.assign(process.env, env);
    try {
      rehearseReport(result([ready('web', fromFile('k8s/web.yaml', 3)), ready('api')]), base);
      expect(readdirSync(runnerTemp)).toEqual([]);
      expect(readdirSync(files)).toEqual([]);
      expect(calls).toEqual([]);
    } finally {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      rmSync(runnerTemp, { recursive: true, force: true });
      rmSync(files, { recursive: true, force: true });
    }
  });
});
