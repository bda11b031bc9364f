/** Summaries of repeated measurements. Pure. */

export interface Summary {
  n: number;
  median: number;
  min: number;
  max: number;
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function summarize(values: readonly number[]): Summary {
  const finite = values.filter((v) => Number.isFinite(v));
  if (finite.length === 0) return { n: 0, median: Number.NaN, min: Number.NaN, max: Number.NaN };
  return { n: finite.length, median: median(finite), min: Math.min(...finite), max: Math.max(...finite) };
}

/** `a / b` as `3.2×`, or `—` when either side is unknown. */
export function ratio(a: number, b: number): string {
  if (!Number.isFinite(a) || !Number.isFinite(b) || b === 0) return '—';
  const r = a / b;
  return `${r >= 10 ? r.toFixed(0) : r >= 1 ? r.toFixed(1) : r.toFixed(2)}×`;
}

/** Milliseconds for a table cell: sub-ms precision below 10 ms, whole ms above, seconds above 10 s. */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return '—';
  if (ms >= 10_000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms >= 10) return `${Math.round(ms)} ms`;
  return `${ms.toFixed(1)} ms`;
}

/** `median (min–max, n=5)`; a single run is shown alone. */
export function formatSummary(s: Summary, format: (v: number) => string = formatMs): string {
  if (s.n === 0) return '—';
  if (s.n === 1) return format(s.median);
  return `${format(s.median)} (${format(s.min)}–${format(s.max)}, n=${s.n})`;
}

export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes)) return '—';
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${bytes} B`;
}

export function formatMiB(kib: number): string {
  return Number.isFinite(kib) ? `${(kib / 1024).toFixed(0)} MB` : '—';
}
