/**
 * A port of the Kubernetes JSONPath template parser (client-go util/jsonpath/parser.go), which `kubectl wait
 * --for=jsonpath=...` uses. It is not RFC 9535: filters look like `[?(@.type=="Ready")]`, `['a.b']` splits on the
 * dot, and errors read like client-go's.
 */

export type ListNode = { kind: 'list'; nodes: Node[] };
export interface SliceParam {
  known: boolean;
  value: number;
  derived: boolean;
}
export type Node =
  | ListNode
  | { kind: 'text'; text: string }
  | { kind: 'field'; name: string }
  | { kind: 'array'; params: [SliceParam, SliceParam, SliceParam] }
  | { kind: 'filter'; left: ListNode; right: ListNode; operator: string }
  | { kind: 'int'; value: number }
  | { kind: 'float'; value: number }
  | { kind: 'bool'; value: boolean }
  | { kind: 'wildcard' }
  | { kind: 'recursive' }
  | { kind: 'union'; nodes: ListNode[] }
  | { kind: 'identifier'; name: string };

export class JsonPathSyntaxError extends Error {}

const EOF = '';
const dictKeyRex = /^'([^']*)'$/;
const sliceOperatorRex = /^(-?\d*)(:-?\d*)?(:-?\d*)?$/;
const filterRex = /^([^!<>=]+)([!<>=]+)(.+?)$/s;

const list = (): ListNode => ({ kind: 'list', nodes: [] });
const isSpace = (r: string) => r === ' ' || r === '\t';
const isEndOfLine = (r: string) => r === '\r' || r === '\n';
const isDigit = (r: string) => /^\p{Nd}$/u.test(r);
const isAlphaNumeric = (r: string) => r === '_' || /^[\p{L}\p{Nd}]$/u.test(r);
const isTerminator = (r: string) => isSpace(r) || isEndOfLine(r) || [EOF, '.', ',', '[', ']', '$', '@', '{', '}'].includes(r);

/** Parses a whole template; the root holds text nodes and one list node per `{...}` action. */
export function parseTemplate(text: string): ListNode {
  return new Parser(text).parse();
}

/** client-go's parseAction: the nodes of a single `{text}` action. */
function parseAction(text: string): ListNode {
  const root = parseTemplate(`{${text}}`);
  return root.nodes[0] as ListNode;
}

class Parser {
  private pos = 0;
  private start = 0;
  private width = 0;
  private readonly root = list();

  constructor(private readonly input: string) {}

  parse(): ListNode {
    this.parseText(this.root);
    return this.root;
  }

  private consumeText(): string {
    const value = this.input.slice(this.start, this.pos);
    this.start = this.pos;
    return value;
  }

  private next(): string {
    if (this.pos >= this.input.length) {
      this.width = 0;
      return EOF;
    }
    const r = String.fromCodePoint(this.input.codePointAt(this.pos)!);
    this.width = r.length;
    this.pos += this.width;
    return r;
  }

  private peek(): string {
    const r = this.next();
    this.backup();
    return r;
  }

  private backup(): void {
    this.pos -= this.width;
  }

  private rest(): string {
    return this.input.slice(this.pos);
  }

  private parseText(cur: ListNode): void {
    for (;;) {
      if (this.rest().startsWith('{')) {
        if (this.pos > this.start) cur.nodes.push({ kind: 'text', text: this.consumeText() });
        this.pos += 1;
        this.consumeText();
        const action = list();
        cur.nodes.push(action);
        return this.parseInsideAction(action);
      }
      if (this.next() === EOF) break;
    }
    if (this.pos > this.start) cur.nodes.push({ kind: 'text', text: this.consumeText() });
  }

  private parseInsideAction(cur: ListNode): void {
    // Iterative where client-go recurses after each element.
    for (;;) {
      const rest = this.rest();
      if (rest.startsWith('}')) {
        this.pos += 1;
        this.consumeText();
        return this.parseText(this.root);
      }
      if (rest.startsWith('[?(')) {
        this.parseFilter(cur);
        continue;
      }
      if (rest.startsWith('..')) {
        this.parseRecursive(cur);
        continue;
      }
      const r = this.next();
      if (r === EOF || isEndOfLine(r)) throw new JsonPathSyntaxError('unclosed action');
      if (r === ' ' || r === '@' || r === '$') {
        this.consumeText();
      } else if (r === '[') {
        this.parseArray(cur);
      } else if (r === '"' || r === "'") {
        this.parseQuote(cur, r);
      } else if (r === '.') {
        this.parseField(cur);
      } else if (r === '+' || r === '-' || isDigit(r)) {
        this.backup();
        this.parseNumber(cur);
      } else if (isAlphaNumeric(r)) {
        this.backup();
        this.parseIdentifier(cur);
      } else {
        const code = r.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
        throw new JsonPathSyntaxError(`unrecognized character in action: U+${code} '${r}'`);
      }
    }
  }

  private parseIdentifier(cur: ListNode): void {
    while (!isTerminator(this.next()));
    this.backup();
    const value = this.consumeText();
    if (value === 'true' || value === 'false') cur.nodes.push({ kind: 'bool', value: value === 'true' });
    else cur.nodes.push({ kind: 'identifier', name: value });
  }

  private parseRecursive(cur: ListNode): void {
    if (cur.nodes.at(-1)?.kind === 'recursive') throw new JsonPathSyntaxError('invalid multiple recursive descent');
    this.pos += 2;
    this.consumeText();
    cur.nodes.push({ kind: 'recursive' });
    if (isAlphaNumeric(this.peek())) this.parseField(cur);
  }

  private parseNumber(cur: ListNode): void {
    const sign = this.peek();
    if (sign === '+' || sign === '-') this.next();
    for (;;) {
      const r = this.next();
      if (r !== '.' && !isDigit(r)) {
        this.backup();
        break;
      }
    }
    const value = this.consumeText();
    if (/^[+-]?\d+$/.test(value)) cur.nodes.push({ kind: 'int', value: Number(value) });
    else if (/^[+-]?(\d+\.?\d*|\.\d+)$/.test(value)) cur.nodes.push({ kind: 'float', value: Number(value) });
    else throw new JsonPathSyntaxError(`cannot parse number ${value}`);
  }

  private parseArray(cur: ListNode): void {
    for (;;) {
      const r = this.next();
      if (r === EOF || r === '\n') throw new JsonPathSyntaxError('unterminated array');
      if (r === ']') break;
    }
    let text = this.consumeText().slice(1, -1);
    if (text === '*') text = ':';

    const parts = text.split(',');
    if (parts.length > 1) {
      cur.nodes.push({ kind: 'union', nodes: parts.map((part) => parseAction(`[${part.trim()}]`)) });
      return;
    }
    const dictKey = dictKeyRex.exec(text);
    if (dictKey) {
      cur.nodes.push(...parseAction(`.${dictKey[1]}`).nodes);
      return;
    }
    const slice = sliceOperatorRex.exec(text);
    if (!slice) throw new JsonPathSyntaxError(`invalid array index ${text}`);
    const params: SliceParam[] = [];
    for (let i = 0; i < 3; i++) {
      let raw = slice[i + 1] ?? '';
      if (raw !== '') {
        if (i > 0) raw = raw.slice(1);
        if (i > 0 && raw === '') params.push({ known: false, value: 0, derived: false });
        else if (/^[+-]?\d+$/.test(raw)) params.push({ known: true, value: Number(raw), derived: false });
        else throw new JsonPathSyntaxError(`array index ${raw} is not a number`);
      } else if (i === 1) {
        params.push({ known: true, value: params[0]!.value + 1, derived: true });
      } else {
        params.push({ known: false, value: 0, derived: false });
      }
    }
    cur.nodes.push({ kind: 'array', params: params as [SliceParam, SliceParam, SliceParam] });
  }

  private parseFilter(cur: ListNode): void {
    this.pos += 3;
    this.consumeText();
    let begin = false;
    let end = false;
    let pair = '';
    for (;;) {
      const r = this.next();
      if (r === EOF || r === '\n') throw new JsonPathSyntaxError('unterminated filter');
      if (r === '"' || r === "'") {
        if (!begin) {
          begin = true;
          pair = r;
          continue;
        }
        if (this.input[this.pos - 2] !== '\\' && r === pair) end = true;
      } else if (r === ')' && begin === end) {
        break;
      }
    }
    if (this.next() !== ']') throw new JsonPathSyntaxError('unclosed array expect ]');
    const text = this.consumeText().slice(0, -2);
    const comparison = filterRex.exec(text);
    if (!comparison) {
      cur.nodes.push({ kind: 'filter', left: parseAction(text), right: list(), operator: 'exists' });
    } else {
      cur.nodes.push({
        kind: 'filter',
        left: parseAction(comparison[1]!),
        right: parseAction(comparison[3]!),
        operator: comparison[2]!,
      });
    }
  }

  private parseQuote(cur: ListNode, quote: string): void {
    for (;;) {
      const r = this.next();
      if (r === EOF || r === '\n') throw new JsonPathSyntaxError('unterminated quoted string');
      if (r === quote && this.input[this.pos - 2] !== '\\') break;
    }
    const value = this.consumeText();
    cur.nodes.push({ kind: 'text', text: unquote(value) });
  }

  private parseField(cur: ListNode): void {
    this.consumeText();
    for (;;) {
      const r = this.next();
      if (r === '\\') this.next();
      else if (isTerminator(r)) {
        this.backup();
        break;
      }
    }
    const value = this.consumeText();
    if (value === '*') cur.nodes.push({ kind: 'wildcard' });
    else cur.nodes.push({ kind: 'field', name: value.replaceAll('\\', '') });
  }
}

/** UnquoteExtend: a Go-quoted string in single or double quotes. */
function unquote(quoted: string): string {
  const body = quoted.slice(1, -1);
  if (!body.includes('\\')) return body;
  try {
    // Go escapes are a superset of JSON's for the common cases (\" \\ \n \t \uXXXX).
    return JSON.parse(`"${body.replaceAll("\\'", "'").replaceAll(/(?<!\\)"/g, '\\"')}"`) as string;
  } catch {
    throw new JsonPathSyntaxError(`unquote string ${quoted} error invalid syntax`);
  }
}
