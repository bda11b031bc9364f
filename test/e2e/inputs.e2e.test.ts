/**
 * Bad input, end to end: the step fails at once with exactly one error annotation that names the input
 * and shows a correct example; no stack trace, no hang, and the outputs still say `failed`.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureDist } from './dist.js';
import { runAction, type ActionRun } from './runAction.js';

/** A usable kubeconfig; no test here gets as far as talking to its server. */
const KUBECONFIG = `apiVersion: v1
kind: Config
clusters:
- name: ci
  cluster: {server: 'https://127.0.0.1:1', insecure-skip-tls-verify: true}
users:
- name: ci
  user: {token: not-used}
contexts:
- name: ci
  context: {cluster: ci, user: ci}
current-context: ci
`;

let workspace: string;

beforeAll(async () => {
  await ensureDist();
  workspace = mkdtempSync(path.join(tmpdir(), 'kubewait-e2e-inputs-'));
  mkdirSync(path.join(workspace, 'k8s'));
  writeFileSync(path.join(workspace, 'k8s/broken.yaml'), 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  labels: {app: web\n');
  writeFileSync(path.join(workspace, 'k8s/not-an-object.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n---\nfoo: bar\n');
}, 300_000);

afterAll(() => rmSync(workspace, { recursive: true, force: true }));

function expectOneInputError(run: ActionRun, input: string): ActionRun['errors'][number] {
  expect(run.exitCode).toBe(1);
  expect(run.errors).toHaveLength(1);
  expect(run.errors[0]?.properties.title).toBe(`kubewait: input "${input}"`);
  expect(`${run.stdout}${run.stderr}`).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m); // no stack trace
  expect(run.outputs).toMatchObject({ result: 'error', ready: 'false', resources: '[]' });
  // The job summary says which input stopped the step (summary is on by default).
  expect(run.summary).toContain(`a problem with input \`${input}\``);
  return run.errors[0]!;
}

describe('bad inputs fail the step at once with one annotation', () => {
  it.each<[string, Record<string, string>, string]>([
    [
      'timeout',
      { resources: 'deployment/web', timeout: '5 minutes' },
      'Input "timeout" is "5 minutes": expected a duration like 90s, 5m or 1h30m, or a number of seconds.',
    ],
    ['timeout', { resources: 'deployment/web', timeout: '0' }, 'Input "timeout" is "0": expected a duration greater than zero, like 90s, 5m or 1h30m.'],
    [
      'wait-for',
      { resources: 'deployment/web', 'wait-for': 'available' },
      'Input "wait-for" is "available": expected ready, deleted, condition=TYPE[=VALUE] or jsonpath=EXPR[=VALUE], like condition=Available or jsonpath={.status.phase}=Running.',
    ],
    [
      'resources',
      { resources: 'deployment/web/extra/part' },
      'Input "resources" has "deployment/web/extra/part": it has too many "/". Expected TYPE/NAME or NAMESPACE/TYPE/NAME, like deployment/web or shop/deployment/web.',
    ],
    [
      'resources',
      {},
      'Inputs "resources", "selector", "manifests" and "release" are all empty: nothing to wait for. Set at least one, like resources: deployment/web, selector: app=web, manifests: k8s/*.yaml or release: shop.',
    ],
    [
      'selector',
      { selector: 'app in (web' },
      'Input "selector" is "app in (web": missing ")" after "app in (web". Expected a label selector like app=web,tier!=cache or env in (prod,staging).',
    ],
    ['mode', { resources: 'deployment/web', mode: 'stream' }, 'Input "mode" is "stream": expected auto, watch or poll.'],
    ['fail-fast', { resources: 'deployment/web', 'fail-fast': 'yes' }, 'Input "fail-fast" is "yes": expected true or false, like fail-fast: true.'],
    [
      'manifests',
      { manifests: 'deploy/*.yaml' },
      'Input "manifests" has "deploy/*.yaml", which matches no manifest file. Expected paths or globs of YAML or JSON files, like k8s/*.yaml or deploy/app.json.',
    ],
  ])(
    '%s: %j',
    async (input, inputs, message) => {
      const run = await runAction({ kubeconfig: KUBECONFIG, ...inputs }, { workspace });
      expect(expectOneInputError(run, input).message).toBe(message);
    },
    30_000,
  );

  it('points an unparsable manifest at its file and line', async () => {
    const run = await runAction({ kubeconfig: KUBECONFIG, manifests: 'k8s/broken.yaml' }, { workspace });
    const error = expectOneInputError(run, 'manifests');
    expect(error.properties).toMatchObject({ file: 'k8s/broken.yaml', line: '5' }); // the last line: the unclosed map ends the file
    expect(error.message).toMatch(/^Input "manifests" has "k8s\/broken.yaml", which is not valid YAML or JSON at line 5: /);
  }, 30_000);

  it('points a document that is not a Kubernetes object at its file and line', async () => {
    const run = await runAction({ kubeconfig: KUBECONFIG, manifests: 'k8s/*.yaml\n!k8s/broken.yaml' }, { workspace });
    const error = expectOneInputError(run, 'manifests');
    expect(error.properties).toMatchObject({ file: 'k8s/not-an-object.yaml', line: '6' });
    expect(error.message).toContain('which is not a Kubernetes object: it has no apiVersion.');
  }, 30_000);

  it('names the context input when the kubeconfig has no such context', async () => {
    const run = await runAction({ kubeconfig: KUBECONFIG, context: 'production', resources: 'deployment/web' }, { workspace });
    const error = expectOneInputError(run, 'context');
    expect(error.message).toMatch(/^context "production" is not in .*Example: `context: ci`$/s);
  }, 30_000);

  it('names the kubeconfig input when it is not a kubeconfig', async () => {
    const run = await runAction({ kubeconfig: '%%% not yaml, not base64 %%%', resources: 'deployment/web' }, { workspace });
    const error = expectOneInputError(run, 'kubeconfig');
    expect(error.message).toMatch(/^the kubeconfig input is neither kubeconfig YAML nor base64 of it/);
  }, 30_000);

  it('names the kubeconfig input when there is none at all', async () => {
    const run = await runAction({ resources: 'deployment/web' }, { workspace });
    const error = expectOneInputError(run, 'kubeconfig');
    expect(error.message).toMatch(/^no kubeconfig found/);
  }, 30_000);
});
