/**
 * The type a CustomResourceDefinition defines, and whether a written type is that type: one rule for a CRD
 * read from the cluster (kube/crds.ts) and one read from a manifest (targets/manifests.ts), so a target
 * waits for the CRD the same deploy installs exactly when the cluster would later serve it. Pure.
 */

/** A CRD's group and every name of its type, lower case: kind, plural, singular and short names. */
export interface DefinedType {
  group: string;
  names: string[];
}

/** What a CustomResourceDefinition object (as listed, or from a manifest) defines; undefined when it names no group. */
export function definedType(crd: unknown): DefinedType | undefined {
  const { spec } = (crd ?? {}) as { spec?: { group?: unknown; names?: Record<string, unknown> } };
  if (typeof spec?.group !== 'string') return undefined;
  const names = spec.names ?? {};
  const shortNames = Array.isArray(names.shortNames) ? (names.shortNames as unknown[]) : [];
  return {
    group: spec.group.toLowerCase(),
    names: [
      ...new Set(
        [names.kind, names.plural, names.singular, ...shortNames].filter((n): n is string => typeof n === 'string' && n !== '').map((n) => n.toLowerCase()),
      ),
    ],
  };
}

/** Whether `spec` (kind, plural, singular or short name; optionally `.group`, or the group of `apiVersion`)
 *  is the type `defined` defines. */
export function definesType(defined: DefinedType, spec: { type: string; apiVersion?: string }): boolean {
  const [name = '', ...rest] = spec.type.trim().toLowerCase().split('.');
  const group = spec.apiVersion?.includes('/') ? spec.apiVersion.split('/')[0] : rest.length > 0 ? rest.join('.') : undefined;
  if (group !== undefined && defined.group !== group.toLowerCase()) return false;
  return defined.names.includes(name);
}
