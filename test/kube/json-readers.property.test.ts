/**
 * The JSON readers (src/kube/json-items.ts, json-lines.ts) against `JSON.parse`, whatever the chunking: they
 * are the one parser that reads bytes a hostile server controls. Valid documents are generated (LIST pages
 * with `items` among other fields in any order, watch streams of one event per line; nested values, every kind of escape, multi-byte UTF-8, numbers,
 * literals, whitespace), encoded to UTF-8, cut at every byte and at random sets of bytes, decoded as the client
 * decodes a response (`setEncoding('utf8')`: a StringDecoder), and what the reader hands over must equal
 * `JSON.parse` of the whole — with every string cut to the cap as `capStrings` below says, when a cap is set.
 * Seeded: a failure names its seed, and `seeded(SEED)` replays it.
 */
import { describe, expect, it } from '@jest/globals';
import { StringDecoder } from 'node:string_decoder';
import { JsonTooLarge, type ScannerBounds } from '../../src/kube/json-scanner.js';
import { readerFor, type Mode } from './json-reader.js';

/** mulberry32: a tiny seeded generator, so that a failing case can be replayed from its seed. */
function seeded(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return { int, chance: (p: number) => next() < p, pick: <T>(xs: readonly T[]): T => xs[int(xs.length)]! };
}
type Random = ReturnType<typeof seeded>;

// ---- Generating valid JSON text (the text, not a value: how it is written is what is being tested) ----

/** Characters of string values: JSON's own punctuation, what must be escaped, 2-, 3- and 4-byte UTF-8. */
const CHARACTERS = [
  'a',
  'z',
  '0',
  ' ',
  'i',
  't',
  'e',
  'm',
  's',
  '"',
  '\\',
  '/',
  '\n',
  '\t',
  '\b',
  '\f',
  '\r',
  '\u0001',
  '\u001f',
  '<',
  'é',
  '中',
  '😀',
  '𝄞',
  '{',
  '}',
  '[',
  ']',
  ':',
  ',',
  '\u2028',
];
const SHORT_ESCAPES: Record<string, string> = { '"': '\\"', '\\': '\\\\', '/': '\\/', '\n': '\\n', '\t': '\\t', '\b': '\\b', '\f': '\\f', '\r': '\\r' };

const hex = (r: Random, code: number) => {
  const digits = code.toString(16).padStart(4, '0');
  return `\\u${r.chance(0.5) ? digits : digits.toUpperCase()}`;
};

/** One character as JSON may write it: raw where allowed, else (and sometimes anyway) escaped. */
function writeCharacter(r: Random, c: string): string {
  const mustEscape = c === '"' || c === '\\' || c.charCodeAt(0) < 0x20;
  if (!mustEscape && r.chance(0.7)) return c;
  if (SHORT_ESCAPES[c] !== undefined && r.chance(0.6)) return SHORT_ESCAPES[c];
  // A character beyond the BMP is escaped as its surrogate pair.
  return Array.from({ length: c.length }, (_, i) => hex(r, c.charCodeAt(i))).join('');
}

function writeString(r: Random, maxLength: number): string {
  const length = r.int(maxLength + 1);
  let text = '"';
  for (let i = 0; i < length; i++) text += writeCharacter(r, r.pick(CHARACTERS));
  return `${text}"`;
}

function writeNumber(r: Random): string {
  const digits = (n: number) => Array.from({ length: n }, () => r.int(10)).join('');
  let text = r.chance(0.3) ? '-' : '';
  text += r.chance(0.2) ? '0' : `${1 + r.int(9)}${digits(r.int(6))}`;
  if (r.chance(0.3)) text += `.${digits(1 + r.int(4))}`;
  if (r.chance(0.2)) text += `${r.pick(['e', 'E'])}${r.pick(['', '+', '-'])}${digits(1 + r.int(2))}`;
  return text;
}

/** Whitespace between tokens: mostly none, as servers write; newlines only where lines do not frame. */
const space = (r: Random, multiline: boolean) => (r.chance(0.8) ? '' : r.pick(multiline ? [' ', '\t', '\n', '\r\n', '  \n '] : [' ', '\t', '\r', ' \t ']));

interface Shape {
  multiline: boolean;
  depth: number;
}

function writeObject(r: Random, shape: Shape, fields: Array<[string, string]> = []): string {
  const s = () => space(r, shape.multiline);
  const keys = new Set(fields.map(([key]) => JSON.parse(key) as string));
  for (let n = r.int(4); n > 0; n--) {
    // A key an API server would write, or any string (escapes included), never twice in one object.
    const key = r.chance(0.5) ? JSON.stringify(r.pick(['metadata', 'name', 'items', 'spec', 'status', 'kind', 'i'])) : writeString(r, 6);
    const parsed = JSON.parse(key) as string;
    if (keys.has(parsed)) continue;
    keys.add(parsed);
    fields.push([key, writeValue(r, { ...shape, depth: shape.depth + 1 })]);
  }
  shuffle(r, fields);
  return `{${s()}${fields.map(([key, value]) => `${key}${s()}:${s()}${value}`).join(`${s()},${s()}`)}${s()}}`;
}

function writeArray(r: Random, shape: Shape, values?: string[]): string {
  const s = () => space(r, shape.multiline);
  const elements = values ?? Array.from({ length: r.int(4) }, () => writeValue(r, { ...shape, depth: shape.depth + 1 }));
  return `[${s()}${elements.join(`${s()},${s()}`)}${s()}]`;
}

function writeValue(r: Random, shape: Shape): string {
  const nested = shape.depth < 4 ? ['object', 'array', 'object'] : [];
  switch (r.pick([...nested, 'string', 'string', 'number', 'literal'])) {
    case 'object':
      return writeObject(r, shape);
    case 'array':
      return writeArray(r, shape);
    case 'string':
      return writeString(r, 12);
    case 'number':
      return writeNumber(r);
    default:
      return r.pick(['true', 'false', 'null']);
  }
}

function shuffle<T>(r: Random, xs: T[]): void {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = r.int(i + 1);
    [xs[i], xs[j]] = [xs[j]!, xs[i]!];
  }
}

/** A LIST page: `items` (written plainly, as API servers do) among other top-level fields, in any order. */
function writeList(r: Random): string {
  const shape = { multiline: r.chance(0.5), depth: 1 };
  const items = Array.from({ length: r.int(5) }, () => writeObject(r, { ...shape, depth: 2 }));
  const metadata = writeObject(r, { ...shape, depth: 2 }, [
    ['"resourceVersion"', writeString(r, 8)],
    ['"continue"', writeString(r, 20)],
  ]);
  const fields: Array<[string, string]> = [
    ['"items"', writeArray(r, shape, items)],
    ['"kind"', '"ConfigMapList"'],
    ['"metadata"', metadata],
  ];
  return space(r, shape.multiline) + writeObject(r, shape, fields) + space(r, shape.multiline);
}

/** A watch stream: events one per line (LF or CRLF), blank lines between some, the last newline optional. */
function writeWatch(r: Random): { text: string; events: string[] } {
  const events = Array.from({ length: 1 + r.int(4) }, () =>
    writeObject(r, { multiline: false, depth: 1 }, [
      ['"type"', JSON.stringify(r.pick(['ADDED', 'MODIFIED', 'DELETED', 'BOOKMARK']))],
      ['"object"', writeObject(r, { multiline: false, depth: 2 })],
    ]),
  );
  const newline = () => r.pick(['\n', '\r\n', '\n\n', '\r\n\r\n']);
  const text = events.map((event, i) => event + (i < events.length - 1 || r.chance(0.5) ? newline() : '')).join('');
  return { text, events };
}

// ---- The reference: what the reader must hand over ----

/**
 * `text` with every string value cut as the reader cuts it: after `cap` characters as written (escapes
 * included), at the first boundary of a character, an escape or a surrogate pair from there, and `…` added —
 * unless the string ends there.
 */
function capStrings(text: string, cap: number): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    if (text[i] !== '"') {
      out += text[i++];
      continue;
    }
    const start = i + 1;
    let end = start;
    let cut: number | undefined;
    while (text[end] !== '"') {
      if (cut === undefined && end - start >= cap) cut = end;
      const c = text.charCodeAt(end);
      end += c === 0x5c ? (text[end + 1] === 'u' ? 6 : 2) : c >= 0xd800 && c <= 0xdbff ? 2 : 1;
    }
    out += `"${cut === undefined ? text.slice(start, end) : `${text.slice(start, cut)}…`}"`;
    i = end + 1;
  }
  return out;
}

/** The values outside strings (numbers, literals) as written in `text`. */
function tokensOutsideStrings(text: string): string[] {
  const withoutStrings = text.replace(/"(?:[^"\\]|\\.)*"/g, ' ');
  return withoutStrings.split(/[\s,{}[\]:]+/).filter((t) => t !== '');
}

// ---- Reading ----

/** What the reader hands over when `bytes` arrive cut at `cuts`, decoded as the client decodes a body. */
function read(
  mode: Mode,
  bytes: Buffer,
  cuts: number[],
  cap?: number,
  bounds: Omit<ScannerBounds, 'maxStringChars'> = {},
): { values: unknown[]; rest: string } {
  const values: unknown[] = [];
  const stream = readerFor(mode, (text) => values.push(parseOrSay(text)), cap, bounds);
  const decoder = new StringDecoder('utf8');
  let from = 0;
  for (const to of [...cuts, bytes.length]) {
    const text = decoder.write(bytes.subarray(from, to));
    if (text !== '') stream.push(text);
    from = to;
  }
  const last = decoder.end();
  if (last !== '') stream.push(last);
  return { values, rest: stream.end() };
}

/** Valid input must give valid JSON: text that is not is kept as it is, so that the failure shows it. */
function parseOrSay(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return { notJson: text };
  }
}

/** Every cut of `bytes` in two, then `sets` random sets of 2 to 12 cuts. */
function* cutsOf(r: Random, bytes: Buffer, sets: number): Generator<number[]> {
  for (let at = 0; at <= bytes.length; at++) yield [at];
  for (let n = 0; n < sets; n++) {
    const cuts = Array.from({ length: 2 + r.int(11) }, () => r.int(bytes.length + 1));
    yield cuts.sort((a, b) => a - b);
  }
}

/**
 * The cap for a case: none, the default, or a small one so that nearly every string is cut — but never below
 * 5, where the key `items` itself would be cut (real caps are 64 Ki characters).
 */
const capFor = (r: Random) => r.pick([undefined, Number.POSITIVE_INFINITY, 5 + r.int(4), 9 + r.int(20)]);

function expectList(seed: number) {
  const r = seeded(seed);
  const text = writeList(r);
  const cap = capFor(r);
  const whole = JSON.parse(cap === undefined ? text : capStrings(text, cap)) as { items: unknown[] };
  const expected = { values: whole.items, rest: { ...whole, items: [] } };
  const bytes = Buffer.from(text);
  for (const cuts of cutsOf(r, bytes, 12)) {
    const { values, rest } = read('items', bytes, cuts, cap);
    const got = { values, rest: parseOrSay(rest) };
    if (!equal(got, expected)) expect({ seed, cap, cuts, text, ...got }).toEqual({ seed, cap, cuts, text, ...expected });
  }
}

function expectWatch(seed: number) {
  const r = seeded(seed);
  const { text, events } = writeWatch(r);
  const cap = capFor(r);
  const expected = events.map((event) => JSON.parse(cap === undefined ? event : capStrings(event, cap)) as unknown);
  const bytes = Buffer.from(text);
  for (const cuts of cutsOf(r, bytes, 12)) {
    const { values } = read('lines', bytes, cuts, cap);
    if (!equal(values, expected)) expect({ seed, cap, cuts, text, values }).toEqual({ seed, cap, cuts, text, values: expected });
  }
}

/** A cheap deep equality for the hot loop (`toEqual` on every cut would cost most of the run). */
const equal = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

const SEEDS = Array.from({ length: 25 }, (_, i) => i + 1);

describe('JsonItems and JsonLines against JSON.parse, cut anywhere', () => {
  it('the generator writes valid JSON, and every kind of text it means to', () => {
    const texts = SEEDS.flatMap((seed) => [writeList(seeded(seed)), ...writeWatch(seeded(seed)).events]);
    for (const text of texts) expect(() => JSON.parse(text)).not.toThrow();
    const all = texts.join('') + SEEDS.map((seed) => writeWatch(seeded(seed)).text).join('');
    for (const written of ['\\"', '\\\\', '\\u', '\\uD8', '😀', '中', 'é', 'true', 'null', '\r\n', '\t', 'e+']) expect(all).toContain(written);
  });

  it.each(SEEDS)('a LIST page hands over each item, and the page without them (seed %i)', (seed) => expectList(seed));

  it.each(SEEDS)('a watch stream hands over each event (seed %i)', (seed) => expectWatch(seed));

  it.each(SEEDS.slice(0, 10))('whatever the bytes, even broken JSON, the chunking changes nothing (seed %i)', (seed) => {
    // What a hostile or broken server may send: a valid document cut short, or with a character removed or
    // put in; the reader's bounds and what it hands over (or the client's "not JSON" error) stay the same.
    const r = seeded(seed);
    const cap = 5 + r.int(20);
    for (const mode of ['items', 'lines'] as const) {
      const valid = mode === 'items' ? writeList(r) : writeWatch(r).text;
      const at = r.int(valid.length);
      const broken = r.pick([
        valid.slice(0, at),
        valid.slice(0, at) + valid.slice(at + 1),
        valid.slice(0, at) + r.pick(['"', '\\', '{', '}', '[', ']', ':', '\n']) + valid.slice(at),
      ]);
      const bytes = Buffer.from(broken);
      const whole = JSON.stringify(read(mode, bytes, [], cap));
      for (const cuts of cutsOf(r, bytes, 12)) {
        const got = JSON.stringify(read(mode, bytes, cuts, cap));
        if (got !== whole) expect({ seed, mode, cap, cuts, broken, got }).toEqual({ seed, mode, cap, cuts, broken, got: whole });
      }
    }
  });

  it.each(SEEDS)('bounds of values outside strings and of each item: refused or not whatever the chunking, and never when within them (seed %i)', (seed) => {
    const r = seeded(seed);
    for (const mode of ['items', 'lines'] as const) {
      const text = mode === 'items' ? writeList(r) : writeWatch(r).text;
      const cap = 5 + r.int(20);
      // Small bounds, so that some documents pass them and some do not; a watch line under the cap is not scanned.
      const bounds = { maxTokenChars: 4 + r.int(12), maxValueChars: 10 + r.int(300) };
      const bytes = Buffer.from(text);
      const outcome = (cuts: number[]) => {
        let refused = false;
        const values: unknown[] = [];
        const stream = readerFor(mode, (t) => values.push(parseOrSay(t)), cap, bounds);
        const decoder = new StringDecoder('utf8');
        let from = 0;
        try {
          for (const to of [...cuts, bytes.length]) {
            stream.push(decoder.write(bytes.subarray(from, to)));
            from = to;
          }
          stream.end();
        } catch (error) {
          if (!(error instanceof JsonTooLarge)) throw error;
          refused = true;
        }
        return JSON.stringify({ refused, values });
      };
      const whole = outcome([]);
      const { refused } = JSON.parse(whole) as { refused: boolean };
      // A value outside strings longer than its bound is always refused (a watch line is scanned when it is
      // longer than the string cap); one whose every value and item is within the bounds never is.
      const longestToken = Math.max(0, ...tokensOutsideStrings(text).map((t) => t.length));
      const scanned = mode === 'items' || text.split('\n').some((line) => line.length > cap);
      if (scanned && longestToken > bounds.maxTokenChars) expect({ seed, mode, text, refused }).toMatchObject({ refused: true });
      if (longestToken <= bounds.maxTokenChars && text.length <= bounds.maxValueChars) expect({ seed, mode, text, refused }).toMatchObject({ refused: false });
      for (const cuts of cutsOf(r, bytes, 12)) {
        const got = outcome(cuts);
        if (got !== whole) expect({ seed, mode, bounds, cuts, text, got }).toEqual({ seed, mode, bounds, cuts, text, got: whole });
      }
    }
  });

  it('the reference cuts as the reader is documented to', () => {
    expect(capStrings('{"a":"abcdef","b":"ab"}', 3)).toBe('{"a":"abc…","b":"ab"}');
    expect(capStrings('["ab\\"c", "ab\\u00e9c", "a😀b"]', 3)).toBe('["ab\\"…", "ab\\u00e9…", "a😀…"]');
    expect(capStrings('["abc"]', 3)).toBe('["abc"]');
  });
});
