/** The reader's entry points as bench/json-stream.ts calls them: each returns how many objects were handed over. */
import { JsonStream } from '../src/kube/json-stream.js';

export function readItems(chunks: string[], maxStringChars: number): number {
  let count = 0;
  const stream = new JsonStream('items', () => count++, maxStringChars);
  for (const chunk of chunks) stream.push(chunk);
  stream.end();
  return count;
}

export function readLines(chunks: string[], maxStringChars: number): number {
  let count = 0;
  const stream = new JsonStream('lines', () => count++, maxStringChars);
  for (const chunk of chunks) stream.push(chunk);
  stream.end();
  return count;
}
