/**
 * Nothing leaked: no credential of the kubeconfig (bearer token, client key and certificate data) appears
 * in the log, the annotations, the outputs or the job summary. They may appear only in `::add-mask::`
 * commands, which tell the runner to hide them. The run fails (bad image, then a timeout) so that every
 * kind of report is written.
 */
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { generate } from 'selfsigned';
import { parse, stringify } from 'yaml';
import { startCluster, type TestCluster } from '../cluster/index.js';
import { ensureDist } from './dist.js';
import { deployment } from './objects.js';
import { runAction } from './runAction.js';

const token = `kubewait-e2e-${randomBytes(16).toString('hex')}`;
let cluster: TestCluster;

beforeAll(async () => {
  await ensureDist();
  cluster = await startCluster({ speed: 0.2, tokens: { [token]: [{ verbs: ['*'], resources: ['*'] }] } });
  cluster.create(deployment('api', { namespace: 'shop', podFailure: 'ImagePullBackOff' }));
}, 300_000);

afterAll(async () => {
  await cluster?.close();
});

/** The stand-in's kubeconfig with a client certificate and key added to the user, as many CI configs have. */
async function kubeconfigWithClientCertificate(): Promise<{ kubeconfig: string; secrets: string[] }> {
  const pems = await generate([{ name: 'commonName', value: 'ci' }]);
  const config = parse(cluster.kubeconfig({ token, namespace: 'shop' })) as { users: Array<{ user: Record<string, string> }> };
  const keyData = Buffer.from(pems.private).toString('base64');
  const certData = Buffer.from(pems.cert).toString('base64');
  config.users[0]!.user['client-key-data'] = keyData;
  config.users[0]!.user['client-certificate-data'] = certData;
  const keyBody = pems.private.split('\n').filter((line) => line.length > 40 && !line.startsWith('-----'));
  return { kubeconfig: stringify(config), secrets: [token, keyData, certData, ...keyBody] };
}

it.each([
  ['YAML', (kubeconfig: string) => kubeconfig],
  ['base64', (kubeconfig: string) => Buffer.from(kubeconfig).toString('base64')],
])(
  'never shows a credential of a %s kubeconfig',
  async (_form, encode) => {
    const { kubeconfig, secrets } = await kubeconfigWithClientCertificate();

    const run = await runAction({ kubeconfig: encode(kubeconfig), resources: 'deployment/api\nsecret/missing', timeout: '5s' });

    expect(run.exitCode).toBe(1);
    expect(run.outputs.result).toMatch(/failed|timeout/); // it did connect and wait: the credentials were used
    expect(run.summary).not.toBe('');
    expect(run.masks).toEqual(expect.arrayContaining([token]));
    const visible = {
      log: run.stdout
        .split('\n')
        .filter((line) => !line.startsWith('::add-mask::'))
        .join('\n'),
      stderr: run.stderr,
      outputs: JSON.stringify(run.outputs),
      summary: run.summary,
    };
    for (const [where, text] of Object.entries(visible)) {
      for (const secret of secrets) expect([where, text.includes(secret)]).toEqual([where, false]);
    }
  },
  60_000,
);

it('never shows a credential when the kubeconfig cannot be used', async () => {
  const { kubeconfig, secrets } = await kubeconfigWithClientCertificate();
  const broken = kubeconfig.replace(/server: .*/, 'server: not-a-url');

  for (const inputs of [{ context: 'production' }, { kubeconfig: broken }] as Record<string, string>[]) {
    const run = await runAction({ kubeconfig, resources: 'deployment/api', ...inputs });
    expect(run.exitCode).toBe(1);
    expect(run.errors).toHaveLength(1);
    const visible =
      run.stdout
        .split('\n')
        .filter((line) => !line.startsWith('::add-mask::'))
        .join('\n') +
      run.stderr +
      JSON.stringify(run.outputs) +
      run.summary;
    for (const secret of secrets) expect(visible.includes(secret)).toBe(false);
  }
}, 60_000);
