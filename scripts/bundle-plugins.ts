/**
 * esbuild plugins that keep what the libraries bring along but a run does not use out of the start path;
 * used by scripts/package.ts for every bundle. kubewait imports only `KubeConfig` from
 * @kubernetes/client-node (src/kube/kubeconfig.ts) and sends its requests with node:https after
 * `applyToHTTPSOptions` (src/kube/transport.ts). Yet a wait evaluated 1.1 MB of client-node at start: the
 * generated API clients and models (re-exported from its gen/index.js, which config.js imports for
 * `makeApiClient`), `ws`, tar streams, and two copies of undici. bench/RESULTS.md (start-up) has the before
 * and after.
 */
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
