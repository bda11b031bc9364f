/**
 * Aggregated discovery (`apidiscovery.k8s.io` v2 and v2beta1): the whole of `/api` or `/apis` in one
 * APIGroupDiscoveryList, shaped as kube-apiserver 1.35 serves it, so a client needs 2 discovery requests
 * instead of one per group version. Generated from the same Registry as the legacy documents.
 */
import { createHash } from 'node:crypto';
import type { Registry, ResourceType } from './registry.js';

/** The discovery versions a client may ask for, in the order the server prefers them. */
const VERSIONS = ['v2', 'v2beta1'] as const;
export type AggregatedVersion = (typeof VERSIONS)[number];

/**
 * The aggregated-discovery version an Accept header asks for, or undefined when it asks for the plain
 * documents first (or only). Media ranges are taken in the client's order, as kube-apiserver's
 * negotiation does (client-go sends v2, then v2beta1, then `application/json`).
 */
export function aggregatedVersionOf(accept: string | undefined): AggregatedVersion | undefined {
  for (const range of (accept ?? '').split(',')) {
    const [type = '', ...params] = range.split(';').map((p) => p.trim());
    const p = new Map(params.map((kv) => kv.split('=').map((x) => x.trim()) as [string, string]));
    if (p.get('g') === 'apidiscovery.k8s.io' && p.get('as') === 'APIGroupDiscoveryList') {
      const version = VERSIONS.find((v) => v === p.get('v'));
      // Protobuf discovery is not served: a real server would, but clients always offer JSON too.
      if (version && (type === 'application/json' || type === '*/*') && !p.has('profile')) return version;
      continue;
    }
    if (['application/json', '*/*', 'application/*'].includes(type)) return undefined;
  }
  return undefined;
}

export function aggregatedContentType(version: AggregatedVersion): string {
  return `application/json;g=apidiscovery.k8s.io;v=${version};as=APIGroupDiscoveryList`;
}

/** The APIGroupDiscoveryList of `/api` (legacy: true, the core group) or `/apis` (every named group). */
export function aggregatedDiscovery(registry: Registry, legacy: boolean, version: AggregatedVersion): object {
  const groups = legacy ? [{ name: '', versions: ['v1'] }] : registry.groups();
  return {
    kind: 'APIGroupDiscoveryList',
    apiVersion: `apidiscovery.k8s.io/${version}`,
    metadata: {},
    items: groups.map((g) => ({
      // ObjectMeta.creationTimestamp is `omitzero` in 1.35: the metadata carries the name only ('' omitted).
      metadata: g.name ? { name: g.name } : {},
      versions: g.versions.map((v) => ({
        version: v,
        resources: registry.inGroupVersion(g.name, v).map(resourceDiscovery),
        freshness: 'Current',
      })),
    })),
  };
}

/** An ETag as kube-apiserver sends it for discovery: a hash of the document, quoted. */
export function discoveryEtag(body: string): string {
  return `"${createHash('sha512').update(body).digest('hex').slice(0, 64).toUpperCase()}"`;
}

const SUBRESOURCE_VERBS = ['get', 'patch', 'update'];

function resourceDiscovery(t: ResourceType): object {
  // Built-in types answer with an empty group and version in responseKind (kube-apiserver fills only
  // the kind from its storage); custom resources carry their full group/version/kind.
  const self = t.custom ? { group: t.group, version: t.version, kind: t.kind } : { group: '', version: '', kind: t.kind };
  const subresources: object[] = [];
  if (t.scaleSubresource)
    subresources.push({ subresource: 'scale', responseKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' }, verbs: SUBRESOURCE_VERBS });
  if (t.statusSubresource) subresources.push({ subresource: 'status', responseKind: self, verbs: SUBRESOURCE_VERBS });
  return {
    resource: t.plural,
    responseKind: self,
    scope: t.namespaced ? 'Namespaced' : 'Cluster',
    singularResource: t.singular,
    verbs: t.verbs,
    ...(t.shortNames.length ? { shortNames: t.shortNames } : {}),
    ...(t.categories.length ? { categories: t.categories } : {}),
    ...(subresources.length ? { subresources } : {}),
  };
}
