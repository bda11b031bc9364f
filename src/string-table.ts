/**
 * One shared copy of each short string seen, up to a bound. A wait of thousands of targets keeps many
 * strings that are the same from one target to the next (a type as written, a namespace, a condition's
 * reason), and each arrives as its own copy: parsed from an input line or from an object the API server
 * sent. A leaf: the targets and the engine keep what they keep through it.
 */

/** Strings longer than this are rarely repeated (they name the object): not worth an entry. */
const MOST_CHARS = 200;
/** At most this many strings, whatever the inputs and the cluster hold (< 1 MB). */
const MOST_STRINGS = 4096;

export class StringTable {
  private readonly strings = new Map<string, string>();

  constructor(
    private readonly most = MOST_STRINGS,
    private readonly longest = MOST_CHARS,
  ) {}

  /** `text`, or the equal string seen first. */
  intern(text: string): string {
    const shared = this.strings.get(text);
    if (shared !== undefined) return shared;
    if (text.length <= this.longest && this.strings.size < this.most) this.strings.set(text, text);
    return text;
  }

  get size(): number {
    return this.strings.size;
  }
}

/** The process's table: the strings are the cluster's and the inputs' vocabulary, the same for every wait. */
export const sharedStrings = new StringTable();
