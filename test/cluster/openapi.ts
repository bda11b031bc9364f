/**
 * A minimal OpenAPI v3 surface: enough for kubectl's field-validation check (`kubectl create/apply -f`
 * looks for a `fieldValidation` parameter on the PATCH operation of the kind). No schemas are served.
 */
import { createHash } from 'node:crypto';
import type { Registry, ResourceType } from './registry.js';

const gvPath = (group: string, version: string) => (group ? `apis/${group}/${version}` : `api/${version}`);

function groupVersions(registry: Registry): Array<{ group: string; version: string }> {
  const seen = new Map<string, { group: string; version: string }>();
  for (const t of registry.all()) seen.set(`${t.group}/${t.version}`, { group: t.group, version: t.version });
  return [...seen.values()];
}

function itemPath(t: ResourceType): string {
  return `/${gvPath(t.group, t.version)}/${t.namespaced ? 'namespaces/{namespace}/' : ''}${t.plural}/{name}`;
}

const QUERY = (name: string) => ({ name, in: 'query', schema: { type: 'string', uniqueItems: true } });

function operation(t: ResourceType, verb: string): object {
  return {
    operationId: `${verb}${t.kind}`,
    parameters: [QUERY('dryRun'), QUERY('fieldManager'), QUERY('fieldValidation')],
    responses: { 200: { description: 'OK' } },
    'x-kubernetes-action': verb,
    'x-kubernetes-group-version-kind': { group: t.group, version: t.version, kind: t.kind },
  };
}

function gvDocument(registry: Registry, group: string, version: string): object {
  const paths: Record<string, object> = {};
  for (const t of registry.inGroupVersion(group, version)) {
    paths[itemPath(t)] = { patch: operation(t, 'patch'), put: operation(t, 'put') };
    paths[itemPath(t).replace(/\/\{name\}$/, '')] = { post: operation(t, 'post') };
  }
  return { openapi: '3.0.0', info: { title: 'Kubernetes', version: 'v1.35.2' }, paths, components: { schemas: {} } };
}

function hashOf(doc: object): string {
  return createHash('sha512').update(JSON.stringify(doc)).digest('hex').slice(0, 128).toUpperCase();
}

/** The document for an /openapi/v3 path, or undefined when there is none. */
export function openapiV3(registry: Registry, path: string): object | undefined {
  if (path === '/openapi/v3') {
    const paths: Record<string, object> = {};
    for (const { group, version } of groupVersions(registry)) {
      paths[gvPath(group, version)] = { serverRelativeURL: `/openapi/v3/${gvPath(group, version)}?hash=${hashOf(gvDocument(registry, group, version))}` };
    }
    return { paths };
  }
  const m = /^\/openapi\/v3\/(?:api\/(v1)|apis\/([^/]+)\/([^/]+))$/.exec(path);
  if (!m) return undefined;
  const [group, version] = m[1] ? ['', m[1]] : [m[2] ?? '', m[3] ?? ''];
  if (!registry.inGroupVersion(group, version).length) return undefined;
  return gvDocument(registry, group, version);
}
