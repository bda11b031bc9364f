/**
 * Go's `%v` and `%T` for JSON values as apimachinery holds them (int64 for integers, float64 otherwise),
 * so that error messages read exactly like the ones kstatus returns.
 */

const INT64_LIMIT = 2 ** 63;

/** apimachinery decodes a JSON integer into int64 when it fits, otherwise into float64. */
export function isInt64(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= -INT64_LIMIT && value < INT64_LIMIT;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Go's reflect Kind name, as `cannot restore struct from: <kind>` prints it. */
export function goKind(value: unknown): string {
  if (value === null || value === undefined) return 'invalid';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return isInt64(value) ? 'int64' : 'float64';
  if (Array.isArray(value)) return 'slice';
  return 'map';
}

/** Go's `%T`. */
export function goType(value: unknown): string {
  switch (goKind(value)) {
    case 'invalid':
      return '<nil>';
    case 'slice':
      return '[]interface {}';
    case 'map':
      return 'map[string]interface {}';
    default:
      return goKind(value);
  }
}

/** Go's `%v`. */
export function goValue(value: unknown): string {
  if (value === null || value === undefined) return '<nil>';
  if (typeof value === 'number') return isInt64(value) ? String(value) : goFloat(value);
  if (typeof value === 'string' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[${value.map(goValue).join(' ')}]`;
  const entries = Object.keys(value)
    .sort()
    .map((key) => `${key}:${goValue((value as Record<string, unknown>)[key])}`);
  return `map[${entries.join(' ')}]`;
}

/** strconv 'g' with the shortest precision: exponent form below 1e-4 and from 1e6 up (Go's `%v`). */
function goFloat(value: number): string {
  if (!Number.isFinite(value)) return value > 0 ? '+Inf' : value < 0 ? '-Inf' : 'NaN';
  const exponent = Math.floor(Math.log10(Math.abs(value)));
  if (exponent >= -4 && exponent < 6) return String(value);
  const [mantissa, exp] = value.toExponential().split('e');
  const sign = exp!.startsWith('-') ? '-' : '+';
  const digits = exp!.replace(/^[+-]/, '').padStart(2, '0');
  return `${mantissa}e${sign}${digits}`;
}
