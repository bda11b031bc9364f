/**
 * JSON from the API server cut into objects as it arrives, so that neither a whole LIST page nor an
 * outsized value is ever held or parsed at once:
 * - `lines` (a watch stream): each line is one event, handed over as its own text (a line that is not JSON
 *   too: the reader skips it);
 * - `items` (a LIST response): each element of the top-level `items` array is handed over as its own
 *   text as soon as it is complete, and what is left (`kind`, `metadata` with `continue` and
 *   `resourceVersion`, `items: []`) is returned at the end.
 * Every string value longer than `MAX_STRING_CHARS` is cut to that length (and `…`) on the way: one object
 * with a 50 MB annotation costs 64 Ki characters, not the 50 MB text, the 50 MB parsed string and their
 * copies. Nothing kubewait judges or reports reads a string that long (what it keeps of an object:
 * src/status/judged-fields.ts). The cut falls between characters, escapes (`\u003c` whole) and surrogate
 * pairs, so that the text stays JSON. The chunks must already be decoded text, so a character is never cut.
 * The items are those of the key written plainly as `items`, as API servers write it.
 */

/** The most characters of one JSON string value kept (as written in the JSON text, escapes included). */
export const MAX_STRING_CHARS = 64 * 1024;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const NEWLINE = 0x0a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COLON = 0x3a;
const LETTER_U = 0x75;
/** A key longer than this is not `items`: not worth collecting. */
const KEY_CHARS = 16;
const AFTER_BACKSLASH = -1;

export type JsonStreamMode = 'lines' | 'items';

/** Where the characters being read go. */
type Sink = 'value' | 'rest' | 'none';

export class JsonStream {
  private depth = 0;
  private inString = false;
  /** In a string: characters left of the escape being read; `AFTER_BACKSLASH` until its letter says how many. */
  private escape = 0;
  private stringChars = 0;
  /** Past the cap of the current string: its characters are dropped until it ends. */
  private skipping = false;
  private sink: Sink;
  private value: string[] = [];
  private readonly rest: string[] = [];
  /** `items` mode: the last string read at the top level, when short (a key), and the last key. */
  private token: string | undefined;
  private key: string | undefined;
  private inItems = false;
  /** `lines` mode: the line being received while it is no longer than the cap, so that it cannot hold an
   *  outsized string and is handed over without a scan; and whether the current line is being scanned. */
  private line: string[] = [];
  private lineChars = 0;
  private scanning = false;

  constructor(
    private readonly mode: JsonStreamMode,
    private readonly onValue: (text: string) => void,
    private readonly maxStringChars = MAX_STRING_CHARS,
  ) {
    this.sink = mode === 'items' ? 'rest' : 'none';
  }

  push(chunk: string): void {
    if (this.mode === 'items') return this.scan(chunk);
    // A watch line no longer than the cap cannot hold a string longer than it: found by `indexOf` and handed
    // over as it is (what nearly every event is). Only a longer line is scanned, from its start.
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf('\n', start);
      const end = newline < 0 ? chunk.length : newline;
      const next = newline < 0 ? chunk.length : newline + 1;
      if (this.scanning) {
        this.scan(chunk.slice(start, next));
        if (newline >= 0) this.scanning = false; // the scan ended the line and started afresh
      } else if (this.lineChars + (end - start) > this.maxStringChars) {
        this.scanning = true;
        this.scan(this.takeLine() + chunk.slice(start, next));
        if (newline >= 0) this.scanning = false;
      } else if (newline < 0) {
        this.line.push(chunk.slice(start));
        this.lineChars += chunk.length - start;
      } else {
        const line = this.takeLine() + chunk.slice(start, end);
        const text = line.endsWith('\r') ? line.slice(0, -1) : line;
        if (text !== '') this.onValue(text);
      }
      start = next;
    }
  }

  private takeLine(): string {
    const line = this.line.join('');
    this.line = [];
    this.lineChars = 0;
    return line;
  }

  /** The state machine: every character that is not in a run of ordinary ones. */
  private scan(chunk: string): void {
    let from = 0;
    const flush = (to: number) => {
      if (to > from) this.write(chunk.slice(from, to));
      from = to;
    };
    const length = chunk.length;
    for (let i = 0; i < length; i++) {
      // Runs of ordinary characters in a tight loop; the character that ends one is handled below.
      if (this.inString && !this.skipping && this.escape === 0) {
        const start = i;
        const cap = this.maxStringChars;
        let chars = this.stringChars;
        for (; i < length && chars < cap; i++, chars++) {
          const d = chunk.charCodeAt(i);
          if (d === QUOTE || d === BACKSLASH || d === NEWLINE) break;
        }
        if (this.token !== undefined && this.token.length <= KEY_CHARS) this.token += chunk.slice(start, Math.min(i, start + KEY_CHARS + 1));
        this.stringChars = chars;
        if (i === length) break;
      } else if (!this.inString) {
        for (; i < length; i++) {
          const d = chunk.charCodeAt(i);
          if (d === QUOTE || d === OPEN_BRACE || d === CLOSE_BRACE || d === OPEN_BRACKET || d === CLOSE_BRACKET || d === COLON || d === NEWLINE) break;
        }
        if (i === length) break;
      }
      const c = chunk.charCodeAt(i);
      if (this.inString) {
        if (this.skipping) {
          // Only whether a quote is escaped matters here: the hex digits of `\u` are never quotes.
          if (this.escape !== 0) this.escape = 0;
          else if (c === BACKSLASH) this.escape = AFTER_BACKSLASH;
          else if (c === QUOTE) {
            this.inString = false;
            this.skipping = false;
            from = i; // the closing quote is kept
          } else if (c === NEWLINE && this.mode === 'lines') {
            this.inString = false;
            this.skipping = false;
            from = i;
            i--; // a raw newline cannot be in a string: the line was broken; read it as a newline
          }
          continue;
        }
        if (this.escape !== 0) {
          // A `\uXXXX` escape is one character: cutting inside it would leave text that is not JSON.
          this.escape = this.escape === AFTER_BACKSLASH && c === LETTER_U ? 4 : this.escape === AFTER_BACKSLASH ? 0 : this.escape - 1;
          this.stringChars++;
          continue;
        }
        if (c === QUOTE) {
          this.inString = false;
          continue;
        }
        if (c === NEWLINE && this.mode === 'lines') {
          this.inString = false;
          i--;
          continue;
        }
        // Cut before an escape or a character, never inside an escape or between the halves of a surrogate pair.
        if (this.stringChars >= this.maxStringChars && !(c >= 0xdc00 && c <= 0xdfff)) {
          flush(i);
          this.write('…');
          this.skipping = true;
          if (c === BACKSLASH) this.escape = AFTER_BACKSLASH;
          continue;
        }
        // A key written with an escape is not the plain `items` an API server writes.
        if (c === BACKSLASH) {
          this.escape = AFTER_BACKSLASH;
          this.token = undefined;
        } else if (this.token !== undefined && this.token.length <= KEY_CHARS) this.token += chunk[i];
        this.stringChars++;
        continue;
      }
      switch (c) {
        case QUOTE:
          this.inString = true;
          this.stringChars = 0;
          this.token = this.mode === 'items' && this.depth === 1 ? '' : undefined;
          break;
        case COLON:
          if (this.depth === 1) this.key = this.token;
          break;
        case OPEN_BRACE:
        case OPEN_BRACKET:
          if (this.startsValue()) {
            flush(i);
            this.sink = 'value';
          }
          this.depth++;
          if (this.mode === 'items' && this.depth === 2 && c === OPEN_BRACKET && this.key === 'items') {
            this.inItems = true;
            flush(i + 1);
            this.sink = 'none';
          }
          break;
        case CLOSE_BRACE:
        case CLOSE_BRACKET:
          if (this.depth > 0) this.depth--;
          if (this.sink === 'value' && this.depth === this.valueDepth()) {
            flush(i + 1);
            this.emit();
            this.sink = 'none';
          } else if (this.inItems && this.depth === 1) {
            this.inItems = false;
            from = i;
            this.sink = 'rest';
          }
          break;
        case NEWLINE:
          if (this.mode === 'lines') {
            // One event per line: a line that ended inside a value was not JSON; start afresh.
            flush(i);
            this.reset();
            from = i + 1;
          }
          break;
      }
    }
    if (!this.skipping) flush(length);
  }

  /** The stream ended. `items` mode: the response without its items (`{"metadata":{...},"items":[]}`). */
  end(): string {
    if (this.mode === 'lines') {
      // A last line without a newline still counts.
      const last = this.scanning ? '' : this.takeLine();
      if (last.trim() !== '') this.onValue(last);
      this.scanning = false;
      this.reset();
    }
    return this.rest.join('');
  }

  private startsValue(): boolean {
    return this.sink !== 'value' && this.depth === this.valueDepth() && (this.mode === 'lines' || this.inItems);
  }

  private valueDepth(): number {
    return this.mode === 'lines' ? 0 : 2;
  }

  private write(text: string): void {
    if (this.sink === 'value') this.value.push(text);
    else if (this.sink === 'rest') this.rest.push(text);
  }

  private emit(): void {
    const text = this.value.join('');
    this.value = [];
    this.onValue(text);
  }

  private reset(): void {
    this.depth = 0;
    this.inString = false;
    this.escape = 0;
    this.skipping = false;
    this.value = [];
    this.sink = 'none';
  }
}
