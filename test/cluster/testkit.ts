/** Helpers for tests that talk to the stand-in over real HTTP(S). */
import { readdirSync, readFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { request as httpRequest } from 'node:http';
import { KubeConfig, Watch } from '@kubernetes/client-node';
import { parse } from 'yaml';
import type { TestCluster } from './index.js';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: any;
}

/** One plain request, with a bearer token (default admin). A Buffer body is sent as it is (protobuf). */
export function raw(
  cluster: TestCluster,
  method: string,
  path: string,
  opts: { token?: string | null; body?: unknown; headers?: Record<string, string> } = {},
): Promise<RawResponse> {
  const url = new URL(cluster.url + path);
  const body = opts.body === undefined ? undefined : typeof opts.body === 'string' || Buffer.isBuffer(opts.body) ? opts.body : JSON.stringify(opts.body);
  const headers: Record<string, string> = {
    Accept: 'application/json',
    ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
    ...(opts.token === null ? {} : { Authorization: `Bearer ${opts.token ?? 'admin'}` }),
    ...opts.headers,
  };
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(url, { method, headers, ca: cluster.caPem || undefined }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

export function kubeConfigFor(cluster: TestCluster, opts: { token?: string; namespace?: string } = {}): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromString(cluster.kubeconfig(opts));
  return kc;
}

export interface WatchEventRecord {
  type: string;
  object: any;
}

/** A client-node watch that records its events, for assertions with `until`. */
export class RecordedWatch {
  readonly events: WatchEventRecord[] = [];
  ended: unknown = undefined;
  endedAt = false;
  private controller?: AbortController;

  static async start(kc: KubeConfig, path: string, query: Record<string, string | number | boolean | undefined>): Promise<RecordedWatch> {
    const w = new RecordedWatch();
    w.controller = await new Watch(kc).watch(
      path,
      query,
      (type, object) => w.events.push({ type, object }),
      (err) => {
        w.ended = err;
        w.endedAt = true;
      },
    );
    return w;
  }

  summary(): string[] {
    return this.events.map((e) => `${e.type} ${e.object?.metadata?.name ?? e.object?.reason ?? ''}`.trim());
  }

  stop(): void {
    this.controller?.abort();
  }
}

export async function until(predicate: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Creates these CRDs and resolves once the stand-in serves each of them (its Established condition is True). */
export async function establishCrds(cluster: TestCluster, crds: ReadonlyArray<{ metadata: { name: string } }>): Promise<void> {
  for (const crd of crds) cluster.create(crd);
  for (const { metadata } of crds) {
    await until(
      () =>
        cluster
          .get('apiextensions.k8s.io/v1', 'CustomResourceDefinition', undefined, metadata.name)
          ?.status?.conditions?.some((c: { type: string; status: string }) => c.type === 'Established' && c.status === 'True') === true,
      `CRD ${metadata.name} established`,
      20_000,
    );
  }
}

/** The CRDs of every `.yaml` file in `dir` (one document each), e.g. fixtures/gitops/. */
export function crdsIn(dir: URL): Array<{ metadata: { name: string } }> {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.yaml'))
    .map((file) => parse(readFileSync(new URL(file, dir), 'utf8')) as { metadata: { name: string } });
}

/** Like `until` for a condition that needs a request to check. */
export async function eventually(check: () => Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export function deployment(
  name: string,
  opts: {
    namespace?: string;
    replicas?: number;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    podAnnotations?: Record<string, string>;
    image?: string;
  } = {},
): object {
  const labels = opts.labels ?? { app: name };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: opts.namespace ?? 'default', labels, ...(opts.annotations ? { annotations: opts.annotations } : {}) },
    spec: {
      replicas: opts.replicas ?? 1,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name }, ...(opts.podAnnotations ? { annotations: opts.podAnnotations } : {}) },
        spec: { containers: [{ name: 'app', image: opts.image ?? 'nginx:1.27' }] },
      },
    },
  };
}

export function configMap(name: string, labels: Record<string, string> = {}, namespace = 'default'): object {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace, labels }, data: { k: 'v' } };
}

/** A namespaced CRD `widgets.example.com` (kind Widget, short name wdg) with a status subresource. */
export function widgetCrd(opts: { printerColumns?: boolean } = {}): object {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget', shortNames: ['wdg'], categories: ['all'] },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
          subresources: { status: {} },
          ...(opts.printerColumns ? { additionalPrinterColumns: [{ name: 'Ready', type: 'string', jsonPath: '.status.conditions[0].status' }] } : {}),
        },
      ],
    },
  };
}
