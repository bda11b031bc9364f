/**
 * Resource references as written in the `resources` input: `TYPE/NAME`, `NAMESPACE/TYPE/NAME`, or a bare
 * `TYPE` (every object of the type, filtered by `selector`). Pure: parsing returns a ref or the problem in
 * words; turning refs into targets needs no I/O either.
 */
import type { ResourceRef } from '../settings.js';
import { sharedStrings } from '../string-table.js';
import type { TargetSpec } from './types.js';

export type { ResourceRef } from '../settings.js';

export type Parsed<T> = { ok: true; value: T } | { ok: false; problem: string };

/** kind, plural, singular or short name, optionally followed by `.version.group` or `.group`. */
const RESOURCE_TYPE = /^[A-Za-z][A-Za-z0-9]*(-[A-Za-z0-9]+)*(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
/** RBAC objects (and a few others) only forbid `/` and `%` in names; `system:` names are common there. */
const PATH_SEGMENT_WITH_COLON = /^[A-Za-z0-9._:-]*:[A-Za-z0-9._:-]*$/;

/** Splits the `resources` input into entries: one per line, commas also separate. */
export function splitResourceEntries(text: string): string[] {
  return text
    .split(/[\n,]/)
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
}

export function parseResourceRef(entry: string): Parsed<ResourceRef> {
  if (/\s/.test(entry)) {
    return fail('it contains a space; write TYPE/NAME without spaces, one per line or separated by commas');
  }
  const parts = entry.split('/');
  if (parts.length > 3) return fail('it has too many "/"');
  if (parts.some((part) => part.length === 0)) return fail('a part between "/" is empty');
  const [namespace, type = '', name] = parts.length === 3 ? parts : parts.length === 2 ? [undefined, parts[0], parts[1]] : [undefined, parts[0], undefined];

  if (!RESOURCE_TYPE.test(type)) {
    return fail(`"${type}" is not a resource type (a kind, plural or short name, optionally with its group, like deployments.apps)`);
  }
  const namespaceProblem = namespace === undefined ? undefined : namespaceNameProblem(namespace);
  if (namespaceProblem) return fail(namespaceProblem);
  const nameProblem = name === undefined ? undefined : objectNameProblem(name);
  if (nameProblem) return fail(nameProblem);
  // Types and namespaces repeat over thousands of lines: one copy each (names do not).
  const shared = { type: sharedStrings.intern(type), ...(namespace !== undefined && { namespace: sharedStrings.intern(namespace) }) };
  return { ok: true, value: { ...shared, ...(name !== undefined && { name }) } };
}

/** Namespaces are DNS-1123 labels. */
export function namespaceNameProblem(namespace: string): string | undefined {
  if (namespace.length > 63 || !DNS_LABEL.test(namespace)) {
    return `"${namespace}" is not a valid namespace (at most 63 lowercase letters, digits and "-", starting and ending with a letter or digit)`;
  }
  return undefined;
}

/** Object names are DNS-1123 subdomains, except the `system:...` style names RBAC objects allow. */
export function objectNameProblem(name: string): string | undefined {
  if (name.length <= 253 && (DNS_SUBDOMAIN.test(name) || PATH_SEGMENT_WITH_COLON.test(name))) return undefined;
  return `"${name}" is not a valid object name (lowercase letters, digits, "-" and ".", starting and ending with a letter or digit)`;
}

/** Named refs become single-object targets (the ref is one: the run keeps both); bare types select by
 *  `selector` (empty: every object). */
export function targetsFromRefs(refs: ResourceRef[], selector: string): TargetSpec[] {
  return refs.map((ref) =>
    ref.name !== undefined ? ref : { type: ref.type, ...(ref.namespace !== undefined && { namespace: ref.namespace }), ...(selector !== '' && { selector }) },
  );
}

function fail(problem: string): Parsed<never> {
  return { ok: false, problem };
}
