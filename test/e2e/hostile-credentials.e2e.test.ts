/**
 * Hostile conditions, end to end through `dist/index.js` and `dist/cli.js` against the API server stand-in
 * (issues 12 and 24): credentials that cannot work end the step with `result: error` and one annotation
 * naming the kubeconfig; misconfiguration is never green; a bad input says what is wrong. The kit
 * (hostile.ts) says how timed assertions are kept loose.
 */
import { beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { generate } from 'selfsigned';
import { runAction } from './runAction.js';
import { closedPort, execUser, expectCannotUseKubeconfig, hostileKit, visible } from './hostile.js';

const kit = hostileKit();

describe('errors that cannot heal end the step at once with result: error', () => {
  const secretOnStderr = 'plugin-stderr-secret-7f3a';
  it.each<[string, () => Promise<string> | string, RegExp]>([
    ['a rejected token (401)', () => kit.cluster.kubeconfig({ token: 'not-a-token', namespace: 'hostile' }), /rejected the credentials \(401 Unauthorized\)/],
    [
      'an unknown certificate authority',
      async () => {
        const other = await generate([{ name: 'commonName', value: 'someone-else' }]);
        return kit.kubeconfigWith((c) => (c.clusters[0]!.cluster['certificate-authority-data'] = Buffer.from(other.cert).toString('base64')));
      },
      /TLS verification of the API server at https:\/\/127\.0\.0\.1:\d+ failed/,
    ],
    [
      'an unusable client key',
      async () => {
        const pems = await generate([{ name: 'commonName', value: 'ci' }]);
        return kit.kubeconfigWith((c) => {
          c.users[0]!.user['client-certificate-data'] = Buffer.from(pems.cert).toString('base64');
          c.users[0]!.user['client-key-data'] = Buffer.from('-----BEGIN PRIVATE KEY-----\nbm90IGEga2V5\n-----END PRIVATE KEY-----\n').toString('base64');
        });
      },
      /the client certificate or key of the kubeconfig user cannot be used/,
    ],
    [
      'a failing exec plugin (its stderr withheld)',
      () => kit.kubeconfigWith(execUser(kit.plugin('failing-plugin', `echo "${secretOnStderr}" >&2; exit 3`))),
      /exec credential plugin "failing-plugin" of user "admin-user" exited with code 3 \(its stderr is withheld/,
    ],
    [
      'a missing exec plugin',
      () => kit.kubeconfigWith(execUser(path.join(kit.scratch, 'no-such-plugin'))),
      /exec credential plugin "no-such-plugin" of user "admin-user" was not found/,
    ],
  ])(
    '%s',
    async (_case, kubeconfig, cause) => {
      // A 10-minute deadline: only an error that ends the step at once gets a result before killAfterMs.
      const run = await runAction({ kubeconfig: await kubeconfig(), resources: 'deployment/web', timeout: '10m' }, { killAfterMs: 60_000 });
      expectCannotUseKubeconfig(run, cause);
      expect(visible(run)).not.toContain(secretOnStderr);
    },
    90_000,
  );

  it.each([
    ['with a deadline shorter than 30 s: at the deadline', '8s'],
    ['with a long deadline: after 30 s of retries', '10m'],
  ])(
    'a server that refuses connections, %s',
    async (_case, timeout) => {
      const port = await closedPort();
      const kubeconfig = kit.kubeconfigWith((c) => (c.clusters[0]!.cluster.server = `https://127.0.0.1:${port}`));
      const run = await runAction({ kubeconfig, resources: 'deployment/web', timeout }, { killAfterMs: 80_000 });
      expectCannotUseKubeconfig(run, /cannot reach the API server at https:\/\/127\.0\.0\.1:\d+: ECONNREFUSED \(no answer for \d+s\)/);
    },
    120_000,
  );
});

describe('misconfiguration is never green', () => {
  let workspace: string;
  beforeAll(() => {
    workspace = mkdtempSync(path.join(kit.scratch, 'ws-'));
    mkdirSync(path.join(workspace, 'k8s'));
    writeFileSync(path.join(workspace, 'k8s/empty.yaml'), '---\n# nothing here\n---\n');
    writeFileSync(
      path.join(workspace, 'k8s/escape.yaml'),
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ok\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ../x\n  namespace: Shop\n',
    );
  });

  it.each([
    [{ manifests: 'k8s/empty.yaml' }, 'manifests', /^Input "manifests" yields nothing to wait for: "k8s\/empty.yaml" holds no Kubernetes object/, undefined],
    [
      { manifests: 'k8s/escape.yaml' },
      'manifests',
      /^Input "manifests" has "k8s\/escape.yaml" line 6: "\.\.\/x" is not a valid object name/,
      { file: 'k8s/escape.yaml', line: '6' },
    ],
    [
      { resources: 'deploymnt/web', 'wait-for': 'deleted' },
      'resources',
      /^resource type "deploymnt" is not served by the cluster and no CRD defines it.*Did you mean deployments\.apps \(deployment, deploy\)\?$/,
      undefined,
    ],
  ])(
    '%j is an error naming %s',
    async (inputs, input, message, where) => {
      const run = await runAction(
        { kubeconfig: kit.cluster.kubeconfig({ namespace: 'misconf' }), timeout: '60s', ...inputs },
        { workspace, killAfterMs: 60_000 },
      );
      expect(run.outputs.result).toBe('error');
      expect(run.exitCode).toBe(1);
      expect(run.errors).toHaveLength(1);
      expect(run.errors[0]!.properties.title).toBe(`kubewait: input "${input}"`);
      expect(run.errors[0]!.message).toMatch(message);
      if (where) expect(run.errors[0]!.properties).toMatchObject(where);
    },
    90_000,
  );
});

describe('clearer messages', () => {
  it('a kubeconfig input that looks like a missing path says so', async () => {
    const run = await runAction({ kubeconfig: '/home/runner/.kube/config-missing', resources: 'deployment/web' });
    expect(run.errors.map((e) => [e.properties.title, e.message.split(';')[0]])).toEqual([
      ['kubewait: input "kubeconfig"', 'the kubeconfig input looks like a file path, and no such file exists'],
    ]);
  }, 30_000);

  it('names a namespace that does not exist at the deadline', async () => {
    const run = await runAction({ kubeconfig: kit.cluster.kubeconfig(), resources: 'nope/deployment/web', timeout: '3s' });
    expect(run.outputs.result).toBe('timeout');
    expect(run.errors[0]!.message).toContain('namespace nope does not exist');
  }, 60_000);

  it('true/false inputs show an example', async () => {
    const run = await runAction({ kubeconfig: kit.cluster.kubeconfig(), resources: 'deployment/web', 'fail-fast': 'yes' });
    expect(run.errors.map((e) => e.message)).toEqual(['Input "fail-fast" is "yes": expected true or false, like fail-fast: true.']);
  }, 30_000);

  it('mode: watch without the watch permission names the permission, once, not the kubeconfig', async () => {
    // A target that does not exist yet: the list alone cannot finish the wait, a watch is needed.
    const run = await runAction({
      kubeconfig: kit.cluster.kubeconfig({ token: 'list-only', namespace: 'nowatch' }),
      resources: 'deployment/ghost',
      mode: 'watch',
      timeout: '60s',
    });
    expect(run.outputs.result).toBe('error');
    expect(run.errors).toHaveLength(1);
    expect(run.errors[0]!.properties.title).toBe('kubewait: input "mode"');
    expect(run.errors[0]!.message).toMatch(/^cannot watch deployments\.apps in namespace "nowatch": forbidden — grant the watch verb/);
  }, 60_000);
});
