/**
 * An in-process Kubernetes API server stand-in for tests and the demo. See README.md in this folder.
 */
import { writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { Api } from './api.js';
import { runControllers } from './controllers/index.js';
import { runCrdEstablisher } from './crds.js';
import { Counters, Faults, sleep, type Activity } from './faults.js';
import { kubeconfigYaml, type KubeconfigOptions } from './kubeconfig.js';
import { Authorizer, type AccessRule } from './rbac.js';
import { Registry } from './registry.js';
import { createHandler } from './server.js';
import { Store, type KubeObject } from './store.js';
import { servingPki } from './tls.js';

export type { AccessRule } from './rbac.js';
export type { KubeObject } from './store.js';
export { ApiError } from './errors.js';

export interface ClusterOptions {
  tls?: boolean;
  controllers?: boolean;
  crdEstablishDelayMs?: number;
  nodes?: number;
  tokens?: Record<string, AccessRule[]>;
  watchHistory?: number;
  speed?: number;
  /** Addition: interval of BOOKMARK events on watches that allow them (default 1000 ms). */
  bookmarkIntervalMs?: number;
  /** Addition: serve aggregated discovery on `/api` and `/apis` (default true); false answers only the legacy
   *  documents, as a server before 1.26 or an aggregated API server that lacks it. */
  aggregatedDiscovery?: boolean;
  /** Addition: listen on this port (default: a free one). */
  port?: number;
}

export interface TestCluster {
  url: string;
  caPem: string;
  kubeconfig(opts?: KubeconfigOptions): string;
  writeKubeconfig(path: string, opts?: KubeconfigOptions): void;

  create(obj: object): KubeObject;
  apply(obj: object): KubeObject;
  get(apiVersion: string, kind: string, namespace: string | undefined, name: string): KubeObject | undefined;
  list(apiVersion: string, kind: string, namespace?: string): KubeObject[];
  patchStatus(apiVersion: string, kind: string, namespace: string | undefined, name: string, status: object): KubeObject;
  delete(apiVersion: string, kind: string, namespace: string | undefined, name: string): void;
  waitFor(predicate: () => boolean, timeoutMs?: number): Promise<void>;

  faults: {
    closeWatches(filter?: { resource?: string }): void;
    failNext(count: number, opts: { status: 500 | 429 | 503; retryAfterSeconds?: number; verb?: string; resource?: string }): void;
    goneOnNextWatch(opts?: { resource?: string; count?: number }): void;
    latency(ms: number): void;
    /** Addition: every `verb` request on `resource` (plural) answers `ms` later, e.g. one type's LIST after another's. */
    slow(verb: string, resource: string, ms: number): void;
    unavailable(ms: number): void;
    /** Addition: drop every connection (open and new) for `ms`, as a server process that is down. */
    refuse(ms: number): void;
    /** Addition: drop the watch history of a resource (plural), so watches from any older resourceVersion get 410. */
    compactHistory(resource: string): void;
  };
  counters: {
    requests(): Array<{ verb: string; resource: string; namespace?: string; status: number }>;
    byVerb(): Record<string, number>;
    openWatches(): number;
    bytesSent(): number;
    /** Addition: whether the stand-in is at rest (virtual-time tests move the clock only then). */
    activity(): Activity;
    reset(): void;
  };
  /** Addition: the current global resourceVersion. */
  resourceVersion(): string;
  /** Addition: replace the rules of a token (or add a token) while running. */
  setAccess(token: string, rules: AccessRule[]): void;
  close(): Promise<void>;
}

const SYSTEM_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];

export async function startCluster(options: ClusterOptions = {}): Promise<TestCluster> {
  const tls = options.tls ?? true;
  const registry = new Registry();
  const store = new Store(options.watchHistory ?? 1000);
  const api = new Api(registry, store);
  const authorizer = new Authorizer(options.tokens);
  const faults = new Faults();
  const counters = new Counters(faults);

  for (const name of SYSTEM_NAMESPACES) api.create(api.typeFor('v1', 'Namespace'), { apiVersion: 'v1', kind: 'Namespace', metadata: { name } } as KubeObject);
  for (let i = 1; i <= (options.nodes ?? 3); i++) api.create(api.typeFor('v1', 'Node'), nodeObject(`node-${i}`), { keepStatus: true });

  let address = '127.0.0.1:0';
  const handler = createHandler({
    api,
    authorizer,
    faults,
    counters,
    bookmarkIntervalMs: options.bookmarkIntervalMs ?? 1000,
    aggregatedDiscovery: options.aggregatedDiscovery ?? true,
    address: () => address,
  });
  const pki = tls ? await servingPki() : undefined;
  const server: Server = pki ? createHttpsServer({ key: pki.keyPem, cert: pki.certPem }, handler) : createHttpServer(handler);
  server.keepAliveTimeout = 60_000;
  server.on('connection', (socket) => {
    counters.touched();
    if (faults.refusing()) socket.destroy();
  });
  server.on('secureConnection', () => counters.touched());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  address = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  const url = `${tls ? 'https' : 'http'}://${address}`;

  const stopCrds = runCrdEstablisher(api, faults, options.crdEstablishDelayMs ?? 100);
  const stopControllers = options.controllers === false ? () => {} : runControllers(api, { speed: options.speed ?? 1, nodes: options.nodes ?? 3 });

  const typeOf = (apiVersion: string, kind: string) => api.typeFor(apiVersion, kind);
  const kubeconfig = (opts?: KubeconfigOptions) => kubeconfigYaml(url, pki?.caPem, opts);

  return {
    url,
    caPem: pki?.caPem ?? '',
    kubeconfig,
    writeKubeconfig: (path, opts) => writeFileSync(path, kubeconfig(opts), { mode: 0o600 }),

    create: (obj) => {
      const o = obj as KubeObject;
      return structuredClone(api.create(typeOf(o.apiVersion, o.kind), o, { keepStatus: true }));
    },
    apply: (obj) => {
      const o = obj as KubeObject;
      const t = typeOf(o.apiVersion, o.kind);
      const current = store.get(t, o.metadata?.namespace ?? 'default', o.metadata.name);
      if (!current) return structuredClone(api.create(t, o, { keepStatus: true }));
      const { resourceVersion: _rv, ...metadata } = o.metadata;
      return structuredClone(api.update(t, { ...o, metadata: { ...metadata, namespace: current.metadata.namespace } } as KubeObject));
    },
    get: (apiVersion, kind, namespace, name) => {
      const t = registry.findKind(apiVersion, kind); // a kind that is not served (yet, or any more) has no objects
      const obj = t && store.get(t, namespace, name);
      return obj ? structuredClone(obj) : undefined;
    },
    list: (apiVersion, kind, namespace) => structuredClone(store.list(typeOf(apiVersion, kind), namespace)),
    patchStatus: (apiVersion, kind, namespace, name, status) =>
      structuredClone(api.patch(typeOf(apiVersion, kind), namespace, name, 'merge', { status }, 'status')),
    delete: (apiVersion, kind, namespace, name) => {
      api.delete(typeOf(apiVersion, kind), namespace, name);
    },
    waitFor: async (predicate, timeoutMs = 10_000) => {
      const deadline = Date.now() + timeoutMs;
      while (!predicate()) {
        if (Date.now() > deadline) throw new Error(`waitFor: condition not met within ${timeoutMs} ms`);
        await sleep(10);
      }
    },

    faults: {
      closeWatches: (filter) => faults.closeWatches(filter),
      failNext: (count, opts) => faults.failNext(count, opts),
      goneOnNextWatch: (opts) => faults.goneOnNextWatch(opts),
      latency: (ms) => faults.latency(ms),
      slow: (verb, resource, ms) => faults.slow(verb, resource, ms),
      unavailable: (ms) => faults.unavailable(ms),
      refuse: (ms) => {
        faults.refuse(ms);
        server.closeAllConnections();
      },
      compactHistory: (resource) => {
        for (const t of registry.all()) if (t.plural === resource) store.compact(t);
      },
    },
    counters: {
      requests: () => counters.requests(),
      byVerb: () => counters.byVerb(),
      openWatches: () => counters.openWatches(),
      bytesSent: () => counters.bytesSent(),
      activity: () => counters.activity(),
      reset: () => counters.reset(),
    },
    resourceVersion: () => String(store.resourceVersion()),
    setAccess: (token, rules) => authorizer.setRules(token, rules),
    close: async () => {
      stopControllers();
      stopCrds();
      faults.closeWatches();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

function nodeObject(name: string): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name, 'kubernetes.io/os': 'linux' } },
    spec: {},
    status: {
      conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' }],
      nodeInfo: { kubeletVersion: 'v1.35.2', architecture: 'amd64', operatingSystem: 'linux' },
      capacity: { cpu: '4', memory: '16Gi', pods: '110' },
      allocatable: { cpu: '4', memory: '16Gi', pods: '110' },
    },
  } as unknown as KubeObject;
}
