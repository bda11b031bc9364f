/**
 * kstatus GetObjectWithConditions: `status.conditions` decoded with apimachinery's unstructured converter,
 * which is strict about types. The error texts are the converter's.
 */
import { ComputeError, type KubeObject } from './fields.js';
import { goKind, isPlainObject } from './go-format.js';

export interface BasicCondition {
  type: string;
  status: string;
  reason: string;
  message: string;
}

const absent = (value: unknown): boolean => value === null || value === undefined;

function structFrom(value: unknown): Record<string, unknown> {
  if (!isPlainObject(value)) throw new ComputeError(`cannot restore struct from: ${goKind(value)}`);
  return value;
}

/** A string field; `goTypeName` is the Go destination type (`string`, or `v1.ConditionStatus`). */
function stringFrom(value: unknown, goTypeName: string): string {
  if (absent(value)) return '';
  if (typeof value === 'string') return value;
  // Go can "convert" an integer to a string type (as a rune), so the converter names both types;
  // for floats, bools, maps and slices it falls through to its generic error.
  if (goKind(value) === 'int64') throw new ComputeError(`cannot convert int64 to ${goTypeName}`);
  throw new ComputeError('unrecognized type: string');
}

function conditionFrom(value: unknown): BasicCondition {
  if (absent(value)) return { type: '', status: '', reason: '', message: '' };
  const raw = structFrom(value);
  return {
    type: stringFrom(raw.type, 'string'),
    status: stringFrom(raw.status, 'v1.ConditionStatus'),
    reason: stringFrom(raw.reason, 'string'),
    message: stringFrom(raw.message, 'string'),
  };
}

/** The object's conditions; [] when status or conditions are absent or null. Throws ComputeError on wrong types. */
export function parseConditions(obj: KubeObject): BasicCondition[] {
  if (absent(obj.status)) return [];
  const status = structFrom(obj.status);
  if (absent(status.conditions)) return [];
  if (!Array.isArray(status.conditions)) {
    throw new ComputeError(`cannot restore slice from ${goKind(status.conditions)}`);
  }
  return status.conditions.map(conditionFrom);
}

export function findCondition(conditions: BasicCondition[], type: string, status: string): BasicCondition | undefined {
  return conditions.find((c) => c.type === type && c.status === status);
}
