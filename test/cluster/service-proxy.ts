/**
 * The API server's service proxy (`GET /api/v1/namespaces/NS/services/NAME[:PORT]/proxy/PATH`), for smoke
 * checks through it. A real API server forwards to a ready endpoint of the Service; the stand-in runs no
 * pods, so it forwards to the address in the Service's `kubewait.test/proxy-to` annotation (an HTTP server
 * the test runs), and answers 503 like the real one when there is none: `no endpoints available for service`.
 */
import type { ServerResponse } from 'node:http';
import type { Api } from './api.js';
import { ApiError, errors } from './errors.js';

export const PROXY_TO_ANNOTATION = 'kubewait.test/proxy-to';

export async function serveServiceProxy(
  api: Api,
  res: ServerResponse,
  rec: { status: number },
  namespace: string,
  nameAndPort: string,
  path: string,
): Promise<void> {
  const serviceType = api.typeFor('v1', 'Service');
  const name = nameAndPort.split(':')[0] ?? '';
  const service = api.store.get(serviceType, namespace, name);
  if (!service) throw errors.notFound(serviceType, name);
  const base = service.metadata?.annotations?.[PROXY_TO_ANNOTATION];
  if (!base) {
    const message = `no endpoints available for service "${name}"`;
    throw new ApiError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'ServiceUnavailable', code: 503 });
  }
  const answer = await fetch(`${base.replace(/\/$/, '')}/${path}`);
  const body = await answer.text();
  rec.status = answer.status;
  res.writeHead(answer.status, { 'Content-Type': answer.headers.get('content-type') ?? 'text/plain' });
  res.end(body);
}
