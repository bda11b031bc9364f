/**
 * "Did you mean": the served type closest to a type string nobody serves, by edit distance over every
 * kind, plural, singular and short name discovery knows; and whether the written type is a near-miss of
 * it (a typo to report at once) or may be a custom resource type whose CRD is not installed yet. Pure.
 */
import { qualifiedResource, type DiscoveryIndex, type ResourceType } from './restmapper.js';

/** The closest served type (as `plural[.group]`), or undefined when nothing is reasonably close. */
export function closestType(index: DiscoveryIndex, written: string): string | undefined {
  const closest = closestResource(index, written);
  return closest && qualifiedResource(closest);
}

/** The closest served type, or undefined when nothing is reasonably close. */
export function closestResource(index: DiscoveryIndex, written: string): ResourceType | undefined {
  const { name, group } = writtenParts({ type: written });
  let best: { distance: number; resource: ResourceType } | undefined;
  for (const resources of index.resources.values()) {
    for (const resource of resources) {
      for (const candidate of [resource.resource, resource.singular, resource.kind.toLowerCase(), ...resource.shortNames]) {
        let distance = editDistance(name, candidate);
        if (group && group !== resource.group) distance += 1;
        if (!best || distance < best.distance) best = { distance, resource };
      }
    }
  }
  // A third of the name may be wrong: `deploymnt` -> deployments, not `x` -> `cm`.
  return best && best.distance <= Math.max(2, Math.floor(name.length / 3)) ? best.resource : undefined;
}

/**
 * The served type that a type nobody serves is a typo of, or undefined when it may instead be a custom
 * resource type not installed yet. Every CRD's group has a dot (the API server refuses one without), so a
 * type written without a group, or with a dotless one (`deployments.app`), can only become served by a
 * CRD of another name: close to a served name, it is a typo. A dotted group that is not served
 * (`services.serving.knative.dev` while Knative is installed), or that is not the close type's group, may
 * be a CRD on its way: never a near-miss. (`apiVersion`: a manifest's, whose group is the written group.)
 */
export function nearMissOf(index: DiscoveryIndex, spec: { type: string; apiVersion?: string }): ResourceType | undefined {
  const { name, group } = writtenParts(spec);
  const closest = closestResource(index, spec.apiVersion ? name : spec.type);
  if (!closest) return undefined;
  if (!group.includes('.')) return closest;
  const served = index.groups.some((g) => g.name === group);
  return served && closest.group === group ? closest : undefined;
}

/** `deployments.apps (deployment, deploy)`: the type as kubectl takes it, with its other names. */
export function describeType(resource: ResourceType): string {
  const others = [...new Set([resource.singular, ...resource.shortNames])].filter((n) => n && n !== resource.resource);
  return `${qualifiedResource(resource)}${others.length > 0 ? ` (${others.join(', ')})` : ''}`;
}

/** The name and group of a written type (`deploy`, `certificates.cert-manager.io`, a manifest's kind with its apiVersion). */
function writtenParts(spec: { type: string; apiVersion?: string }): { name: string; group: string } {
  const [name = '', ...groupParts] = spec.type.trim().toLowerCase().split('.');
  if (spec.apiVersion) return { name, group: spec.apiVersion.includes('/') ? (spec.apiVersion.split('/')[0] ?? '').toLowerCase() : '' };
  return { name, group: groupParts.join('.') };
}

/** Levenshtein distance. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}
