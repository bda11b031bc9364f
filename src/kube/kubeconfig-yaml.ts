/**
 * A fast path for reading a kubeconfig, with the `yaml` library as its fallback (src/kube/kubeconfig.ts,
 * `parseYaml`). Evaluating `yaml` (about 70 CommonJS modules: 25-33 ms in a fresh Node) and running its
 * parser cold (10-12 ms) was part of every wait's start (issue 35); without them the command's wait on one
 * ready Deployment takes about 16 ms less CPU (exact CPU per run, medians: 148 -> 132 ms). Yet kubectl, kind,
 * minikube, k3s and the clouds' CLIs all write the kubeconfig in the same small part of YAML: block mappings
 * and sequences of plain or simply quoted scalars. This reads that part, one line at a time, one small
 * function per construct, and refuses everything else.
 *
 * The contract: `undefined` for anything outside the subset, and otherwise exactly what
 * `parseDocument(text, { uniqueKeys: false }).toJS()` gives, for a text yaml reads without error
 * (test/kube/kubeconfig-yaml.test.ts checks both against yaml, on real kubeconfigs and their mutations).
 * When unsure, refuse: the fallback gives the same value, or the same error message, only slower. Refused:
 * anything but printable ASCII (tabs, \r, a BOM), document markers and directives, anchors, aliases, tags,
 * block scalars, flow collections other than `{}` and `[]`, escapes in double quotes, quoted scalars over
 * several lines, blank or comment lines inside a scalar, comments after content, quoted or duplicate keys,
 * and plain scalars the core schema would not read as a string (numbers, `~`, `Null`, `TRUE`, ...) other
 * than exactly `true`, `false` and `null`.
 */

export type KubeconfigValue = string | boolean | null | KubeconfigValue[] | { [key: string]: KubeconfigValue };

/** A line with content (blank and comment lines are dropped): its indentation and what follows it. */
interface Line {
  indent: number;
  text: string;
  /** A blank or comment line came just before: not the next line of a scalar. */
  afterGap: boolean;
}

/** Thrown to leave the reader when the text is outside its subset; never escapes `readKubeconfigYaml`. */
class Refused extends Error {}

function refuse(): never {
  throw new Refused();
}

/** `key:` or `key: value`; the key a plain word that the core schema reads as a string. */
const ENTRY = /^([A-Za-z_][\w./-]*):(?: +(.+))?$/;
/** The words the core schema reads as a boolean or null. */
const CORE_WORD = /^(?:null|Null|NULL|true|True|TRUE|false|False|FALSE)$/;
/** What may not start a plain scalar here: YAML's indicators, `~` (null) and `- ` (a sequence). */
const NOT_PLAIN_START = /^(?:[?:,[\]{}#&*!|>'"%@`~]|-(?: |$))/;
/** What may not start the next line of a plain scalar: YAML's indicators. */
const NOT_CONTINUATION_START = /^[-?:,[\]{}#&*!|>'"%@`]/;
/**
 * More than the plain scalars that yaml's core schema reads as numbers (its int, intOct, intHex, float,
 * floatExp and floatNaN tests), so that whatever else is left is a string: `6dae42f8-4368-...` (AKS's
 * server id) is, `0123`, `1e3`, `0x1F`, `.inf`, `1_000` and `.` are refused.
 */
const NUMBER_LIKE = /^[-+]?(?:0[ox][0-9a-fA-F_]*|[0-9_]*\.?[0-9_]*(?:[eE][-+]?[0-9_]*)?|\.(?:inf|Inf|INF|nan|NaN|NAN))$/;

/** The kubeconfig's top-level mapping, or `undefined` when the text is outside the subset read here. */
export function readKubeconfigYaml(text: string): Record<string, KubeconfigValue> | undefined {
  if (/[^\x20-\x7e\n]/.test(text)) return undefined;
  const lines: Line[] = [];
  let afterGap = false;
  for (const raw of text.split('\n')) {
    const line = raw.trimEnd();
    const content = line.trimStart();
    if (content === '' || content.startsWith('#')) {
      afterGap = true;
      continue;
    }
    if (/^(?:---|\.\.\.|%)/.test(line)) return undefined;
    lines.push({ indent: line.length - content.length, text: content, afterGap });
    afterGap = false;
  }
  if (lines[0]?.indent !== 0) return undefined;
  const reader = new Reader(lines);
  try {
    const document = reader.mapping(0);
    return reader.done() ? document : undefined;
  } catch (error) {
    // Nesting too deep for this reader's recursion is left to yaml too.
    if (error instanceof Refused || error instanceof RangeError) return undefined;
    throw error;
  }
}

class Reader {
  private position = 0;

  constructor(private readonly lines: Line[]) {}

  done(): boolean {
    return this.position === this.lines.length;
  }

  /** A block mapping whose entries are the lines at `indent`, from the current one. */
  mapping(indent: number): { [key: string]: KubeconfigValue } {
    const map: { [key: string]: KubeconfigValue } = {};
    for (let line = this.current(); line && line.indent >= indent; line = this.current()) {
      if (line.indent > indent) refuse();
      const [, key, value] = ENTRY.exec(line.text) ?? refuse();
      if (key === undefined || key.length > 1024 || CORE_WORD.test(key) || key === '__proto__' || Object.hasOwn(map, key)) refuse();
      this.position++;
      map[key] = value === undefined ? this.below(indent, true) : this.inline(value, indent);
    }
    return map;
  }

  /** A block sequence whose items are the `- ` lines at `indent`, from the current one. */
  sequence(indent: number): KubeconfigValue[] {
    const items: KubeconfigValue[] = [];
    for (let line = this.current(); line && line.indent >= indent; line = this.current()) {
      if (line.indent > indent) refuse();
      // The end of a sequence at its key's indentation: the mapping goes on.
      if (!isItem(line.text)) break;
      items.push(this.item(indent, line.text));
    }
    return items;
  }

  /**
   * One `- ` item. A mapping or a sequence that starts on the item's line has the column after `- ` as its
   * indentation (`- name: x` goes on with `  user: y`): the line is read again as if it began there.
   */
  private item(indent: number, text: string): KubeconfigValue {
    const rest = text.slice(1).trimStart();
    if (rest === '') {
      this.position++;
      return this.below(indent, false);
    }
    if (isItem(rest) || ENTRY.test(rest)) {
      const column = indent + text.length - rest.length;
      this.lines[this.position] = { indent: column, text: rest, afterGap: false };
      return isItem(rest) ? this.sequence(column) : this.mapping(column);
    }
    this.position++;
    return this.inline(rest, indent);
  }

  /**
   * The value of a `key:` or a `-` with nothing after it: the block on the next lines, more indented, or
   * after a key the sequence at the key's own indentation (`clusters:` then `- cluster:`, as kubectl writes
   * it); otherwise null.
   */
  private below(indent: number, afterKey: boolean): KubeconfigValue {
    const next = this.current();
    if (next && next.indent > indent) return isItem(next.text) ? this.sequence(next.indent) : this.mapping(next.indent);
    if (next && afterKey && next.indent === indent && isItem(next.text)) return this.sequence(indent);
    return null;
  }

  /**
   * A scalar after `key: ` or `- `. The lines after it that are more indented than its key or `-` continue
   * it, if it is plain: gcloud writes GKE's `installHint` over two lines. They are folded into one, with a
   * space between.
   */
  private inline(text: string, indent: number): KubeconfigValue {
    let next = this.current();
    if (!next || next.indent <= indent) return scalar(text);
    const parts = [text];
    for (; next && next.indent > indent; next = this.current()) {
      if (next.afterGap || NOT_CONTINUATION_START.test(next.text)) refuse();
      parts.push(next.text);
      this.position++;
    }
    return plain(parts.join(' '));
  }

  private current(): Line | undefined {
    return this.lines[this.position];
  }
}

function isItem(text: string): boolean {
  return text === '-' || text.startsWith('- ');
}

function scalar(text: string): KubeconfigValue {
  if (text === '{}') return {};
  if (text === '[]') return [];
  if (text.startsWith('"')) return doubleQuoted(text);
  if (text.startsWith("'")) return singleQuoted(text);
  return plain(text);
}

/** `"..."` without escapes, alone on its line. */
function doubleQuoted(text: string): string {
  return (/^"([^"\\]*)"$/.exec(text) ?? refuse())[1]!;
}

/** `'...'`, where `''` is a quote, alone on its line. */
function singleQuoted(text: string): string {
  return (/^'((?:[^']|'')*)'$/.exec(text) ?? refuse())[1]!.replaceAll("''", "'");
}

/** A plain scalar that is a string for the core schema, or exactly `true`, `false` or `null`. */
function plain(text: string): string | boolean | null {
  if (NOT_PLAIN_START.test(text) || NUMBER_LIKE.test(text) || text.includes(': ') || text.includes(' #') || text.endsWith(':')) refuse();
  if (text === 'true') return true;
  if (text === 'false') return false;
  if (text === 'null') return null;
  if (CORE_WORD.test(text)) refuse();
  return text;
}
