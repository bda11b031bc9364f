/**
 * "Did you mean": the served type closest to a type string nobody serves, by edit distance over every
 * kind, plural, singular and short name discovery knows. Pure.
 */
import { qualifiedResource, type DiscoveryIndex } from './restmapper.js';

/** The closest served type (as `plural[.group]`), or undefined when nothing is reasonably close. */
export function closestType(index: DiscoveryIndex, written: string): string | undefined {
  const [name = '', ...groupParts] = written.trim().toLowerCase().split('.');
  const group = groupParts.join('.');
  let best: { distance: number; type: string } | undefined;
  for (const resources of index.resources.values()) {
    for (const resource of resources) {
      for (const candidate of [resource.resource, resource.singular, resource.kind.toLowerCase(), ...resource.shortNames]) {
        let distance = editDistance(name, candidate);
        if (group && group !== resource.group) distance += 1;
        if (!best || distance < best.distance) best = { distance, type: qualifiedResource(resource) };
      }
    }
  }
  // A third of the name may be wrong: `deploymnt` -> deployments, not `x` -> `cm`.
  return best && best.distance <= Math.max(2, Math.floor(name.length / 3)) ? best.type : undefined;
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
