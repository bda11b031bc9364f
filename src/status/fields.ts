/**
 * Field access with kstatus's two flavours (spec section 2):
 * - lenient `get*Field` helpers (kstatus util.go): a missing path or a value of the wrong type gives the default;
 * - strict `nested*` accessors (apimachinery unstructured): a value of the wrong type is an error.
 * Errors are `ComputeError`s carrying the exact text kstatus would return; `computeStatus` turns them into Unknown.
 */
import { goType, goValue, isInt64, isPlainObject } from './go-format.js';

export type KubeObject = Record<string, unknown>;

/** An error kstatus's Compute would return (as opposed to a bug). */
export class ComputeError extends Error {}

type Lookup = { found: false } | { found: true; value: unknown };

function splitPath(path: string): string[] {
  const fields = path.split('.');
  return fields[0] === '' ? fields.slice(1) : fields;
}

const jsonPath = (fields: string[]): string => fields.map((field) => `.${field}`).join('');

/** unstructured.NestedFieldNoCopy: a null on the way means "not found"; a non-map on the way is an error. */
function nestedField(obj: KubeObject, fields: string[]): Lookup {
  let value: unknown = obj;
  for (const [i, field] of fields.entries()) {
    if (value === null || value === undefined) return { found: false };
    if (!isPlainObject(value)) {
      throw new ComputeError(
        `${jsonPath(fields.slice(0, i + 1))} accessor error: ${goValue(value)} is of the type ${goType(value)}, expected map[string]interface{}`,
      );
    }
    // `undefined` cannot come from JSON; treat it as absent rather than as Go's nil.
    if (!Object.hasOwn(value, field) || value[field] === undefined) return { found: false };
    value = value[field];
  }
  return { found: true, value };
}

function typed<T>(obj: KubeObject, fields: string[], expected: string, accept: (v: unknown) => v is T) {
  const lookup = nestedField(obj, fields);
  if (!lookup.found) return undefined;
  if (!accept(lookup.value)) {
    throw new ComputeError(`${jsonPath(fields)} accessor error: ${goValue(lookup.value)} is of the type ${goType(lookup.value)}, expected ${expected}`);
  }
  return lookup.value;
}

/** unstructured.NestedInt64: undefined when absent, ComputeError when not an integer. */
export const nestedInt64 = (obj: KubeObject, ...fields: string[]): number | undefined => typed(obj, fields, 'int64', isInt64);

/** unstructured.NestedString: undefined when absent, ComputeError when not a string. */
export const nestedString = (obj: KubeObject, ...fields: string[]): string | undefined =>
  typed(obj, fields, 'string', (v): v is string => typeof v === 'string');

/** unstructured.NestedSlice: undefined when absent, ComputeError when not an array (null included). */
export const nestedSlice = (obj: KubeObject, ...fields: string[]): unknown[] | undefined =>
  typed(obj, fields, '[]interface{}', (v): v is unknown[] => Array.isArray(v));

function lenient<T>(obj: KubeObject, path: string, fallback: T, accept: (v: unknown) => v is T): T {
  try {
    const lookup = nestedField(obj, splitPath(path));
    return lookup.found && accept(lookup.value) ? lookup.value : fallback;
  } catch {
    return fallback;
  }
}

/** kstatus GetIntField: integers only; floats, strings and booleans give the default. */
export const getIntField = (obj: KubeObject, path: string, fallback: number): number => lenient(obj, path, fallback, isInt64);

export const getStringField = (obj: KubeObject, path: string, fallback: string): string =>
  lenient(obj, path, fallback, (v): v is string => typeof v === 'string');

export const getBoolField = (obj: KubeObject, path: string, fallback: boolean): boolean =>
  lenient(obj, path, fallback, (v): v is boolean => typeof v === 'boolean');

/** u.GetKind(): the kind, or "" when it is not a string. */
export const kindOf = (obj: KubeObject): string => (typeof obj.kind === 'string' ? obj.kind : '');

/** The API group from apiVersion, as schema.ParseGroupVersion reads it ("" for core and for malformed values). */
function groupOf(obj: KubeObject): string {
  const apiVersion = typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
  const slashes = apiVersion.split('/').length - 1;
  return slashes === 1 ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
}

/** kstatus's lookup key for the per-kind rules: `group/kind`, or `kind` for the core group. */
export function groupKindKey(obj: KubeObject): string {
  const apiVersion = typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
  // ParseGroupVersion fails on two or more slashes, and the GroupVersionKind (kind included) is then empty.
  if (apiVersion.split('/').length > 2) return '';
  const group = groupOf(obj);
  return group === '' ? kindOf(obj) : `${group}/${kindOf(obj)}`;
}

/** Go's time.RFC3339 layout (fractional seconds allowed, as time.Parse accepts them). */
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** Milliseconds since the epoch of an RFC 3339 timestamp; undefined when absent or unparseable. */
export function parseTimestamp(value: unknown): number | undefined {
  if (typeof value !== 'string' || !RFC3339.test(value)) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

/** u.GetCreationTimestamp(): Go's zero time (year 1) when absent or unparseable. */
export function creationTimestampMs(obj: KubeObject): number {
  const metadata = isPlainObject(obj.metadata) ? obj.metadata : {};
  return parseTimestamp(metadata.creationTimestamp) ?? GO_ZERO_TIME_MS;
}

/** 0001-01-01T00:00:00Z. */
const GO_ZERO_TIME_MS = -62135596800000;
