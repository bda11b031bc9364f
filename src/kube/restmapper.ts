/**
 * Pure type resolution over discovery data, like kubectl's RESTMapper: a type string (kind, plural,
 * singular or short name, case-insensitive, optionally `.group` or `.version.group`) or an exact
 * apiVersion + kind becomes one served resource.
 *
 * Several matches in different groups: the core group wins, then Kubernetes' own groups (no dot, or
 * `*.k8s.io`), as kubectl's priority order does (`events` is core's, `pods` is not metrics.k8s.io's).
 * Matches left in more than one group at the same rank are ambiguous and listed.
 */

export interface ResourceType {
  group: string;
  version: string;
  /** Plural resource name, as in the URL. */
  resource: string;
  kind: string;
  namespaced: boolean;
  singular: string;
  shortNames: string[];
  verbs: string[];
}

export interface DiscoveryIndex {
  /** Groups in discovery order, each with its versions, preferred version first. Core is `''`. */
  groups: Array<{ name: string; versions: string[] }>;
  /** Resources by `group/version` (`v1` for core). */
  resources: Map<string, ResourceType[]>;
}

export type Resolution = { ok: true; type: ResourceType } | { ok: false; ambiguous: boolean; message: string; candidates?: string[] };

export function groupVersion(group: string, version: string): string {
  return group ? `${group}/${version}` : version;
}

/** `deployments.apps`, `pods` (core has no suffix). */
export function qualifiedResource(type: { resource: string; group: string }): string {
  return type.group ? `${type.resource}.${type.group}` : type.resource;
}

export function resolveType(index: DiscoveryIndex, spec: { type: string; apiVersion?: string }): Resolution {
  const written = spec.type.trim();
  if (spec.apiVersion) return resolveExact(index, written, spec.apiVersion);
  const parts = written.toLowerCase().split('.');
  const name = parts[0] ?? '';
  if (parts.length >= 3) {
    // `deployments.v1.apps`: a fully specified resource wins when that group and version exist.
    const group = parts.slice(2).join('.');
    const exact = (index.resources.get(groupVersion(group, parts[1] ?? '')) ?? []).filter((r) => matchesName(r, name));
    if (exact.length === 1 && exact[0]) return { ok: true, type: exact[0] };
  }
  const group = parts.length >= 2 ? parts.slice(1).join('.') : undefined;
  const groups = index.groups.filter((g) => group === undefined || g.name === group);
  const byName = matchesPerGroup(index, groups, (r) => matchesName(r, name));
  const matches = byName.length > 0 ? byName : matchesPerGroup(index, groups, (r) => r.shortNames.includes(name));
  if (matches.length === 0) {
    const where = group !== undefined ? ` (in API group "${group}")` : '';
    return { ok: false, ambiguous: false, message: `resource type "${written}"${where} is not served by the cluster` };
  }
  const best = Math.min(...matches.map((m) => groupRank(m.group)));
  const top = matches.filter((m) => groupRank(m.group) === best);
  if (top.length === 1 && top[0]) return { ok: true, type: top[0] };
  const candidates = top.map(qualifiedResource);
  return {
    ok: false,
    ambiguous: true,
    candidates,
    message: `resource type "${written}" is ambiguous: it matches ${candidates.join(', ')}; write one of them instead`,
  };
}

function resolveExact(index: DiscoveryIndex, kind: string, apiVersion: string): Resolution {
  const resources = index.resources.get(apiVersion) ?? [];
  const found = resources.find((r) => r.kind === kind) ?? resources.find((r) => r.kind.toLowerCase() === kind.toLowerCase());
  if (found) return { ok: true, type: found };
  return { ok: false, ambiguous: false, message: `resource type ${kind} (${apiVersion}) is not served by the cluster` };
}

function matchesName(resource: ResourceType, name: string): boolean {
  return resource.resource === name || resource.singular === name || resource.kind.toLowerCase() === name;
}

/** For each group, the match in its most preferred version that has one. */
function matchesPerGroup(index: DiscoveryIndex, groups: DiscoveryIndex['groups'], matches: (r: ResourceType) => boolean): ResourceType[] {
  const found: ResourceType[] = [];
  for (const group of groups) {
    const seen = new Set<string>();
    for (const version of group.versions) {
      for (const resource of index.resources.get(groupVersion(group.name, version)) ?? []) {
        if (matches(resource) && !seen.has(resource.resource)) {
          seen.add(resource.resource);
          found.push(resource);
        }
      }
    }
  }
  return found;
}

function groupRank(group: string): number {
  if (group === '') return 0;
  if (!group.includes('.') || group.endsWith('.k8s.io')) return 1;
  return 2;
}

interface LegacyResource {
  name?: string;
  singularName?: string;
  namespaced?: boolean;
  kind?: string;
  verbs?: string[];
  shortNames?: string[];
}

/** An APIResourceList (`/api/v1`, `/apis/apps/v1`) as resource types, subresources left out. */
export function fromResourceList(group: string, version: string, list: unknown): ResourceType[] {
  const resources = (list as { resources?: LegacyResource[] })?.resources;
  if (!Array.isArray(resources)) return [];
  return resources
    .filter((r) => typeof r?.name === 'string' && !r.name.includes('/') && typeof r.kind === 'string')
    .map((r) => ({
      group,
      version,
      resource: r.name!,
      kind: r.kind!,
      namespaced: r.namespaced === true,
      singular: r.singularName || r.kind!.toLowerCase(),
      shortNames: r.shortNames ?? [],
      verbs: r.verbs ?? [],
    }));
}

interface AggregatedResource {
  resource?: string;
  responseKind?: { kind?: string };
  scope?: string;
  singularResource?: string;
  shortNames?: string[];
  verbs?: string[];
}

/** Adds an aggregated discovery document (`APIGroupDiscoveryList`, discovery v2) to an index. */
export function addAggregated(index: DiscoveryIndex, list: unknown): void {
  const items = (list as { items?: Array<{ metadata?: { name?: string }; versions?: Array<{ version?: string; resources?: AggregatedResource[] }> }> })?.items;
  for (const item of items ?? []) {
    const group = item.metadata?.name ?? '';
    const versions: string[] = [];
    for (const v of item.versions ?? []) {
      if (!v.version) continue;
      versions.push(v.version);
      const resources = (v.resources ?? [])
        .filter((r) => typeof r.resource === 'string' && typeof r.responseKind?.kind === 'string')
        .map((r) => ({
          group,
          version: v.version!,
          resource: r.resource!,
          kind: r.responseKind!.kind!,
          namespaced: r.scope === 'Namespaced',
          singular: r.singularResource || r.responseKind!.kind!.toLowerCase(),
          shortNames: r.shortNames ?? [],
          verbs: r.verbs ?? [],
        }));
      index.resources.set(groupVersion(group, v.version), resources);
    }
    index.groups.push({ name: group, versions });
  }
}
