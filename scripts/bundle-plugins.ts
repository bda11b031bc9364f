/**
 * esbuild plugins that keep what the libraries bring along but a run does not use out of the start path;
 * used by scripts/package.ts for every bundle. kubewait imports only `KubeConfig` from
 * @kubernetes/client-node (src/kube/kubeconfig.ts) and sends its requests with node:https after
 * `applyToHTTPSOptions` (src/kube/transport.ts). Yet a wait evaluated 1.1 MB of client-node at start: the
 * generated API clients and models (re-exported from its gen/index.js, which config.js imports for
 * `makeApiClient`), `ws`, tar streams, and two copies of undici. bench/RESULTS.md (start-up) has the before
 * and after.
 */
import { isBuiltin } from 'node:module';
import path from 'node:path';
import type { Plugin } from 'esbuild';

const CLIENT_NODE = `${path.sep}node_modules${path.sep}@kubernetes${path.sep}client-node${path.sep}`;

/**
 * client-node's modules declare classes and functions and do nothing else when evaluated, but its
 * package.json does not say `"sideEffects": false`, so esbuild keeps every module it reaches whether or
 * not anything is used. Saying it here lets esbuild drop the modules whose exports nobody uses.
 */
export const clientNodeSideEffectFree: Plugin = {
  name: 'client-node-side-effect-free',
  setup(build) {
    build.onResolve({ filter: /.*/ }, async (args) => {
      if (args.pluginData === clientNodeSideEffectFree.name || args.kind === 'entry-point') return undefined;
      const resolved = await build.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        with: args.with,
        pluginData: clientNodeSideEffectFree.name,
      });
      if (resolved.errors.length > 0 || !resolved.path.includes(CLIENT_NODE)) return undefined;
      return { path: resolved.path, namespace: resolved.namespace, suffix: resolved.suffix, external: resolved.external, sideEffects: false };
    });
  },
};

/** Who imports undici only for what a run may never use: client-node (a fetch dispatcher and fetch itself, for
 *  `applyToFetchOptions` and its generated API clients) and @actions/http-client (a proxy dispatcher). */
const LAZY_UNDICI_IMPORTERS = [CLIENT_NODE, `${path.sep}node_modules${path.sep}@actions${path.sep}http-client${path.sep}`];

/**
 * undici is a CommonJS package, evaluated in full (about 100 modules) as soon as a module that imports it is:
 * client-node's copy by its config.js and gen/http/isomorphic-fetch.js, @actions/http-client's by the
 * health-checks glob (@actions/glob -> @actions/core). kubewait sends its requests with node:https
 * (src/kube/transport.ts); undici is needed only to fetch with client-node or to go through a proxy with
 * @actions/http-client. In place of their top-level import, the same exports that load undici when first
 * used. An import of any other name fails the build, so a new use is seen.
 */
export const lazyUndici: Plugin = {
  name: 'lazy-undici',
  setup(build) {
    // One stand-in for every importer, loading the project's own copy (node_modules/undici, the one
    // @actions/http-client uses for a proxy; client-node's newer copy serves only its fetch, which kubewait
    // never calls). Resolving from each importer's directory instead let whichever importer esbuild
    // resolved first (it resolves in parallel) pick the copy, so the bundle changed from build to build.
    const root = build.initialOptions.absWorkingDir ?? process.cwd();
    build.onResolve({ filter: /^undici$/ }, (args) =>
      LAZY_UNDICI_IMPORTERS.some((dir) => args.importer.includes(dir)) ? { path: 'undici', namespace: lazyUndici.name } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: lazyUndici.name }, () => ({
      resolveDir: root,
      loader: 'js',
      contents: [
        "const undici = () => require('undici');",
        'export class Agent { constructor(...args) { return new (undici().Agent)(...args); } }',
        'export class ProxyAgent { constructor(...args) { return new (undici().ProxyAgent)(...args); } }',
        'export function fetch(...args) { return undici().fetch(...args); }',
      ].join('\n'),
    }));
  },
};

/**
 * In place of the named packages' import by the modules that `importedBy` names (a part of their path, or a
 * test of the path), stand-ins with the same names that load the package when first used: a class (`new`),
 * a function, or an object of functions. The package is then bundled behind `require`, which esbuild
 * evaluates on its first call (a CommonJS package in its `__commonJS` wrapper, an ES module in its `__esm`
 * one), not when the chunk is. An import of any other name fails the build, so a new use is seen. Resolved
 * from the importer's directory, as its own import was.
 * A stand-in class is not the package's class: `instanceof` against it is always false (the objects that
 * `new` gives are the package's own).
 */
export function lazyPackages(name: string, importedBy: string | ((importer: string) => boolean), packages: Record<string, string[]>): Plugin {
  const isImporter = typeof importedBy === 'string' ? (importer: string) => importer.includes(importedBy) : importedBy;
  return {
    name,
    setup(build) {
      const names = Object.keys(packages)
        .map((pkg) => pkg.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'))
        .join('|');
      build.onResolve({ filter: new RegExp(`^(${names})$`) }, (args) =>
        isImporter(args.importer) ? { path: args.path, namespace: name, pluginData: path.dirname(args.importer) } : undefined,
      );
      build.onLoad({ filter: /.*/, namespace: name }, (args) => ({
        resolveDir: args.pluginData as string,
        loader: 'js',
        contents: [
          `const __kubewaitLoad = () => require(${JSON.stringify(args.path)});`,
          ...(packages[args.path] ?? []).map((declaration) => {
            const [form, exported, ...functions] = declaration.split(' ');
            if (form === 'class') return `export class ${exported} { constructor(...args) { return new (__kubewaitLoad().${exported})(...args); } }`;
            if (form === 'function') return `export function ${exported}(...args) { return __kubewaitLoad().${exported}(...args); }`;
            return `export const ${exported} = { ${functions.map((fn) => `${fn}: (...args) => __kubewaitLoad().${exported}.${fn}(...args)`).join(', ')} };`;
          }),
        ].join('\n'),
      }));
    },
  };
}

/**
 * client-node imports the agents of a kubeconfig `proxy-url` (SOCKS: socks-proxy-agent and socks, which
 * bring ip-address, smart-buffer and debug; HTTP CONNECT: hpagent) at its top level, and these CommonJS
 * packages are evaluated with it: about 20 ms of a wait's start-up (bench/RESULTS.md), for a proxy almost
 * nobody configures. They load when a `proxy-url` cluster is used (src/kube/transport.ts takes client-node's
 * agent).
 */
export const lazyProxyAgents: Plugin = lazyPackages('lazy-proxy-agents', CLIENT_NODE, {
  'socks-proxy-agent': ['class SocksProxyAgent'],
  socks: ['object SocksClient createConnection'],
  hpagent: ['class HttpProxyAgent', 'class HttpsProxyAgent'],
});

/**
 * What client-node imports at its top level for what kubewait never or seldom asks of it: js-yaml (its
 * `loadFromString`; kubewait reads the kubeconfig with yaml and hands client-node the parsed parts) and
 * jsonpath-plus (the gcp and azure auth providers' token paths; it also loads node:vm). Evaluated with
 * client-node on every wait (issue 35), now when first used.
 */
export const lazyClientNodeHelpers: Plugin = lazyPackages('lazy-client-node-helpers', CLIENT_NODE, {
  'js-yaml': ['function load', 'function loadAll', 'function dump'],
  'jsonpath-plus': ['function JSONPath'],
});

/**
 * The CEL library and its RE2 (src/status/health/cel.ts, their one importer), about 230 KB that only health
 * rules use, were evaluated with the engine's chunk on every wait: 10-20 ms of CPU at start (RE2's Unicode
 * tables, the library's function tables; bench/RESULTS.md, issue 35). They load when the first expression
 * is compiled (a built-in rule for a type with a dotted group, or a `health-checks` rule); a wait on
 * Deployments never does. A rule is judged synchronously, so the point is a `require`, not an `import()`.
 */
export const lazyCel: Plugin = lazyPackages('lazy-cel', `${path.sep}src${path.sep}status${path.sep}health${path.sep}cel.ts`, {
  '@marcbachmann/cel-js': ['class Environment'],
  re2js: ['object RE2JS compile'],
});

/**
 * yaml (about 70 CommonJS modules) was evaluated with the first chunk that imports it, which on a plain wait is
 * the kubeconfig's (issue 35). kubewait now reads the kubeconfigs that tools write itself
 * (src/kube/kubeconfig-yaml.ts), and yaml the rest, manifests, health rules, smoke checks and a fleet's
 * clusters input, when first used: a wait on one ready Deployment takes about 16 ms less CPU (exact CPU
 * per run, medians: 148 -> 132 ms). Every importer in src/ gets the stand-in: one that did not would
 * evaluate yaml again with its chunk. None of them uses
 * `instanceof` against yaml's classes (which the stand-ins are not).
 */
export function lazyYaml(root: string): Plugin {
  const src = path.join(root, 'src') + path.sep;
  return lazyPackages('lazy-yaml', (importer) => importer.startsWith(src), {
    yaml: [
      'class Composer',
      'class LineCounter',
      'class Parser',
      'function isAlias',
      'function isMap',
      'function isScalar',
      'function isSeq',
      'function parse',
      'function parseAllDocuments',
      'function parseDocument',
    ],
  });
}

/**
 * Node's builtin modules as CommonJS (`require`), not as ES module imports. Node builds an ES module's view
 * of a builtin by reading every export once, and some exports are getters that load more of Node the first
 * time they are read: node:http's `WebSocket`, `CloseEvent` and `MessageEvent` load Node's internal undici
 * (about 100 modules, 35-50 ms of a wait), node:fs's `ReadStream` its streams and fs/promises (which loads
 * readline), node:util's `parseArgs` and `aborted` the AbortController machinery. bench/RESULTS.md
 * (start-up) has the figures. `require` returns the module itself, and esbuild's interop reads a property only
 * when the code uses it. The bundles' banner defines `require` (scripts/package.ts).
 */
export const builtinsByRequire: Plugin = {
  name: 'builtins-by-require',
  setup(build) {
    build.onResolve({ filter: /^[a-z0-9_:/]+$/ }, (args) =>
      (args.kind === 'import-statement' || args.kind === 'dynamic-import') && isBuiltin(args.path)
        ? { path: args.path.startsWith('node:') ? args.path : `node:${args.path}`, namespace: builtinsByRequire.name }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: builtinsByRequire.name }, (args) => ({
      loader: 'js',
      contents: `module.exports = require(${JSON.stringify(args.path)});`,
    }));
  },
};

/**
 * kubewait's own package.json as `{ version }` alone: src/version.ts reads only the version, but a JSON
 * import bundles the whole file, so a change to the scripts or the devDependencies changed dist/ and made
 * the committed bundle stale. Other packages' package.json files are left alone.
 */
export function packageVersionOnly(root: string): Plugin {
  const own = path.join(root, 'package.json');
  return {
    name: 'package-version-only',
    setup(build) {
      build.onLoad({ filter: /[\\/]package\.json$/ }, async (args) => {
        if (args.path !== own) return undefined;
        const { readFile } = await import('node:fs/promises');
        const { version } = JSON.parse(await readFile(own, 'utf8')) as { version: string };
        return { loader: 'json', contents: JSON.stringify({ version }) };
      });
    },
  };
}
