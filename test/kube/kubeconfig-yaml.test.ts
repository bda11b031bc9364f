/**
 * The fast kubeconfig reader (src/kube/kubeconfig-yaml.ts) against yaml, which it stands in for: on the
 * kubeconfigs that tools write it must give a value (the fast path is taken) and exactly yaml's; outside
 * its subset it must give `undefined`, so that yaml reads the text. The mutations are what makes it safe:
 * thousands of near-kubeconfigs, each either refused or read exactly as yaml reads it without error.
 */
import { describe, expect, it } from '@jest/globals';
import { isDeepStrictEqual } from 'node:util';
import { parseDocument } from 'yaml';
import { readKubeconfigYaml } from '../../src/kube/kubeconfig-yaml.js';

/** What parseYaml (src/kube/kubeconfig.ts) takes from yaml: the value, if yaml reads the text without error. */
function yamlReading(text: string): { ok: true; value: unknown } | { ok: false } {
  const document = parseDocument(text, { uniqueKeys: false });
  if (document.errors.length > 0) return { ok: false };
  try {
    return { ok: true, value: document.toJS() };
  } catch {
    return { ok: false };
  }
}

// A PEM certificate's base64 as tools write it: one long plain scalar.
const CERT = Buffer.from(`-----BEGIN CERTIFICATE-----\n${'MIIDBTCCAe2gAwIBAgIIZ'.repeat(60)}\n-----END CERTIFICATE-----\n`).toString('base64');
const KEY = Buffer.from(`-----BEGIN RSA PRIVATE KEY-----\n${'MIIEowIBAAKCAQEAx'.repeat(80)}\n-----END RSA PRIVATE KEY-----\n`).toString('base64');

const CORPUS: Array<[string, string]> = [
  [
    'kubectl config view (data omitted, a namespace)',
    `apiVersion: v1
clusters:
- cluster:
    certificate-authority-data: DATA+OMITTED
    server: https://10.0.0.1:6443
  name: prod
contexts:
- context:
    cluster: prod
    namespace: shop
    user: admin
  name: prod-admin
current-context: prod-admin
kind: Config
preferences: {}
users:
- name: admin
  user:
    client-certificate-data: REDACTED
    client-key-data: REDACTED
`,
  ],
  [
    'kind',
    `apiVersion: v1
clusters:
- cluster:
    certificate-authority-data: ${CERT}
    server: https://127.0.0.1:40123
  name: kind-kind
contexts:
- context:
    cluster: kind-kind
    user: kind-kind
  name: kind-kind
current-context: kind-kind
kind: Config
preferences: {}
users:
- name: kind-kind
  user:
    client-certificate-data: ${CERT}
    client-key-data: ${KEY}
`,
  ],
  [
    'minikube (extensions, file paths)',
    `apiVersion: v1
clusters:
- cluster:
    certificate-authority: /home/runner/.minikube/ca.crt
    extensions:
    - extension:
        last-update: Fri, 04 Dec 2026 10:00:00 UTC
        provider: minikube.sigs.k8s.io
        version: v1.34.0
      name: cluster_info
    server: https://192.168.49.2:8443
  name: minikube
contexts:
- context:
    cluster: minikube
    extensions:
    - extension:
        last-update: Fri, 04 Dec 2026 10:00:00 UTC
        provider: minikube.sigs.k8s.io
        version: v1.34.0
      name: context_info
    namespace: default
    user: minikube
  name: minikube
current-context: minikube
kind: Config
preferences: {}
users:
- name: minikube
  user:
    client-certificate: /home/runner/.minikube/profiles/minikube/client.crt
    client-key: /home/runner/.minikube/profiles/minikube/client.key
`,
  ],
  [
    'k3s (/etc/rancher/k3s/k3s.yaml)',
    `apiVersion: v1
clusters:
- cluster:
    certificate-authority-data: ${CERT}
    server: https://127.0.0.1:6443
  name: default
contexts:
- context:
    cluster: default
    user: default
  name: default
current-context: default
kind: Config
preferences: {}
users:
- name: default
  user:
    client-certificate-data: ${CERT}
    client-key-data: ${KEY}
`,
  ],
  [
    'EKS (aws eks update-kubeconfig: exec plugin, args, env)',
    `apiVersion: v1
clusters:
- cluster:
    certificate-authority-data: ${CERT}
    server: https://0123456789ABCDEF0123456789ABCDEF.gr7.us-east-1.eks.amazonaws.com
  name: arn:aws:eks:us-east-1:123456789012:cluster/prod
contexts:
- context:
    cluster: arn:aws:eks:us-east-1:123456789012:cluster/prod
    user: arn:aws:eks:us-east-1:123456789012:cluster/prod
  name: arn:aws:eks:us-east-1:123456789012:cluster/prod
current-context: arn:aws:eks:us-east-1:123456789012:cluster/prod
kind: Config
preferences: {}
users:
- name: arn:aws:eks:us-east-1:123456789012:cluster/prod
  user:
    exec:
      apiVersion: client.authentication.k8s.io/v1beta1
      args:
      - --region
      - us-east-1
      - eks
      - get-token
      - --cluster-name
      - prod
      - --output
      - json
      command: aws
      env:
      - name: AWS_PROFILE
        value: prod-admin
      - name: AWS_STS_REGIONAL_ENDPOINTS
        value: regional
      interactiveMode: IfAvailable
      provideClusterInfo: false
`,
  ],
  [
    'EKS, env null (older aws CLIs)',
    `apiVersion: v1
clusters:
- cluster:
    certificate-authority-data: ${CERT}
    server: https://ABC.yl4.eu-west-1.eks.amazonaws.com
  name: arn:aws:eks:eu-west-1:123456789012:cluster/dev
contexts:
- context:
    cluster: arn:aws:eks:eu-west-1:123456789012:cluster/dev
    user: arn:aws:eks:eu-west-1:123456789012:cluster/dev
  name: arn:aws:eks:eu-west-1:123456789012:cluster/dev
current-context: arn:aws:eks:eu-west-1:123456789012:cluster/dev
kind: Config
preferences: {}
users:
- name: arn:aws:eks:eu-west-1:123456789012:cluster/dev
  user:
    exec:
      apiVersion: client.authentication.k8s.io/v1beta1
      args:
      - --region
      - eu-west-1
      - eks
      - get-token
      - --cluster-name
      - dev
      command: aws
      env: null
`,
  ],
  [
    'GKE (gke-gcloud-auth-plugin, installHint over two lines)',
    `apiVersion: v1
clusters:
- cluster:
    certificate-authority-data: ${CERT}
    server: https://34.77.12.34
  name: gke_my-project_europe-west1_prod
contexts:
- context:
    cluster: gke_my-project_europe-west1_prod
    user: gke_my-project_europe-west1_prod
  name: gke_my-project_europe-west1_prod
current-context: gke_my-project_europe-west1_prod
kind: Config
preferences: {}
users:
- name: gke_my-project_europe-west1_prod
  user:
    exec:
      apiVersion: client.authentication.k8s.io/v1beta1
      command: gke-gcloud-auth-plugin
      installHint: Install gke-gcloud-auth-plugin for use with kubectl by following
        https://cloud.google.com/kubernetes-engine/docs/how-to/cluster-access-for-kubectl#install_plugin
      provideClusterInfo: true
`,
  ],
  [
    'AKS (kubelogin, a server id that starts with a digit)',
    `apiVersion: v1
clusters:
- cluster:
    certificate-authority-data: ${CERT}
    server: https://aks-prod-dns-12345678.hcp.westeurope.azmk8s.io:443
  name: aks-prod
contexts:
- context:
    cluster: aks-prod
    namespace: payments
    user: clusterUser_rg-prod_aks-prod
  name: aks-prod
current-context: aks-prod
kind: Config
preferences: {}
users:
- name: clusterUser_rg-prod_aks-prod
  user:
    exec:
      apiVersion: client.authentication.k8s.io/v1beta1
      args:
      - get-token
      - --environment
      - AzurePublicCloud
      - --server-id
      - 6dae42f8-4368-4678-94ff-3960e28e3630
      - --client-id
      - 80faf920-1908-4b52-b5ef-a8e7bedfc67a
      - --tenant-id
      - f1e2d3c4-b5a6-4978-8a9b-0c1d2e3f4a5b
      - --login
      - devicecode
      command: kubelogin
      env: null
      provideClusterInfo: false
`,
  ],
  [
    'yaml stringify (test stand-in: sequences indented under their keys, insecure-skip-tls-verify)',
    `apiVersion: v1
kind: Config
preferences: {}
clusters:
  - name: kubewait-test
    cluster:
      server: https://127.0.0.1:38211
      insecure-skip-tls-verify: true
users:
  - name: admin-user
    user:
      token: admin
contexts:
  - name: test
    context:
      cluster: kubewait-test
      user: admin-user
      namespace: startup
current-context: test
`,
  ],
  [
    'hand-written: comments, blank lines, quoted values, several contexts, a proxy, a token',
    `# Written by hand for CI.
apiVersion: v1
kind: Config

clusters:
  # The production cluster.
  - name: "prod"
    cluster:
      server: 'https://prod.example.com:6443'
      certificate-authority: ./ca.pem
      proxy-url: http://proxy.internal:3128
      tls-server-name: prod.example.com
  - name: staging
    cluster:
      server: "https://staging.example.com"
      insecure-skip-tls-verify: false

users:
  - name: ci
    user:
      token: 'eyJhbGciOiJSUzI1NiIsImtpZCI6IiJ9.eyJpc3MiOiJrdWJlcm5ldGVzIn0.c2lnbmF0dXJl'
  - name: "it's me"
    user:
      username: 'o''brien'
      password: "p@ss w0rd"
contexts:
  - name: prod
    context:
      cluster: prod
      user: ci
  - name: staging
    context:
      cluster: staging
      user: ci
      namespace: ''
current-context: staging
preferences: {}
extensions: []
`,
  ],
  [
    'an item whose mapping starts after more than one space, and a nested sequence',
    `apiVersion: v1
kind: Config
clusters:
-   name: a
    cluster:
      server: https://a.example.com
contexts:
- context:
    cluster: a
    user: a
  name: a
users:
- name: a
  user:
    exec:
      command: /usr/local/bin/get-token
      args:
        - - nested
          - list
        -
          key: value
        - plain
      env: []
current-context: a
`,
  ],
];

describe('readKubeconfigYaml on real kubeconfigs', () => {
  it.each(CORPUS)('%s: read on the fast path, exactly as yaml reads it', (_name, text) => {
    const fast = readKubeconfigYaml(text);
    const slow = yamlReading(text);

    expect(fast).not.toBeUndefined();
    expect(slow.ok).toBe(true);
    expect(fast).toStrictEqual(slow.ok && slow.value);
  });
});

const BASE = 'apiVersion: v1\nkind: Config\n';

describe('readKubeconfigYaml refuses what it does not read (yaml reads it)', () => {
  it.each([
    ['an anchor and an alias', `${BASE}a: &x {}\nb: *x\n`],
    ['a tag', `${BASE}a: !!str 1\n`],
    ['a literal block scalar', `${BASE}a: |\n  text\n`],
    ['a folded block scalar', `${BASE}a: >-\n  text\n`],
    ['a flow mapping with content', `${BASE}context: {cluster: a, user: b}\n`],
    ['a flow sequence with content', `${BASE}args: [a, b]\n`],
    ['a document start marker', `---\n${BASE}`],
    ['a document end marker', `${BASE}...\n`],
    ['a directive', `%YAML 1.2\n---\n${BASE}`],
    ['a tab', `${BASE}a:\tb\n`],
    ['a carriage return', `${BASE}a: b\r\n`],
    ['a byte order mark', `\uFEFF${BASE}`],
    ['a character outside ASCII', `${BASE}user: müller\n`],
    ['an escape in double quotes', `${BASE}a: "x\\ty"\n`],
    ['a comment after a value', `${BASE}a: b # why\n`],
    ['a comment after a key', `${BASE}a: # why\n  b: c\n`],
    ['a duplicate key', `${BASE}a: 1x\na: 2x\n`],
    ['a double-quoted key', `${BASE}"a": b\n`],
    ['a single-quoted key', `${BASE}'a': b\n`],
    ['a key that is a boolean', `${BASE}true: b\n`],
    ['a key that is a number', `${BASE}1: b\n`],
    ['the merge key', `${BASE}<<: {}\n`],
    ['an explicit key', `${BASE}? a\n: b\n`],
    ['__proto__ as a key', `${BASE}__proto__: b\n`],
    ['an integer', `${BASE}a: 10\n`],
    ['an octal-looking integer', `${BASE}a: 0123\n`],
    ['a float with an exponent', `${BASE}a: 1e3\n`],
    ['a hexadecimal integer', `${BASE}a: 0x1F\n`],
    ['infinity', `${BASE}a: -.inf\n`],
    ['not a number', `${BASE}a: .nan\n`],
    ['~ (null)', `${BASE}a: ~\n`],
    ['Null', `${BASE}a: Null\n`],
    ['TRUE', `${BASE}a: TRUE\n`],
    ['False', `${BASE}a: False\n`],
    ['a double-quoted scalar over two lines', `${BASE}a: "x\n  y"\n`],
    ['a plain scalar with a blank line inside', `${BASE}a: x\n\n  y\n`],
    ['a value on the line below its key', `${BASE}a:\n  b\n`],
    ['a top-level sequence', '- a\n- b\n'],
    ['a top-level scalar', 'just text\n'],
    ['a document indented as a whole', '  apiVersion: v1\n  kind: Config\n'],
    ['an empty document', ''],
    ['only comments', '# nothing\n'],
  ])('%s', (_why, text) => {
    expect(yamlReading(text).ok).toBe(true);
    expect(readKubeconfigYaml(text)).toBeUndefined();
  });

  it.each([
    ['an entry indented deeper than its siblings', `${BASE}a:\n  b: c\n    d: e\n`],
    ['an entry indented between two levels', `${BASE}a:\n    b: c\n  d: e\n`],
    ['a nested mapping on a key line', `${BASE}a: b: c\n`],
    ['a sequence after a value', `${BASE}a: b\n- c\n`],
    ['an unclosed quote', `${BASE}a: "b\n`],
    ['text after a quoted scalar', `${BASE}a: "b" c\n`],
    ['a line with no key', `${BASE}just text\n`],
    ['a second document (parseDocument reads one)', `${BASE}---\nkind: Config\n`],
    ['a plain scalar with a comment line inside', `${BASE}a: x\n# c\n  y\n`],
  ])('%s (which yaml refuses too, with its message)', (_why, text) => {
    expect(yamlReading(text).ok).toBe(false);
    expect(readKubeconfigYaml(text)).toBeUndefined();
  });
});

/** Scalars at the edges of the subset and beyond it, for values and keys. */
const TRICKY_VALUES = [
  '0123',
  '1e3',
  '1.5',
  '-1',
  '+1',
  '1_000',
  '0x1F',
  '0o17',
  '0b1',
  '.inf',
  '-.inf',
  '+.INF',
  '.nan',
  '-.nan',
  '.',
  '+',
  '-',
  'e',
  'E5',
  '1.2.3',
  '12:30',
  '2001-12-14',
  '6dae42f8-4368-4678-94ff-3960e28e3630',
  '0.0.0.0',
  '~',
  '~x',
  'null',
  'Null',
  'NULL',
  'nULL',
  'true',
  'True',
  'TRUE',
  'tRUE',
  'false',
  'False',
  'FALSE',
  'yes',
  'no',
  'on',
  'off',
  'y',
  'n',
  '"a\\"b"',
  '"a\\\\b"',
  "'it''s'",
  "'a'b'",
  "''",
  '""',
  "'''",
  '"a',
  "'a",
  '"a" b',
  "'a' # c",
  '"#"',
  "' x '",
  '" "',
  'a #b',
  'a#b',
  '#a',
  'a: b',
  'a:b',
  'a:',
  'a::',
  'a :b',
  ':a',
  '?a',
  '? a',
  '- x',
  '-x',
  '--flag=1',
  '-- x',
  '[]',
  '{}',
  '[ ]',
  '{ }',
  '[a]',
  '{a: b}',
  'a,b',
  'a]',
  'a}',
  ']a',
  '}a',
  'a[b]',
  ',a',
  '&a x',
  '*a',
  '!!str 1',
  '!x y',
  '|',
  '>',
  '|-',
  '>2',
  '%x',
  '@x',
  '`x',
  '<<',
  '=',
  'a\\b',
  'a  b',
  'x y z',
  'a\tb',
  'a\rb',
  'é',
  'https://x.example.com:6443/a?b=c#d',
  'DATA+OMITTED',
  '__proto__',
  'constructor',
];
const TRICKY_KEYS = [
  'true',
  'TRUE',
  'null',
  '~',
  '1',
  '1x',
  'x1',
  '"q"',
  "'q'",
  '__proto__',
  'constructor',
  '<<',
  'a b',
  'a.b',
  'a/b',
  '-a',
  '?',
  '? a',
  'a:b',
  '_x',
  'é',
];

/** Near variants of a kubeconfig: each with one line changed, removed, doubled, reindented or joined, or one line added. */
function* mutations(text: string): Generator<string> {
  const lines = text.split('\n');
  const withLines = (replace: (copy: string[]) => void) => {
    const copy = [...lines];
    replace(copy);
    return copy.join('\n');
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    yield withLines((c) => c.splice(i, 1));
    yield withLines((c) => c.splice(i, 0, line));
    for (const shift of [-3, -2, -1, 1, 2, 4]) {
      const indent = line.length - line.trimStart().length;
      if (indent + shift >= 0) yield withLines((c) => (c[i] = ' '.repeat(indent + shift) + line.trimStart()));
    }
    yield withLines((c) => (c[i] = line.trimStart()));
    yield withLines((c) => c.splice(i, 2, `${line} ${lines[i + 1] ?? ''}`));
    yield withLines((c) => (c[i] = `${line} # note`));
    yield withLines((c) => (c[i] = `${line}#note`));
    yield withLines((c) => (c[i] = `${line}   `));
    yield withLines((c) => (c[i] = line.replace('- ', '-   ')));
    yield withLines((c) => (c[i] = line.replace('- ', '-\n' + ' '.repeat(line.indexOf('- ') + 2))));
    for (const added of ['', '# c', '  # c', '- x', '  - x', 'a: b', '  a: b', '    a: b', '  b', '      more words', '---', '...']) {
      yield withLines((c) => c.splice(i + 1, 0, added));
    }
    // `key: value`, `key:` or `- value`: other values, and other keys.
    const entry = /^(\s*(?:- +)?)([^\s:][^:]*):(?: (.*))?$/.exec(line);
    const item = /^(\s*- +)(.*)$/.exec(line);
    for (const value of TRICKY_VALUES) {
      if (entry) yield withLines((c) => (c[i] = `${entry[1]}${entry[2]}: ${value}`));
      else if (item) yield withLines((c) => (c[i] = `${item[1]}${value}`));
    }
    if (entry) for (const key of TRICKY_KEYS) yield withLines((c) => (c[i] = `${entry[1]}${key}:${entry[3] === undefined ? '' : ` ${entry[3]}`}`));
  }
}

describe('readKubeconfigYaml on mutated kubeconfigs', () => {
  it.each(CORPUS)('%s: each variant is refused or read exactly as yaml reads it without error', (_name, text) => {
    let read = 0;
    let refused = 0;
    const wrong: string[] = [];
    for (const variant of mutations(text)) {
      const fast = readKubeconfigYaml(variant);
      if (fast === undefined) {
        refused++;
        continue;
      }
      read++;
      const slow = yamlReading(variant);
      if (!slow.ok || !isDeepStrictEqual(fast, slow.value)) wrong.push(variant);
    }

    expect(wrong.slice(0, 3)).toEqual([]);
    // Both sides are exercised: many variants stay in the subset, many leave it.
    expect(read).toBeGreaterThan(500);
    expect(refused).toBeGreaterThan(500);
  });
});
