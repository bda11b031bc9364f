/**
 * Which CustomResourceDefinition defines a type that discovery does not serve, and whether it is being
 * deleted: for `wait-for: deleted`, a type that is not served counts as deleted only while its CRD is
 * being deleted; a type no CRD defines is a mistyped type, never a pass.
 */
import type { KubeClient } from './client.js';

export interface CrdLookup {
  /** The CRD's name (`widgets.example.com`). */
  name: string;
  terminating: boolean;
}

/** The CRD defining `type` (kind, plural, singular or short name; optionally `.group`, or the group of
 *  `apiVersion`), undefined when none does. Throws ApiError when the CRDs cannot be listed. */
export async function findCrd(client: KubeClient, spec: { type: string; apiVersion?: string }, signal?: AbortSignal): Promise<CrdLookup | undefined> {
  const list = (await client.get('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {}, { signal })) as { items?: unknown[] };
  const [name = '', ...rest] = spec.type.trim().toLowerCase().split('.');
  const group = spec.apiVersion?.includes('/') ? spec.apiVersion.split('/')[0] : rest.length > 0 ? rest.join('.') : undefined;
  for (const item of list.items ?? []) {
    const crd = item as { metadata?: { name?: string; deletionTimestamp?: string }; spec?: { group?: string; names?: Record<string, unknown> } };
    const names = crd.spec?.names ?? {};
    const candidates = [names.kind, names.plural, names.singular, ...(Array.isArray(names.shortNames) ? (names.shortNames as unknown[]) : [])]
      .filter((n): n is string => typeof n === 'string')
      .map((n) => n.toLowerCase());
    if (group !== undefined && crd.spec?.group?.toLowerCase() !== group.toLowerCase()) continue;
    if (candidates.includes(name)) return { name: crd.metadata?.name ?? name, terminating: Boolean(crd.metadata?.deletionTimestamp) };
  }
  return undefined;
}
