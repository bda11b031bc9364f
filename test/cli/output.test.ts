/**
 * The command's renderers: the terminal log (colour only where wanted, GitLab sections, GitHub groups),
 * JUnit XML (parsed back, one testcase per target, hostile text escaped) and the exit-code table.
 */
import { describe, expect, it } from '@jest/globals';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { EXIT_CODES, exitCodeOf, verdictOf } from '../../src/cli/exit-codes.js';
import { renderJunit, renderSetupFailureJunit } from '../../src/cli/junit.js';
import { colourise, colourWanted, terminalColumns, terminalLog, type Flavour } from '../../src/cli/terminal.js';
import { displayWidth } from '../../src/cli/wrap.js';
import type { RunResult, TargetReport } from '../../src/result.js';

const ESC = '\u001b';

describe('terminal log', () => {
  it.each<[string, { isTTY?: boolean }, Record<string, string>, boolean]>([
    ['a terminal', { isTTY: true }, {}, true],
    ['a pipe', {}, {}, false],
    ['a terminal with NO_COLOR', { isTTY: true }, { NO_COLOR: '1' }, false],
    ['a terminal with an empty NO_COLOR', { isTTY: true }, { NO_COLOR: '' }, true],
    ['a dumb terminal', { isTTY: true }, { TERM: 'dumb' }, false],
  ])('colour on %s', (_case, stream, env, wanted) => {
    expect(colourWanted(stream, env)).toBe(wanted);
  });

  it('colours status words and the outcome, and nothing else', () => {
    expect(colourise('deployment/web (shop): InProgress -> Current after 1.2s')).toBe(
      `deployment/web (shop): ${ESC}[33mInProgress${ESC}[0m -> ${ESC}[32mCurrent${ESC}[0m after 1.2s`,
    );
    expect(colourise('kubewait: failed after 3.0s: 1 of 2 targets ready')).toBe(
      `kubewait: ${ESC}[1m${ESC}[31mfailed${ESC}[0m${ESC}[0m after 3.0s: 1 of 2 targets ready`,
    );
    expect(colourise('Currently nothing')).toBe('Currently nothing');
  });

  const written = (flavour: Flavour, colour = false) => {
    const out: string[] = [];
    const log = terminalLog((text) => out.push(text), { flavour, colour, now: () => 1_700_000_000_000 });
    log.startGroup('Waiting for 1 target to be ready');
    log.info('deployment/web (shop)  apps/v1  Current');
    log.endGroup();
    log.warning('watch forbidden, polling');
    return out.join('');
  };

  it.each<[Flavour, string]>([
    ['plain', 'Waiting for 1 target to be ready\ndeployment/web (shop)  apps/v1  Current\nwarning: watch forbidden, polling\n'],
    [
      'gitlab',
      `${ESC}[0Ksection_start:1700000000:kubewait_1[collapsed=true]\r${ESC}[0KWaiting for 1 target to be ready\ndeployment/web (shop)  apps/v1  Current\n${ESC}[0Ksection_end:1700000000:kubewait_1\r${ESC}[0K\nwarning: watch forbidden, polling\n`,
    ],
    ['github', '::group::Waiting for 1 target to be ready\ndeployment/web (shop)  apps/v1  Current\n::endgroup::\n::warning::watch forbidden, polling\n'],
  ])('%s', (flavour, expected) => {
    expect(written(flavour)).toBe(expected);
  });
});

describe('terminal log on a terminal of known width', () => {
  // eslint-disable-next-line no-control-regex -- colour codes start with ESC
  const visible = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '');

  it.each<[string, { isTTY?: boolean; columns?: number }, number | undefined]>([
    ['a terminal', { isTTY: true, columns: 80 }, 80],
    ['a pipe (no width)', {}, undefined],
    ['a terminal that does not say its width', { isTTY: true }, undefined],
    ['a redirected stream that carries a width', { columns: 80 }, undefined],
  ])('the width to wrap at, on %s', (_case, stream, columns) => {
    expect(terminalColumns(stream)).toBe(columns);
  });

  it('wraps at words with a hanging indent, colours each row, and follows a resized window', () => {
    const out: string[] = [];
    let columns: number | undefined = 40;
    const log = terminalLog((text) => out.push(text), { flavour: 'plain', colour: true, columns: () => columns });
    log.info('deployment/web (shop): InProgress -> Current after 12.4s: Deployment is available. Replicas: 3');
    log.warning('watch of deployments.apps forbidden: polling every 2s instead');
    columns = undefined;
    log.info('deployment/api (shop): InProgress -> Current after 13.0s: Deployment is available');

    const rows = visible(out.join('')).split('\n');
    expect(rows).toEqual([
      'deployment/web (shop): InProgress ->',
      '    Current after 12.4s: Deployment is',
      '    available. Replicas: 3',
      'warning: watch of deployments.apps',
      '    forbidden: polling every 2s instead',
      'deployment/api (shop): InProgress -> Current after 13.0s: Deployment is available',
      '',
    ]);
    expect(out[0]).toContain(`    ${ESC}[32mCurrent${ESC}[0m after 12.4s`);
    expect(out[1]).toMatch(new RegExp(`^${ESC}\\[33mwarning${ESC}\\[0m: watch`));
  });

  it('masks a secret before wrapping, so no part of it survives a break', () => {
    const secret = 'kw-token-0123456789abcdef0123456789abcdef';
    const out: string[] = [];
    const log = terminalLog((text) => out.push(text), {
      flavour: 'plain',
      colour: false,
      columns: () => 30,
      redact: (text) => text.replaceAll(secret, '***'),
    });
    log.info(`container api: exit 1: login failed with ${secret} at https://registry.example`);

    const text = out.join('');
    expect(text).toContain('***');
    for (let i = 0; i + 8 <= secret.length; i++) expect(text).not.toContain(secret.slice(i, i + 8));
    for (const row of text.trimEnd().split('\n')) expect(displayWidth(row)).toBeLessThanOrEqual(30);
  });
});

function target(name: string, overrides: Partial<TargetReport>): TargetReport {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    namespace: 'shop',
    name,
    status: 'Current',
    message: '',
    rule: 'kstatus',
    done: true,
    seconds: 1.23,
    history: [],
    conditions: [],
    ...overrides,
  };
}

function result(overrides: Partial<RunResult>): RunResult {
  return { outcome: 'ready', cancelled: false, durationSeconds: 4.56, targets: [], warnings: [], ...overrides };
}

const parse = (xml: string) => {
  expect(XMLValidator.validate(xml)).toBe(true);
  const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (name) => name === 'testcase' }).parse(xml);
  return doc.testsuites.testsuite as { tests: string; failures: string; errors: string; skipped: string; testcase: Array<Record<string, any>> };
};

describe('JUnit', () => {
  it('has one testcase per target: passed, Failed with its diagnosis, Timeout, and hostile text escaped', () => {
    const xml = renderJunit(
      result({
        outcome: 'timeout',
        targets: [
          target('web', {}),
          target('api', {
            status: 'Failed',
            done: false,
            message: 'Progress <deadline> exceeded & "stuck"',
            diagnosis: {
              problems: [{ pod: 'api-1', container: 'api', reason: 'ImagePullBackOff', message: 'pull \u0007failed', init: false }],
              events: [],
            } as never,
          }),
          target('(none matching app=db)', { kind: 'PersistentVolumeClaim', status: 'NotFound', done: false, selector: 'app=db' }),
        ],
      }),
      { waitFor: { kind: 'ready' }, failFast: false },
    );
    const suite = parse(xml);
    expect(suite).toMatchObject({ tests: '3', failures: '2', errors: '0', skipped: '0' });
    const [web, api, claim] = suite.testcase;
    expect(web).toEqual({ classname: 'shop.Deployment', name: 'web', time: '1.2' });
    expect(api!.failure).toMatchObject({ type: 'Failed', message: 'Progress <deadline> exceeded & "stuck"' });
    expect(api!['system-out']).toBe('container api of pod api-1: ImagePullBackOff: pull failed');
    expect(claim).toMatchObject({
      classname: 'shop.PersistentVolumeClaim',
      name: '(none matching app=db)',
      failure: { type: 'Timeout', message: 'not ready after 4.6s (NotFound)' },
    });
  });

  it('skips the targets a fail-fast stop did not judge, and names an input problem as an error', () => {
    const suite = parse(
      renderJunit(
        result({
          outcome: 'failed',
          targets: [target('a', { status: 'Failed', done: false, message: 'boom' }), target('b', { status: 'InProgress', done: false })],
        }),
        {
          waitFor: { kind: 'ready' },
          failFast: true,
          problem: '--for is "x"',
        },
      ),
    );
    expect(suite).toMatchObject({ tests: '3', failures: '1', errors: '1', skipped: '1' });
    expect(suite.testcase[1]!.skipped).toMatchObject({ message: 'not judged: the wait stopped early (InProgress)' });
    expect(suite.testcase[2]).toMatchObject({ classname: 'kubewait', name: 'setup', error: { type: 'InputError', message: '--for is "x"' } });
  });

  it('reports a setup failure as one erroring testcase', () => {
    expect(parse(renderSetupFailureJunit('--timeout is "soon"')).testcase).toEqual([
      { classname: 'kubewait', name: 'setup', time: '0', error: { type: 'InputError', message: '--timeout is "soon"' } },
    ]);
  });
});

describe('exit codes', () => {
  it.each<[string, number, Partial<RunResult>]>([
    ['ready', 0, { outcome: 'ready' }],
    ['failed', 1, { outcome: 'failed' }],
    ['timeout', 2, { outcome: 'timeout' }],
    ['an input problem found during the wait', 3, { outcome: 'failed', error: { input: 'resources', message: 'ambiguous' } }],
    ['credentials rejected or access forbidden', 4, { outcome: 'failed', error: { input: 'kubeconfig', message: '401' } }],
    ['the cluster unreachable', 4, { outcome: 'failed', error: { input: 'kubeconfig', message: 'cannot reach the API server: ECONNREFUSED' } }],
    ['cancelled', 130, { outcome: 'timeout', cancelled: true }],
  ])('%s exits %d', (_case, code, overrides) => {
    expect(exitCodeOf(result(overrides))).toBe(code);
  });

  it('has one distinct code per verdict', () => {
    expect(new Set(Object.values(EXIT_CODES)).size).toBe(Object.keys(EXIT_CODES).length);
    expect(verdictOf(result({ outcome: 'failed', error: { input: 'kubeconfig', message: '' } }))).toBe('cluster-error');
  });
});
