/**
 * Kubeconfig loading the way kubectl does it, with clear errors instead of client-node's silent fallback
 * to http://localhost:8080, and every secret registered for masking before anything can be logged.
 *
 * Sources, first that exists: the `kubeconfig` input (YAML or base64 of YAML), `$KUBECONFIG` (several
 * paths merged, first file wins per name), `~/.kube/config`, the in-cluster service account.
 *
 * Every file is read bounded (workspace-files.ts): regular files only, so a FIFO or a device named as a
 * kubeconfig, a certificate or a token file is refused at once instead of blocking the process. A run with
 * hundreds of clusters reads and parses each kubeconfig once (`KubeconfigCache`), not once per cluster.
 */
import fs from 'node:fs';
import path from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import type { Cluster as KcCluster, Context as KcContext, User as KcUser } from '@kubernetes/client-node';
import { parseDocument } from 'yaml';
import { InputError } from '../settings.js';
import { readBoundedSync } from '../workspace-files.js';
import { readKubeconfigYaml } from './kubeconfig-yaml.js';

export interface Secrets {
  mask(value: string): void;
}

/** The `exec` stanza of a kubeconfig user: a credential plugin, run by kubewait itself (exec-plugin.ts). */
export interface ExecConfig {
  command: string;
  args?: string[];
  env?: Array<{ name: string; value: string }>;
  apiVersion?: string;
}

/** Where to look for a kubeconfig; injectable for tests. */
export interface KubeconfigSources {
  env: Record<string, string | undefined>;
  home?: string;
  serviceAccountDir: string;
  /** What this run has already read and parsed (shared by every cluster of a fleet: `defaultSources` makes one). */
  cache?: KubeconfigCache;
}

/**
 * The kubeconfigs one run has read and parsed, and what they merge into, each once: a fleet of 300 clusters
 * that are contexts of one kubeconfig parsed the whole file 300 times (set-up CPU grew with the square of the
 * count). What failed is kept too, so that a bad file is one error, read once. The parsed documents are never
 * changed after they are merged (`fromDocs` builds its own objects from them).
 */
export class KubeconfigCache {
  private readonly merged = new Map<string, Merged | InputError>();

  /** The merge of the documents that `read` gives, read and merged the first time `key` is asked for. */
  mergedOnce(key: string, read: () => RawDoc[]): Merged {
    let entry = this.merged.get(key);
    if (entry === undefined) {
      try {
        entry = merge(read());
      } catch (error) {
        if (!(error instanceof InputError)) throw error;
        entry = error;
      }
      this.merged.set(key, entry);
    }
    if (entry instanceof InputError) throw entry;
    return entry;
  }
}

export interface LoadedKubeConfig {
  kubeConfig: KubeConfig;
  contextName: string;
  server: string;
  namespace?: string;
  /** Where the configuration came from, for messages (`the kubeconfig input`, a path, ...). */
  origin: string;
  /** The user's exec credential plugin, run by kubewait itself (exec-plugin.ts), not by client-node. */
  exec?: { config: ExecConfig; user: string };
}

const EXAMPLE = 'Example: `kubeconfig: ${{ secrets.KUBECONFIG }}` (the YAML of a kubeconfig file, or its base64)';

export function defaultSources(): KubeconfigSources {
  return {
    env: process.env,
    home: process.env.HOME || process.env.USERPROFILE,
    serviceAccountDir: '/var/run/secrets/kubernetes.io/serviceaccount',
    cache: new KubeconfigCache(),
  };
}

type Raw = Record<string, unknown>;
interface RawDoc {
  doc: Raw;
  /** Directory relative file paths in the document are relative to. */
  baseDir: string;
  origin: string;
}

export function loadKubeConfig(
  settings: { kubeconfig: string; context: string },
  secrets: Secrets,
  sources: KubeconfigSources = defaultSources(),
): LoadedKubeConfig {
  const cache = sources.cache ?? new KubeconfigCache();
  const content = settings.kubeconfig.trim();
  if (content) {
    const text = decodeContent(content, secrets);
    const merged = cache.mergedOnce(`content:${process.cwd()}:${text}`, () => [
      { doc: parseYaml(text, 'the kubeconfig input'), baseDir: process.cwd(), origin: 'the kubeconfig input' },
    ]);
    return fromDocs(merged, settings.context, secrets);
  }
  const envPaths = (sources.env.KUBECONFIG ?? '').split(path.delimiter).filter(Boolean);
  if (envPaths.length > 0) {
    const existing = envPaths.filter((file) => fs.existsSync(file));
    if (existing.length === 0) {
      throw new InputError('kubeconfig', `$KUBECONFIG names ${envPaths.join(', ')}, but none of these files exists. ${EXAMPLE}`);
    }
    return fromDocs(
      cache.mergedOnce(`files:${existing.map((file) => path.resolve(file)).join('\0')}`, () => existing.map(readDoc)),
      settings.context,
      secrets,
    );
  }
  const homeConfig = sources.home ? path.join(sources.home, '.kube', 'config') : undefined;
  if (homeConfig && fs.existsSync(homeConfig)) {
    return fromDocs(
      cache.mergedOnce(`files:${path.resolve(homeConfig)}`, () => [readDoc(homeConfig)]),
      settings.context,
      secrets,
    );
  }
  const inCluster = inClusterConfig(sources, secrets);
  if (inCluster) return inCluster;
  throw new InputError(
    'kubeconfig',
    `no kubeconfig found: the kubeconfig input is empty, $KUBECONFIG is not set, ${homeConfig ?? '~/.kube/config'} does not exist, and this is not running inside a cluster. ${EXAMPLE}`,
  );
}

/** The input is YAML (a kubeconfig always has a `key:`) or base64 of it. */
function decodeContent(content: string, secrets: Secrets): string {
  if (content.includes(':') || content.startsWith('{')) return content;
  if (/^[A-Za-z0-9+/=_\-\s]+$/.test(content)) {
    const decoded = Buffer.from(content.replace(/\s+/g, ''), /[-_]/.test(content) ? 'base64url' : 'base64').toString('utf8');
    if (decoded.includes(':')) {
      secrets.mask(content.replace(/\s+/g, ''));
      return decoded;
    }
  }
  if (!content.includes('\n') && fs.existsSync(content)) {
    throw new InputError('kubeconfig', `the kubeconfig input is a file path; it takes the file's content instead (or set $KUBECONFIG to the path). ${EXAMPLE}`);
  }
  if (!content.includes('\n') && /^(~|\.{0,2}\/|[A-Za-z]:\\)|\/|\.(ya?ml|json|conf|config)$/.test(content)) {
    // Named without the path itself: the runner's log would show it anyway, but it is not ours to echo.
    throw new InputError(
      'kubeconfig',
      `the kubeconfig input looks like a file path, and no such file exists; the input takes the kubeconfig's content (or set $KUBECONFIG to an existing path). ${EXAMPLE}`,
    );
  }
  throw new InputError('kubeconfig', `the kubeconfig input is neither kubeconfig YAML nor base64 of it. ${EXAMPLE}`);
}

function readDoc(file: string): RawDoc {
  const read = readBoundedSync(file);
  if ('reason' in read) throw new InputError('kubeconfig', `cannot read kubeconfig file ${file} (${read.reason})`);
  return { doc: parseYaml(read.text, file), baseDir: path.dirname(path.resolve(file)), origin: file };
}

/** Parse errors name the position only: the offending line could hold a secret. */
function parseYaml(text: string, origin: string): Raw {
  // The kubeconfigs that tools write, without loading yaml (kubeconfig-yaml.ts); yaml reads the rest.
  const fast = readKubeconfigYaml(text);
  if (fast !== undefined) return fast;
  const document = parseDocument(text, { uniqueKeys: false });
  const error = document.errors[0];
  if (error) {
    const at = error.linePos?.[0];
    const where = at ? ` at line ${at.line}, column ${at.col}` : '';
    throw new InputError('kubeconfig', `${origin} is not valid YAML (${error.code}${where}). ${EXAMPLE}`);
  }
  let doc: unknown;
  try {
    doc = document.toJS();
  } catch (error) {
    // Aliases that expand without bound (`Excessive alias count`): the YAML is refused, not expanded.
    const reason = error instanceof Error ? error.message : String(error);
    throw new InputError('kubeconfig', `${origin} cannot be read as YAML (${reason}). ${EXAMPLE}`);
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) {
    throw new InputError('kubeconfig', `${origin} is not a kubeconfig (expected a mapping with clusters, users and contexts). ${EXAMPLE}`);
  }
  return doc as Raw;
}

interface Named {
  name: string;
  value: Raw;
  baseDir: string;
}

/** kubectl's merge: for every cluster, user and context name the first file that sets it wins. */
function mergeNamed(docs: RawDoc[], key: 'clusters' | 'users' | 'contexts', inner: string): Map<string, Named> {
  const merged = new Map<string, Named>();
  for (const { doc, baseDir } of docs) {
    const list = doc[key];
    if (!Array.isArray(list)) continue;
    for (const entry of list as Raw[]) {
      const name = typeof entry?.name === 'string' ? entry.name : undefined;
      if (name === undefined || merged.has(name)) continue;
      const value = entry[inner];
      merged.set(name, { name, value: typeof value === 'object' && value !== null ? (value as Raw) : {}, baseDir });
    }
  }
  return merged;
}

/** The documents of one kubeconfig source merged as kubectl merges them: what every context of it is read from. */
interface Merged {
  clusters: Map<string, Named>;
  users: Map<string, Named>;
  contexts: Map<string, Named>;
  origin: string;
  current?: string;
}

function merge(docs: RawDoc[]): Merged {
  return {
    clusters: mergeNamed(docs, 'clusters', 'cluster'),
    users: mergeNamed(docs, 'users', 'user'),
    contexts: mergeNamed(docs, 'contexts', 'context'),
    origin: docs.map((d) => d.origin).join(', '),
    current: docs.map((d) => d.doc['current-context']).find((c): c is string => typeof c === 'string' && c !== ''),
  };
}

function fromDocs({ clusters, users, contexts, origin, current }: Merged, requestedContext: string, secrets: Secrets): LoadedKubeConfig {
  // Every user's, not only the context's: this run's masks must hide whatever of the file could be shown.
  // (Registering a value again is cheap: SecretMasks keeps each once.)
  for (const user of users.values()) maskUserSecrets(user, secrets);

  const available = [...contexts.keys()];
  const listed = available.length ? `available contexts: ${available.join(', ')}` : 'it defines no contexts';
  const contextName = requestedContext.trim() || current;
  if (!contextName) {
    throw new InputError(
      'context',
      `${origin} sets no current-context; set the context input (${listed}). Example: \`context: ${available[0] ?? 'my-cluster'}\``,
    );
  }
  const context = contexts.get(contextName);
  if (!context) {
    const input = requestedContext.trim() ? 'context' : 'kubeconfig';
    throw new InputError(input, `context "${contextName}" is not in ${origin} (${listed}). Example: \`context: ${available[0] ?? 'my-cluster'}\``);
  }
  const clusterName = str(context.value.cluster);
  const cluster = clusterName ? clusters.get(clusterName) : undefined;
  if (!clusterName || !cluster) {
    throw new InputError('kubeconfig', `context "${contextName}" refers to cluster "${clusterName ?? ''}", which is not in ${origin}`);
  }
  const rawServer = str(cluster.value.server)?.replace(/\/+$/, '');
  if (!rawServer) throw new InputError('kubeconfig', `cluster "${clusterName}" in ${origin} has no server URL`);
  maskServerCredentials(rawServer, secrets);
  const server = withoutCredentials(rawServer);
  if (!/^https?:\/\/[^/]/.test(server)) {
    throw new InputError('kubeconfig', `cluster "${clusterName}" has server "${server}", which is not an http(s) URL`);
  }
  const userName = str(context.value.user);
  const user = userName ? users.get(userName) : undefined;
  if (userName && !user) {
    throw new InputError('kubeconfig', `context "${contextName}" refers to user "${userName}", which is not in ${origin}`);
  }

  const kcCluster = toCluster(cluster, server);
  // The exec plugin is kubewait's to run (exec-plugin.ts), so client-node never sees it.
  const fullUser: KcUser = user ? toUser(user, secrets) : { name: '' };
  const exec = fullUser.exec as ExecConfig | undefined;
  const kcUser: KcUser = { ...fullUser, exec: undefined };
  const kcContext: KcContext = {
    name: contextName,
    cluster: clusterName,
    user: kcUser.name,
    namespace: str(context.value.namespace),
  };
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromOptions({ clusters: [kcCluster], users: [kcUser], contexts: [kcContext], currentContext: contextName });
  return { kubeConfig, contextName, server, namespace: kcContext.namespace, origin, ...(exec && { exec: { config: exec, user: kcUser.name } }) };
}

function toCluster({ name, value, baseDir }: Named, server: string): KcCluster {
  const caFile = filePath(value['certificate-authority'], baseDir);
  if (caFile) mustBeReadable(caFile, `certificate-authority of cluster "${name}"`);
  return {
    name,
    server,
    caData: str(value['certificate-authority-data']),
    caFile,
    // Plain http has no TLS to verify; client-node refuses http unless this is set.
    skipTLSVerify: value['insecure-skip-tls-verify'] === true || server.startsWith('http:'),
    tlsServerName: str(value['tls-server-name']),
    proxyUrl: str(value['proxy-url']),
  };
}

function toUser({ name, value, baseDir }: Named, secrets: Secrets): KcUser {
  const certFile = filePath(value['client-certificate'], baseDir);
  const keyFile = filePath(value['client-key'], baseDir);
  if (certFile) mustBeReadable(certFile, `client-certificate of user "${name}"`);
  if (keyFile) mustBeReadable(keyFile, `client-key of user "${name}"`);
  let token = str(value.token);
  const tokenFile = filePath(value.tokenFile ?? value['token-file'], baseDir);
  if (!token && tokenFile) {
    token = mustBeReadable(tokenFile, `tokenFile of user "${name}"`).trim();
    maskValue(token, secrets);
  }
  const written = value.exec as Raw | undefined;
  if (written !== undefined && (typeof written !== 'object' || written === null || typeof written.command !== 'string' || written.command === '')) {
    throw new InputError('kubeconfig', `user "${name}" has an exec credential plugin without a command (users[].user.exec.command)`);
  }
  // A copy: the parsed document is shared by every context read from it (KubeconfigCache).
  const exec = written && { ...written };
  if (exec && typeof exec.command === 'string' && exec.command.includes('/') && !path.isAbsolute(exec.command)) {
    exec.command = path.resolve(baseDir, exec.command);
  }
  return {
    name,
    token,
    username: str(value.username),
    password: str(value.password),
    certData: str(value['client-certificate-data']),
    certFile,
    keyData: str(value['client-key-data']),
    keyFile,
    exec,
    authProvider: value['auth-provider'],
    impersonateUser: str(value.as),
  };
}

const SECRET_PROVIDER_KEYS = ['id-token', 'refresh-token', 'client-secret', 'access-token', 'idp-certificate-authority-data'];

function maskUserSecrets({ value }: Named, secrets: Secrets): void {
  for (const key of ['token', 'password', 'client-key-data', 'client-certificate-data']) maskValue(value[key], secrets);
  const username = str(value.username);
  const password = str(value.password);
  if (username && password) maskValue(Buffer.from(`${username}:${password}`).toString('base64'), secrets);
  const exec = value.exec as Raw | undefined;
  if (Array.isArray(exec?.env)) for (const entry of exec.env as Raw[]) maskValue(entry?.value, secrets);
  const config = (value['auth-provider'] as Raw | undefined)?.config as Raw | undefined;
  if (config) for (const key of SECRET_PROVIDER_KEYS) maskValue(config[key], secrets);
}

/** `https://user:password@host` would show both parts in every message naming the server: mask them
 *  (in case anything echoes the raw URL), and keep only the URL without them. A query string carries
 *  credentials the same way (`?access_token=...`): each of its values is masked too, as written and decoded. */
function maskServerCredentials(server: string, secrets: Secrets): void {
  try {
    const url = new URL(server);
    const queryValues = queryPairs(url.search).map(({ key, value }) => value ?? key);
    for (const part of [url.username, url.password, ...queryValues]) {
      if (!part) continue;
      secrets.mask(part);
      const decoded = safeDecode(part);
      if (decoded !== part) secrets.mask(decoded);
    }
  } catch {
    // Not a URL: rejected right after.
  }
}

/** `%zz` is not an escape: then the value as written is all there is to mask. */
function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/** The server URL as kubewait prints and stores it: no userinfo, ever, and `***` for each query value.
 *  (client-node appends request paths to the server URL, so a query there never reached a request anyway.) */
export function withoutCredentials(server: string): string {
  try {
    const url = new URL(server);
    if (!url.username && !url.password && !url.search) return server;
    url.username = '';
    url.password = '';
    const query = queryPairs(url.search).map(({ key, value }) => (value === undefined ? HIDDEN : `${key}=${value === '' ? '' : HIDDEN}`));
    return `${url.origin}${url.pathname}`.replace(/\/+$/, '') + (query.length > 0 ? `?${query.join('&')}` : '');
  } catch {
    return server.replace(/\/\/[^/@]*@/, '//').replace(/\?.*$/, '');
  }
}

const HIDDEN = '***';

/** `?a=1&b` as `{a, 1}`, `{b, undefined}`: the values as written (a key alone may itself be a token). */
function queryPairs(search: string): Array<{ key: string; value: string | undefined }> {
  return search
    .slice(1)
    .split('&')
    .filter((pair) => pair !== '')
    .map((pair) => {
      const at = pair.indexOf('=');
      return at < 0 ? { key: pair, value: undefined } : { key: pair.slice(0, at), value: pair.slice(at + 1) };
    });
}

function maskValue(value: unknown, secrets: Secrets): void {
  if (typeof value !== 'string' || value.trim() === '') return;
  secrets.mask(value);
  if (value.trim() !== value) secrets.mask(value.trim());
}

function inClusterConfig(sources: KubeconfigSources, secrets: Secrets): LoadedKubeConfig | undefined {
  const host = sources.env.KUBERNETES_SERVICE_HOST;
  const port = sources.env.KUBERNETES_SERVICE_PORT || '443';
  const tokenPath = path.join(sources.serviceAccountDir, 'token');
  if (!host || !fs.existsSync(tokenPath)) return undefined;
  const token = mustBeReadable(tokenPath, 'the service account token').trim();
  maskValue(token, secrets);
  const hostPart = host.includes(':') ? `[${host}]` : host;
  const server = `https://${hostPart}:${port}`;
  const caPath = path.join(sources.serviceAccountDir, 'ca.crt');
  const namespacePath = path.join(sources.serviceAccountDir, 'namespace');
  const namespaceFile = fs.existsSync(namespacePath) ? readBoundedSync(namespacePath) : undefined;
  const namespace = namespaceFile && 'text' in namespaceFile ? namespaceFile.text.trim() || undefined : undefined;
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromOptions({
    clusters: [{ name: 'in-cluster', server, caFile: fs.existsSync(caPath) ? caPath : undefined, skipTLSVerify: false }],
    // The token file is re-read per request by client-node's file auth, so a rotated token keeps working.
    users: [{ name: 'service-account', authProvider: { name: 'tokenFile', config: { tokenFile: tokenPath } } } as KcUser],
    contexts: [{ name: 'in-cluster', cluster: 'in-cluster', user: 'service-account', namespace }],
    currentContext: 'in-cluster',
  });
  return { kubeConfig, contextName: 'in-cluster', server, namespace, origin: 'the in-cluster service account' };
}

function filePath(value: unknown, baseDir: string): string | undefined {
  const file = str(value);
  return file ? path.resolve(baseDir, file) : undefined;
}

/** The file's text; a FIFO, a device or a directory is refused before it is read (client-node reads the
 *  certificate files itself, later: checked here first, it never sees one that would block). */
function mustBeReadable(file: string, what: string): string {
  const read = readBoundedSync(file);
  if ('reason' in read) throw new InputError('kubeconfig', `cannot read the ${what}: ${file} (${read.reason})`);
  return read.text;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
