/**
 * Text from the cluster as a reader is shown it (src/report/shown-text.ts), and every writer a report reaches
 * the runner through showing only that: the step log, annotations and their titles, the job summary. Outputs
 * are data and go as they are.
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { shownText } from '../../src/report/shown-text.js';
import { streamWriter } from '../../src/report/stream-writer.js';
import { terminalLog } from '../../src/cli/terminal.js';

const dir = mkdtempSync(path.join(tmpdir(), 'kubewait-shown-text-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A revision as a hostile controller may write it: reordered, with NUL, ESC sequences, a carriage return and C1. */
const HOSTILE = 'main@sha1:abc\u202efed\u2066x\u2069\u200f \u0000\u001b[31mred\u001b[0m\r\u009b2J end';

describe('shownText', () => {
  it('drops terminal escapes, control characters but tab and newline, and the bidirectional controls', () => {
    expect(shownText(HOSTILE)).toBe('main@sha1:abcfedx red end');
    expect(shownText('a\tb\nc — é 中 😀')).toBe('a\tb\nc — é 中 😀');
  });
});

describe('every channel a report reaches shows it', () => {
  it('the command inside GitHub Actions: log, warnings, groups, annotations and their titles, summary; outputs as they are', () => {
    const env = { GITHUB_OUTPUT: path.join(dir, 'output'), GITHUB_STEP_SUMMARY: path.join(dir, 'summary') };
    writeFileSync(env.GITHUB_OUTPUT, '');
    writeFileSync(env.GITHUB_STEP_SUMMARY, '');
    const out: string[] = [];
    const writer = streamWriter({ write: (text) => out.push(text), env });
    writer.info(HOSTILE);
    writer.warning(HOSTILE);
    writer.startGroup(HOSTILE);
    writer.error(HOSTILE, { title: HOSTILE });
    writer.appendSummary(HOSTILE);
    writer.setOutputs({ revision: 'a\u202eb' });
    const shown = out.join('') + readFileSync(env.GITHUB_STEP_SUMMARY, 'utf8');
    // eslint-disable-next-line no-control-regex -- what must not be shown is control characters
    expect(shown).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u200f]/);
    expect(shown.match(/abcfedx red end/g)).toHaveLength(6);
    expect(readFileSync(env.GITHUB_OUTPUT, 'utf8')).toContain('a\u202eb');
  });

  it("the command's terminal log, its own colours kept", () => {
    const out: string[] = [];
    const log = terminalLog((text) => out.push(text), { flavour: 'plain', colour: true });
    log.info(`Deployment shop/web: ${HOSTILE}`);
    log.warning(HOSTILE);
    const shown = out.join('');
    expect(shown).not.toContain('\u001b[31m');
    // eslint-disable-next-line no-control-regex -- what must not be shown is control characters
    expect(shown).not.toMatch(/[\u0000\u202e\u2066\u009b\r]/);
    expect(shown).toContain('abcfedx red end');
    // kubewait's own colour for the warning is still there.
    expect(shown).toContain('\u001b[');
  });
});
