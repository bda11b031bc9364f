/** `npm run cluster`: argument parsing, scenario files, and the running process. */
import { describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppsV1Api, KubeConfig, KubernetesObjectApi } from '@kubernetes/client-node';
import { parseArgs, scenarioObjects } from './cli.js';
import { eventually, until } from './testkit.js';

describe('parseArgs', () => {
  it('reads every option', () => {
    expect(parseArgs(['--kubeconfig', 'k', '--scenario', 's.yaml', '--http', '--port', '8443', '--speed', '0.5'])).toEqual({
      kubeconfig: 'k',
      scenario: 's.yaml',
      http: true,
      port: 8443,
      speed: 0.5,
    });
  });

  it.each([
    [[], '--kubeconfig is required'],
    [['--kubeconfig'], '--kubeconfig needs a value'],
    [['--kubeconfig', 'k', '--port', 'x'], '--port must be a port number'],
    [['--kubeconfig', 'k', '--speed', '0'], '--speed must be a positive number'],
    [['--kubeconfig', 'k', '--bogus'], 'unknown argument --bogus'],
  ])('rejects %p with a usage example', (argv, message) => {
    expect(() => parseArgs(argv)).toThrow(message);
    expect(() => parseArgs(argv)).toThrow('example: npm run cluster -- --kubeconfig /tmp/kubeconfig');
  });
});

describe('scenarioObjects', () => {
  it('reads multi-document YAML and flattens List kinds', () => {
    const docs = scenarioObjects(
      [
        'apiVersion: v1\nkind: Namespace\nmetadata: {name: a}',
        'apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: x, namespace: a}}\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: y, namespace: a}}',
        '',
      ].join('\n---\n'),
    );
    expect(docs.map((d) => `${d.kind}/${d.metadata.name}`)).toEqual(['Namespace/a', 'ConfigMap/x', 'ConfigMap/y']);
  });

  it('reads JSON', () => {
    expect(scenarioObjects('{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"j"}}')).toHaveLength(1);
  });
});

describe('the cluster command', () => {
  it('writes the kubeconfig, applies the scenario (CRDs before their resources), reports ready, and stops on SIGTERM', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kubewait-cli-'));
    const kubeconfig = join(dir, 'kubeconfig');
    const scenario = join(dir, 'scenario.yaml');
    writeFileSync(
      scenario,
      [
        'apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w1, namespace: demo, annotations: {kubewait.test/conditions-after-ms: "10"}}\nspec: {}',
        'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: demo}\nspec:\n  replicas: 1\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec: {containers: [{name: app, image: nginx}]}',
        'apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: widgets.example.com}\nspec:\n  group: example.com\n  scope: Namespaced\n  names: {plural: widgets, singular: widget, kind: Widget}\n  versions: [{name: v1, served: true, storage: true, subresources: {status: {}}}]',
        'apiVersion: v1\nkind: Namespace\nmetadata: {name: demo}',
      ].join('\n---\n'),
    );
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/cluster/cli.ts', '--kubeconfig', kubeconfig, '--scenario', scenario, '--speed', '0.1'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c));
    child.stderr.on('data', (c: Buffer) => (stderr += c));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      // Hang bounds: tsx compiles the stand-in first, which took over 30 s at load 30 on 2 cores.
      await until(() => stdout.includes('ready at') || child.exitCode !== null, 'ready line', 120_000);
      expect(stderr).toBe('');
      expect(stdout).toMatch(/^kubewait test cluster ready at https:\/\/127\.0\.0\.1:\d+ in \d+ ms \(kubeconfig: .*\)\n$/);

      const kc = new KubeConfig();
      kc.loadFromFile(kubeconfig);
      const apps = kc.makeApiClient(AppsV1Api);
      await eventually(
        async () => (await apps.readNamespacedDeployment({ name: 'web', namespace: 'demo' })).status?.availableReplicas === 1,
        'deployment available',
        30_000,
      );
      const widget = await KubernetesObjectApi.makeApiClient(kc).read({
        apiVersion: 'example.com/v1',
        kind: 'Widget',
        metadata: { name: 'w1', namespace: 'demo' },
      });
      expect(widget.metadata?.name).toBe('w1');

      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  }, 240_000);
});
