/**
 * GET and WATCH against the API server (connections and credentials: transport.ts). Responses stay
 * plain JSON: client-node's typed deserialisation would turn timestamps into Dates and cost memory on
 * large lists, and the status library reads raw objects.
 */
import type http from 'node:http';
import type { Readable } from 'node:stream';
import type { KubeConfig } from '@kubernetes/client-node';
import { ApiError, networkError, parseRetryAfter, statusError } from './errors.js';
import { JsonItems } from './json-items.js';
import { JsonLines } from './json-lines.js';
import { JsonTooLarge } from './json-scanner.js';
import { Semaphore } from './semaphore.js';
import { Transport, closedError } from './transport.js';
import type { Secrets } from './kubeconfig.js';
import type { ExecPlugin } from './exec-plugin.js';
import { builtinModule } from '../builtin.js';

export type Query = Record<string, string | number | boolean | undefined>;

export interface RequestOptions {
  signal?: AbortSignal;
  /** Abort the request after this long in all. Without it, after `IDLE_TIMEOUT_MS` without a byte from the server
   *  (a stalled server must not stall the wait; a large LIST that keeps arriving is not cut), and at most
   *  `MAX_REQUEST_MS` in all. */
  timeoutMs?: number;
  accept?: string;
}

export interface WatchHandle {
  stop(): void;
}

/** How a watch ended: `undefined` for a normal end (the server closed it, or it stayed idle too long). */
export type WatchEnd = ApiError | undefined;

export interface ClientOptions {
  /** A watch that receives no bytes for this long ends normally, so the caller re-watches (default 30 s, as client-node). */
  watchIdleMs?: number;
  /** A request without its own `timeoutMs` that receives no byte for this long has stalled (default `IDLE_TIMEOUT_MS`). */
  requestIdleMs?: number;
  /** The kubeconfig user's exec credential plugin. */
  execPlugin?: ExecPlugin;
}

/** A request that writes: its method, body and the body's media type. */
interface Write {
  method: 'PATCH';
  body: string;
  contentType: string;
}

/** What a request sends and how its answer is taken: a write's body, and a list's items as they arrive. */
interface Body {
  write?: Write;
  items?: JsonItems;
  /** Called on the response and on every chunk of its body: the server is still sending. */
  alive?: () => void;
}

/** A request with no byte from the server for this long has stalled. */
export const IDLE_TIMEOUT_MS = 30_000;
/** No request without its own `timeoutMs` runs longer than this, however steadily it arrives. */
export const MAX_REQUEST_MS = 300_000;

/** A signal that aborts with a TimeoutError once `touch` has not been called for `ms`. */
function idleTimeout(ms: number): { signal: AbortSignal; touch: () => void; clear: () => void } {
  const controller = new AbortController();
  const expire = () => controller.abort(new DOMException(`no data for ${ms} ms`, 'TimeoutError'));
  // Unref'd: the request's socket keeps the process alive while it runs; a timer must not after it.
  let timer: NodeJS.Timeout | undefined = setTimeout(expire, ms).unref();
  return {
    signal: controller.signal,
    touch: () => {
      if (timer === undefined) return; // a chunk after the request settled
      clearTimeout(timer);
      timer = setTimeout(expire, ms).unref();
    },
    clear: () => {
      clearTimeout(timer);
      timer = undefined;
    },
  };
}

interface Received {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

export class KubeClient {
  private readonly transport: Transport;
  private readonly masked = new Set<string>();
  /** Few GETs at once: fifty namespaces listed together would hold fifty parsed pages in memory. */
  private readonly slots = new Semaphore(MAX_CONCURRENT_GETS);
  private readonly watchIdleMs: number;
  private readonly requestIdleMs: number;

  constructor(
    kubeConfig: KubeConfig,
    readonly server: string,
    private readonly secrets: Secrets,
    options: ClientOptions = {},
  ) {
    this.transport = new Transport(kubeConfig, server, (authorization) => this.maskAuthorization(authorization), options.execPlugin);
    this.watchIdleMs = options.watchIdleMs ?? 30_000;
    this.requestIdleMs = options.requestIdleMs ?? IDLE_TIMEOUT_MS;
  }

  /** Whether the API server has answered any request of this client (any status): an outage after that is
   *  the server's, not a wrong address in the kubeconfig. */
  get hasAnswered(): boolean {
    return this.transport.hasAnswered;
  }

  /** GET a path and parse the JSON body. Throws ApiError (status 0 for no response). */
  async get(path: string, query: Query = {}, options: RequestOptions = {}): Promise<unknown> {
    await this.slots.acquire(options.signal);
    try {
      return await this.send(path, query, options);
    } finally {
      this.slots.release();
    }
  }

  /**
   * GET a collection (one LIST page): each item is parsed and handed to `onItem` as soon as it has arrived,
   * never the whole page at once (json-items.ts); strings longer than `maxStringChars` are cut (default: none
   * is). Returns the rest of the page (`metadata` with `continue` and `resourceVersion`). Throws ApiError like `get`.
   */
  async getItems(
    path: string,
    query: Query,
    onItem: (item: unknown) => void,
    options: RequestOptions & { maxStringChars?: number } = {},
  ): Promise<{ metadata?: unknown }> {
    await this.slots.acquire(options.signal);
    try {
      const items = new JsonItems(
        (text) => {
          const item = parseJson(text);
          if (item !== undefined) onItem(item);
        },
        { maxStringChars: options.maxStringChars ?? Number.POSITIVE_INFINITY },
      );
      const { status, text } = await this.exchangeOk(path, query, options, { items });
      const rest = parseJson(text);
      if (typeof rest !== 'object' || rest === null) throw new ApiError(status, `the API server sent a response that is not JSON for ${path}`, 'BadResponse');
      return rest;
    } finally {
      this.slots.release();
    }
  }

  /** GET a path whose body is text (`pods/NAME/log`). Throws ApiError like `get`. */
  async getText(path: string, query: Query = {}, options: RequestOptions = {}): Promise<string> {
    await this.slots.acquire(options.signal);
    try {
      return (await this.exchangeOk(path, query, { accept: 'text/plain, */*', ...options })).text;
    } finally {
      this.slots.release();
    }
  }

  /**
   * A GET whose answer is passed on whatever its status: the service proxy's (a smoke check), where a 503 is
   * the application's own answer. `status` is the server's status code; `text` the body (an error body only
   * its first `MAX_ERROR_BODY` characters). `apiStatus` is the message of a Kubernetes Status body: the API
   * server's own refusal (403 on `services/proxy`, no endpoint to proxy to), not the application's.
   */
  async getAnyStatus(path: string, query: Query = {}, options: RequestOptions = {}): Promise<{ status: number; text: string; apiStatus?: string }> {
    await this.slots.acquire(options.signal);
    try {
      const { status, text, headers } = await this.exchangeAny(path, query, { accept: '*/*', ...options });
      const ok = status >= 200 && status < 300;
      return { status, text, ...(!ok && isStatusBody(text) && { apiStatus: httpError(status, parseJson(text), headers).message }) };
    } finally {
      this.slots.release();
    }
  }

  /**
   * A JSON merge patch (RFC 7386) of one object: the only write kubewait makes, asking a GitOps controller to
   * reconcile now (src/gitops/reconcile.ts). Returns the object as patched; throws ApiError like `get`.
   */
  async mergePatch(path: string, patch: object, options: RequestOptions = {}): Promise<unknown> {
    return this.patch(path, patch, 'application/merge-patch+json', options);
  }

  /**
   * A PATCH of one object with the given patch type (`application/json-patch+json`,
   * `application/strategic-merge-patch+json`, `application/merge-patch+json`): `mergePatch`, and the
   * rollback's restore of a recorded template (src/rollback/), which sets fixed values too. Throws ApiError like `get`.
   */
  async patch(path: string, patch: object, contentType: string, options: RequestOptions = {}): Promise<unknown> {
    await this.slots.acquire(options.signal);
    try {
      return await this.send(path, {}, options, { method: 'PATCH', body: JSON.stringify(patch), contentType });
    } finally {
      this.slots.release();
    }
  }

  private async send(path: string, query: Query, options: RequestOptions, write?: Write): Promise<unknown> {
    const { status, text } = await this.exchangeOk(path, query, options, { write });
    const body = parseJson(text);
    if (body === undefined) throw new ApiError(status, `the API server sent a response that is not JSON for ${path}`, 'BadResponse');
    return body;
  }

  /** One GET (or `write`) answered with a 2xx status; any other status is thrown as the ApiError its Status body says. */
  private async exchangeOk(path: string, query: Query, options: RequestOptions, body: Body = {}): Promise<Received> {
    const response = await this.exchangeAny(path, query, options, body);
    if (response.status >= 200 && response.status < 300) return response;
    throw httpError(response.status, parseJson(response.text), response.headers);
  }

  /** One request answered with any status (throws ApiError only when there is no answer): under the request's
   *  timeouts, with the body bounded as `exchange` says. */
  private async exchangeAny(path: string, query: Query, options: RequestOptions, body: Body = {}): Promise<Received> {
    const { write } = body;
    const idle = options.timeoutMs === undefined ? idleTimeout(this.requestIdleMs) : undefined;
    const timeouts = [AbortSignal.timeout(options.timeoutMs ?? MAX_REQUEST_MS), ...(idle ? [idle.signal] : [])];
    const signal = AbortSignal.any(options.signal ? [options.signal, ...timeouts] : timeouts);
    const headers: Record<string, string> = { Accept: options.accept ?? 'application/json', 'Accept-Encoding': 'gzip' };
    if (write) headers['Content-Type'] = write.contentType;
    try {
      return await this.receive(target(path, query), headers, signal, { ...body, alive: idle?.touch });
    } catch (error) {
      if (error instanceof ApiError) throw error;
      if (options.signal?.aborted) throw new ApiError(0, 'request cancelled', 'Cancelled');
      throw networkError(error, this.server);
    } finally {
      idle?.clear();
    }
  }

  /** GETs (and a merge patch that sets fixed values) are idempotent: one retry when a kept-alive connection
   *  turns out to have been closed by the server. */
  private async receive(pathAndQuery: string, headers: Record<string, string>, signal: AbortSignal, body: Body): Promise<Received> {
    try {
      return await this.exchange(pathAndQuery, headers, signal, body);
    } catch (error) {
      if (!(error instanceof StaleConnection)) throw error;
      return this.exchange(pathAndQuery, headers, signal, body).catch((retryError: unknown) => {
        throw retryError instanceof StaleConnection ? retryError.cause : retryError;
      });
    }
  }

  /**
   * With `items`, a 2xx body goes through it as it arrives, and `text` is what it leaves (json-items.ts).
   * Every body is bounded as it arrives, decompressed or not: a streamed one by its reader's bounds, a 2xx
   * one kept whole by `MAX_BODY_CHARS` (beyond it, an error), an error body by `MAX_ERROR_BODY` (beyond it,
   * the rest is not read: what a Status says is in its first few hundred bytes).
   */
  private async exchange(pathAndQuery: string, headers: Record<string, string>, signal: AbortSignal, { write, items, alive }: Body): Promise<Received> {
    signal.throwIfAborted();
    const request = await this.transport.send(write?.method ?? 'GET', pathAndQuery, headers, signal, write?.body);
    return new Promise<Received>((resolve, reject) => {
      let responded = false;
      const abort = () => request.destroy(signal.reason as Error);
      const settle = () => signal.removeEventListener('abort', abort);
      const fail = (error: unknown) => {
        settle();
        if (signal.aborted) reject(signal.reason as Error);
        else if (!responded && request.reusedSocket && (error as { code?: string }).code === 'ECONNRESET') reject(new StaleConnection(error));
        // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- node:http emits Errors; passed on as they are
        else reject(error);
      };
      request.on('error', fail);
      if (signal.aborted) return abort();
      signal.addEventListener('abort', abort, { once: true });
      request.on('response', (response) => {
        responded = true;
        alive?.();
        const status = response.statusCode ?? 0;
        const ok = status >= 200 && status < 300;
        const stream = ok ? items : undefined;
        const chunks: string[] = [];
        let chars = 0;
        const body = decoded(response);
        // The decompressor too: what it holds of a gzip bomb would go on expanding, chunk after chunk, unread.
        const stop = () => {
          request.destroy();
          if (body !== response) body.destroy();
        };
        const done = (text: string) => {
          settle();
          resolve({ status, headers: response.headers, text });
        };
        response.on('error', fail);
        body.on('error', fail);
        body.setEncoding('utf8');
        body.on('data', (chunk: string) => {
          alive?.();
          try {
            if (stream) return stream.push(chunk);
            chars += chunk.length;
            if (!ok && chars > MAX_ERROR_BODY) {
              // Enough of an error body: answer with its start, and read no more of it.
              chunks.push(chunk.slice(0, MAX_ERROR_BODY - (chars - chunk.length)));
              done(chunks.join(''));
              return stop();
            }
            if (chars > MAX_BODY_CHARS) throw new JsonTooLarge(`more than ${MAX_BODY_CHARS} characters`);
            chunks.push(chunk);
          } catch (error) {
            // A body past its bound, or a callback's bug (onItem): the request must not be left hanging.
            stop();
            fail(error instanceof JsonTooLarge ? tooLarge(status, pathAndQuery, error) : error);
          }
        });
        body.on('end', () => {
          try {
            done(stream ? stream.end() : chunks.join(''));
          } catch (error) {
            fail(error);
          }
        });
      });
    });
  }

  /**
   * Start a watch. `onEvent` gets every event (including BOOKMARK and ERROR); `onEnd` is called once
   * when the stream ends, unless `stop()` was called first.
   */
  watch(path: string, query: Query, onEvent: (type: string, object: unknown) => void, onEnd: (end: WatchEnd) => void): WatchHandle {
    let request: http.ClientRequest | undefined;
    let done = false;
    const stopped = new AbortController();
    // No bytes for a while (not even a bookmark): end normally; the caller re-watches from where it was.
    const idle = setTimeout(() => finish(undefined, true), this.watchIdleMs).unref();
    const stillAlive = () => void (done || idle.refresh());
    const release = () => {
      stopped.abort();
      request?.destroy();
    };
    const finish = (end: WatchEnd, notify: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(idle);
      if (notify) {
        release();
        onEnd(end);
        return;
      }
      // Stopped by its caller, which has what it needs (`done` drops any later event): the connection closes
      // on the next turn, after the caller's own work. Closing a TLS socket at once held the report of a
      // decided wait back by 1-2 ms (bench/RESULTS.md); a process that exits first leaves it to the OS.
      setImmediate(release);
    };
    const failed = (error: unknown) => {
      if (error instanceof ApiError) return finish(error, true);
      finish(this.transport.isClosed ? closedError() : networkError(error, this.server), true);
    };
    this.transport.get(target(path, { watch: true, ...query }), { Accept: 'application/json' }, stopped.signal).then((started) => {
      request = started;
      if (done) return started.destroy();
      started.on('error', failed);
      started.on('response', (response) => {
        response.on('error', failed);
        response.on('data', stillAlive);
        response.setEncoding('utf8');
        if (response.statusCode !== undefined && response.statusCode >= 200 && response.statusCode < 300) {
          this.streamEvents(
            response,
            path,
            (type, object) => {
              if (!done) onEvent(type, object);
            },
            (error) => finish(error, true),
          );
          response.on('end', () => finish(undefined, true));
        } else {
          let text = '';
          response.on('data', (chunk: string) => {
            if (text.length < MAX_ERROR_BODY) text += chunk;
          });
          response.on('end', () => finish(httpError(response.statusCode ?? 0, parseJson(text), response.headers), true));
        }
        // A connection dropped mid-stream closes without `end`.
        response.on('close', () => {
          if (!response.complete) failed(Object.assign(new Error('the connection closed during the watch'), { code: 'ECONNRESET' }));
        });
      });
    }, failed);
    return { stop: () => finish(undefined, false) };
  }

  /** One JSON event per line (outsized strings cut: json-lines.ts); a line that is not JSON is skipped, as client-node does. */
  private streamEvents(
    response: http.IncomingMessage,
    path: string,
    onEvent: (type: string, object: unknown) => void,
    onTooLarge: (error: ApiError) => void,
  ): void {
    const lines = new JsonLines((line) => {
      const event = parseJson(line) as { type?: unknown; object?: unknown } | undefined;
      if (event && typeof event.type === 'string') onEvent(event.type, event.object);
    });
    // An event past the reader's bound ends the watch as an error of the server's answer.
    const guarded = (read: () => void) => {
      try {
        read();
      } catch (error) {
        if (!(error instanceof JsonTooLarge)) throw error;
        onTooLarge(tooLarge(response.statusCode ?? 0, path, error));
      }
    };
    response.on('data', (chunk: string) => guarded(() => lines.push(chunk)));
    response.on('end', () => guarded(() => lines.end()));
  }

  /** Tokens from exec plugins and auth providers exist only at request time: mask them as they appear. */
  private maskAuthorization(value: string): void {
    if (this.masked.has(value)) return;
    this.masked.add(value);
    const credential = value.replace(/^(Bearer|Basic)\s+/i, '');
    if (credential) this.secrets.mask(credential);
  }

  /** Drops every connection at once: a request stuck on a stalled server must not hold the step open. */
  async close(): Promise<void> {
    this.transport.close();
  }
}

const MAX_CONCURRENT_GETS = 6;
/** An error body is a Status of a few hundred bytes; more is not worth keeping. */
const MAX_ERROR_BODY = 64 * 1024;
/** A 2xx body kept whole (discovery, one object, a log): aggregated discovery of hundreds of CRDs is a few MB. */
const MAX_BODY_CHARS = 64 * 1024 * 1024;

/** A body past one of its bounds, as the request's error: retrying will not make the server's answer smaller. */
function tooLarge(status: number, pathAndQuery: string, error: JsonTooLarge): ApiError {
  const path = pathAndQuery.split('?')[0];
  return new ApiError(status, `the API server's answer to ${path} was refused: it holds ${error.message}`, 'BadResponse');
}

/** A kept-alive connection the server had closed before this request could use it. */
class StaleConnection extends Error {
  constructor(override readonly cause: unknown) {
    super('stale keep-alive connection');
  }
}

function httpError(status: number, body: unknown, headers: http.IncomingHttpHeaders): ApiError {
  const retryAfter = headers['retry-after'];
  return statusError(status, body, parseRetryAfter(Array.isArray(retryAfter) ? String(retryAfter[0]) : retryAfter));
}

/** The body stream, decompressed when the server compressed it (real API servers gzip large lists). */
function decoded(response: http.IncomingMessage): Readable {
  const encoding = response.headers['content-encoding'];
  // node:zlib when first used: an API server gzips only large responses, so a small wait never loads it (issue 35).
  if (encoding === 'gzip') return response.pipe(builtinModule('node:zlib').createGunzip());
  if (encoding === 'deflate') return response.pipe(builtinModule('node:zlib').createInflate());
  return response;
}

function target(path: string, query: Query): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, String(value));
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

/** A Kubernetes `Status` object (`{"kind":"Status","apiVersion":"v1",...}`): what the API server itself answers
 *  with on a failure. */
function isStatusBody(text: string): boolean {
  const body = parseJson(text) as { kind?: unknown; apiVersion?: unknown } | undefined;
  return typeof body === 'object' && body !== null && body.kind === 'Status' && body.apiVersion === 'v1';
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
