/**
 * The harness reads workflow commands and the outputs file as the runner does. Checked against what the
 * real @actions/core writes, including the escaping of `%`, newlines, `:` and `,`, so that an e2e test can
 * never pass because the harness misread something.
 */
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT } from './dist.js';
import { parseCommands, parseOutputFile } from './runAction.js';

let scratch: string;
beforeAll(() => {
  scratch = mkdtempSync(path.join(tmpdir(), 'kubewait-harness-'));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

it('parses what @actions/core writes', () => {
  const outputFile = path.join(scratch, 'output');
  writeFileSync(outputFile, '');
  const script = `
    const core = await import('@actions/core');
    core.setSecret('s3cr3t');
    core.startGroup('Waiting for 2 targets');
    core.info('plain line');
    core.endGroup();
    core.warning('watch forbidden: 100% polling');
    core.error('line one\\nline two: a, b', { title: 'Deployment shop/web, again: yes', file: 'k8s/app.yaml', startLine: 12 });
    core.setOutput('pending', 'shop/Deployment/web\\nshop/Job/migrate');
    core.setOutput('result', 'timeout');
    core.setOutput('resources', JSON.stringify([{ name: 'web', message: 'a=b' }]));
  `;
  const stdout = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', GITHUB_OUTPUT: outputFile },
    encoding: 'utf8',
  });

  expect(parseCommands(stdout)).toEqual([
    { command: 'add-mask', properties: {}, message: 's3cr3t' },
    { command: 'group', properties: {}, message: 'Waiting for 2 targets' },
    { command: 'endgroup', properties: {}, message: '' },
    { command: 'warning', properties: {}, message: 'watch forbidden: 100% polling' },
    {
      command: 'error',
      properties: { title: 'Deployment shop/web, again: yes', file: 'k8s/app.yaml', line: '12' },
      message: 'line one\nline two: a, b',
    },
  ]);
  expect(parseOutputFile(readFileSync(outputFile, 'utf8'))).toEqual({
    pending: 'shop/Deployment/web\nshop/Job/migrate',
    result: 'timeout',
    resources: '[{"name":"web","message":"a=b"}]',
  });
});
