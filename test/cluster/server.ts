/** The HTTP surface: discovery, CRUD, LIST and WATCH as a real kube-apiserver answers them. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseYaml } from 'yaml';
import { aggregatedContentType, aggregatedDiscovery, aggregatedVersionOf, discoveryEtag } from './aggregated.js';
import type { Api } from './api.js';
import { ApiError, errors } from './errors.js';
import type { Counters, Faults, RequestRecord } from './faults.js';
import { serveLog } from './logs.js';
import { serveServiceProxy } from './service-proxy.js';
import { openapiV3 } from './openapi.js';
import { decodeProtobufObject, isProtobuf, ProtobufError } from './protobuf.js';
import { applyPatch, patchTypeOf } from './patch.js';
import type { Authorizer } from './rbac.js';
import { apiResources, apiVersionOf, type ResourceType } from './registry.js';
import { parseFieldSelector, parseLabelSelector, SelectorError, type Matcher } from './selectors.js';
import type { KubeObject, StoreEvent } from './store.js';
import { tableFor, type IncludeObject } from './tables.js';

export interface ServerDeps {
  api: Api;
  authorizer: Authorizer;
  faults: Faults;
  counters: Counters;
  bookmarkIntervalMs: number;
  /** Whether `/api` and `/apis` answer aggregated-discovery Accept headers with an APIGroupDiscoveryList. */
  aggregatedDiscovery: boolean;
  /** host:port for /api's serverAddressByClientCIDRs. */
  address(): string;
}

export const SERVER_VERSION = {
  major: '1',
  minor: '35',
  emulationMajor: '1',
  emulationMinor: '35',
  minCompatibilityMajor: '1',
  minCompatibilityMinor: '34',
  gitVersion: 'v1.35.2',
  gitCommit: '0000000000000000000000000000000000000000',
  gitTreeState: 'clean',
  buildDate: '2026-02-10T00:00:00Z',
  goVersion: 'go1.25.6',
  compiler: 'gc',
  platform: 'linux/amd64',
};

const UNAUTHENTICATED_PATHS = new Set(['/version', '/healthz', '/livez', '/readyz']);

/** What a request addresses, parsed from its path. */
interface Target {
  type: ResourceType;
  namespace?: string;
  name?: string;
  subresource?: string;
  watchPath: boolean;
  /** After `services/NAME/proxy/`: the path the service proxy forwards. */
  proxyPath?: string;
}

export function createHandler(deps: ServerDeps) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    deps.counters.arrived(res);
    countBytes(res, deps.counters);
    handle(deps, req, res).catch((err) => {
      if (!res.headersSent) sendError(res, err instanceof ApiError ? err : errors.internal(String(err)));
      else res.destroy();
    });
  };
}

async function handle(deps: ServerDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  await deps.faults.delay();
  const url = new URL(req.url ?? '/', 'http://localhost');
  const path = url.pathname.replace(/\/+$/, '') || '/';

  if (UNAUTHENTICATED_PATHS.has(path)) {
    const rec = deps.counters.record({ verb: 'discovery', resource: path, status: 0 });
    return send(res, rec, 200, path === '/version' ? SERVER_VERSION : 'ok');
  }
  const user = deps.authorizer.authenticate(req.headers.authorization);
  if (!user) {
    const rec = deps.counters.record({ verb: 'unauthenticated', resource: path, status: 0 });
    return sendError(res, errors.unauthorized(), rec);
  }

  const discovery = discoveryDocument(deps, path);
  if (discovery !== undefined) {
    const rec = deps.counters.record({ verb: 'discovery', resource: path, status: 0 });
    const injected = deps.faults.injectedError('discovery', path);
    if (injected) return sendError(res, injected, rec);
    if (discovery === null) return sendError(res, errors.noSuchPath(), rec);
    const aggregated = deps.aggregatedDiscovery && (path === '/api' || path === '/apis') ? aggregatedVersionOf(req.headers.accept) : undefined;
    if (aggregated) {
      const body = JSON.stringify(aggregatedDiscovery(deps.api.registry, path === '/api', aggregated));
      return send(res, rec, 200, body, { 'Content-Type': aggregatedContentType(aggregated), ETag: discoveryEtag(body), Vary: 'Accept' });
    }
    return send(res, rec, 200, discovery);
  }

  const target = parseTarget(deps, path);
  if (!target) {
    const rec = deps.counters.record({ verb: 'unknown', resource: path, status: 0 });
    return sendError(res, errors.noSuchPath(), rec);
  }
  const verb = verbOf(req.method ?? 'GET', target, url.searchParams);
  const resource = target.subresource ? `${target.type.plural}/${target.subresource}` : target.type.plural;
  const rec = deps.counters.record({ verb, resource, ...(target.namespace ? { namespace: target.namespace } : {}), status: 0 });
  if (!verb) return sendError(res, errors.methodNotAllowed(), rec);

  if (!deps.authorizer.authorize(user, { verb, group: target.type.group, resource, namespace: target.namespace })) {
    return sendError(res, errors.forbidden(user, verb, target.type, resource, target.namespace, target.name), rec);
  }
  await deps.faults.delayRequest(verb, target.type.plural);
  const injected = deps.faults.injectedError(verb, target.type.plural);
  if (injected) return sendError(res, injected, rec);
  if (target.subresource === 'scale' && target.type.scaleSubresource && ['get', 'update', 'patch'].includes(verb)) {
    return serveScale(deps, req, res, rec, verb, target).catch((err) => {
      if (err instanceof ApiError) return sendError(res, err, rec);
      throw err;
    });
  }
  if (target.subresource === 'log' && target.type.plural === 'pods' && verb === 'get') {
    try {
      return serveLog(deps.api, res, rec, target.namespace!, target.name!, url.searchParams);
    } catch (err) {
      if (err instanceof ApiError) return sendError(res, err, rec);
      throw err;
    }
  }
  if (target.subresource === 'proxy' && target.type.plural === 'services' && verb === 'get') {
    return serveServiceProxy(deps.api, res, rec, target.namespace!, target.name!, target.proxyPath ?? '').catch((err) => {
      if (err instanceof ApiError) return sendError(res, err, rec);
      throw err;
    });
  }
  if (target.subresource && target.subresource !== 'status') return sendError(res, errors.noSuchPath(), rec);
  if (target.subresource === 'status' && !target.type.statusSubresource) return sendError(res, errors.noSuchPath(), rec);

  try {
    await serve(deps, req, res, rec, verb, target, url.searchParams);
  } catch (err) {
    if (err instanceof SelectorError) return sendError(res, errors.badRequest(err.message), rec);
    throw err instanceof ApiError ? Object.assign(err, { record: rec }) : err;
  }
}

async function serve(
  deps: ServerDeps,
  req: IncomingMessage,
  res: ServerResponse,
  rec: RequestRecord,
  verb: string,
  target: Target,
  q: URLSearchParams,
): Promise<void> {
  const { api } = deps;
  const t = target.type;
  const sub = target.subresource === 'status' ? 'status' : undefined;
  try {
    switch (verb) {
      case 'get': {
        const obj = api.store.get(t, target.namespace, target.name!);
        if (!obj) throw errors.notFound(t, target.name!);
        return send(res, rec, 200, render(req, t, [obj], q, 'single'));
      }
      case 'list':
        return send(res, rec, 200, listResponse(deps, req, target, q));
      case 'watch':
        return watch(deps, req, res, rec, target, q);
      case 'create': {
        const body = (await readJson(req)) as KubeObject;
        if (target.namespace && body.metadata?.namespace && body.metadata.namespace !== target.namespace) {
          throw errors.badRequest('the namespace of the provided object does not match the namespace sent on the request');
        }
        const obj = api.create(t, { ...body, metadata: { ...body.metadata, ...(target.namespace ? { namespace: target.namespace } : {}) } });
        return send(res, rec, 201, obj);
      }
      case 'update': {
        const body = (await readJson(req)) as KubeObject;
        if (body.metadata?.name && body.metadata.name !== target.name) {
          throw errors.badRequest(`the name of the object (${body.metadata.name}) does not match the name on the URL (${target.name})`);
        }
        const obj = api.update(
          t,
          { ...body, metadata: { ...body.metadata, name: target.name!, ...(target.namespace ? { namespace: target.namespace } : {}) } },
          sub,
        );
        return send(res, rec, 200, obj);
      }
      case 'patch': {
        const type = patchTypeOf(req.headers['content-type']);
        if (!type) throw errors.unsupportedMediaType(String(req.headers['content-type']));
        const raw = await readBody(req);
        const patch = type === 'apply' ? parseYaml(raw) : parseJson(raw);
        const obj = api.patch(t, target.namespace, target.name!, type, patch, sub);
        return send(res, rec, 200, obj);
      }
      case 'delete': {
        await readBody(req);
        const obj = api.delete(t, target.namespace, target.name!);
        const stillThere = api.store.get(t, target.namespace, target.name!);
        if (stillThere || t.kind === 'Pod') return send(res, rec, 200, obj);
        return send(res, rec, 200, {
          kind: 'Status',
          apiVersion: 'v1',
          metadata: {},
          status: 'Success',
          details: { name: obj.metadata.name, ...(t.group ? { group: t.group } : {}), kind: t.plural, uid: obj.metadata.uid },
        });
      }
      case 'deletecollection': {
        await readBody(req);
        const matcher = matcherFor(t, target, q);
        const deleted = api.store
          .list(t, target.namespace)
          .filter(matcher)
          .map((o) => api.delete(t, o.metadata.namespace, o.metadata.name));
        return send(res, rec, 200, {
          kind: `${t.kind}List`,
          apiVersion: apiVersionOf(t),
          metadata: { resourceVersion: String(api.store.resourceVersion()) },
          items: deleted,
        });
      }
    }
  } catch (err) {
    if (err instanceof ApiError) return sendError(res, err, rec);
    throw err;
  }
}

/** The autoscaling/v1 Scale view of a workload (`kubectl scale`). */
async function serveScale(deps: ServerDeps, req: IncomingMessage, res: ServerResponse, rec: RequestRecord, verb: string, target: Target): Promise<void> {
  const { api } = deps;
  const t = target.type;
  const current = api.store.get(t, target.namespace, target.name!);
  if (!current) throw errors.notFound(t, target.name!);
  let obj = current;
  if (verb !== 'get') {
    const raw = await readBody(req);
    const body = parseJson(raw);
    const type = verb === 'patch' ? patchTypeOf(req.headers['content-type']) : undefined;
    if (verb === 'patch' && !type) throw errors.unsupportedMediaType(String(req.headers['content-type']));
    const patched = (type ? applyPatch(type, scaleOf(current), body) : body) as { spec?: { replicas?: number } };
    const replicas = Number(patched.spec?.replicas);
    if (!Number.isInteger(replicas) || replicas < 0) {
      throw errors.invalid('Scale', 'autoscaling', target.name!, [
        { field: 'spec.replicas', message: `Invalid value: ${patched.spec?.replicas}: must be greater than or equal to 0` },
      ]);
    }
    const { resourceVersion: _rv, ...metadata } = current.metadata;
    obj = api.update(t, { ...current, metadata, spec: { ...current.spec, replicas } } as KubeObject);
  }
  send(res, rec, 200, scaleOf(obj));
}

function scaleOf(obj: KubeObject): object {
  const { name, namespace, uid, resourceVersion, creationTimestamp } = obj.metadata;
  const selector = Object.entries(obj.spec?.selector?.matchLabels ?? {})
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: { name, namespace, uid, resourceVersion, creationTimestamp },
    spec: { replicas: obj.spec?.replicas ?? 0 },
    status: { replicas: obj.status?.replicas ?? 0, selector },
  };
}

// ---------------------------------------------------------------------------------------------
// Discovery

/** The discovery document for a path, null for a discovery path that does not exist, undefined when
 *  the path is not a discovery path at all. */
function discoveryDocument(deps: ServerDeps, path: string): object | null | undefined {
  const { registry } = deps.api;
  if (path === '/api') {
    return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: deps.address() }] };
  }
  if (path === '/api/v1') {
    return { kind: 'APIResourceList', groupVersion: 'v1', resources: apiResources(registry.inGroupVersion('', 'v1')) };
  }
  if (path === '/apis') {
    return { kind: 'APIGroupList', apiVersion: 'v1', groups: registry.groups().map(groupDocument) };
  }
  const m = /^\/apis\/([^/]+)(?:\/([^/]+))?$/.exec(path);
  if (m) {
    const group = registry.groups().find((g) => g.name === m[1]);
    if (!m[2]) return group ? { kind: 'APIGroup', apiVersion: 'v1', ...groupDocument(group) } : null;
    if (!group?.versions.includes(m[2])) return null;
    return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: `${m[1]}/${m[2]}`, resources: apiResources(registry.inGroupVersion(m[1] ?? '', m[2])) };
  }
  if (path.startsWith('/openapi/')) return openapiV3(registry, path) ?? null;
  return undefined;
}

function groupDocument(g: { name: string; versions: string[] }): object {
  const versions = g.versions.map((v) => ({ groupVersion: `${g.name}/${v}`, version: v }));
  return { name: g.name, versions, preferredVersion: versions[0] };
}

// ---------------------------------------------------------------------------------------------
// Routing

function parseTarget(deps: ServerDeps, path: string): Target | undefined {
  const m = /^\/api\/v1\/(.+)$/.exec(path) ?? /^\/apis\/([^/]+)\/([^/]+)\/(.+)$/.exec(path);
  if (!m) return undefined;
  const [group, version, rest] = path.startsWith('/api/v1/') ? ['', 'v1', m[1] ?? ''] : [m[1] ?? '', m[2] ?? '', m[3] ?? ''];
  let segs = rest.split('/').map(decodeURIComponent);
  const watchPath = segs[0] === 'watch';
  if (watchPath) segs = segs.slice(1);
  let namespace: string | undefined;
  if (segs[0] === 'namespaces' && segs.length >= 3 && !(segs.length === 3 && ['status', 'finalize'].includes(segs[2] ?? ''))) {
    namespace = segs[1];
    segs = segs.slice(2);
  }
  const [plural, name, subresource, ...extra] = segs;
  if (plural === 'services' && subresource === 'proxy' && namespace !== undefined) {
    const type = deps.api.registry.find(group, version, plural);
    return type ? { type, namespace, name, subresource, watchPath, proxyPath: extra.join('/') } : undefined;
  }
  if (!plural || extra.length) return undefined;
  const type = deps.api.registry.find(group, version, plural);
  if (!type) return undefined;
  if (namespace !== undefined && !type.namespaced) return undefined;
  return { type, namespace, name, subresource, watchPath };
}

function verbOf(method: string, target: Target, q: URLSearchParams): string {
  const watchParam = ['true', '1'].includes(q.get('watch') ?? '');
  switch (method) {
    case 'GET':
      if (target.watchPath || watchParam) return 'watch';
      return target.name ? 'get' : 'list';
    case 'POST':
      return target.name ? '' : 'create';
    case 'PUT':
      return target.name ? 'update' : '';
    case 'PATCH':
      return target.name ? 'patch' : '';
    case 'DELETE':
      return target.name ? 'delete' : 'deletecollection';
    default:
      return '';
  }
}

// ---------------------------------------------------------------------------------------------
// LIST

interface ContinueToken {
  rv: number;
  start: string;
}

function encodeContinue(token: ContinueToken): string {
  return Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', ...token })).toString('base64');
}

function decodeContinue(raw: string): ContinueToken {
  try {
    const parsed = JSON.parse(Buffer.from(raw, 'base64').toString('utf8'));
    if (typeof parsed.rv === 'number' && typeof parsed.start === 'string') return parsed;
  } catch {
    /* fall through */
  }
  throw errors.badRequest('continue key is not valid: illegal base64 data at input byte 0');
}

function matcherFor(t: ResourceType, target: Target, q: URLSearchParams): Matcher {
  const labels = parseLabelSelector(q.get('labelSelector'));
  const nameFromPath = target.watchPath && target.name;
  const fields = parseFieldSelector(nameFromPath ? `metadata.name=${target.name}` : q.get('fieldSelector'), t.kind);
  return (obj) => labels(obj) && fields(obj);
}

const keyOf = (o: KubeObject) => `${o.metadata.namespace ?? ''}/${o.metadata.name}`;

function listResponse(deps: ServerDeps, req: IncomingMessage, target: Target, q: URLSearchParams): object {
  const t = target.type;
  const store = deps.api.store;
  const matcher = matcherFor(t, target, q);
  const token = q.get('continue') ? decodeContinue(q.get('continue')!) : undefined;
  let items = store.list(t, target.namespace).filter(matcher);
  if (token) items = items.filter((o) => keyOf(o) > token.start);
  const limit = Number(q.get('limit') ?? 0);
  let next: string | undefined;
  let remaining: number | undefined;
  const rv = token?.rv ?? store.resourceVersion();
  if (limit > 0 && items.length > limit) {
    remaining = items.length - limit;
    items = items.slice(0, limit);
    const last = items[items.length - 1];
    if (last) next = encodeContinue({ rv, start: keyOf(last) });
  }
  const metadata = { resourceVersion: String(rv), ...(next ? { continue: next, remainingItemCount: remaining } : {}) };
  return render(req, t, items, q, 'list', metadata);
}

/** JSON as requested by the Accept header: the object(s), a Table, or PartialObjectMetadata. */
function render(req: IncomingMessage, t: ResourceType, items: KubeObject[], q: URLSearchParams, shape: 'single' | 'list', listMeta: object = {}): object {
  const accept = req.headers.accept ?? '';
  if (/as=Table/.test(accept)) {
    return tableFor(t, items, (q.get('includeObject') as IncludeObject) || 'PartialObjectMetadata', listMeta);
  }
  if (/as=PartialObjectMetadata/.test(accept)) {
    const partial = items.map(partialMetadata);
    if (shape === 'single') return partial[0]!;
    return { kind: 'PartialObjectMetadataList', apiVersion: 'meta.k8s.io/v1', metadata: listMeta, items: partial };
  }
  if (shape === 'single') return items[0]!;
  // A real server drops apiVersion/kind from the items of built-in lists (custom resources keep them).
  const listItems = t.custom ? items : items.map(({ apiVersion: _a, kind: _k, ...rest }) => rest);
  return { kind: `${t.kind}List`, apiVersion: apiVersionOf(t), metadata: listMeta, items: listItems };
}

function partialMetadata(o: KubeObject): object {
  return { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: o.metadata };
}

// ---------------------------------------------------------------------------------------------
// WATCH

function watch(deps: ServerDeps, req: IncomingMessage, res: ServerResponse, rec: RequestRecord, target: Target, q: URLSearchParams): void {
  const t = target.type;
  const store = deps.api.store;
  const selector = matcherFor(t, target, q);
  const inScope = (o: KubeObject) => (target.namespace === undefined || o.metadata.namespace === target.namespace) && selector(o);
  const asTable = /as=Table/.test(req.headers.accept ?? '');
  const includeObject = (q.get('includeObject') as IncludeObject) || 'PartialObjectMetadata';
  const bookmarks = q.get('allowWatchBookmarks') === 'true';
  const sendInitial = q.get('sendInitialEvents') === 'true';
  const requestedRv = q.get('resourceVersion') ?? '';

  res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache, private', 'Transfer-Encoding': 'chunked' });
  res.flushHeaders();
  rec.status = 200;

  const write = (type: string, object: object) => {
    if (!res.writableEnded && !res.destroyed) res.write(JSON.stringify({ type, object }) + '\n');
  };
  const writeObject = (type: string, object: KubeObject) => write(type, asTable ? tableFor(t, [object], includeObject, {}) : object);
  const bookmark = (annotations?: Record<string, string>) =>
    write('BOOKMARK', {
      kind: t.kind,
      apiVersion: apiVersionOf(t),
      metadata: { resourceVersion: String(store.resourceVersion()), ...(annotations ? { annotations } : {}) },
    });

  const timers: NodeJS.Timeout[] = [];
  let unsubscribe = () => {};
  const entry = { resource: t.plural, close: () => finish() };
  const finish = () => {
    unsubscribe();
    for (const timer of timers) clearTimeout(timer);
    deps.faults.watches.delete(entry);
    if (!res.writableEnded) res.end();
  };

  if (deps.faults.takeGone(t.plural)) {
    write('ERROR', errors.expired(Number(requestedRv) || 1, store.resourceVersion()).status);
    return void res.end();
  }

  // Subscribing and reading the initial state happen in one synchronous step: no event can fall between.
  const deliver = (e: StoreEvent) => {
    const now = inScope(e.object);
    const before = e.previous ? inScope(e.previous) : false;
    if (e.type === 'ADDED' && now) writeObject('ADDED', e.object);
    else if (e.type === 'MODIFIED') {
      if (now) writeObject(before ? 'MODIFIED' : 'ADDED', e.object);
      else if (before) writeObject('DELETED', { ...e.previous!, metadata: { ...e.previous!.metadata, resourceVersion: String(e.rv) } });
    } else if (e.type === 'DELETED' && before) writeObject('DELETED', e.object);
  };
  if (sendInitial || requestedRv === '' || requestedRv === '0') {
    for (const obj of store.list(t, target.namespace)) if (selector(obj)) writeObject('ADDED', obj);
    if (sendInitial && bookmarks) bookmark({ 'k8s.io/initial-events-end': 'true' });
  } else {
    let replay: StoreEvent[];
    try {
      replay = store.eventsSince(t, Number(requestedRv));
    } catch (err) {
      if (err instanceof ApiError) {
        write('ERROR', err.status);
        return void res.end();
      }
      throw err;
    }
    for (const e of replay) deliver(e);
  }
  unsubscribe = store.subscribe(t, deliver);
  deps.faults.watches.add(entry);

  if (bookmarks) {
    const tick = () => {
      bookmark();
      timers[0] = setTimeout(tick, deps.bookmarkIntervalMs);
    };
    timers[0] = setTimeout(tick, deps.bookmarkIntervalMs);
  }
  const timeoutSeconds = Number(q.get('timeoutSeconds') ?? 0);
  if (timeoutSeconds > 0) timers.push(setTimeout(finish, timeoutSeconds * 1000));
  req.on('close', finish);
  res.on('close', finish);
}

// ---------------------------------------------------------------------------------------------
// Plumbing

/** Sends a JSON body (a string body is plain text unless `headers` give its Content-Type). */
function send(res: ServerResponse, rec: RequestRecord, code: number, body: unknown, headers: Record<string, string> = {}): void {
  rec.status = code;
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(code, {
    'Content-Type': typeof body === 'string' ? 'text/plain; charset=utf-8' : 'application/json',
    'Cache-Control': 'no-cache, private',
    ...headers,
  });
  res.end(text);
}

function sendError(res: ServerResponse, err: ApiError, rec?: RequestRecord): void {
  const record = rec ?? (err as ApiError & { record?: RequestRecord }).record ?? { verb: '', resource: '', status: 0 };
  send(res, record, err.code, err.status, err.headers);
}

function countBytes(res: ServerResponse, counters: Counters): void {
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  const size = (chunk: unknown) => (typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk instanceof Uint8Array ? chunk.byteLength : 0);
  res.write = ((chunk: unknown, ...rest: unknown[]) => {
    counters.addBytes(size(chunk));
    return write(chunk, ...rest);
  }) as typeof res.write;
  res.end = ((chunk?: unknown, ...rest: unknown[]) => {
    if (chunk !== undefined && typeof chunk !== 'function') counters.addBytes(size(chunk));
    return end(chunk, ...rest);
  }) as typeof res.end;
}

function readBytes(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

async function readBody(req: IncomingMessage): Promise<string> {
  return (await readBytes(req)).toString('utf8');
}

function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch (err) {
    throw errors.badRequest(`json: ${(err as Error).message}`);
  }
}

/** A create/update body: JSON, YAML, or protobuf (typed kubectl commands, helm), always as the JSON object. */
async function readJson(req: IncomingMessage): Promise<unknown> {
  const bytes = await readBytes(req);
  const ct = req.headers['content-type'] ?? '';
  if (isProtobuf(ct)) {
    try {
      return decodeProtobufObject(bytes);
    } catch (err) {
      if (!(err instanceof ProtobufError)) throw err;
      throw err.unsupported ? errors.unsupportedBody(err.message) : errors.badRequest(err.message);
    }
  }
  if (/yaml/.test(ct)) return parseYaml(bytes.toString('utf8'));
  return parseJson(bytes.toString('utf8'));
}
