/** Kubeconfig loading: every source, context selection, clear errors, secret masking; proven by talking to
 *  the API server stand-in over HTTPS through each variant. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { execFileSync } from 'node:child_process';
import { connect } from '../../src/kube/index.js';
import { KubeconfigCache } from '../../src/kube/kubeconfig.js';
import { InputError } from '../../src/settings.js';
import type { KubeconfigSources } from '../../src/kube/index.js';
import { startCluster } from '../cluster/index.js';
import type { TestCluster } from '../cluster/index.js';

let cluster: TestCluster;
let plain: TestCluster;
let dir: string;

beforeAll(async () => {
  [cluster, plain] = await Promise.all([startCluster({ controllers: false }), startCluster({ controllers: false, tls: false })]);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kubewait-kubeconfig-'));
});
afterAll(async () => {
  await Promise.all([cluster.close(), plain.close()]);
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Sources with nothing in them, so tests never read the machine's own kubeconfig. */
function noSources(extra: Partial<KubeconfigSources> = {}): KubeconfigSources {
  return { env: {}, home: path.join(dir, 'no-home'), serviceAccountDir: path.join(dir, 'no-sa'), ...extra };
}

function recorder() {
  const masked: string[] = [];
  return { masked, secrets: { mask: (value: string) => void masked.push(value) } };
}

function write(name: string, content: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, content, { mode: 0o600 });
  return file;
}

/** Connects and proves the connection works with a discovery round trip. */
async function connectAndDiscover(settings: { kubeconfig: string; context: string }, sources: KubeconfigSources) {
  const { secrets, masked } = recorder();
  const c = await connect(settings, secrets, sources);
  try {
    await c.discovery.load();
    expect(c.discovery.resolve({ type: 'deploy' })).toMatchObject({ ok: true, type: { group: 'apps', resource: 'deployments' } });
  } finally {
    await c.close();
  }
  return { c, masked };
}

async function loadError(settings: { kubeconfig: string; context: string }, sources: KubeconfigSources = noSources()): Promise<InputError> {
  const { secrets } = recorder();
  try {
    await connect(settings, secrets, sources);
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return error as InputError;
  }
  throw new Error('expected a InputError');
}

describe('kubeconfig sources', () => {
  it('takes YAML content from the input, with the context namespace and server', async () => {
    const { c } = await connectAndDiscover({ kubeconfig: cluster.kubeconfig({ namespace: 'shop' }), context: '' }, noSources());
    expect(c).toMatchObject({ contextName: 'test', server: cluster.url, namespace: 'shop' });
  });

  it('takes base64 of the YAML from the input', async () => {
    const encoded = Buffer.from(cluster.kubeconfig()).toString('base64');
    const { c, masked } = await connectAndDiscover({ kubeconfig: encoded, context: '' }, noSources());
    expect(c.contextName).toBe('test');
    expect(masked).toContain(encoded);
  });

  it('takes base64 wrapped over several lines', async () => {
    const encoded = Buffer.from(cluster.kubeconfig())
      .toString('base64')
      .replace(/(.{76})/g, '$1\n');
    await connectAndDiscover({ kubeconfig: encoded, context: '' }, noSources());
  });

  it('merges several $KUBECONFIG files like kubectl: first file wins per name, first current-context wins', async () => {
    const first = write('first.yaml', cluster.kubeconfig({ context: 'one' }));
    const second = write('second.yaml', plain.kubeconfig({ context: 'two' }).replaceAll('kubewait-test', 'plain-cluster'));
    // Same cluster name as the first file's, other server: the first file's definition wins.
    const shadowed = write('third.yaml', plain.kubeconfig({ context: 'three' }));
    const missing = path.join(dir, 'does-not-exist.yaml');
    const env = { KUBECONFIG: [missing, first, second, shadowed].join(path.delimiter) };
    const { c } = await connectAndDiscover({ kubeconfig: '', context: '' }, noSources({ env }));
    expect(c).toMatchObject({ contextName: 'one', server: cluster.url });
    const { c: other } = await connectAndDiscover({ kubeconfig: '', context: 'two' }, noSources({ env }));
    expect(other).toMatchObject({ contextName: 'two', server: plain.url });
    const { c: third } = await connectAndDiscover({ kubeconfig: '', context: 'three' }, noSources({ env }));
    expect(third).toMatchObject({ contextName: 'three', server: cluster.url });
  });

  it('falls back to ~/.kube/config', async () => {
    const home = path.join(dir, 'home');
    fs.mkdirSync(path.join(home, '.kube'), { recursive: true });
    fs.writeFileSync(path.join(home, '.kube', 'config'), cluster.kubeconfig({ context: 'from-home' }));
    const { c } = await connectAndDiscover({ kubeconfig: '', context: '' }, noSources({ home }));
    expect(c.contextName).toBe('from-home');
  });

  it('falls back to the in-cluster service account, masking its token', async () => {
    const sa = path.join(dir, 'serviceaccount');
    fs.mkdirSync(sa, { recursive: true });
    fs.writeFileSync(path.join(sa, 'token'), 'admin\n');
    fs.writeFileSync(path.join(sa, 'ca.crt'), cluster.caPem);
    fs.writeFileSync(path.join(sa, 'namespace'), 'ci-namespace');
    const port = new URL(cluster.url).port;
    const sources = noSources({ serviceAccountDir: sa, env: { KUBERNETES_SERVICE_HOST: '127.0.0.1', KUBERNETES_SERVICE_PORT: port } });
    const { c, masked } = await connectAndDiscover({ kubeconfig: '', context: '' }, sources);
    expect(c).toMatchObject({ contextName: 'in-cluster', namespace: 'ci-namespace', server: cluster.url });
    expect(masked).toContain('admin');
  });

  it('talks plain http without insecure-skip-tls-verify, as kubectl does', async () => {
    const yaml = plain.kubeconfig().replace(/\s*insecure-skip-tls-verify: true/, '');
    expect(yaml).not.toContain('insecure-skip-tls-verify');
    await connectAndDiscover({ kubeconfig: yaml, context: '' }, noSources());
  });

  it('gets a token from an exec credential plugin and masks it once it is used', async () => {
    const plugin = write(
      'plugin.mjs',
      `process.stdout.write(JSON.stringify({ apiVersion: 'client.authentication.k8s.io/v1', kind: 'ExecCredential', status: { token: 'admin' } }));`,
    );
    const config = {
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'c', cluster: { server: cluster.url, 'certificate-authority-data': Buffer.from(cluster.caPem).toString('base64') } }],
      users: [
        {
          name: 'u',
          user: {
            exec: {
              apiVersion: 'client.authentication.k8s.io/v1',
              command: process.execPath,
              args: [plugin],
              env: [{ name: 'PLUGIN_SECRET', value: 'plugin-env-secret' }],
            },
          },
        },
      ],
      contexts: [{ name: 'exec', context: { cluster: 'c', user: 'u' } }],
      'current-context': 'exec',
    };
    const { masked } = await connectAndDiscover({ kubeconfig: stringify(config), context: '' }, noSources());
    expect(masked).toContain('plugin-env-secret'); // read from the kubeconfig up front
    expect(masked).toContain('admin'); // exists only once the plugin ran: masked at first use
  });
});

describe('secret masking', () => {
  it('masks tokens, passwords, key and certificate data, exec env values and auth-provider tokens before returning', async () => {
    const config = {
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'c', cluster: { server: cluster.url } }],
      users: [
        { name: 'token-user', user: { token: 's3cr3t-token' } },
        { name: 'basic-user', user: { username: 'bob', password: 'hunter2' } },
        { name: 'cert-user', user: { 'client-certificate-data': 'Q0VSVA==', 'client-key-data': 'S0VZREFUQQ==' } },
        { name: 'exec-user', user: { exec: { command: 'x', env: [{ name: 'API_KEY', value: 'exec-secret' }] } } },
        {
          name: 'oidc-user',
          user: { 'auth-provider': { name: 'oidc', config: { 'id-token': 'oidc-id', 'refresh-token': 'oidc-refresh', 'client-secret': 'oidc-client' } } },
        },
      ],
      contexts: [{ name: 'ctx', context: { cluster: 'c', user: 'token-user' } }],
      'current-context': 'ctx',
    };
    const { secrets, masked } = recorder();
    await (await connect({ kubeconfig: stringify(config), context: '' }, secrets, noSources())).close();
    expect(masked).toEqual(
      expect.arrayContaining([
        's3cr3t-token',
        'hunter2',
        Buffer.from('bob:hunter2').toString('base64'),
        'Q0VSVA==',
        'S0VZREFUQQ==',
        'exec-secret',
        'oidc-id',
        'oidc-refresh',
        'oidc-client',
      ]),
    );
  });

  it('masks a password in the server URL', async () => {
    const config = stringify({
      apiVersion: 'v1',
      clusters: [{ name: 'c', cluster: { server: 'https://admin:p%40ss@127.0.0.1:6443' } }],
      contexts: [{ name: 'ctx', context: { cluster: 'c' } }],
      'current-context': 'ctx',
    });
    const { secrets, masked } = recorder();
    const cluster = await connect({ kubeconfig: config, context: '' }, secrets, noSources());
    await cluster.close();
    // Both parts masked, and the URL kubewait prints and stores has no userinfo at all.
    expect(masked).toEqual(expect.arrayContaining(['admin', 'p@ss', 'p%40ss']));
    expect(cluster.server).toBe('https://127.0.0.1:6443');
  });

  it('reads a token file and masks its content', async () => {
    const tokenFile = write('token', 'admin\n');
    const config = stringify({
      apiVersion: 'v1',
      clusters: [{ name: 'c', cluster: { server: cluster.url, 'certificate-authority-data': Buffer.from(cluster.caPem).toString('base64') } }],
      users: [{ name: 'u', user: { tokenFile } }],
      contexts: [{ name: 'ctx', context: { cluster: 'c', user: 'u' } }],
      'current-context': 'ctx',
    });
    const { masked } = await connectAndDiscover({ kubeconfig: config, context: '' }, noSources());
    expect(masked).toContain('admin');
  });

  it('never shows kubeconfig content in a YAML error (the bad line could hold a secret)', async () => {
    const error = await loadError({ kubeconfig: 'users:\n  - name: u\n    user: {token: "s3cr3t\n', context: '' });
    expect(error.input).toBe('kubeconfig');
    expect(error.message).toMatch(/not valid YAML \(\w+ at line \d+, column \d+\)/);
    expect(error.message).not.toContain('s3cr3t');
  });
});

describe('unusable kubeconfigs', () => {
  const base = () => ({
    apiVersion: 'v1',
    clusters: [{ name: 'c', cluster: { server: 'https://127.0.0.1:6443' } }],
    users: [{ name: 'u', user: { token: 't' } }],
    contexts: [
      { name: 'dev', context: { cluster: 'c', user: 'u' } },
      { name: 'prod', context: { cluster: 'c', user: 'u' } },
    ],
    'current-context': 'dev',
  });

  it.each<[string, () => { kubeconfig: string; context: string }, 'kubeconfig' | 'context', RegExp]>([
    [
      'a missing context, listing the available ones',
      () => ({ kubeconfig: stringify(base()), context: 'staging' }),
      'context',
      /context "staging" is not in the kubeconfig input \(available contexts: dev, prod\)/,
    ],
    [
      'a current-context that does not exist',
      () => ({ kubeconfig: stringify({ ...base(), 'current-context': 'gone' }), context: '' }),
      'kubeconfig',
      /context "gone" is not in .*available contexts: dev, prod/,
    ],
    [
      'no current-context and no context input',
      () => ({ kubeconfig: stringify({ ...base(), 'current-context': '' }), context: '' }),
      'context',
      /sets no current-context; set the context input \(available contexts: dev, prod\)/,
    ],
    [
      'a cluster without a server',
      () => ({ kubeconfig: stringify({ ...base(), clusters: [{ name: 'c', cluster: {} }] }), context: '' }),
      'kubeconfig',
      /cluster "c" in the kubeconfig input has no server URL/,
    ],
    [
      'a context naming a missing cluster',
      () => ({ kubeconfig: stringify({ ...base(), clusters: [] }), context: '' }),
      'kubeconfig',
      /refers to cluster "c", which is not in/,
    ],
    [
      'a context naming a missing user',
      () => ({ kubeconfig: stringify({ ...base(), users: [] }), context: '' }),
      'kubeconfig',
      /refers to user "u", which is not in/,
    ],
    ['text that is neither YAML nor base64', () => ({ kubeconfig: 'not a kubeconfig!', context: '' }), 'kubeconfig', /neither kubeconfig YAML nor base64/],
    [
      'a file path instead of content',
      () => ({ kubeconfig: os.tmpdir(), context: '' }),
      'kubeconfig',
      /is a file path; it takes the file's content instead \(or set \$KUBECONFIG to the path\)/,
    ],
    ['a YAML scalar', () => ({ kubeconfig: 'just: [1, 2', context: '' }), 'kubeconfig', /not valid YAML/],
    [
      'a path to a file that does not exist',
      () => ({ kubeconfig: '/home/runner/.kube/missing-config', context: '' }),
      'kubeconfig',
      /^the kubeconfig input looks like a file path, and no such file exists; the input takes the kubeconfig's content/,
    ],
    [
      'an exec credential plugin without a command',
      () => ({ kubeconfig: stringify({ ...base(), users: [{ name: 'u', user: { exec: { apiVersion: 'client.authentication.k8s.io/v1' } } }] }), context: '' }),
      'kubeconfig',
      /user "u" has an exec credential plugin without a command/,
    ],
    [
      'an unreadable CA file',
      () => ({
        kubeconfig: stringify({ ...base(), clusters: [{ name: 'c', cluster: { server: 'https://x', 'certificate-authority': '/nonexistent/ca.crt' } }] }),
        context: '',
      }),
      'kubeconfig',
      /cannot read the certificate-authority of cluster "c": \/nonexistent\/ca.crt \(ENOENT\)/,
    ],
  ])('rejects %s', async (_name, settings, input, message) => {
    const error = await loadError(settings());
    expect(error.input).toBe(input);
    expect(error.message).toMatch(message);
    expect(error.message).not.toContain('localhost:8080');
  });

  it('says so when there is no kubeconfig anywhere (never falls back to localhost:8080)', async () => {
    const error = await loadError({ kubeconfig: '', context: '' });
    expect(error.input).toBe('kubeconfig');
    expect(error.message).toMatch(
      /no kubeconfig found: the kubeconfig input is empty, \$KUBECONFIG is not set, .* does not exist, and this is not running inside a cluster/,
    );
  });

  it('names the files when none of $KUBECONFIG exists', async () => {
    const error = await loadError({ kubeconfig: '', context: '' }, noSources({ env: { KUBECONFIG: '/nope/a:/nope/b' } }));
    expect(error.message).toMatch(/\$KUBECONFIG names \/nope\/a, \/nope\/b, but none of these files exists/);
  });

  it('names an unreadable file', async () => {
    const unreadable = path.join(dir, 'a-directory');
    fs.mkdirSync(unreadable, { recursive: true });
    const error = await loadError({ kubeconfig: '', context: '' }, noSources({ env: { KUBECONFIG: unreadable } }));
    expect(error.message).toMatch(/cannot read kubeconfig file .*a-directory \(not a regular file\)/);
  });

  // A FIFO nobody writes to blocked the whole process in a synchronous read until it was killed.
  it.each([
    ['$KUBECONFIG', (fifo: string) => ({ settings: { kubeconfig: '', context: '' }, sources: noSources({ env: { KUBECONFIG: fifo } }) })],
    [
      'a tokenFile',
      (fifo: string) => ({
        settings: { kubeconfig: stringify({ ...base(), users: [{ name: 'u', user: { tokenFile: fifo } }] }), context: '' },
        sources: noSources(),
      }),
    ],
  ])('refuses a FIFO as %s at once, naming it, instead of waiting for a writer', async (_name, setUp) => {
    const fifo = path.join(dir, `fifo-${Math.random().toString(36).slice(2)}`);
    execFileSync('mkfifo', [fifo]);
    const { settings, sources } = setUp(fifo);
    const error = await loadError(settings, sources);
    expect(error.input).toBe('kubeconfig');
    expect(error.message).toContain(`${fifo} (not a regular file)`);
  });
});

describe('YAML that expands without bound', () => {
  it('a kubeconfig of aliases of aliases is refused naming the input, not thrown as it is', async () => {
    const bomb = [
      'a: &a [x, x, x, x, x, x, x, x, x, x]',
      ...Array.from(
        { length: 8 },
        (_, i) =>
          `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(10)
            .fill(`*${String.fromCharCode(97 + i)}`)
            .join(', ')}]`,
      ),
    ].join('\n');
    const error = await loadError({ kubeconfig: bomb, context: '' });
    expect(error.input).toBe('kubeconfig');
    expect(error.message).toMatch(/^the kubeconfig input cannot be read as YAML \(Excessive alias count/);
  });
});

describe('one read and one parse per kubeconfig, however many contexts are connected', () => {
  it('a second connection through the same file uses what the run parsed first', async () => {
    const file = write('two-contexts.yaml', cluster.kubeconfig());
    const config = fs.readFileSync(file, 'utf8');
    const sources = noSources({ env: { KUBECONFIG: file }, cache: new KubeconfigCache() });
    const { c } = await connectAndDiscover({ kubeconfig: '', context: '' }, sources);
    // The file changes after the first connection: the run keeps what it read (a fleet's clusters read one
    // kubeconfig, as one `kubectl` invocation would).
    fs.writeFileSync(file, 'not: [a kubeconfig');
    const again = await connectAndDiscover({ kubeconfig: '', context: '' }, sources);
    expect(again.c.server).toBe(c.server);
    // Without the run's cache it is read again.
    expect((await loadError({ kubeconfig: '', context: '' }, noSources({ env: { KUBECONFIG: file } }))).message).toMatch(/is not valid YAML/);
    fs.writeFileSync(file, config);
  });

  it('an error is kept too: a bad file is one error, the same for every cluster that reads it', async () => {
    const file = write('bad.yaml', 'not: [a kubeconfig');
    const sources = noSources({ env: { KUBECONFIG: file }, cache: new KubeconfigCache() });
    const first = await loadError({ kubeconfig: '', context: 'a' }, sources);
    expect(await loadError({ kubeconfig: '', context: 'b' }, sources)).toBe(first);
  });
});
