/**
 * readRelease against the API server stand-in, holding the records the real helm v4.1.4 wrote
 * (test/release/fixtures/). The real helm then reads the same stored records, and must say
 * what readRelease says.
 */
import { InputError } from '../../src/settings.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { KubeClient } from '../../src/kube/client.js';
import { loadKubeConfig } from '../../src/kube/kubeconfig.js';
import { readRelease } from '../../src/release/read.js';
import { targetsFromManifestText } from '../../src/targets/manifests.js';
import type { Release } from '../../src/release/decode.js';
import { startCluster, type TestCluster } from '../cluster/index.js';
import { helmPath } from '../cluster/kubectl.js';
import { releaseRecord, SECRET_VALUE, type RecordKey } from './fixtures/index.js';

const run = promisify(execFile);
const NAMESPACE = 'store';
let cluster: TestCluster;
const clients: KubeClient[] = [];
const work = mkdtempSync(path.join(tmpdir(), 'kubewait-releases-'));

beforeAll(async () => {
  cluster = await startCluster({ controllers: false });
  cluster.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NAMESPACE } });
  cluster.setAccess('configmaps-only', [{ verbs: ['list'], resources: ['configmaps'], apiGroups: [''] }]);
  cluster.setAccess('secrets-only', [{ verbs: ['list'], resources: ['secrets'], apiGroups: [''] }]);
  cluster.setAccess('nothing', []);
  // shop: three revisions in Secrets (v3 a failed upgrade); cart: one in a ConfigMap (HELM_DRIVER=configmap).
  for (const key of ['v1-superseded', 'v2-deployed', 'v3-failed', 'configmap-v1-deployed'] satisfies RecordKey[]) cluster.create(releaseRecord(key));
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await cluster.close();
  rmSync(work, { recursive: true, force: true });
});
beforeEach(() => cluster.counters.reset());

function clientAs(token: string): KubeClient {
  const secrets = { mask: () => {} };
  const loaded = loadKubeConfig({ kubeconfig: cluster.kubeconfig({ token }), context: '' }, secrets, { env: {}, serviceAccountDir: '/nonexistent' });
  const client = new KubeClient(loaded.kubeConfig, loaded.server, secrets);
  clients.push(client);
  return client;
}

async function read(token: string, name: string): Promise<{ result: Release | 'not-found' | InputError; warnings: string[] }> {
  const warnings: string[] = [];
  try {
    return { result: await readRelease(clientAs(token), NAMESPACE, name, undefined, (message) => warnings.push(message)), warnings };
  } catch (error) {
    if (error instanceof InputError) return { result: error, warnings };
    throw error;
  }
}

const requests = () => cluster.counters.requests().map(({ verb, resource, namespace, status }) => `${verb} ${resource} ${namespace ?? ''} ${status}`);

describe('readRelease', () => {
  it.each<[string, string, string, Partial<Release> | 'not-found' | RegExp, string[], RegExp[]]>([
    [
      'the Secret driver: one LIST, the highest revision',
      'admin',
      'shop',
      { revision: 3, status: 'failed', record: { kind: 'Secret', name: 'sh.helm.release.v1.shop.v3' } },
      ['list secrets store 200'],
      [],
    ],
    [
      'the ConfigMap driver when no Secret holds the release',
      'admin',
      'cart',
      { revision: 1, status: 'deployed', record: { kind: 'ConfigMap', name: 'sh.helm.release.v1.cart.v1' } },
      ['list secrets store 200', 'list configmaps store 200'],
      [],
    ],
    ['a release that does not exist (yet)', 'admin', 'basket', 'not-found', ['list secrets store 200', 'list configmaps store 200'], []],
    [
      'Secrets forbidden: the ConfigMap record, and why',
      'configmaps-only',
      'cart',
      { revision: 1, record: { kind: 'ConfigMap', name: 'sh.helm.release.v1.cart.v1' } },
      ['list secrets store 403', 'list configmaps store 200'],
      [/^Cannot list secrets in namespace store \(403 Forbidden\): read release cart from its ConfigMap records/],
    ],
    [
      'Secrets forbidden and no ConfigMap record: the Role to grant',
      'configmaps-only',
      'shop',
      /^Cannot read Helm release shop: listing secrets and configmaps in namespace store is forbidden \(403\)\. Grant .* verbs \[list\] on resources \[secrets\]/,
      ['list secrets store 403', 'list configmaps store 200'],
      [],
    ],
    [
      'nothing may be listed',
      'nothing',
      'shop',
      /^Cannot read Helm release shop: .*docs\/helm-release\.md/,
      ['list secrets store 403', 'list configmaps store 403'],
      [],
    ],
    [
      'ConfigMaps forbidden, no Secret record: not found, and why',
      'secrets-only',
      'basket',
      'not-found',
      ['list secrets store 200', 'list configmaps store 403'],
      [/^Cannot list configmaps in namespace store \(403 Forbidden\): only Helm's default Secret driver was checked for release basket$/],
    ],
    ['ConfigMaps forbidden do not matter once a Secret holds it', 'secrets-only', 'shop', { revision: 3 }, ['list secrets store 200'], []],
    [
      'a name that is not a release name widens no selector',
      'admin',
      'shop,owner!=x',
      /^Input "release" has "shop,owner!=x", which is not a Helm release name/,
      [],
      [],
    ],
  ])('%s', async (_name, token, name, expected, expectedRequests, expectedWarnings) => {
    const { result, warnings } = await read(token, name);
    if (expected instanceof RegExp) {
      expect(result).toBeInstanceOf(InputError);
      expect((result as InputError).message).toMatch(expected);
    } else if (expected === 'not-found') {
      expect(result).toBe('not-found');
    } else {
      expect(result).toMatchObject(expected);
    }
    expect(requests()).toEqual(expectedRequests);
    expect(warnings).toHaveLength(expectedWarnings.length);
    expectedWarnings.forEach((warning, index) => expect(warnings[index]).toMatch(warning));
    expect(JSON.stringify([result instanceof Error ? result.message : result, warnings])).not.toContain(SECRET_VALUE);
  });
});

describe('the real helm v4.1.4 reads the same stored records as readRelease', () => {
  let helm: (...args: string[]) => Promise<string>;
  beforeAll(async () => {
    const binary = await helmPath();
    const kubeconfig = path.join(work, 'kubeconfig');
    writeFileSync(kubeconfig, cluster.kubeconfig({ token: 'admin' }));
    helm = async (...args) =>
      (
        await run(binary, [...args, '-n', NAMESPACE], {
          env: {
            ...process.env,
            KUBECONFIG: kubeconfig,
            HELM_DRIVER: args.includes('cart') ? 'configmap' : 'secret',
            HELM_CACHE_HOME: work,
            HELM_CONFIG_HOME: work,
            HELM_DATA_HOME: work,
          },
        })
      ).stdout;
  }, 180_000);

  it.each(['shop', 'cart'])('%s: revision, status, chart, app version and every object', async (name) => {
    const ours = await readRelease(clientAs('admin'), NAMESPACE, name);
    if (ours === 'not-found') throw new Error(`${name} not found`);
    const metadata = JSON.parse(await helm('get', 'metadata', name, '-o', 'json')) as Record<string, unknown>;
    expect({
      name: ours.name,
      namespace: ours.namespace,
      revision: ours.revision,
      status: ours.status,
      chart: ours.chart.name,
      version: ours.chart.version,
      appVersion: ours.chart.appVersion,
    }).toEqual({
      name: metadata.name,
      namespace: metadata.namespace,
      revision: metadata.revision,
      status: metadata.status,
      chart: metadata.chart,
      version: metadata.version,
      appVersion: metadata.appVersion,
    });
    const manifest = await helm('get', 'manifest', name);
    const helmTargets = targetsFromManifestText(manifest, { kind: 'release', name, revision: ours.revision }).map((target) => ({
      ...target,
      namespace: target.namespace ?? NAMESPACE,
    }));
    expect(ours.targets).toEqual(helmTargets);
    // helm prints the Secret it rendered: the value is there, and only there.
    expect(manifest).toContain(SECRET_VALUE);
    expect(JSON.stringify(ours)).not.toContain(SECRET_VALUE);
  });
});
