/** The reader's entry points as bench/json-stream.ts calls them: each returns how many objects were handed over. */
import { JsonItems } from '../src/kube/json-items.js';
import { JsonLines } from '../src/kube/json-lines.js';

export function readItems(chunks: string[], maxStringChars: number): number {
  let count = 0;
  const items = new JsonItems(() => count++, { maxStringChars });
  for (const chunk of chunks) items.push(chunk);
  items.end();
  return count;
}

export function readLines(chunks: string[], maxStringChars: number): number {
  let count = 0;
  const lines = new JsonLines(() => count++, { maxStringChars });
  for (const chunk of chunks) lines.push(chunk);
  lines.end();
  return count;
}
