/** Lenient reads of a live object's fields, for the rules that read what a controller wrote (a field that is
 *  absent or of another type reads as empty: the controller has not written it yet). Pure. */
import type { KubeObject } from '../fields.js';

export const record = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
/** A string or number field as text; anything else (absent, an object) as ''. */
export const text = (value: unknown): string => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '');
export const count = (value: unknown, fallback: number): number => (typeof value === 'number' && Number.isInteger(value) ? value : fallback);
export const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

export function names(object: KubeObject): { name: string; namespace: string } {
  const metadata = record(object.metadata);
  return { name: text(metadata.name), namespace: text(metadata.namespace) };
}

/** ` -n shop`, or '' for an object without a namespace: for the commands a message suggests. */
export const namespaceFlag = (namespace: string): string => (namespace ? ` -n ${namespace}` : '');
