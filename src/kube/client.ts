/**
 * GET and WATCH against the API server through client-node's authentication (tokens, client certificates,
 * exec plugins, TLS settings). Responses stay plain JSON: client-node's typed deserialisation would turn
 * timestamps into Dates and cost memory on large lists, and the status library reads raw objects.
 */
import { HttpMethod, IsomorphicFetchHttpLibrary, RequestContext, Watch } from '@kubernetes/client-node';
import type { KubeConfig } from '@kubernetes/client-node';
import { ApiError, firstLine, httpErrorMessage, isStatusBody, networkErrorMessage, parseRetryAfter } from './errors.js';
import { Semaphore } from './semaphore.js';
import type { Secrets } from './kubeconfig.js';

export type Query = Record<string, string | number | boolean | undefined>;

export interface RequestOptions {
  signal?: AbortSignal;
  /** Abort the request after this long (default 30 s: a stalled server must not stall the wait). */
  timeoutMs?: number;
  accept?: string;
}

export interface WatchHandle {
  stop(): void;
}

/** How a watch ended: `undefined` for a normal end (server closed it, or client-node's idle timeout). */
export type WatchEnd = ApiError | undefined;

export class KubeClient {
  private readonly http = new IsomorphicFetchHttpLibrary();
  /** undefined: not made yet (or none needed); null: closed. */
  private dispatcher: unknown = undefined;
  private readonly masked = new Set<string>();
  /** Few GETs at once: fifty namespaces listed together would hold fifty parsed pages in memory. */
  private readonly slots = new Semaphore(MAX_CONCURRENT_GETS);

  /**
   * What Watch needs of a KubeConfig, authenticating through this client so every watch shares one
   * connection pool: client-node would build a new TLS context per watch (about 1 MB each).
   */
  private readonly watchConfig: KubeConfig;

  constructor(
    private readonly kubeConfig: KubeConfig,
    readonly server: string,
    private readonly secrets: Secrets,
  ) {
    const adapter: Pick<KubeConfig, 'getCurrentCluster' | 'applySecurityAuthentication'> = {
      getCurrentCluster: () => kubeConfig.getCurrentCluster(),
      applySecurityAuthentication: (ctx) => this.authenticate(ctx),
    };
    this.watchConfig = adapter as KubeConfig;
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

  private async send(path: string, query: Query, options: RequestOptions): Promise<unknown> {
    const ctx = new RequestContext(this.url(path, query), HttpMethod.GET);
    ctx.setHeaderParam('Accept', options.accept ?? 'application/json');
    await this.authenticate(ctx);
    const timeout = AbortSignal.timeout(options.timeoutMs ?? 30_000);
    ctx.setSignal(options.signal ? AbortSignal.any([options.signal, timeout]) : timeout);
    let status: number;
    let headers: Record<string, string>;
    let text: string;
    try {
      const response = await this.http.send(ctx).toPromise();
      status = response.httpStatusCode;
      headers = response.headers;
      text = await response.body.text();
    } catch (error) {
      if (options.signal?.aborted) throw new ApiError(0, 'request cancelled', 'Cancelled');
      throw new ApiError(0, networkErrorMessage(error, this.server), 'Unreachable');
    }
    const body = parseJson(text);
    if (status >= 200 && status < 300) {
      if (body === undefined) throw new ApiError(status, `the API server sent a response that is not JSON for ${path}`, 'BadResponse');
      return body;
    }
    const reason = isStatusBody(body) ? body.reason : undefined;
    throw new ApiError(status, httpErrorMessage(status, body), reason, parseRetryAfter(headers['retry-after']));
  }

  /**
   * Start a watch. `onEvent` gets every event (including BOOKMARK and ERROR); `onEnd` is called once
   * when the stream ends, unless `stop()` was called first.
   */
  watch(path: string, query: Query, onEvent: (type: string, object: unknown) => void, onEnd: (end: WatchEnd) => void): WatchHandle {
    let stopped = false;
    let controller: AbortController | undefined;
    const end = (error: unknown) => {
      if (stopped) return;
      stopped = true;
      onEnd(this.watchEnd(error));
    };
    new Watch(this.watchConfig)
      .watch(path, query, (type, object) => {
        if (!stopped) onEvent(type, object);
      }, end)
      .then(
        (c) => {
          controller = c;
          if (stopped) c.abort();
        },
        end,
      );
    return {
      stop: () => {
        stopped = true;
        controller?.abort();
      },
    };
  }

  private watchEnd(error: unknown): WatchEnd {
    if (!error) return undefined;
    if (error instanceof Error && error.name === 'TimeoutError') return undefined; // idle: re-watch
    const status = (error as { statusCode?: unknown }).statusCode;
    if (typeof status === 'number') return new ApiError(status, httpErrorMessage(status, undefined), reasonFor(status));
    if (error instanceof Error && error.name === 'AbortError') return undefined;
    return new ApiError(0, networkErrorMessage(error, this.server), 'Unreachable');
  }

  private url(path: string, query: Query): string {
    const url = new URL(this.server + path);
    for (const [key, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(key, String(value));
    return url.toString();
  }

  private async authenticate(ctx: RequestContext): Promise<void> {
    try {
      await this.kubeConfig.applySecurityAuthentication(ctx);
    } catch (error) {
      // Exec plugins fail here; their stderr is not shown whole (it could echo a secret).
      const text = error instanceof Error ? firstLine(error.message, 200) : 'unknown error';
      throw new ApiError(0, `cannot get credentials for the API server: ${text || 'the credential plugin failed'}`, 'Credentials');
    }
    this.maskAuthorization(ctx.getHeaders());
    // client-node builds a new connection pool per request; one per client keeps connections reused.
    if (this.dispatcher === null) throw new ApiError(0, 'the client is closed', 'Cancelled');
    if (this.dispatcher === undefined) this.dispatcher = ctx.getDispatcher();
    else ctx.setDispatcher(this.dispatcher as never);
  }

  /** Tokens from exec plugins and auth providers exist only at request time: mask them as they appear. */
  private maskAuthorization(headers: Record<string, string>): void {
    const value = headers.Authorization ?? headers.authorization;
    if (!value || this.masked.has(value)) return;
    this.masked.add(value);
    const credential = value.replace(/^(Bearer|Basic)\s+/i, '');
    if (credential) this.secrets.mask(credential);
  }

  /** Drops every connection at once: a request stuck on a stalled server must not hold the step open. */
  async close(): Promise<void> {
    const dispatcher = this.dispatcher as { destroy?: () => Promise<void> } | undefined;
    this.dispatcher = null;
    await dispatcher?.destroy?.().catch(() => undefined);
  }
}

const MAX_CONCURRENT_GETS = 6;

function reasonFor(status: number): string | undefined {
  return ({ 401: 'Unauthorized', 403: 'Forbidden', 404: 'NotFound', 410: 'Gone', 429: 'TooManyRequests' } as Record<number, string>)[status];
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
