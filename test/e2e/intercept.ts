/**
 * A plain-http server in front of the API server stand-in, for the hostile-conditions suites and
 * bench/hostile-three.ts (so no jest here): it answers the requests a test takes itself (a hostile body) and
 * passes every other one on to the stand-in as it is.
 */
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { parse, stringify } from 'yaml';
import type { TestCluster } from '../cluster/index.js';

type Kubeconfig = { clusters: Array<{ cluster: Record<string, unknown> }> };

/** A request the stand-in in front of the stand-in answers itself: `undefined` passes it on. */
export type Intercept = (request: IncomingMessage) => ((response: ServerResponse) => void) | undefined;

/**
 * A plain-http server in front of the stand-in that answers what `intercept` takes (a hostile body) and passes
 * everything else on, with its headers, as it is: what a broken or hostile API server sends for one request,
 * while discovery and the other requests stay real. `kubeconfig` points at it (plain http: no CA needed).
 */
export async function interceptingServer(
  cluster: TestCluster,
  intercept: Intercept,
  namespace = 'hostile',
): Promise<{ kubeconfig: string; close(): Promise<void> }> {
  const upstream = new URL(cluster.url);
  const server = createHttpServer((request, response) => {
    const answer = intercept(request);
    if (answer) return answer(response);
    const forwarded = httpsRequest(
      { host: upstream.hostname, port: upstream.port, path: request.url, method: request.method, headers: request.headers, rejectUnauthorized: false },
      (reply) => {
        response.writeHead(reply.statusCode ?? 502, reply.headers);
        reply.pipe(response);
      },
    );
    forwarded.on('error', () => response.destroy());
    response.on('close', () => forwarded.destroy());
    request.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const config = parse(cluster.kubeconfig({ namespace })) as Kubeconfig;
  config.clusters[0]!.cluster = { server: `http://127.0.0.1:${port}` };
  return {
    kubeconfig: stringify(config),
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A LIST (not a watch) of `resource` in `namespace`. */
export const isList = (request: IncomingMessage, resource: string, namespace: string): boolean =>
  request.method === 'GET' && (request.url ?? '').includes(`/namespaces/${namespace}/${resource}?`) && !/[?&]watch=(1|true)/.test(request.url ?? '');
