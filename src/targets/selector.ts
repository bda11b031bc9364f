/**
 * Label selector syntax check, following the grammar of Kubernetes' `labels.Parse` (what kubectl -l and
 * the API server accept): comma-separated requirements, each one of
 *   key | !key | key=value | key==value | key!=value | key in (v1,v2) | key notin (v1,v2) | key>N | key<N
 * Pure: returns the requirements, or the problem in words. The inputs layer uses it to move errors up
 * front (the API server gets the selector text unchanged); the engine uses the requirements to match
 * labels client-side, so both read a selector the same way.
 */

const QUALIFIED_NAME = /^([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const INTEGER = /^-?[0-9]+$/;

export interface Requirement {
  key: string;
  op: 'in' | 'notin' | 'exists' | 'doesnotexist' | 'gt' | 'lt';
  values: string[];
}

type Token = { kind: 'word'; text: string } | { kind: 'op'; text: '=' | '==' | '!=' | '!' | '>' | '<' | '(' | ')' | ',' };

/** Returns why `selector` is not a valid label selector, or undefined when it is. */
export function selectorProblem(selector: string): string | undefined {
  const parsed = parseLabelSelector(selector);
  return typeof parsed === 'string' ? parsed : undefined;
}

/** The requirements of `selector` (none when it is empty), or why it is not a valid label selector. */
export function parseLabelSelector(selector: string): Requirement[] | string {
  const tokens = tokenize(selector);
  if (typeof tokens === 'string') return tokens;
  const requirements: Requirement[] = [];
  if (tokens.length === 0) return requirements;
  let at = 0;
  const peek = (): Token | undefined => tokens[at];
  const next = (): Token | undefined => tokens[at++];

  for (;;) {
    const requirement = parseRequirement(peek, next);
    if (typeof requirement === 'string') return requirement;
    requirements.push(requirement);
    const separator = next();
    if (separator === undefined) return requirements;
    if (separator.text !== ',') return `expected "," between requirements, found "${separator.text}"`;
    if (peek() === undefined) return 'it ends with ","';
  }
}

function parseRequirement(peek: () => Token | undefined, next: () => Token | undefined): Requirement | string {
  const first = next();
  if (first?.text === '!') {
    const key = next();
    if (key?.kind !== 'word') return 'expected a label key after "!"';
    const keyProblem = labelKeyProblem(key.text);
    if (keyProblem) return keyProblem;
    const after = peek();
    if (after !== undefined && after.text !== ',') return `"!${key.text}" cannot be followed by "${after.text}"`;
    return { key: key.text, op: 'doesnotexist', values: [] };
  }
  if (first?.kind !== 'word') return `expected a label key, found ${first ? `"${first.text}"` : 'nothing'}`;
  const key = first.text;
  const keyProblem = labelKeyProblem(key);
  if (keyProblem) return keyProblem;

  const operator = peek();
  if (operator === undefined || operator.text === ',') return { key, op: 'exists', values: [] };
  next();
  switch (operator.text) {
    case '=':
    case '==':
    case '!=': {
      const value = singleValue(peek, next, operator.text);
      if (value.problem !== undefined) return value.problem;
      return { key, op: operator.text === '!=' ? 'notin' : 'in', values: [value.value] };
    }
    case '>':
    case '<': {
      const value = next();
      if (value?.kind !== 'word' || !INTEGER.test(value.text)) {
        return `"${key} ${operator.text}" needs an integer value`;
      }
      return { key, op: operator.text === '>' ? 'gt' : 'lt', values: [value.text] };
    }
    case 'in':
    case 'notin': {
      const values = valueSet(next, key, operator.text);
      if (typeof values === 'string') return values;
      return { key, op: operator.text, values };
    }
    default:
      return `unknown operator "${operator.text}" after "${key}" (use =, ==, !=, in, notin, !, > or <)`;
  }
}

function singleValue(
  peek: () => Token | undefined,
  next: () => Token | undefined,
  operator: string,
): { value: string; problem?: undefined } | { problem: string } {
  const value = peek();
  // `key=` (empty value) is valid: it matches an empty label value.
  if (value === undefined || value.text === ',') return { value: '' };
  if (value.kind !== 'word') return { problem: `expected a value after "${operator}", found "${value.text}"` };
  next();
  const problem = labelValueProblem(value.text);
  return problem ? { problem } : { value: value.text };
}

function valueSet(next: () => Token | undefined, key: string, operator: string): string[] | string {
  if (next()?.text !== '(') return `"${key} ${operator}" needs a list of values in parentheses, like (a,b)`;
  const values: string[] = [];
  let expectValue = true;
  for (;;) {
    const token = next();
    if (token === undefined) return `missing ")" after "${key} ${operator} (${values.join(',')}"`;
    if (token.text === ')') {
      if (expectValue && values.length > 0) values.push(''); // `(a,)` ends with an empty value, as in Kubernetes
      break;
    }
    if (token.text === ',') {
      if (expectValue) values.push(''); // `(a,,b)` has an empty value, as in Kubernetes
      expectValue = true;
      continue;
    }
    if (token.kind !== 'word' || !expectValue) return `unexpected "${token.text}" in the values of "${key} ${operator}"`;
    const problem = labelValueProblem(token.text);
    if (problem) return problem;
    values.push(token.text);
    expectValue = false;
  }
  if (values.length === 0) return `"${key} ${operator} ()" has no values`;
  return values;
}

function tokenize(text: string): Token[] | string {
  const tokens: Token[] = [];
  let at = 0;
  while (at < text.length) {
    const char = text.charAt(at);
    if (/\s/.test(char)) {
      at++;
      continue;
    }
    const two = text.slice(at, at + 2);
    if (two === '==' || two === '!=') {
      tokens.push({ kind: 'op', text: two });
      at += 2;
      continue;
    }
    if ('=!><(),'.includes(char)) {
      tokens.push({ kind: 'op', text: char as '=' });
      at++;
      continue;
    }
    const word = /^[^\s=!><(),]+/.exec(text.slice(at))![0];
    tokens.push({ kind: 'word', text: word });
    at += word.length;
  }
  return tokens;
}

/** A label key: optional DNS-subdomain prefix and `/`, then a name of at most 63 characters. */
function labelKeyProblem(key: string): string | undefined {
  const slash = key.indexOf('/');
  const prefix = slash >= 0 ? key.slice(0, slash) : undefined;
  const name = slash >= 0 ? key.slice(slash + 1) : key;
  if (prefix !== undefined && (prefix.length > 253 || !DNS_SUBDOMAIN.test(prefix))) {
    return `"${key}" is not a valid label key: the prefix "${prefix}" must be a DNS subdomain like example.com`;
  }
  if (name.length === 0 || name.length > 63 || !QUALIFIED_NAME.test(name)) {
    return `"${key}" is not a valid label key (up to 63 letters, digits, "-", "_" or ".", starting and ending with a letter or digit)`;
  }
  return undefined;
}

function labelValueProblem(value: string): string | undefined {
  if (value.length > 63 || !LABEL_VALUE.test(value)) {
    return `"${value}" is not a valid label value (up to 63 letters, digits, "-", "_" or ".", starting and ending with a letter or digit)`;
  }
  return undefined;
}
