/**
 * What the two JSON readers share (json-items.ts for LIST bodies, json-lines.ts for watch streams): reading
 * JSON text as it arrives, chunk by chunk, with strings and escapes understood and every string value cut to a
 * cap, and telling its reader about the characters that give the text its structure. The reader decides where
 * the text goes (`route`); the scanner never holds more than the chunk it is given.
 *
 *     const scanner = new JsonScanner(reader, { maxStringChars });  // reader: a `StructureReader`
 *     scanner.scan(chunk);  // calls reader.structure(...) for `{ [ } ] :` outside strings
 *
 * Every string longer than the cap (counted as written, escapes included) is cut at the first boundary from
 * there of a character, an escape (`\u003c` whole) or a surrogate pair, and `…` put in its place: the text
 * stays JSON, and one object with a 50 MB annotation costs 64 Ki characters, not the 50 MB text, the 50 MB
 * parsed string and their copies. The chunks must already be decoded text, so a character is never cut.
 *
 * What cannot be cut and stay what it was is refused instead, with `JsonTooLarge`: a value outside strings
 * (a number, a literal) longer than `maxTokenChars`, and more than `maxValueChars` of text routed to one place
 * (an item, an event, a page's own fields). So the scanner's reader holds a bounded amount whatever the body:
 * a 200 MB number, a field of millions of small values, a gzip bomb's output.
 */

/** The most characters of one JSON string value kept (as written in the JSON text, escapes included).
 *  Nothing kubewait judges or reports reads a string that long (what it keeps: src/status/judged-fields.ts). */
export const MAX_STRING_CHARS = 64 * 1024;

/** The most characters of one value outside strings: a number (int64 needs 20), `true`, `null`. No API
 *  server writes a longer one, and a number cannot be cut and stay the number it was. */
export const MAX_TOKEN_CHARS = 1024;

/** The most characters routed to one place: an item of a LIST page, a watch event, a page's own fields. An
 *  object in etcd has at most 1.5 MiB by default (3 MiB at most); its strings cut, it is far less. */
export const MAX_VALUE_CHARS = 8 * 1024 * 1024;

/** A body the scanner refuses: a value it cannot cut and keep (its message says which bound, for an error). */
export class JsonTooLarge extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JsonTooLarge';
  }
}

/** The bounds of a scanner; any left out is the default above. */
export interface ScannerBounds {
  maxStringChars?: number;
  maxTokenChars?: number;
  maxValueChars?: number;
}

/** A string of at most this many characters, without escapes, is given as `shortText` when asked (a key). */
const SHORT_TEXT_CHARS = 16;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
export const OPEN_BRACE = 0x7b;
export const CLOSE_BRACE = 0x7d;
export const OPEN_BRACKET = 0x5b;
export const CLOSE_BRACKET = 0x5d;
export const COLON = 0x3a;
const LETTER_U = 0x75;
const COMMA = 0x2c;
const SPACE = 0x20;
const TAB = 0x09;
const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;
/** The state just after a backslash, until the escape's letter says how long it is. */
const AFTER_BACKSLASH = -1;

/** What a reader does with the structure the scanner finds (its methods are called by the scanner only). */
export interface StructureReader {
  /** `{`, `[`, `}`, `]` or `:` outside strings, at index `at` of the chunk being scanned. */
  structure(c: number, at: number): void;
  /** A string starts: whether its text is wanted in `shortText` (keys). */
  wantsText(): boolean;
}

export class JsonScanner {
  /** Where the text read goes (the reader switches it with `route`); nowhere when undefined. */
  private into: string[] | undefined;
  /** The start of the text of the current chunk not yet routed. */
  private from = 0;
  private chunk = '';
  private inString = false;
  /** In a string: characters left of the escape being read, or `AFTER_BACKSLASH`; 0 outside an escape. */
  private escape = 0;
  private stringChars = 0;
  /** Past the cap of the current string: its characters are dropped until it ends. */
  private skipping = false;
  /** Characters of the value outside strings being read (a number, a literal). */
  private tokenChars = 0;
  /** Characters routed to `into` since it was chosen. */
  private routedChars = 0;
  /** The text of the last string whose reader wanted it, while it is short and has no escape. */
  shortText: string | undefined;
  private readonly maxStringChars: number;
  private readonly maxTokenChars: number;
  private readonly maxValueChars: number;

  constructor(
    private readonly reader: StructureReader,
    bounds: ScannerBounds = {},
  ) {
    this.maxStringChars = bounds.maxStringChars ?? MAX_STRING_CHARS;
    this.maxTokenChars = bounds.maxTokenChars ?? MAX_TOKEN_CHARS;
    this.maxValueChars = bounds.maxValueChars ?? MAX_VALUE_CHARS;
  }

  /** From `at` of the chunk being scanned, the text goes to `into`; what was read before goes where it went. */
  route(into: string[] | undefined, at: number): void {
    this.flush(at);
    this.into = into;
    this.routedChars = 0;
  }

  /** Start afresh, outside any string, the text going nowhere (a watch line that ended mid-value). */
  reset(): void {
    this.inString = false;
    this.escape = 0;
    this.skipping = false;
    this.into = undefined;
    this.tokenChars = 0;
    this.routedChars = 0;
  }

  scan(chunk: string): void {
    this.chunk = chunk;
    this.from = 0;
    const length = chunk.length;
    for (let i = 0; i < length; i++) {
      if (!this.inString) {
        // Runs of characters without structure in a tight loop; the one that ends a run is handled below.
        // Whitespace and commas end a value outside strings; its other characters are counted to the bound.
        let tokenChars = this.tokenChars;
        for (; i < length; i++) {
          const d = chunk.charCodeAt(i);
          if (d === QUOTE || d === OPEN_BRACE || d === CLOSE_BRACE || d === OPEN_BRACKET || d === CLOSE_BRACKET || d === COLON) break;
          if (d === COMMA || d === SPACE || d === LINE_FEED || d === CARRIAGE_RETURN || d === TAB) tokenChars = 0;
          else if (++tokenChars > this.maxTokenChars) throw new JsonTooLarge(`a value of more than ${this.maxTokenChars} characters outside strings`);
        }
        this.tokenChars = tokenChars;
        if (i === length) break;
        this.tokenChars = 0;
        const c = chunk.charCodeAt(i);
        if (c === QUOTE) this.openString();
        else this.reader.structure(c, i);
        continue;
      }
      if (!this.skipping && this.escape === 0) {
        // Runs of ordinary characters of a string, up to the cap.
        const start = i;
        const cap = this.maxStringChars;
        let chars = this.stringChars;
        for (; i < length && chars < cap; i++, chars++) {
          const d = chunk.charCodeAt(i);
          if (d === QUOTE || d === BACKSLASH) break;
        }
        if (this.shortText !== undefined) this.addText(chunk.slice(start, Math.min(i, start + SHORT_TEXT_CHARS + 1)));
        this.stringChars = chars;
        if (i === length) break;
      }
      this.inStringAt(chunk.charCodeAt(i), i);
    }
    if (!this.skipping) this.flush(length);
  }

  /** The text read up to `at` goes where the text goes now, within the bound of one value. */
  private flush(at: number): void {
    if (at > this.from && this.into) {
      this.routedChars += at - this.from;
      if (this.routedChars > this.maxValueChars) throw new JsonTooLarge(`a value of more than ${this.maxValueChars} characters`);
      this.into.push(this.chunk.slice(this.from, at));
    }
    this.from = at;
  }

  private openString(): void {
    this.inString = true;
    this.stringChars = 0;
    this.shortText = this.reader.wantsText() ? '' : undefined;
  }

  /** A character of a string that is not in a run of ordinary ones: a quote, an escape, or one at the cap. */
  private inStringAt(c: number, at: number): void {
    if (this.skipping) {
      // Only whether a quote is escaped matters here: the hex digits of `\u` are never quotes.
      if (this.escape !== 0) this.escape = 0;
      else if (c === BACKSLASH) this.escape = AFTER_BACKSLASH;
      else if (c === QUOTE) {
        this.inString = false;
        this.skipping = false;
        this.from = at; // the closing quote is kept
      }
      return;
    }
    if (this.escape !== 0) {
      // A `\uXXXX` escape is one character: cutting inside it would leave text that is not JSON.
      if (this.escape === AFTER_BACKSLASH) this.escape = c === LETTER_U ? 4 : 0;
      else this.escape--;
      this.stringChars++;
      return;
    }
    if (c === QUOTE) {
      this.inString = false;
      return;
    }
    // Cut before an escape or a character, never between the halves of a surrogate pair.
    if (this.stringChars >= this.maxStringChars && !(c >= 0xdc00 && c <= 0xdfff)) {
      this.flush(at);
      this.into?.push('…');
      this.skipping = true;
      this.shortText = undefined;
      if (c === BACKSLASH) this.escape = AFTER_BACKSLASH;
      return;
    }
    if (c === BACKSLASH) {
      this.escape = AFTER_BACKSLASH;
      this.shortText = undefined; // a key written with an escape is not the plain key a reader looks for
    } else if (this.shortText !== undefined) this.addText(String.fromCharCode(c));
    this.stringChars++;
  }

  private addText(text: string): void {
    const longer = this.shortText + text;
    this.shortText = longer.length <= SHORT_TEXT_CHARS ? longer : undefined;
  }
}
