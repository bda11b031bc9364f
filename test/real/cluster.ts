/**
 * A real Kubernetes control plane on loopback for tests and for `npm run cluster:real`: etcd,
 * kube-apiserver (RBAC, service-account token signing, an admin client certificate, static bearer-token
 * users), kube-controller-manager, kube-scheduler, and kwok simulating a few nodes and their kubelets
 * (test/real/kwok-stages.yaml: the `kubewait.test/*` pod annotations script failures as in the stand-in).
 * The binaries come from scripts/real-cluster/build.sh. Every file lives in one temp dir, removed on close;
 * every process runs in its own process group, stopped on close (and killed if this process exits first).
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { stringify } from 'yaml';
import { kubectlPath } from '../cluster/kubectl.js';
import { builtBinDir, NOT_BUILT, ROOT, type Binary } from './binaries.js';
import { ADMIN_USER, createControlPlanePki, type ControlPlanePki } from './pki.js';
import { logTail, startProcess, stopProcess, type Managed } from './processes.js';

const run = promisify(execFile);

export const STAGES_FILE = path.join(ROOT, 'test/real/kwok-stages.yaml');
/** kwok manages the nodes carrying this annotation (and only those). */
const KWOK_NODE_ANNOTATION = 'kwok.x-k8s.io/node';
/** The user of the components' bearer token, and of the client one (kubeconfig({ user: 'token' })). */
const SYSTEM_USER = 'kubewait-system';
export const TOKEN_USER = 'kubewait-token';

export interface RealClusterOptions {
  /** Simulated nodes (default 3). */
  nodes?: number;
  /** Bearer-token users with no rights but those a test grants them (RBAC); `kubeconfig({ user })` names one. */
  users?: string[];
  /** Progress lines (default: none). */
  log?: (line: string) => void;
}

export interface RealKubeconfigOptions {
  /** 'admin' (default): the client certificate (system:masters). 'token': a bearer token in system:masters.
   *  Any name of `options.users`: that user's bearer token. */
  user?: string;
  namespace?: string;
}

export interface RealCluster {
  url: string;
  caPem: string;
  /** An admin kubeconfig file inside the cluster's temp dir. */
  kubeconfigPath: string;
  /** The kube-apiserver's audit log (JSON lines, level Metadata: every request with user, verb, URI). */
  auditLogPath: string;
  nodeNames: string[];
  kubeconfig(opts?: RealKubeconfigOptions): string;
  writeKubeconfig(file: string, opts?: RealKubeconfigOptions): void;
  /** The real kubectl v1.35.2 as admin; resolves with stdout, rejects with stderr in the message. */
  kubectl(...args: string[]): Promise<string>;
  /** `kubectl apply -f -` as admin with these objects. */
  apply(...objects: object[]): Promise<string>;
  /** Resolves once every named CRD is Established (rejects after 60 s). */
  crdsEstablished(...names: string[]): Promise<void>;
  close(): Promise<void>;
}

/**
 * A port for a component that takes its port on its command line. Listening on port 0 and reading the port
 * back is impossible for these binaries: kube-apiserver's `--secure-port=0` turns HTTPS off, and etcd would
 * advertise port 0 to its peers and clients. So the next best thing: a port below the kernel's ephemeral
 * range (where every outgoing connection takes its source port, the usual thief of a probed port), chosen
 * at random, that a listen just accepted. A component that still finds it taken fails with "address already
 * in use", and `startRealCluster` starts again with new ports.
 */
export async function freePort(taken: ReadonlySet<number> = new Set()): Promise<number> {
  const below = ephemeralPortsFrom();
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = FIRST_PORT + Math.floor(Math.random() * (below - FIRST_PORT));
    if (!taken.has(port) && (await canListen(port))) return port;
  }
  throw new Error(`no free port found between ${FIRST_PORT} and ${below}`);
}

/** Lowest port to hand out: above the well-known and the commonly configured ones. */
const FIRST_PORT = 20_000;

/** Where the kernel's ephemeral range starts (Linux: /proc/sys/net/ipv4/ip_local_port_range; else IANA's 49152). */
function ephemeralPortsFrom(): number {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    if (Number.isInteger(low) && low > FIRST_PORT + 1000) return low;
  } catch {
    // not Linux: IANA's range
  }
  return 49_152;
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** Starts at most this many times when a port turns out to be taken after all. */
const START_ATTEMPTS = 3;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** GET `pathname` with a bearer token; resolves with status and body, never rejects on a refused connection. */
function get(url: string, caPem: string, token: string, pathname: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve) => {
    const req = request(new URL(pathname, url), { ca: caPem, headers: { authorization: `Bearer ${token}` }, timeout: 5_000 }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (err) => resolve({ status: 0, body: err.message }));
    req.end();
  });
}

function kubeconfigYaml(url: string, pki: ControlPlanePki, user: { name: string; token?: string }, namespace?: string): string {
  const b64 = (text: string) => Buffer.from(text).toString('base64');
  const credentials = user.token ? { token: user.token } : { 'client-certificate-data': b64(pki.adminCertPem), 'client-key-data': b64(pki.adminKeyPem) };
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    preferences: {},
    clusters: [{ name: 'kubewait-real', cluster: { server: url, 'certificate-authority-data': b64(pki.caPem) } }],
    users: [{ name: user.name, user: credentials }],
    contexts: [{ name: 'kubewait-real', context: { cluster: 'kubewait-real', user: user.name, ...(namespace ? { namespace } : {}) } }],
    'current-context': 'kubewait-real',
  });
}

const AUDIT_POLICY = stringify({
  apiVersion: 'audit.k8s.io/v1',
  kind: 'Policy',
  omitStages: ['RequestReceived'],
  rules: [{ level: 'Metadata' }],
});

export async function startRealCluster(options: RealClusterOptions = {}): Promise<RealCluster> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(options);
    } catch (error) {
      // Another process took one of the probed ports before our component bound it (see freePort).
      if (attempt >= START_ATTEMPTS || !/address already in use/i.test(String(error))) throw error;
      options.log?.('a port was taken before the control plane bound it; starting again with other ports');
    }
  }
}

async function startOnce(options: RealClusterOptions): Promise<RealCluster> {
  const bin = builtBinDir();
  if (!bin) throw new Error(NOT_BUILT);
  const log = options.log ?? (() => undefined);
  const exe = (name: Binary) => path.join(bin, name);
  const dir = mkdtempSync(path.join(tmpdir(), 'kubewait-real-'));
  const file = (name: string, content?: string) => {
    const at = path.join(dir, name);
    if (content !== undefined) writeFileSync(at, content, { mode: 0o600 });
    return at;
  };
  const processes: Managed[] = [];
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    // Reverse order of start: clients first, etcd last.
    for (const m of [...processes].reverse()) await stopProcess(m);
    rmSync(dir, { recursive: true, force: true });
  };

  try {
    const pki = await createControlPlanePki();
    const etcdPort = await freePort();
    const peerPort = await freePort(new Set([etcdPort]));
    const apiPort = await freePort(new Set([etcdPort, peerPort]));
    const url = `https://127.0.0.1:${apiPort}`;
    // Components (controller manager, scheduler, kwok) use their own token, so that the audit log tells
    // the requests of a client using kubeconfig({ user: 'token' }) apart from theirs.
    const systemToken = randomBytes(24).toString('hex');
    const clientToken = randomBytes(24).toString('hex');
    const userTokens = new Map((options.users ?? []).map((name) => [name, randomBytes(24).toString('hex')]));
    // token,user,uid,"group1,group2": the static token file of --token-auth-file.
    const tokenLines = [
      `${systemToken},${SYSTEM_USER},${SYSTEM_USER},"system:masters"`,
      `${clientToken},${TOKEN_USER},${TOKEN_USER},"system:masters"`,
      ...[...userTokens].map(([name, token]) => `${token},${name},${name}`),
    ];

    const ca = file('ca.crt', pki.caPem);
    const systemKubeconfig = file('system.kubeconfig', kubeconfigYaml(url, pki, { name: SYSTEM_USER, token: systemToken }));
    const kubeconfigPath = file('admin.kubeconfig', kubeconfigYaml(url, pki, { name: ADMIN_USER }));
    const auditLogPath = path.join(dir, 'audit.log');

    const spawnLogged = (name: Binary, args: string[]) => {
      log(`starting ${name}`);
      const m = startProcess(name, exe(name), args, path.join(dir, `${name}.log`), { PATH: process.env.PATH ?? '', HOME: dir });
      processes.push(m);
      return m;
    };
    /** Polls `ready` until true; fails with the log of `m` if it exits or the time runs out. */
    const waitFor = async (m: Managed, what: string, ready: () => Promise<boolean>, timeoutMs = 90_000) => {
      let exit: string | undefined;
      void m.exited.then((how) => (exit = how));
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        if (exit) throw new Error(`${m.name} exited (${exit}) before ${what}:\n${logTail(m)}`);
        if (await ready()) return;
        if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s; ${m.name} log:\n${logTail(m)}`);
        await sleep(250);
      }
    };
    const api = (pathname: string) => get(url, pki.caPem, systemToken, pathname);

    const etcd = spawnLogged('etcd', [
      '--name=kubewait',
      `--data-dir=${path.join(dir, 'etcd')}`,
      `--listen-client-urls=http://127.0.0.1:${etcdPort}`,
      `--advertise-client-urls=http://127.0.0.1:${etcdPort}`,
      `--listen-peer-urls=http://127.0.0.1:${peerPort}`,
      `--initial-advertise-peer-urls=http://127.0.0.1:${peerPort}`,
      `--initial-cluster=kubewait=http://127.0.0.1:${peerPort}`,
      '--unsafe-no-fsync=true', // a test cluster: durability is worth nothing, fsync latency is
      '--log-level=warn',
    ]);

    const apiserver = spawnLogged('kube-apiserver', [
      `--etcd-servers=http://127.0.0.1:${etcdPort}`,
      '--bind-address=127.0.0.1',
      '--advertise-address=127.0.0.1',
      `--secure-port=${apiPort}`,
      `--cert-dir=${path.join(dir, 'apiserver-certs')}`,
      `--tls-cert-file=${file('apiserver.crt', pki.servingCertPem)}`,
      `--tls-private-key-file=${file('apiserver.key', pki.servingKeyPem)}`,
      `--client-ca-file=${ca}`,
      `--token-auth-file=${file('tokens.csv', tokenLines.join('\n') + '\n')}`,
      '--authorization-mode=Node,RBAC',
      '--anonymous-auth=false',
      '--service-account-issuer=https://kubernetes.default.svc.cluster.local',
      `--service-account-key-file=${file('sa.pub', pki.serviceAccountPublicPem)}`,
      `--service-account-signing-key-file=${file('sa.key', pki.serviceAccountPrivatePem)}`,
      '--service-cluster-ip-range=10.96.0.0/16',
      '--allow-privileged=true',
      '--profiling=false',
      `--audit-policy-file=${file('audit-policy.yaml', AUDIT_POLICY)}`,
      `--audit-log-path=${auditLogPath}`,
      '--audit-log-maxbackup=0',
    ]);
    // etcd is up when the apiserver can reach it; the apiserver when /readyz says so (RBAC bootstrap
    // roles and the rest of its post-start hooks included).
    // etcd failing to start (a port taken) shows at once with its log, not as a /readyz that never comes.
    const etcdRunning = () => {
      if (etcd.child.exitCode !== null || etcd.child.signalCode !== null) throw new Error(`etcd exited:\n${logTail(etcd)}`);
    };
    await waitFor(
      apiserver,
      'kube-apiserver /readyz answered ok',
      async () => {
        etcdRunning();
        return (await api('/readyz')).status === 200;
      },
      120_000,
    );
    etcdRunning();

    const controllerManager = spawnLogged('kube-controller-manager', [
      `--kubeconfig=${systemKubeconfig}`,
      '--leader-elect=false',
      '--secure-port=0',
      `--service-account-private-key-file=${file('sa.key')}`,
      `--root-ca-file=${ca}`,
      '--use-service-account-credentials=false',
      '--kube-api-qps=500',
      '--kube-api-burst=1000',
    ]);
    const scheduler = spawnLogged('kube-scheduler', [
      `--kubeconfig=${systemKubeconfig}`,
      '--leader-elect=false',
      '--secure-port=0',
      '--kube-api-qps=500',
      '--kube-api-burst=1000',
    ]);
    const kwok = spawnLogged('kwok', [
      `--kubeconfig=${systemKubeconfig}`,
      `--config=${STAGES_FILE}`,
      '--manage-all-nodes=false',
      `--manage-nodes-with-annotation-selector=${KWOK_NODE_ANNOTATION}=fake`,
      '--node-lease-duration-seconds=40',
      '--cidr=10.244.0.1/16',
      '--node-ip=127.0.0.1',
    ]);

    const kubectlBinary = await kubectlPath();
    const kubectl = async (...args: string[]) => {
      try {
        return (await run(kubectlBinary, ['--kubeconfig', kubeconfigPath, ...args], { maxBuffer: 64 * 1024 * 1024 })).stdout;
      } catch (err) {
        const e = err as { stderr?: string; message: string };
        throw new Error(`kubectl ${args.join(' ')}: ${e.stderr?.trim() || e.message}`, { cause: err });
      }
    };
    const apply = (...objects: object[]) =>
      new Promise<string>((resolve, reject) => {
        const child = execFile(kubectlBinary, ['--kubeconfig', kubeconfigPath, 'apply', '-f', '-'], (err, stdout, stderr) =>
          err ? reject(new Error(`kubectl apply: ${stderr.trim() || err.message}`)) : resolve(stdout),
        );
        child.stdin?.end(objects.map((o) => JSON.stringify(o)).join('\n'));
      });

    const nodeNames = Array.from({ length: options.nodes ?? 3 }, (_, i) => `kwok-node-${i}`);
    await apply(
      ...nodeNames.map((name) => ({
        apiVersion: 'v1',
        kind: 'Node',
        metadata: {
          name,
          annotations: { [KWOK_NODE_ANNOTATION]: 'fake', 'node.alpha.kubernetes.io/ttl': '0' },
          labels: { 'kubernetes.io/hostname': name, 'kubernetes.io/os': 'linux', 'kubernetes.io/arch': 'amd64', type: 'kwok' },
        },
      })),
    );
    await waitFor(kwok, `${nodeNames.length} nodes Ready`, async () => {
      const { status, body } = await api('/api/v1/nodes');
      if (status !== 200) return false;
      const nodes = (JSON.parse(body) as { items: { status?: { conditions?: { type: string; status: string }[] } }[] }).items;
      return nodes.filter((n) => n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')).length === nodeNames.length;
    });
    // The controller manager is working once its service-account controller has made `default/default`
    // (pods cannot be created in a namespace before that: the ServiceAccount admission plugin).
    await waitFor(
      controllerManager,
      'the default ServiceAccount exists',
      async () => (await api('/api/v1/namespaces/default/serviceaccounts/default')).status === 200,
    );
    if (scheduler.child.exitCode !== null) throw new Error(`kube-scheduler exited:\n${logTail(scheduler)}`);
    log(`ready: ${url}`);

    const kubeconfig = (opts: RealKubeconfigOptions = {}) => {
      const user = opts.user ?? 'admin';
      if (user === 'admin') return kubeconfigYaml(url, pki, { name: ADMIN_USER }, opts.namespace);
      if (user === 'token') return kubeconfigYaml(url, pki, { name: TOKEN_USER, token: clientToken }, opts.namespace);
      const token = userTokens.get(user);
      if (!token) throw new Error(`user "${user}" is not one of this cluster's users (start it with { users: ['${user}'] })`);
      return kubeconfigYaml(url, pki, { name: user, token }, opts.namespace);
    };
    return {
      url,
      caPem: pki.caPem,
      kubeconfigPath,
      auditLogPath,
      nodeNames,
      kubeconfig,
      writeKubeconfig: (target, opts) => writeFileSync(target, kubeconfig(opts), { mode: 0o600 }),
      kubectl,
      apply,
      crdsEstablished: (...names) => crdsEstablished(kubectl, names),
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}

/**
 * Polls each CRD's Established condition, reading the CRD as JSON. Not `kubectl wait
 * --for=condition=Established` nor a jsonpath filter: right after a create the CRD has `status.conditions`
 * null, and kubectl 1.35 then fails at once ("accessor error: <nil> is of the type <nil>", "<nil> is not
 * array or slice and cannot be filtered") instead of waiting.
 */
async function crdsEstablished(kubectl: RealCluster['kubectl'], names: string[]): Promise<void> {
  const established = async (name: string) => {
    const crd = JSON.parse(await kubectl('get', `crd/${name}`, '-o', 'json')) as { status?: { conditions?: Array<{ type: string; status: string }> | null } };
    return (crd.status?.conditions ?? []).some((c) => c.type === 'Established' && c.status === 'True');
  };
  const deadline = Date.now() + 60_000;
  for (const name of names) {
    while (!(await established(name))) {
      if (Date.now() > deadline) throw new Error(`CRD ${name} was not Established within 60 s`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** The requests (audit events, one per auditID) whose user is `user`: what one client asked of the real
 *  server. A watch is logged twice (ResponseStarted, ResponseComplete): the first event stands for it. */
export function auditEvents(cluster: Pick<RealCluster, 'auditLogPath'>, user: string): AuditEvent[] {
  const seen = new Set<string>();
  return readFileSync(cluster.auditLogPath, 'utf8')
    .split('\n')
    .filter((line) => line.includes(`"username":"${user}"`))
    .map((line) => JSON.parse(line) as AuditEvent)
    .filter((event) => event.user.username === user && !seen.has(event.auditID) && seen.add(event.auditID));
}

export interface AuditEvent {
  auditID: string;
  stage: string;
  verb: string;
  requestURI: string;
  user: { username: string };
  userAgent?: string;
  responseStatus?: { code?: number };
  objectRef?: { resource?: string; namespace?: string; name?: string; apiGroup?: string };
}
