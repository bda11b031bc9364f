/**
 * What the command loads to start: `--version`, `--help` and a bad flag read a few hundred KB of dist/, not
 * the 1-2 MB a wait needs (client-node, the engine, CEL); scripts/package.ts splits dist/cli.js where src/
 * loads a module with `import()`. Nor does a wait load what it never uses of Node itself: Node's internal
 * undici (35-50 ms, pulled in by an ES module import of node:http, scripts/bundle-plugins.ts), nor yaml when
 * the kubeconfig is one that src/kube/kubeconfig-yaml.ts reads. Measured by the files and builtins Node loads
 * (a module hook and `process.moduleLoadList` in a preload) and by what only yaml's evaluation does, not by
 * time, so it holds on a busy machine; bench/RESULTS.md has the times.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, stringify } from 'yaml';
import { startCluster, type TestCluster } from '../cluster/index.js';
import { DIST_CLI, ensureDist, ROOT } from './dist.js';
import { deployment } from './objects.js';
import { runAction } from './runAction.js';
import { runCommand } from './runCommand.js';

/** At most what `--version` may load from dist/: the entry, the flag parser and what it imports. */
const START_PATH_MAX_BYTES = 300 * 1024;

let cluster: TestCluster;
let scratch: string;
let preload: string;

beforeAll(async () => {
  await ensureDist();
  cluster = await startCluster({ speed: 0.2 });
  scratch = mkdtempSync(path.join(tmpdir(), 'kubewait-startup-'));
  preload = path.join(scratch, 'loaded.mjs');
  writeFileSync(
    preload,
    [
      "import { registerHooks } from 'node:module';",
      // Not an ES module import of node:fs: its module view reads fs.promises, which loads readline (asserted below).
      "const { writeFileSync } = process.getBuiltinModule('node:fs');",
      'const loaded = [];',
      "registerHooks({ load(url, context, next) { if (url.startsWith('file:')) loaded.push(url); return next(url, context); } });",
      // Node's own modules too, as `builtin:NAME` (`builtin:internal/deps/undici/undici`).
      "const builtins = (from = 0) => process.moduleLoadList.slice(from).filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice(13));",
      // Where the list stood when the wait set V8's flags (src/startup.ts): what loads after is compiled from source.
      "const v8 = process.getBuiltinModule('node:v8'); const setFlags = v8.setFlagsFromString; let flagsAt = -1;",
      'v8.setFlagsFromString = (flags) => { if (flagsAt < 0) flagsAt = process.moduleLoadList.length; setFlags(flags); };',
      "const after = () => (flagsAt < 0 ? ['flags:never'] : ['flags:set', ...builtins(flagsAt).map((m) => `after-flags:${m}`)]);",
      // yaml is bundled inside a chunk, so no hook sees it load; evaluating it makes its node symbols (`yaml.map`, ...).
      'const evaluated = new Set();',
      'const symbolFor = Symbol.for;',
      "Symbol.for = (key) => { if (String(key).startsWith('yaml.')) evaluated.add('evaluated:yaml'); return symbolFor(key); };",
      "process.on('exit', () => writeFileSync(process.env.KUBEWAIT_LOADED_FILE, [...loaded, ...builtins().map((m) => `builtin:${m}`), ...after(), ...evaluated].join('\\n')));",
    ].join('\n'),
  );
}, 300_000);

afterAll(async () => {
  await cluster?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

interface Loaded {
  /** dist/ files, and their bytes. */
  files: string[];
  bytes: number;
  /** Node's builtin modules. */
  builtins: string[];
  /** Whether the wait set V8's flags, and the builtins loaded after it did. */
  flagsSet: boolean;
  builtinsAfterFlags: string[];
  /** The bundled packages it evaluated that the preload can tell (`yaml`). */
  evaluated: string[];
}

/** What the preload recorded in `record`. */
function readLoaded(record: string): Loaded {
  const dist = path.join(ROOT, 'dist') + path.sep;
  const lines = readFileSync(record, 'utf8').split('\n');
  const tagged = (tag: string) => lines.filter((line) => line.startsWith(tag)).map((line) => line.slice(tag.length));
  const files = lines
    .filter((url) => url.startsWith('file:'))
    .map((url) => fileURLToPath(url))
    .filter((file) => file.startsWith(dist));
  return {
    files,
    bytes: files.reduce((sum, file) => sum + statSync(file).size, 0),
    builtins: tagged('builtin:'),
    flagsSet: lines.includes('flags:set'),
    builtinsAfterFlags: tagged('after-flags:'),
    evaluated: tagged('evaluated:'),
  };
}

/**
 * V8's flags are set before the bundle, after the built-ins of the wait's connections (src/startup.ts): a
 * built-in loaded after them is compiled from source (node:https and what it loads: 15 ms). What the bundle
 * itself loads of Node comes after them (a few small modules for the command, more for the action's GitHub
 * libraries), but none of these, nor any of the report's: the outputs' delimiter taken from the global Web
 * Crypto loaded internal/crypto/webcrypto after the decision.
 */
function expectFlagsAfterTheWaitsBuiltins(loaded: Loaded): void {
  expect(loaded.flagsSet).toBe(true);
  const network = /^(https|http|tls|net|crypto|child_process|timers\/promises|_http_\w+|internal\/(crypto|tls|http)\b.*)$/;
  expect(loaded.builtinsAfterFlags.filter((name) => network.test(name))).toEqual([]);
}

/** Runs the command with the preload: its exit code and what it loaded. */
async function loadedBy(args: string[], name: string): Promise<Loaded & { exitCode: number | null }> {
  const record = path.join(scratch, `${name}.txt`);
  // dist/cli.js itself, also when KUBEWAIT_BIN names another build: this is about how dist/ is split.
  const run = await runCommand([DIST_CLI, ...args], { command: process.execPath, env: { NODE_OPTIONS: `--import ${preload}`, KUBEWAIT_LOADED_FILE: record } });
  return { exitCode: run.exitCode, ...readLoaded(record) };
}

describe('the start path of dist/cli.js', () => {
  it.each([
    ['--version', ['--version'], 0, false],
    ['--help', ['--help'], 0, false],
    // Taken for a wait until the flags are read (src/cli/help-or-version.ts).
    ['a bad flag', ['--timeout', 'soon', 'deployment/web'], 3, true],
  ])('%s loads at most 300 KB of dist/', async (name, args, exitCode, waitBuiltins) => {
    const loaded = await loadedBy(args, name.replace(/\W/g, ''));

    expect(loaded.exitCode).toBe(exitCode);
    expect(loaded.files).toContain(path.join(ROOT, 'dist/cli.js'));
    expect(loaded.bytes).toBeLessThan(START_PATH_MAX_BYTES);
    // node:crypto (5-10 ms) is a wait's, through TLS; the outputs' delimiter asks for it only when written.
    expect(loaded.builtins.includes('crypto')).toBe(waitBuiltins);
    expect(loaded.flagsSet).toBe(waitBuiltins);
  });

  it('a wait loads the rest (the hook sees every chunk) and is ready', async () => {
    cluster.create(deployment('web', { namespace: 'startup', readyAfterMs: 100 }));
    const kubeconfig = path.join(scratch, 'kubeconfig.yaml');
    cluster.writeKubeconfig(kubeconfig, { namespace: 'startup' });

    const loaded = await loadedBy(['deployment/web', '--kubeconfig', kubeconfig, '--timeout', '60s'], 'wait');

    expect(loaded.exitCode).toBe(0);
    expect(loaded.bytes).toBeGreaterThan(START_PATH_MAX_BYTES);
    expect(loaded.builtins).toContain('https'); // the list is read: the wait's own connection is in it
    // Node builds an ES module view of node:http by reading every export, and its WebSocket getter loads undici.
    expect(loaded.builtins).not.toContain('internal/deps/undici/undici');
    // What only some waits use is loaded when first used (issue 35): files (node:fs/promises, which loads readline),
    // a gzipped response or Helm release (node:zlib); a small wait with no files uses neither.
    expect(loaded.builtins).not.toContain('fs/promises');
    expect(loaded.builtins).not.toContain('internal/readline/interface');
    expect(loaded.builtins).not.toContain('zlib');
    expectFlagsAfterTheWaitsBuiltins(loaded);
    // For the command's wait, nothing else but two small modules Node loads by itself as the run goes: the first
    // ES module that reads import.meta loads its initializer, and internal/util/trace_sigint.
    const nodesOwn = ['internal/modules/esm/initialize_import_meta', 'internal/util/trace_sigint'];
    expect(loaded.builtinsAfterFlags.filter((name) => !nodesOwn.includes(name))).toEqual([]);
    // The kubeconfig is read without yaml (src/kube/kubeconfig-yaml.ts), and yaml is behind a stand-in in every
    // chunk (scripts/bundle-plugins.ts, lazyYaml): 16 ms of a wait's start (issue 35).
    expect(loaded.evaluated).not.toContain('yaml');
  }, 120_000);

  it('a kubeconfig the fast reader refuses is read by yaml, evaluated then, and the wait is ready', async () => {
    cluster.create(deployment('web', { namespace: 'startup-yaml', readyAfterMs: 100 }));
    // A document start marker: valid YAML that src/kube/kubeconfig-yaml.ts leaves to yaml.
    const kubeconfig = path.join(scratch, 'kubeconfig-marked.yaml');
    writeFileSync(kubeconfig, `---\n${cluster.kubeconfig({ namespace: 'startup-yaml' })}`);

    const loaded = await loadedBy(['deployment/web', '--kubeconfig', kubeconfig, '--timeout', '60s'], 'wait-yaml');

    expect(loaded.exitCode).toBe(0);
    expect(loaded.evaluated).toEqual(['yaml']);
  }, 120_000);
});

describe('the start path of dist/index.js', () => {
  it("sets V8's flags after the builtins of the wait's connections, and its report loads none of them after", async () => {
    cluster.create(deployment('reported', { namespace: 'startup-action', readyAfterMs: 100 }));
    const record = path.join(scratch, 'action.txt');

    const run = await runAction(
      { kubeconfig: cluster.kubeconfig({ namespace: 'startup-action' }), resources: 'deployment/reported', timeout: '60s' },
      { env: { NODE_OPTIONS: `--import ${preload}`, KUBEWAIT_LOADED_FILE: record } },
    );

    expect(run.outputs.result).toBe('ready');
    expect(run.summary).toContain('reported');
    expectFlagsAfterTheWaitsBuiltins(readLoaded(record));
  }, 120_000);
});

/** A proxy that tunnels to wherever it is asked and records where: HTTP CONNECT or SOCKS5 (no authentication). */
async function startProxy(kind: 'http' | 'socks5'): Promise<{ url: string; tunnels: string[]; close(): Promise<void> }> {
  const tunnels: string[] = [];
  const sockets = new Set<net.Socket>();
  const tunnel = (socket: net.Socket, host: string, port: number, established: () => void) => {
    tunnels.push(`${host}:${port}`);
    const upstream = net.connect(port, host, () => {
      established();
      upstream.pipe(socket).pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  };
  const server =
    kind === 'http'
      ? http.createServer().on('connect', (req: http.IncomingMessage, socket: net.Socket) => {
          const [host = '', port = ''] = (req.url ?? '').split(':');
          tunnel(socket, host, Number(port), () => socket.write('HTTP/1.1 200 Connection Established\r\n\r\n'));
        })
      : net.createServer((socket) => {
          // RFC 1928: greeting -> "no authentication"; CONNECT request -> success; then the bytes as they are.
          socket.once('data', () => {
            socket.write(Buffer.from([5, 0]));
            socket.once('data', (request) => {
              const type = request[3];
              const [host, end] = type === 1 ? [[...request.subarray(4, 8)].join('.'), 8] : [request.subarray(5, 5 + request[4]!).toString(), 5 + request[4]!];
              tunnel(socket, host, request.readUInt16BE(end), () => socket.write(Buffer.from([5, 0, 0, 1, 0, 0, 0, 0, 0, 0])));
            });
          });
        });
  server.on('connection', (socket: net.Socket) => sockets.add(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `${kind}://127.0.0.1:${(server.address() as AddressInfo).port}`,
    tunnels,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

// The proxy agents are loaded only when a kubeconfig names a proxy (scripts/bundle-plugins.ts): through dist/,
// that they still load and carry the wait.
describe('a kubeconfig proxy-url, through dist/cli.js', () => {
  it.each(['http', 'socks5'] as const)(
    '%s: the wait goes through the proxy and is ready',
    async (kind) => {
      const proxy = await startProxy(kind);
      try {
        cluster.create(deployment(`via-${kind}`, { namespace: 'startup-proxy', readyAfterMs: 100 }));
        const config = parse(cluster.kubeconfig({ namespace: 'startup-proxy' })) as { clusters: Array<{ cluster: Record<string, string> }> };
        config.clusters[0]!.cluster['proxy-url'] = proxy.url;
        const kubeconfig = path.join(scratch, `kubeconfig-${kind}.yaml`);
        writeFileSync(kubeconfig, stringify(config));

        const run = await runCommand([`deployment/via-${kind}`, '--kubeconfig', kubeconfig, '--timeout', '60s']);

        expect(run.stderr).toBe('');
        expect(run.exitCode).toBe(0);
        expect(new Set(proxy.tunnels)).toEqual(new Set([new URL(cluster.url).host]));
      } finally {
        await proxy.close();
      }
    },
    120_000,
  );
});
