/**
 * The command end to end: `dist/cli.js` against the API server stand-in, judged by what a CI job sees
 * (exit code, stdout, stderr, the JUnit file), one exit code per verdict, and as `kubectl kubewait`
 * through the real kubectl. Each test uses its own namespace of one shared cluster.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import type { LogRecord } from '../../src/report/logs.js';
import type { ResourceOutput } from '../../src/report/outputs.js';
import { startCluster, type TestCluster } from '../cluster/index.js';
import { ensureDist } from './dist.js';
import { deployment, job, pendingClaim } from './objects.js';
import { parseCommands, parseOutputFile } from './runAction.js';
import { runCommand, type CommandRun } from './runCommand.js';

let cluster: TestCluster;
let scratch: string;
/** A working bearer token that a crash-looping container prints: registered as a secret, so masked everywhere. */
const LOG_TOKEN = 'kubewait-cli-log-token-5c1e9a27';

beforeAll(async () => {
  await ensureDist();
  cluster = await startCluster({ speed: 0.2, tokens: { 'no-access': [], [LOG_TOKEN]: [{ verbs: ['*'], resources: ['*'], apiGroups: ['*'] }] } });
  scratch = mkdtempSync(path.join(tmpdir(), 'kubewait-cli-e2e-'));
}, 300_000);

afterAll(async () => {
  await cluster?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** A kubeconfig file for a namespace, as `--kubeconfig PATH` takes it. */
function kubeconfigFile(namespace: string, token?: string): string {
  const file = path.join(scratch, `${namespace}-${token ?? 'admin'}.yaml`);
  cluster.writeKubeconfig(file, { namespace, ...(token && { token }) });
  return file;
}

interface JsonDocument {
  result: string;
  resources: ResourceOutput[];
  logs?: LogRecord[];
  error?: string;
}

const json = (run: CommandRun) => JSON.parse(run.stdout) as JsonDocument;
const statusOf = (document: JsonDocument) => Object.fromEntries(document.resources.map((r) => [`${r.kind}/${r.name}`, r.status]));

interface Testcase {
  classname: string;
  name: string;
  failure?: { type: string; message: string; '#text'?: string };
  error?: { type: string; message: string };
  skipped?: { message: string };
  'system-out'?: string;
}

function junit(file: string): { tests: number; failures: number; cases: Testcase[] } {
  const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (name) => name === 'testcase' });
  const xml = parser.parse(readFileSync(file, 'utf8'));
  const suite = xml.testsuites.testsuite;
  return { tests: Number(suite.tests), failures: Number(suite.failures), cases: suite.testcase ?? [] };
}

describe('kubewait, the command', () => {
  it('prints a --help that fits an 80-column terminal', async () => {
    const run = await runCommand(['--help']);

    expect([run.exitCode, run.stderr]).toEqual([0, '']);
    expect(run.stdout).toContain('Exit codes:');
    expect(run.stdout.split('\n').filter((line) => line.length > 80)).toEqual([]);
  });

  it('exits 0 when every target is ready, with the live log on stdout and no colour off a terminal', async () => {
    // Ready after 300 ms of real time (the stand-in runs at 0.2 speed): long enough for the report's rehearsal.
    cluster.create(deployment('web', { namespace: 'cli-ok', readyAfterMs: 1500 }));
    cluster.create(job('migrate', { namespace: 'cli-ok', readyAfterMs: 300 }));

    const run = await runCommand(['deployment/web', 'job/migrate', '--kubeconfig', kubeconfigFile('cli-ok'), '--timeout', '60s']);

    expect([run.exitCode, run.stderr]).toEqual([0, '']);
    expect(run.stdout).toContain('Waiting for 2 targets to be ready');
    expect(run.stdout).toMatch(/^deployment\/web \(cli-ok\): .*Current after \d+\.\ds/m);
    expect(run.stdout).toMatch(/^kubewait: ready after \d+\.\ds: 2 of 2 targets ready$/m);
    // Once: the report rehearsed during the wait (src/rehearsal.ts) writes nothing.
    expect(run.stdout.match(/^kubewait: ready after/gm)).toHaveLength(1);
    expect(run.stdout).not.toContain('\u001b[');
    expect(run.stdout).not.toContain('::'); // no workflow commands outside GitHub Actions
  }, 120_000);

  it.each<[string, Record<string, string>, boolean]>([
    ['colours the log on a terminal', {}, true],
    ['does not colour it with NO_COLOR', { NO_COLOR: '1' }, false],
  ])(
    '%s',
    async (_case, env, coloured) => {
      cluster.create(deployment('web', { namespace: `cli-tty-${coloured}`, readyAfterMs: 100 }));

      const run = await runCommand(['deployment/web'], { terminal: true, env: { KUBECONFIG: kubeconfigFile(`cli-tty-${coloured}`), TERM: 'xterm', ...env } });

      expect(run.exitCode).toBe(0);
      expect(run.stdout).toContain('kubewait: ');
      expect(run.stdout.includes('\u001b[32mCurrent\u001b[0m')).toBe(coloured);
      expect(run.stdout.includes('\u001b[')).toBe(coloured);
    },
    120_000,
  );

  it('wraps the log at words to the width of an 80-column terminal', async () => {
    cluster.create(deployment('web', { namespace: 'cli-tty-wrap', readyAfterMs: 300 }));
    cluster.create(deployment('api', { namespace: 'cli-tty-wrap', podFailure: 'ImagePullBackOff', image: 'registry.example.com/api:v2' }));

    const run = await runCommand(['deployment/web', 'deployment/api', '--timeout', '3s'], {
      terminal: true,
      columns: 80,
      env: { KUBECONFIG: kubeconfigFile('cli-tty-wrap'), TERM: 'xterm' },
    });

    expect([1, 2]).toContain(run.exitCode); // failed or timed out: either way, long lines to wrap
    // eslint-disable-next-line no-control-regex -- colour codes start with ESC
    const rows = run.stdout.replace(/\u001b\[[0-9;]*m/g, '').split(/\r?\n/);
    expect(rows.filter((row) => row.length > 80)).toEqual([]);
    // Continuation rows are indented under their line, and the outcome is still a line of its own.
    expect(rows.some((row, i) => i > 0 && /^ {4}\S/.test(row) && rows[i - 1]!.length > 60)).toBe(true);
    expect(rows.some((row) => /^kubewait: (timeout|failed) after/.test(row))).toBe(true);
  }, 120_000);

  it('exits 1 when a target fails, with -o json the action`s resources and --junit the reason', async () => {
    cluster.create(deployment('api', { namespace: 'cli-failed', podFailure: 'ImagePullBackOff', image: 'registry.example.com/api:v2' }));
    cluster.create(deployment('web', { namespace: 'cli-failed', readyAfterMs: 300 }));
    const report = path.join(scratch, 'failed.xml');

    const run = await runCommand(['-n', 'cli-failed', 'deployment', 'api', 'web', '-o', 'json', '--junit', report], {
      env: { KUBECONFIG: kubeconfigFile('cli-failed') },
    });

    expect(run.exitCode).toBe(1);
    const document = json(run);
    expect(document.result).toBe('failed');
    expect(statusOf(document)['Deployment/api']).toBe('Failed');
    expect(Object.keys(document.resources[0]!)).toEqual(expect.arrayContaining(['apiVersion', 'kind', 'namespace', 'name', 'status', 'message', 'seconds']));
    expect(run.stderr).toContain('kubewait: failed'); // the live log is on stderr, stdout is the document alone
    const xml = junit(report);
    expect(xml.tests).toBe(2);
    const api = xml.cases.find((c) => c.name === 'api');
    expect(api).toMatchObject({ classname: 'cli-failed.Deployment', failure: { type: 'Failed' } });
    expect(`${api?.failure?.message} ${api?.['system-out'] ?? ''}`).toMatch(/ImagePullBackOff|ErrImagePull/);
    expect(`${api?.failure?.['#text'] ?? ''}`).toContain('registry.example.com/api:v2');
  }, 120_000);

  it('exits 2 at the deadline, every pending target a Timeout failure in the JUnit file', async () => {
    cluster.create(deployment('web', { namespace: 'cli-slow', readyAfterMs: 100 }));
    cluster.create(pendingClaim('data', { namespace: 'cli-slow' }));
    const report = path.join(scratch, 'timeout.xml');

    const run = await runCommand(['deployment/web', 'pvc/data', 'deployment/ghost', '--timeout', '4s', '--junit', report, '-o', 'json'], {
      env: { KUBECONFIG: kubeconfigFile('cli-slow') },
    });

    expect(run.exitCode).toBe(2);
    expect(statusOf(json(run))).toEqual({ 'Deployment/web': 'Current', 'PersistentVolumeClaim/data': 'InProgress', 'Deployment/ghost': 'NotFound' });
    const xml = junit(report);
    expect(xml).toMatchObject({ tests: 3, failures: 2 });
    expect(Object.fromEntries(xml.cases.map((c) => [c.name, c.failure?.type ?? 'passed']))).toEqual({ web: 'passed', data: 'Timeout', ghost: 'Timeout' });
  }, 120_000);

  it('exits 4 when the cluster rejects the credentials, and says so in one line', async () => {
    const run = await runCommand(['deployment/web', '--timeout', '30s'], { env: { KUBECONFIG: kubeconfigFile('cli-denied', 'no-access') } });

    expect(run.exitCode).toBe(4);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/^kubewait: .*(forbidden|denied|permission|credentials)/i);
  }, 120_000);

  it('exits 4 when the cluster cannot be reached, and says so in one line', async () => {
    // A port that was just free: nothing answers there.
    const port = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as AddressInfo;
        server.close(() => resolve(port));
      });
    });
    const file = kubeconfigFile('cli-dark');
    writeFileSync(file, readFileSync(file, 'utf8').replace(/server: https:\/\/127\.0\.0\.1:\d+/, `server: https://127.0.0.1:${port}`));

    expect(readFileSync(file, 'utf8')).toContain(`127.0.0.1:${port}`);

    const run = await runCommand(['deployment/web', '--kubeconfig', file, '--timeout', '3s']);

    expect(run.exitCode).toBe(4);
    expect(run.stderr).toMatch(new RegExp(`^kubewait: .*cannot reach the API server at https://127\\.0\\.0\\.1:${port}: ECONNREFUSED.*\\n$`));
  }, 120_000);

  it('exits 130 when cancelled, still reporting every target', async () => {
    cluster.create(pendingClaim('data', { namespace: 'cli-cancel' }));

    const run = await runCommand(['pvc/data', 'deployment/ghost', '-o', 'json', '--timeout', '60s'], {
      env: { KUBECONFIG: kubeconfigFile('cli-cancel') },
      signalWhen: (output) => (output.includes('Waiting for 2 targets') ? 'SIGINT' : undefined),
    });

    expect(run.exitCode).toBe(130);
    const document = json(run);
    expect(document.result).toBe('cancelled');
    expect(document.resources.map((r) => r.name).sort()).toEqual(['data', 'ghost']);
  }, 120_000);

  it.each<[string, string[], RegExp]>([
    ['an unknown flag', ['deployment/web', '--timout', '5s'], /^kubewait: unknown flag --timout \(did you mean --timeout\?\)/],
    ['a flag without its value', ['deployment/web', '--timeout'], /^kubewait: --timeout needs a value, like --timeout 5m\.$/],
    ['a bad duration', ['deployment/web', '--timeout', 'soon'], /^kubewait: --timeout is "soon": expected a duration like 90s/],
    ['a bad --for', ['deployment/web', '--for', 'happy'], /^kubewait: --for is "happy": expected ready, deleted, condition=/],
    [
      'a bad boolean',
      ['deployment/web', '--fail-fast=maybe'],
      /^kubewait: --fail-fast is "maybe": expected true or false, like --fail-fast or --fail-fast=false\.$/,
    ],
    ['a bad target', ['deployment/Web!'], /^kubewait: Target "deployment\/Web!": .*like deployment\/web/],
    ['a bad output', ['deployment/web', '-o', 'yaml'], /^kubewait: --output is "yaml": expected text or json, like -o json\.$/],
    ['a bad namespace', ['deployment/web', '-n', 'Shop'], /^kubewait: --namespace is "Shop": expected a namespace name/],
    [
      'a missing kubeconfig file',
      ['deployment/web', '--kubeconfig', 'nope.yaml'],
      /^kubewait: --kubeconfig is "nope.yaml": no such file.*--kubeconfig ~\/\.kube\/config/,
    ],
    ['nothing to wait for', [], /^kubewait: nothing to wait for: .*like kubewait deployment\/web/],
    ['a manifest that matches nothing', ['-f', 'k8s/*.yaml'], /^kubewait: -f "k8s\/\*\.yaml", which matches no manifest file/],
    [
      'no kubeconfig at all',
      ['deployment/web'],
      /^kubewait: --kubeconfig: no kubeconfig found: --kubeconfig is not given, \$KUBECONFIG is not set.*Example: --kubeconfig/,
    ],
  ])(
    'exits 3 for %s, with one line naming it and no stack trace',
    async (_case, args, message) => {
      const report = path.join(scratch, `usage-${args.join('_').replace(/\W/g, '')}.xml`);

      const run = await runCommand([...args, '--junit', report]);

      expect(run.exitCode).toBe(3);
      expect(run.stdout).toBe('');
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr.trim()).toMatch(message);
      expect(run.stderr).not.toMatch(/\n\s+at /);
    },
    60_000,
  );

  it('says a usage error in the JSON document and the JUnit file too', async () => {
    const report = path.join(scratch, 'usage.xml');

    const run = await runCommand(['deployment/web', '--timeout', 'soon', '-o', 'json', '--junit', report]);

    expect(run.exitCode).toBe(3);
    expect(json(run)).toEqual({ result: 'error', resources: [], error: expect.stringContaining('--timeout is "soon"') });
    expect(junit(report).cases).toEqual([
      expect.objectContaining({ name: 'setup', error: expect.objectContaining({ message: expect.stringContaining('--timeout') }) }),
    ]);
  }, 60_000);

  it('writes annotations and the job summary inside GitHub Actions, keeping stdout one JSON document', async () => {
    cluster.create(deployment('api', { namespace: 'cli-gha', podFailure: 'ImagePullBackOff' }));
    const summary = path.join(scratch, 'summary.md');
    writeFileSync(summary, '');

    const run = await runCommand(['deployment/api', '-o', 'json'], {
      env: { KUBECONFIG: kubeconfigFile('cli-gha'), GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary, GITHUB_REPOSITORY: 'octo-org/shop' },
    });

    expect(run.exitCode).toBe(1);
    expect(json(run).result).toBe('failed');
    expect(run.stderr).toMatch(/^::error title=Deployment cli-gha\/api::Failed after/m);
    expect(run.stderr).toMatch(/^::group::Waiting for 1 target to be ready$/m);
    expect(readFileSync(summary, 'utf8')).toMatch(/ImagePullBackOff|ErrImagePull/);
    // One summary: the report rehearsed during the wait writes nothing.
    expect(readFileSync(summary, 'utf8').match(/^## /gm)).toHaveLength(1);
  }, 120_000);

  it('inside GitHub Actions writes the report the action writes: container-log groups, outputs, the summary', async () => {
    cluster.create(deployment('api', { namespace: 'cli-gha-logs', podFailure: 'CrashLoopBackOff' }));
    const output = path.join(scratch, 'gha-logs-output');
    const summary = path.join(scratch, 'gha-logs-summary.md');
    writeFileSync(output, '');
    writeFileSync(summary, '');

    const run = await runCommand(['deployment/api', '-o', 'json'], {
      env: {
        KUBECONFIG: kubeconfigFile('cli-gha-logs'),
        GITHUB_ACTIONS: 'true',
        GITHUB_OUTPUT: output,
        GITHUB_STEP_SUMMARY: summary,
        GITHUB_REPOSITORY: 'octo-org/shop',
        RUNNER_TEMP: scratch,
      },
    });

    expect(run.exitCode).toBe(1);
    expect(json(run).result).toBe('failed');
    const commands = parseCommands(run.stderr);
    expect(commands.filter((c) => c.command === 'group').map((c) => c.message)).toContainEqual(
      expect.stringMatching(/^Logs cli-gha-logs\/api-[\w-]+\/api \(previous\): exit 1: panic: missing DATABASE_URL$/),
    );
    // The container's own lines are shown, not obeyed: inside `::stop-commands::`.
    expect(run.stderr).toMatch(/^::stop-commands::[\w-]+\n(?:.*\n)*goroutine 1 \[running\]:/m);
    const outputs = parseOutputFile(readFileSync(output, 'utf8'));
    expect([outputs.result, outputs.failed]).toEqual(['failed', 'cli-gha-logs/Deployment/api']);
    expect(readFileSync(outputs['resources-file']!, 'utf8')).toBe(outputs.resources);
    expect(readFileSync(summary, 'utf8')).toContain('goroutine 1 [running]:');
  }, 120_000);

  it('inside GitHub Actions a bad flag is an annotation in the command`s terms, the outputs and the summary', async () => {
    const output = path.join(scratch, 'gha-usage-output');
    const summary = path.join(scratch, 'gha-usage-summary.md');
    writeFileSync(output, '');
    writeFileSync(summary, '');

    const run = await runCommand(['deployment/web', '--timeout', 'soon'], {
      env: { GITHUB_ACTIONS: 'true', GITHUB_OUTPUT: output, GITHUB_STEP_SUMMARY: summary, RUNNER_TEMP: scratch },
    });

    expect(run.exitCode).toBe(3);
    expect(parseCommands(run.stdout).filter((c) => c.command === 'error')).toEqual([
      { command: 'error', properties: { title: 'kubewait: input --timeout' }, message: expect.stringMatching(/^--timeout is "soon"/) },
    ]);
    expect(parseOutputFile(readFileSync(output, 'utf8')).result).toBe('error');
    expect(readFileSync(summary, 'utf8')).toContain('a problem with input `timeout`');
  }, 60_000);

  it('folds the target list into a collapsible section inside GitLab CI', async () => {
    cluster.create(deployment('web', { namespace: 'cli-gitlab', readyAfterMs: 100 }));

    const run = await runCommand(['deployment/web'], { env: { KUBECONFIG: kubeconfigFile('cli-gitlab'), GITLAB_CI: 'true' } });

    expect(run.exitCode).toBe(0);
    const shown = run.stdout.replaceAll('\u001b', '<ESC>').replaceAll('\r', '<CR>');
    expect(shown).toMatch(/<ESC>\[0Ksection_start:\d+:kubewait_1\[collapsed=true\]<CR><ESC>\[0KWaiting for 1 target to be ready\n/);
    expect(shown).toMatch(/<ESC>\[0Ksection_end:\d+:kubewait_1<CR><ESC>\[0K\n/);
  }, 120_000);

  describe('the log tails of a crash-looping Deployment (--logs is on by default)', () => {
    /** A Go program that prints its token before it panics: the tail is shown, the token never. */
    const CRASH_LOG = `level=info msg="starting api" token=${LOG_TOKEN}\nlevel=info msg="loading configuration"\npanic: missing DATABASE_URL\n\ngoroutine 1 [running]:\nmain.main()\n`;
    function crashLooping(namespace: string) {
      const object = deployment('api', { namespace, replicas: 2, podFailure: 'CrashLoopBackOff' });
      (object.spec.template.metadata.annotations as Record<string, string>)['kubewait.test/log'] = CRASH_LOG;
      return object;
    }
    const TITLE = (namespace: string) => new RegExp(`^Logs ${namespace}/api-[\\w-]+/api \\(previous\\): exit 1: panic: missing DATABASE_URL$`, 'm');

    it('in the text output: one block after the closing lines, the same lines as the action`s step log', async () => {
      cluster.create(crashLooping('cli-logs-text'));

      const run = await runCommand(['deployment/api', '--timeout', '60s'], { env: { KUBECONFIG: kubeconfigFile('cli-logs-text', LOG_TOKEN) } });

      expect(run.exitCode).toBe(1);
      const closing = run.stdout.search(/^kubewait: failed/m);
      const block = run.stdout.search(TITLE('cli-logs-text'));
      expect([closing >= 0, block > closing]).toEqual([true, true]);
      // Both replicas printed the same: one block, naming the other pod.
      expect(run.stdout.match(new RegExp(TITLE('cli-logs-text').source, 'gm'))).toHaveLength(1);
      expect(run.stdout).toMatch(/^ {2}goroutine 1 \[running\]:$/m);
      expect(run.stdout).toMatch(/^ {2}The same in pod api-[\w-]+\.$/m);
      expect(run.stdout).toMatch(/^ {2}More: kubectl logs -n cli-logs-text api-[\w-]+ -c api --previous --tail=200$/m);
      expect(run.stdout).toContain('token=***');
      expect(run.stdout + run.stderr).not.toContain(LOG_TOKEN);
      expect(run.stdout).not.toContain('::'); // no workflow commands outside GitHub Actions
    }, 120_000);

    it('in -o json (a `logs` array) and in the JUnit file`s <system-out>, masked', async () => {
      cluster.create(crashLooping('cli-logs-json'));
      const report = path.join(scratch, 'logs.xml');

      const run = await runCommand(['deployment/api', '--timeout', '60s', '-o', 'json', '--junit', report], {
        env: { KUBECONFIG: kubeconfigFile('cli-logs-json', LOG_TOKEN) },
      });

      expect(run.exitCode).toBe(1);
      const document = json(run);
      expect(document.logs).toEqual([
        {
          resource: 'cli-logs-json/Deployment/api',
          pod: expect.stringMatching(/^api-/),
          container: 'api',
          init: false,
          previous: true,
          summary: 'exit 1: panic: missing DATABASE_URL',
          lines: [
            'level=info msg="starting api" token=***',
            'level=info msg="loading configuration"',
            'panic: missing DATABASE_URL',
            '',
            'goroutine 1 [running]:',
            'main.main()',
          ],
          samePods: [expect.stringMatching(/^api-/)],
          command: expect.stringMatching(/^kubectl logs -n cli-logs-json api-[\w-]+ -c api --previous --tail=200$/),
        },
      ]);
      // The live log (stderr with -o json) has the block too.
      expect(run.stderr).toMatch(TITLE('cli-logs-json'));
      const out = junit(report).cases.find((c) => c.name === 'api')?.['system-out'] ?? '';
      expect(out).toMatch(TITLE('cli-logs-json'));
      expect(out).toContain('  goroutine 1 [running]:');
      expect(out).toContain('token=***');
      expect(run.stdout + run.stderr + readFileSync(report, 'utf8')).not.toContain(LOG_TOKEN);
    }, 120_000);
  });

  it('never shows the bearer token, even when the run fails', async () => {
    const token = 'kubewait-cli-secret-token-0123456789';
    const run = await runCommand(['deployment/web', '--timeout', '20s', '--junit', path.join(scratch, 'secret.xml')], {
      env: { KUBECONFIG: kubeconfigFile('cli-secret', token) },
    });

    expect(run.exitCode).toBe(4); // an unknown token: the credentials are rejected
    expect(run.stdout + run.stderr + readFileSync(path.join(scratch, 'secret.xml'), 'utf8')).not.toContain(token);
  }, 120_000);
});

describe('kubectl kubewait, the plugin', () => {
  it('runs through the real kubectl with kubectl`s TYPE NAME form and flags, and exits with the verdict', async () => {
    cluster.create(deployment('web', { namespace: 'plugin', readyAfterMs: 200 }));
    const file = kubeconfigFile('plugin');

    const ready = await runCommand(['deployment', 'web', '--kubeconfig', file, '-n', 'plugin', '-o', 'json'], { viaKubectl: true });
    // Created now, with a progress deadline no loaded machine reaches (the default 600 s is 2 minutes at the
    // stand-in's speed, which the runs before took once): the verdict is the crash loop's, not the deadline's.
    const api = deployment('api', { namespace: 'plugin', podFailure: 'CrashLoopBackOff' });
    cluster.create({ ...api, spec: { ...api.spec, progressDeadlineSeconds: 86_400 } });
    const failed = await runCommand(['deployment/api', '--kubeconfig', file, '-n', 'plugin', '--timeout', '60s'], { viaKubectl: true });
    const usage = await runCommand(['deployment/web', '--timeout', 'soon'], { viaKubectl: true });

    expect([ready.exitCode, json(ready).result, statusOf(json(ready))]).toEqual([0, 'ready', { 'Deployment/web': 'Current' }]);
    expect(failed.exitCode).toBe(1);
    expect(failed.stdout).toMatch(/^kubewait: failed/m);
    expect(failed.stdout).toContain('CrashLoopBackOff');
    expect([usage.exitCode, usage.stderr.trim()]).toEqual([3, expect.stringMatching(/^kubewait: --timeout is "soon"/)]);
  }, 180_000);
});
