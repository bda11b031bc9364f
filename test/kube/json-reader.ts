/** The two JSON readers behind one face, for tests that run both: what `end()` leaves is '' for a watch stream. */
import { JsonItems } from '../../src/kube/json-items.js';
import { JsonLines } from '../../src/kube/json-lines.js';
import type { ScannerBounds } from '../../src/kube/json-scanner.js';

/** `items`: a LIST body (json-items.ts); `lines`: a watch stream (json-lines.ts). */
export type Mode = 'items' | 'lines';

export function readerFor(
  mode: Mode,
  onValue: (text: string) => void,
  maxStringChars?: number,
  bounds: Omit<ScannerBounds, 'maxStringChars'> = {},
): { push(chunk: string): void; end(): string } {
  if (mode === 'items') return new JsonItems(onValue, { maxStringChars, ...bounds });
  const lines = new JsonLines(onValue, { maxStringChars, ...bounds });
  return {
    push: (chunk) => lines.push(chunk),
    end: () => {
      lines.end();
      return '';
    },
  };
}
