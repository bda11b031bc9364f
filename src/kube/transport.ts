/**
 * Connections to the API server over node:http(s), with client-node as the source of truth for
 * authentication: every request takes its credentials and TLS material from
 * `KubeConfig.applyToHTTPSOptions` (tokens, client certificates, exec plugins, auth providers,
 * insecure-skip-tls-verify, tls-server-name, impersonation).
 *
 * Why not client-node's fetch (undici): its WebAssembly HTTP parser and per-pool TLS setup cost tens of
 * MB of a process that should stay small, and its errors hide the socket error in `cause`. One
 * keep-alive agent and one TLS context per client serve every GET and watch.
 */
import http from 'node:http';
import https from 'node:https';
import tls from 'node:tls';
import type { KubeConfig } from '@kubernetes/client-node';
import { ApiError, firstLine } from './errors.js';
import type { ExecPlugin } from './exec-plugin.js';

/** What applyToHTTPSOptions may set on the options it is given. */
type AuthOptions = https.RequestOptions & { headers?: Record<string, string> };

const TLS_MATERIAL = ['ca', 'cert', 'key', 'pfx', 'passphrase'] as const;

export class Transport {
  private readonly url: URL;
  private readonly secure: boolean;
  /** Every GET and watch: sockets are bounded by the client's GET slots plus one per open watch. */
  private readonly agent: http.Agent;
  /** client-node's agent for a kubeconfig `proxy-url` (HTTP CONNECT or SOCKS): node:https cannot do it alone. */
  private proxyAgent?: http.Agent;
  private tlsContext?: { material: string; context: tls.SecureContext };
  private readonly open = new Set<http.ClientRequest>();
  private closed = false;
  /** Whether any request has had an HTTP response (any status): the server was there at some point. */
  private answeredOnce = false;

  constructor(
    private readonly kubeConfig: KubeConfig,
    server: string,
    /** Called with each Authorization header value as it appears (tokens from exec plugins exist only now). */
    private readonly onAuthorization: (value: string) => void,
    /** The user's exec credential plugin, if any (client-node does not run it: exec-plugin.ts says why). */
    private readonly execPlugin?: ExecPlugin,
  ) {
    this.url = new URL(server);
    this.secure = this.url.protocol === 'https:';
    const options: http.AgentOptions = { keepAlive: true, keepAliveMsecs: 30_000, maxSockets: Infinity };
    this.agent = this.secure ? new https.Agent(options) : new http.Agent(options);
  }

  /**
   * Starts a GET of `pathAndQuery` (relative to the server URL) with fresh credentials. The request is
   * sent; the caller listens for `response` and `error`. Throws ApiError when there are no credentials
   * or the transport is closed. `signal` bounds the wait for credentials (an exec plugin).
   */
  async get(pathAndQuery: string, headers: Record<string, string>, signal?: AbortSignal): Promise<http.ClientRequest> {
    return this.send('GET', pathAndQuery, headers, signal);
  }

  /** Starts a request as `get` does, with another method and a body (the one PATCH: `KubeClient.mergePatch`). */
  async send(method: 'GET' | 'PATCH', pathAndQuery: string, headers: Record<string, string>, signal?: AbortSignal, body?: string): Promise<http.ClientRequest> {
    const auth = await this.credentials(signal);
    if (this.closed) throw closedError();
    const base = this.url.pathname.replace(/\/$/, '');
    const options: https.RequestOptions & { secureContext?: tls.SecureContext } = {
      method,
      protocol: this.url.protocol,
      hostname: this.url.hostname.replace(/^\[(.*)\]$/, '$1'),
      port: this.url.port || undefined,
      path: base + pathAndQuery,
      headers: { ...auth.headers, ...headers },
      agent: this.proxyAgent ?? this.agent,
    };
    if (this.secure) {
      try {
        options.secureContext = this.secureContext(auth);
      } catch (error) {
        // A key that is not a key, or does not match its certificate: no retry will change that.
        const code = (error as { code?: string }).code ?? firstLine(error instanceof Error ? error.message : String(error), 80);
        throw new ApiError(0, `the client certificate or key of the kubeconfig user cannot be used (${code})`, 'Credentials');
      }
      // Only when set: an explicit `undefined` would turn certificate verification off in tls.connect.
      if (auth.rejectUnauthorized !== undefined) options.rejectUnauthorized = auth.rejectUnauthorized;
      if (auth.servername) options.servername = auth.servername;
    }
    const request = (this.secure ? https : http).request(options);
    // Callers listen for errors once they have the request; one destroyed before that (a watch stopped
    // while its credentials were fetched, close()) must not crash the process with an unhandled 'error'.
    request.on('error', () => {});
    this.open.add(request);
    request.once('close', () => this.open.delete(request));
    request.on('socket', (socket) => socket.setKeepAlive(true, 30_000));
    request.once('response', () => (this.answeredOnce = true));
    request.end(body);
    return request;
  }

  /** Destroys every connection at once: a request stuck on a stalled server must not hold the step open. */
  close(): void {
    this.closed = true;
    for (const request of this.open) request.destroy(closedError());
    this.agent.destroy();
    this.proxyAgent?.destroy();
    this.execPlugin?.close();
  }

  get hasAnswered(): boolean {
    return this.answeredOnce;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  private async credentials(signal?: AbortSignal): Promise<AuthOptions> {
    if (this.closed) throw closedError();
    const options: AuthOptions = {};
    try {
      await this.kubeConfig.applyToHTTPSOptions(options);
    } catch (error) {
      // Auth providers fail here. Their messages may quote what they read (a token, a plugin's stderr):
      // only the error's class is shown.
      const name = error instanceof Error ? error.name : 'error';
      throw new ApiError(0, `cannot get credentials for the API server from the kubeconfig user (${name})`, 'Credentials');
    }
    if (this.execPlugin) {
      const credential = await this.execPlugin.credential(signal);
      if (credential.token) (options.headers ??= {}).Authorization = `Bearer ${credential.token}`;
      if (credential.clientCertificateData) options.cert = credential.clientCertificateData;
      if (credential.clientKeyData) options.key = credential.clientKeyData;
    }
    // Values trimmed as fetch does: a token file's trailing newline is not part of the token.
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(options.headers ?? {})) headers[name] = String(value).trim();
    // Basic auth comes as `auth`; as a header it is masked like any other credential.
    if (typeof options.auth === 'string') headers.Authorization = `Basic ${Buffer.from(options.auth).toString('base64')}`;
    const authorization = headers.Authorization ?? headers.authorization;
    if (authorization) this.onAuthorization(authorization);
    if (this.kubeConfig.getCurrentCluster()?.proxyUrl) this.proxyAgent ??= options.agent as http.Agent;
    return { ...options, headers };
  }

  /**
   * One TLS context for every connection while the TLS material stays the same: Node would otherwise
   * build one per socket (one per open watch). An exec plugin that rotates its client certificate gets
   * a new context for new connections.
   */
  private secureContext(options: AuthOptions): tls.SecureContext {
    const material = TLS_MATERIAL.map((name) => {
      const value = options[name];
      return Buffer.isBuffer(value) ? value.toString('base64') : value === undefined ? '' : JSON.stringify(value);
    }).join('|');
    if (this.tlsContext?.material !== material) {
      const context = tls.createSecureContext({ ca: options.ca, cert: options.cert, key: options.key, pfx: options.pfx, passphrase: options.passphrase });
      this.tlsContext = { material, context };
    }
    return this.tlsContext.context;
  }
}

export function closedError(): ApiError {
  return new ApiError(0, 'the client is closed', 'Cancelled');
}
