/**
 * Lenient reads of the status fields the GitOps controllers write. kstatus has already judged the object's
 * shape (a malformed one is Unknown before these run), so a field of an unexpected type reads as absent.
 */
import type { KubeObject } from '../fields.js';

/** A condition as metav1.Condition carries it, with the generation it was written for. */
export interface RawCondition {
  type: string;
  status: string;
  reason: string;
  message: string;
  observedGeneration?: number;
}

export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** `status.<path>` as a string; '' when absent or not a string. */
export function stringAt(obj: KubeObject, ...path: string[]): string {
  let value: unknown = obj.status;
  for (const field of path) value = isRecord(value) ? value[field] : undefined;
  return text(value);
}

/** `status.<path>` as a list of strings (non-strings left out); [] when absent. */
export function stringsAt(obj: KubeObject, ...path: string[]): string[] {
  let value: unknown = obj.status;
  for (const field of path) value = isRecord(value) ? value[field] : undefined;
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

export function generationOf(obj: KubeObject): number | undefined {
  const generation = isRecord(obj.metadata) ? obj.metadata.generation : undefined;
  return Number.isInteger(generation) ? (generation as number) : undefined;
}

/** The first condition of `type` in `status.conditions`. */
export function conditionOf(obj: KubeObject, type: string): RawCondition | undefined {
  const conditions = isRecord(obj.status) && Array.isArray(obj.status.conditions) ? obj.status.conditions : [];
  const found = conditions.find((c): c is Record<string, unknown> => isRecord(c) && c.type === type);
  if (!found) return undefined;
  const observedGeneration = Number.isInteger(found.observedGeneration) ? (found.observedGeneration as number) : undefined;
  return {
    type,
    status: text(found.status),
    reason: text(found.reason),
    message: text(found.message),
    ...(observedGeneration === undefined ? {} : { observedGeneration }),
  };
}
