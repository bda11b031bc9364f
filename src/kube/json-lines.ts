/**
 * A watch stream cut into its events, one per line, each handed over as its own text (a line that is not JSON
 * too: the caller skips it). A line no longer than the string cap cannot hold a string longer than it: it is
 * found by `indexOf` and handed over as it is, which is what nearly every event is. Only a longer line is
 * scanned (json-scanner.ts), so that its outsized strings are cut on the way and the line is never held whole;
 * an event larger than the scanner's bound is refused (`JsonTooLarge` thrown from `push`), not held.
 *
 *     const lines = new JsonLines((text) => onEvent(JSON.parse(text)));
 *     for (const chunk of body) lines.push(chunk);  // decoded text
 *     lines.end();                                   // a last line without a newline still counts
 */
import {
  CLOSE_BRACE,
  CLOSE_BRACKET,
  JsonScanner,
  MAX_STRING_CHARS,
  OPEN_BRACE,
  OPEN_BRACKET,
  type ScannerBounds,
  type StructureReader,
} from './json-scanner.js';

export class JsonLines implements StructureReader {
  /** The line being received while it is no longer than the cap. */
  private line: string[] = [];
  private lineChars = 0;
  /** The current line is longer than the cap: it goes through the scanner, and `depth` and `value` are its. */
  private scanning = false;
  private readonly scanner: JsonScanner;
  private depth = 0;
  private value: string[] = [];
  /** A line no longer than this is handed over as it is: it cannot hold a string longer than the cap. */
  private readonly maxStringChars: number;

  constructor(
    private readonly onLine: (text: string) => void,
    bounds: ScannerBounds = {},
  ) {
    this.maxStringChars = bounds.maxStringChars ?? MAX_STRING_CHARS;
    this.scanner = new JsonScanner(this, bounds);
  }

  push(chunk: string): void {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf('\n', start);
      const end = newline < 0 ? chunk.length : newline;
      if (this.scanning) this.scanner.scan(chunk.slice(start, end));
      else if (this.lineChars + (end - start) > this.maxStringChars) {
        this.scanning = true;
        this.scanner.scan(this.takeLine() + chunk.slice(start, end));
      } else if (newline < 0) {
        this.line.push(chunk.slice(start));
        this.lineChars += chunk.length - start;
      } else {
        const line = this.takeLine() + chunk.slice(start, end);
        const text = line.endsWith('\r') ? line.slice(0, -1) : line;
        if (text !== '') this.onLine(text);
      }
      if (newline < 0) break;
      if (this.scanning) this.endScannedLine();
      start = newline + 1;
    }
  }

  /** The stream ended. A last line without a newline still counts; a scanned one has been handed over. */
  end(): void {
    const last = this.scanning ? '' : this.takeLine();
    if (last.trim() !== '') this.onLine(last);
    if (this.scanning) this.endScannedLine();
  }

  wantsText(): boolean {
    return false;
  }

  /** A scanned line's values are at the top level; a value not complete at the end of its line was not JSON. */
  structure(c: number, at: number): void {
    if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (this.depth === 0) this.scanner.route(this.value, at);
      this.depth++;
    } else if ((c === CLOSE_BRACE || c === CLOSE_BRACKET) && this.depth > 0) {
      this.depth--;
      if (this.depth === 0) {
        this.scanner.route(undefined, at + 1);
        const text = this.value.join('');
        this.value = [];
        this.onLine(text);
      }
    }
  }

  private endScannedLine(): void {
    this.scanning = false;
    this.scanner.reset();
    this.depth = 0;
    this.value = [];
  }

  private takeLine(): string {
    const line = this.line.join('');
    this.line = [];
    this.lineChars = 0;
    return line;
  }
}
