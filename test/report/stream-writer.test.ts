/**
 * The command's writer inside GitHub Actions: workflow commands escaped as the runner unescapes them, outputs
 * in GITHUB_OUTPUT's heredoc form, and masking applied to everything but the secrets registered with the runner.
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { streamWriter, workflowCommand } from '../../src/report/stream-writer.js';
import { parseCommands, parseOutputFile } from '../e2e/runAction.js';

const dir = mkdtempSync(path.join(tmpdir(), 'kubewait-stream-writer-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function files(name: string): { GITHUB_OUTPUT: string; GITHUB_STEP_SUMMARY: string } {
  const env = { GITHUB_OUTPUT: path.join(dir, `${name}-output`), GITHUB_STEP_SUMMARY: path.join(dir, `${name}-summary`) };
  writeFileSync(env.GITHUB_OUTPUT, '');
  writeFileSync(env.GITHUB_STEP_SUMMARY, '');
  return env;
}

describe('streamWriter', () => {
  it('escapes workflow commands as the runner unescapes them', () => {
    expect(workflowCommand('error', { title: 'Deployment a/b', file: 'k8s/x,y.yaml', line: 3 }, '100% down\nnext')).toBe(
      '::error title=Deployment a/b,file=k8s/x%2Cy.yaml,line=3::100%25 down%0Anext',
    );
  });

  it('writes the log as workflow commands the runner parses back', () => {
    const out: string[] = [];
    const writer = streamWriter({ write: (text) => out.push(text), env: {} });
    writer.startGroup('Logs shop/api-1/api: 100% down');
    writer.info('a line');
    writer.endGroup();
    writer.warning('watch forbidden,\npolling');
    writer.error('Failed: x', { title: 'Deployment shop/api', file: 'k8s/api.yaml', startLine: 20 });
    expect(out.join('')).toBe(
      '::group::Logs shop/api-1/api: 100%25 down\na line\n::endgroup::\n::warning::watch forbidden,%0Apolling\n::error title=Deployment shop/api,file=k8s/api.yaml,line=20::Failed: x\n',
    );
    expect(parseCommands(out.join('')).map((c) => [c.command, c.message])).toEqual([
      ['group', 'Logs shop/api-1/api: 100% down'],
      ['endgroup', ''],
      ['warning', 'watch forbidden,\npolling'],
      ['error', 'Failed: x'],
    ]);
  });

  it('writes outputs as heredocs in one append, multi-line values whole, and appends to the summary', () => {
    const env = files('outputs');
    const writer = streamWriter({ write: () => undefined, env });
    writer.setOutputs({ result: 'failed', pending: 'shop/Deployment/api\nshop/Deployment/worker', message: 'a line\nghadelimiter_1234\nof its own' });
    writer.appendSummary('## one');
    writer.appendSummary('## two\n');
    expect(parseOutputFile(readFileSync(env.GITHUB_OUTPUT, 'utf8'))).toEqual({
      result: 'failed',
      pending: 'shop/Deployment/api\nshop/Deployment/worker',
      message: 'a line\nghadelimiter_1234\nof its own',
    });
    expect(readFileSync(env.GITHUB_STEP_SUMMARY, 'utf8')).toBe('## one\n## two\n');
  });

  it('has no outputs outside a step that has them, and says so when there is no summary', () => {
    const writer = streamWriter({ write: () => undefined, env: {} });
    expect(() => writer.setOutputs({ result: 'ready' })).not.toThrow();
    expect(() => writer.appendSummary('## x')).toThrow('GITHUB_STEP_SUMMARY is not set');
  });

  it('masks everything it writes but the secret it registers, which is one command even when multi-line', () => {
    const env = files('masks');
    const out: string[] = [];
    const secret = '-----BEGIN KEY-----\nMIIEvQIBADAN\n-----END KEY-----';
    const writer = streamWriter({ write: (text) => out.push(text), redact: (text) => text.replaceAll('MIIEvQIBADAN', '***'), env });
    writer.setSecret(secret);
    writer.info('key MIIEvQIBADAN');
    writer.error('key MIIEvQIBADAN', { title: 'MIIEvQIBADAN' });
    writer.setOutputs({ resources: '["MIIEvQIBADAN"]' });
    writer.appendSummary('MIIEvQIBADAN');
    expect(out).toEqual(['::add-mask::-----BEGIN KEY-----%0AMIIEvQIBADAN%0A-----END KEY-----\n', 'key ***\n', '::error title=***::key ***\n']);
    expect(parseCommands(out[0]!)).toEqual([{ command: 'add-mask', properties: {}, message: secret }]);
    expect(parseOutputFile(readFileSync(env.GITHUB_OUTPUT, 'utf8')).resources).toBe('["***"]');
    expect(readFileSync(env.GITHUB_STEP_SUMMARY, 'utf8')).toBe('***\n');
  });
});
