/**
 * Hostile conditions, end to end through `dist/index.js` and `dist/cli.js` against the API server stand-in
 * (issues 12 and 24): outputs stay bounded; nothing read from a Secret, a URL's userinfo or query, or a
 * token is shown; reporting to GitHub never costs the verdict; oversized inputs are refused; the command
 * keeps its JSON and its signals. The kit (hostile.ts) says how timed assertions are kept loose.
 */
import { describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startGitHub, WRITE_TOKEN } from '../github/index.js';
import { deployment, job } from './objects.js';
import { runAction } from './runAction.js';
import { runCommand } from './runCommand.js';
import { closedPort, hostileKit, visible } from './hostile.js';

const kit = hostileKit();

describe('bounded outputs and no leaks', () => {
  it('writes the complete resources JSON to resources-file under RUNNER_TEMP', async () => {
    kit.cluster.create(deployment('web', { namespace: 'files', readyAfterMs: 100 }));
    const runnerTemp = mkdtempSync(path.join(kit.scratch, 'runner-temp-'));
    const run = await runAction(
      { kubeconfig: kit.cluster.kubeconfig({ namespace: 'files' }), resources: 'deployment/web', timeout: '60s' },
      { env: { RUNNER_TEMP: runnerTemp } },
    );
    expect(run.outputs.result).toBe('ready');
    const file = run.outputs['resources-file']!;
    expect(file.startsWith(runnerTemp + path.sep)).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe(run.outputs.resources);
  }, 90_000);

  it('never shows the userinfo of the server URL, and masks both parts', async () => {
    const port = await closedPort();
    const kubeconfig = kit.kubeconfigWith((c) => (c.clusters[0]!.cluster.server = `https://ci-robot:s3cr3t-pass@127.0.0.1:${port}`));
    const run = await runAction({ kubeconfig, resources: 'deployment/web', timeout: '3s' }, { killAfterMs: 30_000 });
    expect(run.outputs.result).toBe('error');
    expect(run.masks).toEqual(expect.arrayContaining(['ci-robot', 's3cr3t-pass']));
    expect(visible(run)).not.toMatch(/ci-robot|s3cr3t-pass/);
    expect(run.errors[0]!.message).toContain(`https://127.0.0.1:${port}`);
  }, 60_000);

  it('never prints a value read from a Secret in a jsonpath wait', async () => {
    const value = 'UzNjcjN0LXZhbHVlLW5ldmVyLXNob3du';
    kit.cluster.create({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'db', namespace: 'secrets' }, type: 'Opaque', data: { password: value } });
    const run = await runAction({
      kubeconfig: kit.cluster.kubeconfig({ namespace: 'secrets' }),
      resources: 'secret/db',
      'wait-for': 'jsonpath={.data.password}=something-else',
      timeout: '3s',
    });
    expect(run.outputs.result).toBe('timeout');
    expect(visible(run)).not.toContain(value);
    expect(run.errors[0]!.message).toContain('the value differs');
  }, 60_000);

  it('rejects an invalid filter at input time', async () => {
    const run = await runAction({ kubeconfig: kit.cluster.kubeconfig(), resources: 'secret/db', 'wait-for': 'jsonpath={..[?(@@@)]}' });
    expect(run.outputs.result).toBe('error');
    expect(run.errors.map((e) => e.properties.title)).toEqual(['kubewait: input "wait-for"']);
    expect(run.errors[0]!.message).toContain('the filter [?(@@@)] is not valid');
  }, 30_000);
});

describe('round two: reporting, size limits and leaks', () => {
  it('a GitHub API that never answers costs neither the wait nor, on a runner-style cancel, the outputs and summary', async () => {
    const gh = await startGitHub();
    try {
      gh.failNext(1000, { kind: 'hang' });
      const run = await runAction(
        {
          kubeconfig: kit.cluster.kubeconfig({ namespace: 'hostile' }),
          resources: 'deployment/never-created',
          timeout: '10m',
          'pr-comment': 'always',
          'deployment-environment': 'preview',
          'github-token': WRITE_TOKEN,
          'report-matrix': '',
          'report-job-id': '',
        },
        // SIGINT once the wait runs (not at a fixed time, which a loaded machine may spend starting up), SIGTERM
        // 7.5 s later: what a cancelled job gets before it is killed. killAfterMs only catches a hang.
        {
          env: { GITHUB_API_URL: gh.url, GITHUB_EVENT_NAME: 'push', GITHUB_REF: 'refs/heads/main' },
          runnerCancelWhen: (stdout) => stdout.includes('Waiting for 1 target'),
          killAfterMs: 45_000,
        },
      );
      expect(run.outputs.result).toBe('cancelled');
      expect(run.outputs.resources).toContain('"name":"never-created"');
      expect(run.summary).toContain('never-created');
      // The wait started at once, beside the Deployment that never got an answer.
      expect(run.commands.some((c) => c.command === 'group' && c.message.startsWith('Waiting for 1 target'))).toBe(true);
      expect(run.warnings.map((w) => w.message)).toContain(
        "kubewait: reporting to GitHub did not finish within 5s of the cancellation and was abandoned. The wait's result is not affected.",
      );
    } finally {
      await gh.close();
    }
  }, 60_000);

  it('a manifest document larger than the API server accepts is an input error naming the file and the limit', async () => {
    const workspace = mkdtempSync(path.join(kit.scratch, 'big-'));
    const blob = 'x'.repeat(50 * 1024 * 1024);
    writeFileSync(
      path.join(workspace, 'big.yaml'),
      `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: small\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big\n  annotations:\n    blob: ${blob}\n`,
    );
    const run = await runAction(
      { kubeconfig: kit.cluster.kubeconfig({ namespace: 'hostile' }), manifests: 'big.yaml', timeout: '5s' },
      { workspace, killAfterMs: 30_000 },
    );
    expect(run.outputs.result).toBe('error');
    expect(run.errors.map((e) => [e.properties.title, e.properties.file, e.properties.line])).toEqual([['kubewait: input "manifests"', 'big.yaml', '6']]);
    expect(run.errors[0]!.message).toMatch(
      /^Input "manifests" has "big\.yaml" line 6, a document of 50\.0 MiB: the Kubernetes API server accepts at most 3 MiB per object/,
    );
  }, 60_000);

  it('a selector matching more than 20,000 objects is refused, naming the selector', async () => {
    for (let i = 0; i <= 20_000; i++) {
      kit.cluster.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}`, namespace: 'crowd', labels: { crowd: 'yes' } } });
    }
    const run = await runAction(
      { kubeconfig: kit.cluster.kubeconfig({ namespace: 'crowd' }), resources: 'configmap', selector: 'crowd=yes', timeout: '60s' },
      { killAfterMs: 90_000 },
    );
    expect(run.outputs.result).toBe('error');
    expect(run.errors).toHaveLength(1);
    expect(run.errors[0]!.properties.title).toBe('kubewait: input "selector"');
    expect(run.errors[0]!.message).toMatch(/^Input "selector" \("crowd=yes"\) matches 20001 objects; kubewait waits for at most 20000 targets in one step/);
  }, 120_000);

  it('never prints the expected value of a jsonpath wait on a Secret, also when it matches', async () => {
    const value = 'UzNjcjN0LW1hdGNoZWQtdmFsdWU=';
    kit.cluster.create({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'db', namespace: 'matched' }, type: 'Opaque', data: { password: value } });
    const runnerTemp = mkdtempSync(path.join(kit.scratch, 'runner-temp-'));
    const run = await runAction(
      {
        kubeconfig: kit.cluster.kubeconfig({ namespace: 'matched' }),
        resources: 'secret/db',
        'wait-for': `jsonpath={.data.password}=${value}`,
        timeout: '30s',
      },
      { env: { RUNNER_TEMP: runnerTemp } },
    );
    expect(run.outputs.result).toBe('ready');
    expect(visible(run)).not.toContain(value);
    expect(readFileSync(run.outputs['resources-file']!, 'utf8')).not.toContain(value);
    expect(run.log.join('\n')).toContain('{.data.password}=***');
  }, 60_000);

  it('masks the query values of the server URL (?access_token=...) and never shows them', async () => {
    const port = await closedPort();
    const token = 'query-t0ken-5e3f';
    const kubeconfig = kit.kubeconfigWith((c) => (c.clusters[0]!.cluster.server = `https://127.0.0.1:${port}/?access_token=${token}`));
    const run = await runAction({ kubeconfig, resources: 'deployment/web', timeout: '3s' }, { killAfterMs: 30_000 });
    expect(run.outputs.result).toBe('error');
    expect(run.masks).toContain(token);
    expect(visible(run)).not.toContain(token);
    expect(run.errors[0]!.message).toContain(`https://127.0.0.1:${port}?access_token=***`);
  }, 60_000);

  it('masks github-token when reporting is off, so a container log carrying it stays out of the summary', async () => {
    const token = 'ghs_leakedLEAKEDleaked0123456789abcdef';
    const failing = job('seed', { namespace: 'token-log', readyAfterMs: 200 });
    failing.metadata.annotations['kubewait.test/job-outcome'] = 'Failed';
    failing.metadata.annotations['kubewait.test/log'] = `connecting with ${token}\nError: seed failed`;
    kit.cluster.create(failing);
    const run = await runAction({
      kubeconfig: kit.cluster.kubeconfig({ namespace: 'token-log' }),
      resources: 'job/seed',
      timeout: '60s',
      'github-token': token,
    });
    expect(run.outputs.result).toBe('failed');
    expect(run.masks).toContain(token);
    expect(run.summary).toContain('Error: seed failed');
    expect(run.summary).not.toContain(token);
  }, 90_000);
});

describe('round two: the command', () => {
  it('-o json with an unknown flag still writes the JSON error document', async () => {
    const run = await runCommand(['-o', 'json', '--bogus', 'deployment/web']);
    expect(run.exitCode).toBe(3);
    expect(JSON.parse(run.stdout)).toEqual({ result: 'error', resources: [], error: 'unknown flag --bogus. Run kubewait --help for the flags.' });
  }, 30_000);

  it('inside GitHub Actions without GITHUB_STEP_SUMMARY, stdout is still the JSON document alone', async () => {
    // A guard: this was already so when issue 24 was filed against main (its warning goes to stderr).
    const kubeconfig = path.join(kit.scratch, 'cli-no-summary-kubeconfig');
    writeFileSync(kubeconfig, kit.cluster.kubeconfig({ namespace: 'hostile' }));
    const run = await runCommand(['deployment/web', '-o', 'json', '--kubeconfig', kubeconfig, '--timeout', '2s'], {
      env: { GITHUB_ACTIONS: 'true', GITHUB_REPOSITORY: 'octo-org/shop' },
    });
    expect((JSON.parse(run.stdout) as { resources: Array<{ name: string }> }).resources.map((r) => r.name)).toEqual(['web']);
    expect(run.stderr).toContain('::warning::kubewait: could not write the job summary: GITHUB_STEP_SUMMARY is not set');
  }, 30_000);

  it('a SIGINT while the bundle loads ends in the JSON document and exit 130, not a killed process', async () => {
    const kubeconfig = path.join(kit.scratch, 'cli-kubeconfig');
    writeFileSync(kubeconfig, kit.cluster.kubeconfig({ namespace: 'hostile' }));
    const run = await runCommand(['deployment/web', '-o', 'json', '--kubeconfig', kubeconfig, '--timeout', '60s'], {
      // Holds the load of any module over 500 KB (a chunk the wait loads) and says so on stderr: the signal comes then.
      nodeArgs: ['--import', new URL('./slow-parse.ts', import.meta.url).href],
      signalWhen: (output) => (output.includes('parsing ') ? 'SIGINT' : undefined),
      killAfterMs: 30_000,
    });
    expect(run.signal).toBeNull();
    expect(run.exitCode).toBe(130);
    expect((JSON.parse(run.stdout) as { result: string }).result).toBe('cancelled');
  }, 60_000);
});

describe('round two: the files the inputs name', () => {
  /** The step with `inputs`; killAfterMs is the hang bound (a signal leaves no outputs, which the tests read). */
  const runWith = async (inputs: Record<string, string>, workspace?: string) => {
    const run = await runAction(
      { kubeconfig: kit.cluster.kubeconfig({ namespace: 'hostile' }), resources: 'deployment/web', timeout: '5s', ...inputs },
      {
        ...(workspace && { workspace }),
        killAfterMs: 60_000,
      },
    );
    return run;
  };

  it('refuses a health-checks glob outside the workspace at once, naming the input', async () => {
    // The whole disk: a walk of it would take minutes (the walk of /usr alone took 16.7 s), so killAfterMs,
    // which only catches a hang, still tells "refused before walking" (outputs written) from a walk.
    const run = await runWith({ 'health-checks': '/**' });
    expect(run.outputs.result).toBe('error');
    expect(run.errors.map((e) => e.properties.title)).toEqual(['kubewait: input "health-checks"']);
    expect(run.errors[0]!.message).toContain('Input "health-checks" has "/**", which is a glob reaching outside the workspace');
  }, 90_000);

  it('stops expanding a glob at the deadline, naming the input', async () => {
    // Inside the workspace, but links lead into /usr, many times over: a walk of minutes, far more than
    // `timeout: 5s`, so that killAfterMs only has to catch a walk run to its end, never a slow machine.
    const workspace = mkdtempSync(path.join(kit.scratch, 'workspace-'));
    const links = path.join(workspace, 'links');
    mkdirSync(links);
    for (let i = 0; i < 16; i++) symlinkSync('/usr', path.join(links, `usr-${i}`));
    const run = await runWith({ manifests: 'links/**/*.never-a-manifest.yaml', resources: '' }, workspace);
    expect(run.outputs.result).toBe('error');
    expect(run.errors.map((e) => e.properties.title)).toEqual(['kubewait: input "manifests"']);
    expect(run.errors[0]!.message).toContain(
      'Input "manifests" has "links/**/*.never-a-manifest.yaml", which was still being expanded when the timeout ran out',
    );
  }, 90_000);
});
