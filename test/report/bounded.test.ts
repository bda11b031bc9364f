import { describe, expect, it } from '@jest/globals';
import { boundedJsonArray, boundedLines } from '../../src/report/bounded.js';

const items = (count: number, message = 'ok') => Array.from({ length: count }, (_, i) => ({ name: `t${i}`, message }));
const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

describe('boundedJsonArray', () => {
  it.each([
    ['fits: the whole array', items(3), 1000, { kept: 3, truncated: undefined }],
    ['long messages are shortened first', items(3, 'x'.repeat(600)), 1000, { kept: 3, truncated: undefined }],
    ['then the items that fit, and a note counting the rest', items(100), 400, { kept: expect.any(Number), truncated: expect.any(Number) }],
  ])('%s', (_case, input, maxBytes, expected) => {
    const text = boundedJsonArray(input, maxBytes, 'the file');
    expect(bytes(text)).toBeLessThanOrEqual(maxBytes);
    const parsed = JSON.parse(text) as Array<{ name?: string; truncated?: boolean; omitted?: number; message: string }>;
    const note = parsed.find((p) => p.truncated);
    const kept = parsed.filter((p) => !p.truncated);
    expect({ kept: kept.length, truncated: note?.omitted }).toEqual(expected);
    // Nothing is lost without being counted.
    expect(kept.length + (note?.omitted ?? 0)).toBe(input.length);
    if (note) expect(note.message).toBe(`${note.omitted} more targets left out to stay under GitHub's 1 MB output limit; every target is in the file`);
  });

  it('keeps multi-byte messages under the limit in bytes, not characters', () => {
    const text = boundedJsonArray(items(50, 'é'.repeat(150)), 2000, 'the file');
    expect(bytes(text)).toBeLessThanOrEqual(2000);
  });
});

describe('boundedLines', () => {
  it.each([
    ['fits', ['a/b', 'c/d'], 100, 'a/b\nc/d'],
    [
      'cut, with the count of the rest',
      ['namespace-one/Deployment/frontend-a', 'namespace-one/Deployment/frontend-b', 'namespace-one/Deployment/frontend-c'],
      90,
      'namespace-one/Deployment/frontend-a\n... and 2 more (every target is in the file)',
    ],
  ])('%s', (_case, lines, maxBytes, expected) => {
    const text = boundedLines(lines, maxBytes, 'the file');
    expect(text).toBe(expected);
    expect(bytes(text)).toBeLessThanOrEqual(maxBytes);
  });
});
