/**
 * reportResult through both real writers, the action's (`@actions/core`) and the command's (workflow commands
 * on a stream), writing the files and workflow commands the runner reads: GITHUB_OUTPUT (heredoc format),
 * GITHUB_STEP_SUMMARY, and `::error ...::` lines. Both must give the runner the same report.
 */
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { coreWriter } from '../../src/report/core-writer.js';
import { reportResult, type ReportWriter } from '../../src/report/index.js';
import { streamWriter } from '../../src/report/stream-writer.js';
import { parseOutputFile } from '../e2e/runAction.js';
import { failed, fromFile, imagePullDiagnosis, pending, ready, result } from './fixtures.js';

describe('reportResult through the real writers', () => {
  let dir: string;
  const saved = { output: process.env.GITHUB_OUTPUT, summary: process.env.GITHUB_STEP_SUMMARY };
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'kubewait-report-'));
  });
  afterAll(() => {
    process.env.GITHUB_OUTPUT = saved.output;
    process.env.GITHUB_STEP_SUMMARY = saved.summary;
    if (saved.output === undefined) delete process.env.GITHUB_OUTPUT;
    if (saved.summary === undefined) delete process.env.GITHUB_STEP_SUMMARY;
    rmSync(dir, { recursive: true, force: true });
  });

  /** The writer under test and the log it wrote. */
  const writers: Record<string, (env: Record<string, string>) => { writer: ReportWriter; log: () => string }> = {
    '@actions/core': (env) => {
      Object.assign(process.env, env);
      const stdout: string[] = [];
      const spy = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
        stdout.push(String(chunk));
        return true;
      });
      return {
        writer: coreWriter,
        log: () => {
          spy.mockRestore();
          return stdout.join('');
        },
      };
    },
    stream: (env) => {
      const out: string[] = [];
      return { writer: streamWriter({ write: (text) => out.push(text), env }), log: () => out.join('') };
    },
  };

  it.each(Object.keys(writers))('%s writes outputs, the summary and annotation commands the runner can read', (name) => {
    const outputFile = join(dir, `output-${name.replace(/\W/g, '')}`);
    const summaryFile = join(dir, `summary-${name.replace(/\W/g, '')}`);
    writeFileSync(outputFile, '');
    writeFileSync(summaryFile, '');
    const { writer, log } = writers[name]!({ GITHUB_OUTPUT: outputFile, GITHUB_STEP_SUMMARY: summaryFile });
    let stdout: string;
    try {
      const r = result([ready('web'), failed('api', { ...fromFile('k8s/api.yaml', 20), diagnosis: imagePullDiagnosis('api', 'api:v2') }), pending('worker')], {
        outcome: 'timeout',
        durationSeconds: 300,
      });
      reportResult(
        r,
        {
          server: 'https://kube:hunter2@10.0.0.1:6443',
          context: 'ci',
          summary: true,
          waitFor: { kind: 'ready' },
          failFast: true,
          run: { serverUrl: 'https://github.com', repository: 'acme/shop', runId: 7, sha: 'abc' },
        },
        writer,
      );
    } finally {
      stdout = log();
    }

    const outputs = parseOutputFile(readFileSync(outputFile, 'utf8'));
    expect(outputs.result).toBe('timeout');
    expect(outputs.ready).toBe('false');
    expect(outputs.pending).toBe('shop/Deployment/api\nshop/Deployment/worker');
    expect(outputs.failed).toBe('shop/Deployment/api');
    expect(outputs.duration).toBe('300');
    expect(JSON.parse(outputs.resources!).map((t: { name: string }) => t.name)).toEqual(['web', 'api', 'worker']);
    expect(readFileSync(outputs['resources-file']!, 'utf8')).toBe(outputs.resources);

    const summary = readFileSync(summaryFile, 'utf8');
    expect(summary).toMatch(/^## ⏱️ kubewait: timed out with 2 of 3 targets not ready\n/);
    expect(summary).not.toContain('hunter2');

    const errors = stdout.split('\n').filter((l) => l.startsWith('::error '));
    expect(errors).toEqual([
      '::error title=Deployment shop/api,file=k8s/api.yaml,line=20::Failed after 30.0s: Progress deadline exceeded%0Acontainer api of pod api-7d9c-abcde: ImagePullBackOff: Back-off pulling image "api:v2"%0Aevent Failed on Pod/api-7d9c-abcde (x4): Failed to pull image "api:v2": not found',
      '::error title=Deployment shop/worker::Not ready after 5m00s (InProgress): Ready: 1/3',
    ]);
    expect(stdout).toMatch(/^kubewait: timeout after 5m00s: 1 of 3 targets ready$/m);
  });
});
