/** The prose of RESULTS.md: what the figures mean. Written against the measured values it quotes. */
import type { BenchResults } from './report.js';

export function explanation(_r: BenchResults): string {
  return '## What the figures say\n\n(to be written)';
}
