/** The transport's own edge cases (GET and WATCH over node:https): against the API server stand-in, and a tiny
 *  local HTTP server for what the stand-in never does (lines cut across chunks, gzip, a connection dropped mid-line). */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { parse, stringify } from 'yaml';
import { gzipSync } from 'node:zlib';
import { KubeClient } from '../../src/kube/client.js';
import type { ClientOptions, WatchEnd } from '../../src/kube/client.js';
import { ApiError } from '../../src/kube/errors.js';
import { annotate } from '../../src/kube/index.js';
import { loadKubeConfig } from '../../src/kube/kubeconfig.js';
import { MAX_STRING_CHARS } from '../../src/kube/json-scanner.js';
import { listItems, listPages } from '../../src/kube/index.js';
import { startCluster } from '../cluster/index.js';
import type { TestCluster } from '../cluster/index.js';
import { configMap, until } from '../cluster/testkit.js';

let cluster: TestCluster;
const clients: KubeClient[] = [];

beforeAll(async () => {
  cluster = await startCluster({ controllers: false, bookmarkIntervalMs: 100 });
  cluster.setAccess('lister', [{ verbs: ['get', 'list'], resources: ['configmaps'], apiGroups: [''] }]);
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await cluster.close();
});

function clientFor(kubeconfig: string, options: ClientOptions = {}) {
  const masked: string[] = [];
  const loaded = loadKubeConfig({ kubeconfig, context: '' }, { mask: (v) => void masked.push(v) }, { env: {}, serviceAccountDir: '/nonexistent' });
  const client = new KubeClient(loaded.kubeConfig, loaded.server, { mask: (v) => void masked.push(v) }, options);
  clients.push(client);
  return { client, masked };
}

/** A watch that records what it delivers. */
function record(client: KubeClient, path: string, query: Record<string, string | boolean | undefined> = {}) {
  const events: Array<{ type: string; object: any }> = [];
  const ends: WatchEnd[] = [];
  const handle = client.watch(
    path,
    query,
    (type, object) => events.push({ type, object: object as never }),
    (end) => ends.push(end),
  );
  return { events, ends, handle };
}

const CONFIGMAPS = '/api/v1/namespaces/default/configmaps';

describe('LIST against the stand-in', () => {
  it('listItems cuts an outsized string as it arrives; listPages, whose callers read records, keeps it whole', async () => {
    const { client } = clientFor(cluster.kubeconfig({ token: 'admin' }));
    const record = 'r'.repeat(MAX_STRING_CHARS + 10);
    cluster.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'record', namespace: 'records' }, data: { release: record } });
    const path = '/api/v1/namespaces/records/configmaps';
    const items: Array<{ data: { release: string } }> = [];
    await listItems(client, path, (item) => items.push(item as never));
    expect(items[0]!.data.release).toBe(`${'r'.repeat(MAX_STRING_CHARS)}…`);
    const pages: unknown[][] = [];
    await listPages(client, path, (page) => pages.push(page));
    expect((pages[0]![0] as { data: { release: string } }).data.release).toBe(record);
  });
});

describe('watch against the stand-in', () => {
  it('delivers ADDED, MODIFIED and BOOKMARK events and masks the token as it first appears', async () => {
    const { client, masked } = clientFor(cluster.kubeconfig({ token: 'admin' }));
    cluster.create(configMap('first'));
    const w = record(client, CONFIGMAPS, { allowWatchBookmarks: true });
    await until(() => w.events.some((e) => e.type === 'ADDED' && e.object.metadata.name === 'first'), 'the ADDED event');
    cluster.apply({ ...configMap('first'), data: { changed: 'yes' } });
    await until(() => w.events.some((e) => e.type === 'MODIFIED'), 'the MODIFIED event');
    await until(() => w.events.some((e) => e.type === 'BOOKMARK'), 'a bookmark');
    w.handle.stop();
    expect(w.ends).toEqual([]);
    expect(masked).toContain('admin');
  });

  it('a 403 ends the watch with the Status message of the real body', async () => {
    const { client } = clientFor(cluster.kubeconfig({ token: 'lister' }));
    const w = record(client, CONFIGMAPS);
    await until(() => w.ends.length > 0, 'the end of the watch');
    const end = w.ends[0] as ApiError;
    expect(end).toBeInstanceOf(ApiError);
    expect(end).toMatchObject({ status: 403, reason: 'Forbidden' });
    expect(end.message).toMatch(/^403 Forbidden: .*cannot watch resource "configmaps"/);
    expect(w.ends).toHaveLength(1);
  });

  it('a 429 ends the watch with the Retry-After delay', async () => {
    const { client } = clientFor(cluster.kubeconfig({ token: 'admin' }));
    cluster.faults.failNext(1, { status: 429, retryAfterSeconds: 7, verb: 'watch', resource: 'configmaps' });
    const w = record(client, CONFIGMAPS);
    await until(() => w.ends.length > 0, 'the end of the watch');
    expect(w.ends[0]).toMatchObject({ status: 429, retryAfterMs: 7000 });
  });

  it('an idle watch ends normally (undefined), so the caller re-watches', async () => {
    const { client } = clientFor(cluster.kubeconfig({ token: 'admin' }), { watchIdleMs: 300 });
    // From the current resourceVersion and without bookmarks, nothing is ever written.
    const w = record(client, '/api/v1/namespaces/idle/configmaps', { resourceVersion: cluster.resourceVersion() });
    await until(() => w.ends.length > 0, 'the idle end');
    expect(w.ends).toEqual([undefined]);
    expect(w.events).toEqual([]);
    await until(() => cluster.counters.openWatches() === 0, 'the server to see the watch closed');
  });

  it('stop() closes the stream without calling onEnd or delivering more events', async () => {
    const { client } = clientFor(cluster.kubeconfig({ token: 'admin' }));
    const namespace = 'stopped';
    const w = record(client, `/api/v1/namespaces/${namespace}/configmaps`, { resourceVersion: cluster.resourceVersion() });
    await until(() => cluster.counters.openWatches() === 1, 'the watch to open');
    w.handle.stop();
    await until(() => cluster.counters.openWatches() === 0, 'the server to see the watch closed');
    cluster.create(configMap('after-stop', {}, namespace));
    await client.get(`/api/v1/namespaces/${namespace}/configmaps`); // a round trip: anything pending has arrived
    expect(w.events).toEqual([]);
    expect(w.ends).toEqual([]);
  });

  it('stop() right after watch(), before the request exists, leaves nothing open and nothing unhandled', async () => {
    const { client } = clientFor(cluster.kubeconfig({ token: 'admin' }));
    const before = cluster.counters.requests().filter((r) => r.verb === 'watch').length;
    const w = record(client, '/api/v1/namespaces/early/configmaps');
    w.handle.stop();
    await client.get('/api/v1/namespaces/early/configmaps'); // a round trip: the stopped watch had its chance
    await client.get('/api/v1/namespaces/early/configmaps');
    expect(cluster.counters.requests().filter((r) => r.verb === 'watch').length).toBe(before);
    expect(w.ends).toEqual([]);
    expect(cluster.counters.openWatches()).toBe(0);
  });

  it('close() drops an open watch (it ends once, cancelled) and refuses further requests', async () => {
    const { client } = clientFor(cluster.kubeconfig({ token: 'admin' }));
    const w = record(client, '/api/v1/namespaces/closing/configmaps', { resourceVersion: cluster.resourceVersion() });
    await until(() => cluster.counters.openWatches() === 1, 'the watch to open');
    await client.close();
    await until(() => cluster.counters.openWatches() === 0, 'the server to see the watch closed');
    await until(() => w.ends.length > 0, 'the end of the watch');
    expect(w.ends).toHaveLength(1);
    expect(w.ends[0]).toMatchObject({ status: 0, reason: 'Cancelled' });
    await expect(client.get(CONFIGMAPS)).rejects.toMatchObject({ status: 0, message: 'the client is closed' });
  });
});

describe('annotate (the one write: a merge patch of annotations) against the stand-in', () => {
  it('sets the annotations and leaves the rest of the object (its other annotations, its data) as it was', async () => {
    const { client } = clientFor(cluster.kubeconfig({ token: 'admin' }));
    cluster.create({ ...configMap('annotated'), metadata: { name: 'annotated', namespace: 'default', annotations: { kept: 'yes' } } });
    await annotate(client, { group: '', version: 'v1', resource: 'configmaps', namespaced: true }, 'default', 'annotated', {
      'reconcile.fluxcd.io/requestedAt': 'now',
    });
    const object = cluster.get('v1', 'ConfigMap', 'default', 'annotated');
    expect(object?.metadata?.annotations).toEqual({ kept: 'yes', 'reconcile.fluxcd.io/requestedAt': 'now' });
    expect((object as { data?: unknown }).data).toEqual({ k: 'v' });
  });

  it('without the patch verb: an ApiError 403 naming the verb', async () => {
    const { client } = clientFor(cluster.kubeconfig({ token: 'lister' }));
    cluster.create(configMap('not-annotated'));
    const attempt = annotate(client, { group: '', version: 'v1', resource: 'configmaps', namespaced: true }, 'default', 'not-annotated', { a: 'b' });
    await expect(attempt).rejects.toMatchObject({ status: 403, message: expect.stringMatching(/cannot patch resource "configmaps"/) });
    expect(cluster.get('v1', 'ConfigMap', 'default', 'not-annotated')?.metadata?.annotations?.a).toBeUndefined();
  });
});

describe("through a proxy-url (HTTP CONNECT), with client-node's proxy agent", () => {
  it('lists and watches through the tunnel; close() ends the watch', async () => {
    const tunnels: string[] = [];
    const sockets: net.Socket[] = [];
    const proxy = http.createServer();
    proxy.on('connect', (req: http.IncomingMessage, socket: net.Socket) => {
      tunnels.push(req.url ?? '');
      sockets.push(socket);
      const [host, port] = (req.url ?? '').split(':');
      const upstream = net.connect(Number(port), host, () => {
        socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.pipe(socket).pipe(upstream);
      });
      upstream.on('error', () => socket.destroy());
      socket.on('error', () => upstream.destroy());
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const config = parse(cluster.kubeconfig({ token: 'admin' }));
      config.clusters[0].cluster['proxy-url'] = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
      const { client } = clientFor(stringify(config));
      cluster.create(configMap('proxied', {}, 'proxy'));
      const list = (await client.get('/api/v1/namespaces/proxy/configmaps')) as { items: Array<{ metadata: { name: string } }> };
      expect(list.items.map((i) => i.metadata.name)).toEqual(['proxied']);
      const w = record(client, '/api/v1/namespaces/proxy/configmaps');
      await until(() => w.events.length === 1, 'the ADDED event through the proxy');
      expect(tunnels.length).toBeGreaterThanOrEqual(2);
      expect(new Set(tunnels)).toEqual(new Set([new URL(cluster.url).host]));
      await client.close();
      await until(() => w.ends.length === 1, 'the end of the watch');
      expect(w.ends[0]).toMatchObject({ status: 0, reason: 'Cancelled' });
    } finally {
      for (const socket of sockets) socket.destroy(); // tunnels leave the HTTP server's bookkeeping
      await new Promise((resolve) => proxy.close(resolve));
    }
  });
});

describe('against a tiny local HTTP server', () => {
  let server: http.Server;
  let kubeconfig: string;
  let handler: (req: http.IncomingMessage, res: http.ServerResponse) => void = () => {};

  beforeAll(async () => {
    server = http.createServer((req, res) => handler(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    kubeconfig = `apiVersion: v1
kind: Config
clusters: [{ name: local, cluster: { server: "${url}" } }]
users: [{ name: u, user: { token: local-token } }]
contexts: [{ name: local, context: { cluster: local, user: u } }]
current-context: local
`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('joins an event cut across chunks, inside a multi-byte character, and skips a line that is not JSON', async () => {
    const { client } = clientFor(kubeconfig);
    const second = Buffer.from('{"type":"MODIFIED","object":{"name":"café ☕"}}\n');
    const cut = second.indexOf(Buffer.from('é')) + 1; // between the two bytes of é
    // Assigned below, after the handler that reads it is installed.
    // eslint-disable-next-line prefer-const
    let w!: ReturnType<typeof record>;
    handler = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"type":"ADDED","object":{"name":"a"}}\nnot json\n');
      res.write(second.subarray(0, cut));
      // The rest goes only once the first chunk was handled: the cut is really across chunks.
      void until(() => w.events.length === 1, 'the first event').then(() => {
        res.write(second.subarray(cut));
        res.end('{"type":"DELETED","object":{"name":"last"}}');
      });
    };
    w = record(client, '/api/v1/configmaps');
    await until(() => w.ends.length > 0, 'the end of the stream');
    expect(w.events).toEqual([
      { type: 'ADDED', object: { name: 'a' } },
      { type: 'MODIFIED', object: { name: 'café ☕' } },
      { type: 'DELETED', object: { name: 'last' } },
    ]);
    expect(w.ends).toEqual([undefined]);
  });

  // A LIST that keeps arriving is not cut by a timeout meant for a stalled server; a body that stops is.
  it.each([
    { what: 'arriving for longer than the idle timeout, a chunk at a time', pauseMs: 300, ok: true },
    { what: 'stalling for longer than the idle timeout mid-body', pauseMs: 5000, ok: false },
  ])('a LIST body $what', async ({ pauseMs, ok }) => {
    // Wide margins: a busy machine may hold the event loop for a while, which delays every timer alike.
    const { client } = clientFor(kubeconfig, { requestIdleMs: 2000 });
    const items = Array.from({ length: 10 }, (_, i) => `{"metadata":{"name":"cm-${i}"}}`);
    handler = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"kind":"ConfigMapList","metadata":{},"items":[');
      // 10 chunks `pauseMs` apart: 3 s in all when they keep coming, longer than the idle timeout.
      const send = (i: number) => {
        if (i === items.length) return res.end(']}');
        res.write(`${i ? ',' : ''}${items[i]}`);
        setTimeout(() => send(i + 1), pauseMs);
      };
      send(0);
    };
    const listed = client.get('/api/v1/namespaces/slow/configmaps');
    if (ok) await expect(listed).resolves.toMatchObject({ items: items.map((item) => JSON.parse(item) as unknown) });
    else await expect(listed).rejects.toMatchObject({ status: 0, message: expect.stringContaining('did not answer in time') });
    server.closeAllConnections();
  });

  it('a connection dropped mid-stream ends the watch with status 0', async () => {
    const { client } = clientFor(kubeconfig);
    handler = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"type":"ADDED","object":{"name":"a"}}\n{"type":"MODI');
      setImmediate(() => res.socket?.destroy());
    };
    const w = record(client, '/api/v1/configmaps');
    await until(() => w.ends.length > 0, 'the end of the stream');
    expect(w.events.map((e) => e.type)).toEqual(['ADDED']);
    expect(w.ends).toHaveLength(1);
    expect(w.ends[0]).toMatchObject({ status: 0, reason: 'Unreachable' });
  });

  it('GET asks for gzip and reads a compressed body; sends the token and Accept header', async () => {
    const { client, masked } = clientFor(kubeconfig);
    const seen: http.IncomingHttpHeaders[] = [];
    handler = (req, res) => {
      seen.push(req.headers);
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' });
      res.end(gzipSync(JSON.stringify({ kind: 'List', items: [{ name: 'ü' }] })));
    };
    await expect(client.get('/api/v1/configmaps', { limit: 500 }, { accept: 'application/json;as=Table' })).resolves.toEqual({
      kind: 'List',
      items: [{ name: 'ü' }],
    });
    expect(seen[0]).toMatchObject({ 'accept-encoding': 'gzip', accept: 'application/json;as=Table', authorization: 'Bearer local-token' });
    expect(masked).toContain('local-token');
  });

  it.each([
    [
      'a Status body',
      503,
      { kind: 'Status', message: 'etcd is down\nmore', reason: 'ServiceUnavailable' },
      '503 Service Unavailable: etcd is down',
      'ServiceUnavailable',
    ],
    ['no Status body', 500, 'oops', '500 Internal Server Error', undefined],
  ])('GET error with %s', async (_name, status, body, message, reason) => {
    const { client } = clientFor(kubeconfig);
    handler = (_req, res) => {
      res.writeHead(status, { 'Content-Type': 'application/json', 'Retry-After': '3' });
      res.end(typeof body === 'string' ? body : JSON.stringify(body));
    };
    await expect(client.get('/api/v1/configmaps')).rejects.toMatchObject({ status, message, reason, retryAfterMs: 3000 });
  });

  it('an error body is read no further than its bound: the request ends with its status, the rest unread', async () => {
    const { client } = clientFor(kubeconfig);
    let finished = false;
    handler = (_req, res) => {
      res.writeHead(500, { 'Content-Type': 'application/json' });
      res.on('finish', () => (finished = true));
      // 300 MB, written as long as the client reads it.
      let left = 300;
      const more = () => {
        while (left > 0 && !res.destroyed) {
          left--;
          if (!res.write('x'.repeat(1024 * 1024))) return void res.once('drain', more);
        }
        res.end();
      };
      more();
    };
    await expect(client.get('/api/v1/configmaps')).rejects.toMatchObject({ status: 500, message: '500 Internal Server Error' });
    expect(finished).toBe(false);
  });

  it('a gzip bomb: a LIST whose compressed item holds a huge number is refused, naming the bound', async () => {
    const { client } = clientFor(kubeconfig);
    const bomb = gzipSync(`{"kind":"ConfigMapList","items":[{"n":${'9'.repeat(20 * 1024 * 1024)}}]}`);
    handler = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' });
      res.end(bomb);
    };
    await expect(listItems(client, '/api/v1/configmaps', () => {})).rejects.toMatchObject({
      status: 200,
      reason: 'BadResponse',
      message: "the API server's answer to /api/v1/configmaps was refused: it holds a value of more than 1024 characters outside strings",
    });
  });

  it('a GET kept whole is bounded too (a gzip bomb of whitespace in discovery)', async () => {
    const { client } = clientFor(kubeconfig);
    const bomb = gzipSync(`{"kind":"APIGroupList",${' '.repeat(80 * 1024 * 1024)}"groups":[]}`);
    handler = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' });
      res.end(bomb);
    };
    await expect(client.get('/apis')).rejects.toMatchObject({
      reason: 'BadResponse',
      message: expect.stringMatching(/^the API server's answer to \/apis was refused: it holds more than \d+ characters$/),
    });
  });

  it('a watch event holding a huge number ends the watch as an error, after the events before it', async () => {
    const { client } = clientFor(kubeconfig);
    handler = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"type":"ADDED","object":{"name":"a"}}\n');
      res.write(`{"type":"ADDED","object":{"n":${'9'.repeat(200 * 1024)}`);
    };
    const w = record(client, '/api/v1/configmaps');
    await until(() => w.ends.length > 0, 'the end of the watch');
    expect(w.events).toEqual([{ type: 'ADDED', object: { name: 'a' } }]);
    expect(w.ends[0]).toMatchObject({ reason: 'BadResponse', message: expect.stringContaining('a value of more than 1024 characters outside strings') });
  });

  it('a GET on a kept-alive connection the server has just dropped is retried once on a new one', async () => {
    const { client } = clientFor(kubeconfig);
    const sockets: unknown[] = [];
    handler = (req, res) => {
      const reused = sockets.includes(req.socket);
      sockets.push(req.socket);
      if (reused) return void req.socket.destroy(); // as a server whose idle timeout fired just now
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{"n":1}');
    };
    await expect(client.get('/api/v1/configmaps')).resolves.toEqual({ n: 1 });
    await expect(client.get('/api/v1/configmaps')).resolves.toEqual({ n: 1 });
    expect(sockets).toHaveLength(3);
    expect(new Set(sockets).size).toBe(2);
  });

  it('a GET that gets no answer times out with status 0', async () => {
    const { client } = clientFor(kubeconfig);
    handler = () => {}; // never answers
    await expect(client.get('/api/v1/configmaps', {}, { timeoutMs: 200 })).rejects.toMatchObject({
      status: 0,
      message: expect.stringMatching(/did not answer in time/),
    });
  });
});
