/**
 * Manifests end to end: the objects of YAML and JSON files are the targets, and a failure is annotated
 * on the manifest line it came from, so it shows on the pull request's diff.
 */
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { startCluster, type TestCluster } from '../cluster/index.js';
import { ensureDist } from './dist.js';
import { deployment, job } from './objects.js';
import { runAction } from './runAction.js';

let cluster: TestCluster;
let workspace: string;

const web = deployment('web', { namespace: 'shop', readyAfterMs: 200 });
const api = deployment('api', { namespace: 'shop', podFailure: 'ImagePullBackOff', image: 'registry.example.com/api:v2' });
const migrate = job('migrate', { namespace: 'shop', readyAfterMs: 200 });

beforeAll(async () => {
  await ensureDist();
  cluster = await startCluster({ speed: 0.2 });
  workspace = mkdtempSync(path.join(tmpdir(), 'kubewait-e2e-manifests-'));
  mkdirSync(path.join(workspace, 'k8s'));
  // web starts on line 2 (after a comment), api after web's 23 lines and a separator.
  writeFileSync(path.join(workspace, 'k8s/app.yaml'), `# shop\n${stringify(web)}---\n${stringify(api)}`);
  writeFileSync(path.join(workspace, 'k8s/migrate.json'), JSON.stringify(migrate, null, 2));
  for (const object of [web, api, migrate]) cluster.create(object);
}, 300_000);

afterAll(async () => {
  await cluster?.close();
  rmSync(workspace, { recursive: true, force: true });
});

it('annotates a failing object on its manifest file and line', async () => {
  const apiLine = 2 + stringify(web).split('\n').length; // the comment, web's lines (with the final newline), the separator

  const run = await runAction({ kubeconfig: cluster.kubeconfig(), manifests: 'k8s/*.yaml\nk8s/*.json', timeout: '120s' }, { workspace });

  expect(run.exitCode).toBe(1);
  expect(run.outputs.result).toBe('failed');
  const annotation = run.errors.find((e) => e.properties.title === 'Deployment shop/api');
  expect(annotation?.properties).toMatchObject({ file: 'k8s/app.yaml', line: String(apiLine) });
  expect(annotation?.message).toMatch(/ImagePullBackOff|ErrImagePull/);

  const resources = JSON.parse(run.outputs.resources!) as Array<{ name: string; file?: string; line?: number }>;
  expect(resources.map(({ name, file, line }) => ({ name, file, line }))).toEqual(
    expect.arrayContaining([
      { name: 'web', file: 'k8s/app.yaml', line: 2 },
      { name: 'api', file: 'k8s/app.yaml', line: apiLine },
      { name: 'migrate', file: 'k8s/migrate.json', line: 1 },
    ]),
  );
}, 150_000);

it('annotates a workspace file even when it is named exactly like a Helm release manifest', async () => {
  // Before the source had a kind, a file named `release NAME (revision N)` was taken for a release's manifest
  // (a regex over the name) and lost its file= and line= annotation.
  const lookalike = deployment('lookalike', { namespace: 'shop', podFailure: 'ImagePullBackOff', image: 'registry.example.com/lookalike:v2' });
  cluster.create(lookalike);
  const dir = mkdtempSync(path.join(tmpdir(), 'kubewait-e2e-lookalike-'));
  try {
    writeFileSync(path.join(dir, 'release shop (revision 1)'), `# looks like a release, is a file\n${stringify(lookalike)}`);

    const run = await runAction({ kubeconfig: cluster.kubeconfig(), manifests: 'release*', timeout: '120s' }, { workspace: dir });

    expect(run.outputs.result).toBe('failed');
    const annotation = run.errors.find((e) => e.properties.title === 'Deployment shop/lookalike');
    expect(annotation?.properties).toMatchObject({ file: 'release shop (revision 1)', line: '2' });
    expect(JSON.parse(run.outputs.resources!)).toEqual([expect.objectContaining({ name: 'lookalike', file: 'release shop (revision 1)', line: 2 })]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 150_000);

it('honours a ! exclusion line when the included entry is a directory', async () => {
  const run = await runAction({ kubeconfig: cluster.kubeconfig(), manifests: 'k8s/\n!k8s/app.yaml', timeout: '60s' }, { workspace });

  expect(run.errors).toEqual([]);
  expect(run.outputs.result).toBe('ready');
  const resources = JSON.parse(run.outputs.resources!) as Array<{ name: string; file?: string }>;
  expect(resources.map(({ name, file }) => ({ name, file }))).toEqual([{ name: 'migrate', file: 'k8s/migrate.json' }]);
}, 150_000);

it('a manifest with an unrendered template placeholder: the placeholder line, and says it looks like a template', async () => {
  mkdirSync(path.join(workspace, 'chart'));
  writeFileSync(
    path.join(workspace, 'chart/deployment.yaml'),
    ['apiVersion: apps/v1', 'kind: Deployment', 'metadata:', '  name: {{ .Values.name }}', '  labels:', '    app: web', ''].join('\n'),
  );

  const run = await runAction({ kubeconfig: cluster.kubeconfig(), manifests: 'chart/deployment.yaml', timeout: '60s' }, { workspace });

  expect(run.exitCode).toBe(1);
  expect(run.outputs.result).toBe('error');
  expect(run.errors).toHaveLength(1);
  expect(run.errors[0]?.properties).toMatchObject({ file: 'chart/deployment.yaml', line: '4' });
  expect(run.errors[0]?.message).toContain('line 4, with the template placeholder {{ .Values.name }}: it looks like an unrendered template.');
}, 60_000);
