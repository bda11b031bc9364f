/** The JSON readers by example: watch lines (json-lines.ts) and LIST items (json-items.ts), each chunking spelled
 *  out. Their property test, every chunking of generated documents, is json-readers.property.test.ts. */
import { describe, expect, it } from '@jest/globals';
import { JsonTooLarge } from '../../src/kube/json-scanner.js';
import { readerFor, type Mode } from './json-reader.js';

/** Everything a JSON reader hands over, for these chunks. */
function split(mode: Mode, chunks: string[], maxStringChars?: number): { values: unknown[]; rest: string } {
  const values: unknown[] = [];
  // As the client does: text that is not JSON (a broken watch line) is skipped.
  const stream = readerFor(
    mode,
    (text) => {
      try {
        values.push(JSON.parse(text));
      } catch {
        // skipped
      }
    },
    maxStringChars,
  );
  for (const chunk of chunks) stream.push(chunk);
  return { values, rest: stream.end() };
}

/** `text` cut into pieces of `size` characters, as a socket may deliver it. */
const chunked = (text: string, size: number) => Array.from({ length: Math.ceil(text.length / size) }, (_, i) => text.slice(i * size, (i + 1) * size));

describe('JsonLines: a watch stream, one event per line', () => {
  it.each([
    ['whole lines', ['{"a":1}\n{"b":2}\n'], [{ a: 1 }, { b: 2 }]],
    ['a line cut across chunks', ['{"a":', '1}\n{"b"', ':2}\n'], [{ a: 1 }, { b: 2 }]],
    ['CRLF and blank lines', ['{"a":1}\r\n\r\n\n{"b":2}\r\n'], [{ a: 1 }, { b: 2 }]],
    ['a last line without a newline', ['{"a":1}\n{"b":2}'], [{ a: 1 }, { b: 2 }]],
    ['braces, quotes and newlines escaped in strings', ['{"a":"}{\\"\\n]"}\n'], [{ a: '}{"\n]' }]],
    ['a line that is not JSON, then one that is', ['not json\n{"broken": [1,\n{"b":2}\n'], [{ b: 2 }]],
  ])('%s', (_name, chunks, expected) => {
    expect(split('lines', chunks).values).toEqual(expected);
  });

  it('cuts an outsized string to the cap, wherever the chunks fall, and keeps the rest of the event', () => {
    const event = JSON.stringify({ type: 'ADDED', object: { huge: 'x'.repeat(5000), after: 'kept', escaped: 'a\\"b'.repeat(10) } }) + '\n';
    for (const size of [1, 7, 64, 100_000]) {
      const { values } = split('lines', chunked(event, size), 100);
      expect(values).toEqual([{ type: 'ADDED', object: { huge: `${'x'.repeat(100)}…`, after: 'kept', escaped: 'a\\"b'.repeat(10) } }]);
    }
  });

  it('reads the events after an outsized one as before, and a short line as it is', () => {
    const text = `${JSON.stringify({ type: 'ADDED', object: { huge: 'x'.repeat(500) } })}\n{"type":"MODIFIED"}\r\n\n{"type":"DELETED"}`;
    for (const size of [1, 13, 200, 100_000]) {
      expect(split('lines', chunked(text, size), 100).values).toEqual([
        { type: 'ADDED', object: { huge: `${'x'.repeat(100)}…` } },
        { type: 'MODIFIED' },
        { type: 'DELETED' },
      ]);
    }
  });

  it('never cuts inside an escape or a surrogate pair', () => {
    const value = `${'a'.repeat(9)}\\"😀${'b'.repeat(20)}`;
    for (const cap of [9, 10, 11, 12]) {
      const [parsed] = split('lines', [JSON.stringify({ v: value })], cap).values as Array<{ v: string }>;
      expect(parsed!.v.endsWith('…')).toBe(true);
      expect(value.startsWith(parsed!.v.slice(0, -1))).toBe(true);
      expect(parsed!.v).not.toMatch(/[\ud800-\udbff]…$/);
    }
  });

  it('never cuts inside a \\u escape (API servers write `<` as \\u003c): the event stays JSON', () => {
    const line = `{"v":"${'a'.repeat(9)}\\u003c${'b'.repeat(20)}"}`;
    expect(split('lines', [line], 9).values).toEqual([{ v: `${'a'.repeat(9)}…` }]);
    // A cap that falls inside the six characters of the escape keeps the escape whole.
    for (const cap of [10, 12, 14, 15]) expect(split('lines', [line], cap).values).toEqual([{ v: `${'a'.repeat(9)}<…` }]);
  });
});

describe('JsonItems: a LIST page, item by item', () => {
  const page = {
    kind: 'DeploymentList',
    apiVersion: 'apps/v1',
    metadata: { resourceVersion: '42', continue: 'next' },
    items: [
      { metadata: { name: 'a', annotations: { note: '{"items":[1,2]}' } }, spec: { items: [[1], { x: ']' }] } },
      { metadata: { name: 'b' }, status: { conditions: [{ type: 'Available', status: 'True' }] } },
    ],
  };

  it.each([1, 3, 50, 100_000])('hands over each item and returns the page without them (chunks of %i)', (size) => {
    const { values, rest } = split('items', chunked(JSON.stringify(page, null, size === 3 ? 2 : undefined), size));
    expect(values).toEqual(page.items);
    expect(JSON.parse(rest)).toEqual({ ...page, items: [] });
  });

  it('an empty list, and items after the metadata or before it', () => {
    expect(JSON.parse(split('items', ['{"items":[],"metadata":{"resourceVersion":"1"}}']).rest)).toEqual({ items: [], metadata: { resourceVersion: '1' } });
    const { values, rest } = split('items', ['{"items":[{"a":1}],"metadata":{"continue":"c"}}']);
    expect(values).toEqual([{ a: 1 }]);
    expect(JSON.parse(rest)).toEqual({ items: [], metadata: { continue: 'c' } });
  });

  it('takes only the plain key `items` for the items: not one that merely starts so, escapes after it', () => {
    const { values, rest } = split('items', ['{"items\\n":[{"a":1}],"items":[{"b":2}]}']);
    expect(values).toEqual([{ b: 2 }]);
    expect(JSON.parse(rest)).toEqual({ 'items\n': [{ a: 1 }], items: [] });
  });

  it('cuts an outsized string in an item', () => {
    const { values } = split('items', chunked(JSON.stringify({ items: [{ metadata: { annotations: { big: 'y'.repeat(1000) } } }] }), 64), 20);
    expect(values).toEqual([{ metadata: { annotations: { big: `${'y'.repeat(20)}…` } } }]);
  });
});

describe('the bounds of what cannot be cut: a value outside strings, one item or event, a page', () => {
  const bounded = (mode: Mode, chunks: string[], bounds: { maxTokenChars?: number; maxValueChars?: number }) => {
    const values: unknown[] = [];
    // A watch line shorter than the string cap is handed over whole (it is bounded by that cap): 30 makes these scanned.
    const stream = readerFor(mode, (text) => values.push(JSON.parse(text)), 30, bounds);
    for (const chunk of chunks) stream.push(chunk);
    return { values, rest: stream.end() };
  };

  it.each(['items', 'lines'] as const)('%s: a number longer than the bound is refused, wherever the chunks fall', (mode) => {
    const text = mode === 'items' ? `{"items":[{"a":1},{"n":${'9'.repeat(50)}}]}` : `{"type":"ADDED","object":{"n":${'9'.repeat(50)}}}\n`;
    for (const size of [1, 7, 1000]) {
      expect(() => bounded(mode, chunked(text, size), { maxTokenChars: 20 })).toThrow(new JsonTooLarge('a value of more than 20 characters outside strings'));
    }
    // At the bound, and with whitespace and commas between short values, it is read.
    expect(bounded(mode, [text.replace('9'.repeat(50), '9'.repeat(20))], { maxTokenChars: 20 }).values).toHaveLength(mode === 'items' ? 2 : 1);
    expect(bounded('items', [`{"items":[[${'1, '.repeat(100)}true ,\n null]]}`], { maxTokenChars: 4 }).values).toHaveLength(1);
  });

  it.each(['items', 'lines'] as const)('%s: an item or event larger than the bound is refused, its strings cut or not', (mode) => {
    const many = JSON.stringify({ list: Array.from({ length: 200 }, (_, i) => i) });
    const text = mode === 'items' ? `{"items":[{"a":1},${many}]}` : `{"type":"ADDED","object":{"a":1}}\n{"type":"ADDED","object":${many}}\n`;
    for (const size of [3, 64, 100_000]) {
      const values: unknown[] = [];
      const stream = readerFor(mode, (t) => values.push(JSON.parse(t)), 100, { maxValueChars: 500 });
      expect(() => chunked(text, size).forEach((chunk) => stream.push(chunk))).toThrow(new JsonTooLarge('a value of more than 500 characters'));
      // What came before it was handed over.
      expect(values).toHaveLength(1);
    }
  });

  it("the page's own fields are bounded too, and the whitespace between items is not kept", () => {
    expect(() => bounded('items', [`{"extra":[${'1,'.repeat(400)}1],"items":[]}`], { maxValueChars: 500 })).toThrow(JsonTooLarge);
    const { values, rest } = bounded('items', [`{"items":[{"a":1}${' '.repeat(5000)},{"b":2}]}`], { maxValueChars: 500 });
    expect(values).toEqual([{ a: 1 }, { b: 2 }]);
    expect(JSON.parse(rest)).toEqual({ items: [] });
  });
});
