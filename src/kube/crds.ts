/**
 * Which CustomResourceDefinition defines a type that discovery does not serve, and whether it is being
 * deleted: for `wait-for: deleted`, a type that is not served counts as deleted only while its CRD is
 * being deleted; otherwise a CRD that exists is being installed (wait for it). A type no CRD defines is a
 * mistyped type, never a pass.
 */
import type { KubeClient } from './client.js';
import { definedType, definesType } from './crd-names.js';

export interface CrdLookup {
  /** The CRD's name (`widgets.example.com`). */
  name: string;
  terminating: boolean;
}

/** The CRD defining `type` (kind, plural, singular or short name; optionally `.group`, or the group of
 *  `apiVersion`), undefined when none does. Throws ApiError when the CRDs cannot be listed. */
export async function findCrd(client: KubeClient, spec: { type: string; apiVersion?: string }, signal?: AbortSignal): Promise<CrdLookup | undefined> {
  const list = (await client.get('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {}, { signal })) as { items?: unknown[] };
  for (const item of list.items ?? []) {
    const defined = definedType(item);
    if (!defined || !definesType(defined, spec)) continue;
    const metadata = (item as { metadata?: { name?: string; deletionTimestamp?: string } }).metadata;
    return { name: metadata?.name ?? spec.type, terminating: Boolean(metadata?.deletionTimestamp) };
  }
  return undefined;
}
