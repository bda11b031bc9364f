/**
 * A LIST response cut into its items as it arrives, so that a whole page is never held or parsed at once:
 * each element of the top-level `items` array is handed over as its own text as soon as it is complete, and
 * what is left (`kind`, `metadata` with `continue` and `resourceVersion`, `items: []`) is returned at the end.
 * Strings longer than the cap are cut on the way, and an item or a page larger than its bound is refused
 * (json-scanner.ts: the bounds, and `JsonTooLarge` thrown from `push`).
 *
 *     const items = new JsonItems((text) => onItem(JSON.parse(text)), { maxStringChars });
 *     for (const chunk of body) items.push(chunk);  // decoded text
 *     const rest = JSON.parse(items.end());          // {"kind":...,"metadata":{...},"items":[]}
 *
 * The items are those of the key written plainly as `items`, as API servers write it.
 */
import { CLOSE_BRACE, CLOSE_BRACKET, COLON, JsonScanner, OPEN_BRACE, OPEN_BRACKET, type ScannerBounds, type StructureReader } from './json-scanner.js';

/** Depth of the page's own fields, and of each item inside `items`. */
const FIELD_DEPTH = 1;
const ITEM_DEPTH = 2;

export class JsonItems implements StructureReader {
  private readonly scanner: JsonScanner;
  private depth = 0;
  /** The last key of the page's own fields. */
  private key: string | undefined;
  private inItems = false;
  private inItem = false;
  private item: string[] = [];
  private readonly rest: string[] = [];

  constructor(
    private readonly onItem: (text: string) => void,
    bounds: ScannerBounds = {},
  ) {
    this.scanner = new JsonScanner(this, bounds);
    this.scanner.route(this.rest, 0);
  }

  push(chunk: string): void {
    this.scanner.scan(chunk);
  }

  /** The stream ended: the response without its items. */
  end(): string {
    return this.rest.join('');
  }

  wantsText(): boolean {
    return this.depth === FIELD_DEPTH;
  }

  structure(c: number, at: number): void {
    switch (c) {
      case COLON:
        if (this.depth === FIELD_DEPTH) this.key = this.scanner.shortText;
        break;
      case OPEN_BRACE:
      case OPEN_BRACKET:
        if (this.inItems && !this.inItem && this.depth === ITEM_DEPTH) {
          this.inItem = true;
          this.scanner.route(this.item, at);
        }
        this.depth++;
        if (this.depth === ITEM_DEPTH && c === OPEN_BRACKET && this.key === 'items') {
          // The `[` stays in the rest, which gets `]` at the end of the items: `"items":[]`.
          this.inItems = true;
          this.scanner.route(undefined, at + 1);
        }
        break;
      case CLOSE_BRACE:
      case CLOSE_BRACKET:
        if (this.depth > 0) this.depth--;
        if (this.inItem && this.depth === ITEM_DEPTH) {
          this.scanner.route(undefined, at + 1);
          this.inItem = false;
          const text = this.item.join('');
          this.item = [];
          this.onItem(text);
        } else if (this.inItems && this.depth === FIELD_DEPTH) {
          this.inItems = false;
          this.scanner.route(this.rest, at);
        }
        break;
    }
  }
}
