/**
 * Label selector matching, client-side: one LIST/WATCH serves several targets of a group, so membership
 * is decided here. Two sources: kubectl selector text (`app=web,tier in (a,b),!canary`) and a workload's
 * `spec.selector` (matchLabels + matchExpressions).
 */

export type Labels = Record<string, string>;
export type LabelMatcher = (labels: Labels) => boolean;

interface Requirement {
  key: string;
  op: 'in' | 'notin' | 'exists' | 'doesnotexist' | 'gt' | 'lt';
  values: string[];
}

const matchAll: LabelMatcher = () => true;

/**
 * Parses kubectl selector text. Invalid text gives a matcher that matches nothing (the inputs layer
 * validates selectors up front; the API server would reject them too).
 */
export function parseSelector(text: string | undefined): LabelMatcher {
  const source = (text ?? '').trim();
  if (!source) return matchAll;
  const requirements = parseRequirements(source);
  if (!requirements) return () => false;
  return (labels) => requirements.every((r) => satisfies(r, labels));
}

function parseRequirements(source: string): Requirement[] | undefined {
  const parts = splitTopLevel(source);
  const requirements: Requirement[] = [];
  for (const raw of parts) {
    const part = raw.trim();
    let match: RegExpMatchArray | null;
    if ((match = part.match(/^!\s*([^\s=!<>(),]+)$/))) requirements.push({ key: match[1], op: 'doesnotexist', values: [] });
    else if ((match = part.match(/^([^\s=!<>(),]+)\s+(in|notin)\s*\(([^)]*)\)$/)))
      requirements.push({ key: match[1], op: match[2] as 'in' | 'notin', values: match[3].split(',').map((v) => v.trim()) });
    else if ((match = part.match(/^([^\s=!<>(),]+)\s*(==|=|!=)\s*([^\s=!<>(),]*)$/)))
      requirements.push({ key: match[1], op: match[2] === '!=' ? 'notin' : 'in', values: [match[3]] });
    else if ((match = part.match(/^([^\s=!<>(),]+)\s*([<>])\s*(-?\d+)$/)))
      requirements.push({ key: match[1], op: match[2] === '>' ? 'gt' : 'lt', values: [match[3]] });
    else if ((match = part.match(/^([^\s=!<>(),]+)$/))) requirements.push({ key: match[1], op: 'exists', values: [] });
    else return undefined;
  }
  return requirements;
}

/** Splits on commas outside parentheses. */
function splitTopLevel(source: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < source.length; i++) {
    if (source[i] === '(') depth++;
    else if (source[i] === ')') depth--;
    else if (source[i] === ',' && depth === 0) {
      parts.push(source.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(source.slice(start));
  return parts;
}

function satisfies(r: Requirement, labels: Labels): boolean {
  const has = Object.prototype.hasOwnProperty.call(labels, r.key);
  const value = labels[r.key];
  switch (r.op) {
    case 'in':
      return has && r.values.includes(value);
    case 'notin':
      return !has || !r.values.includes(value);
    case 'exists':
      return has;
    case 'doesnotexist':
      return !has;
    case 'gt':
    case 'lt': {
      const n = Number(value);
      if (!has || !Number.isInteger(n)) return false;
      return r.op === 'gt' ? n > Number(r.values[0]) : n < Number(r.values[0]);
    }
  }
}

interface LabelSelectorObject {
  matchLabels?: Record<string, string>;
  matchExpressions?: Array<{ key?: string; operator?: string; values?: string[] }>;
}

/**
 * A workload's `spec.selector` as a matcher; undefined when it has none. An empty selector matches
 * everything, as the API defines (Jobs with manualSelector aside, controllers always set one).
 */
export function selectorFromObject(selector: unknown): LabelMatcher | undefined {
  if (typeof selector !== 'object' || selector === null) return undefined;
  const { matchLabels, matchExpressions } = selector as LabelSelectorObject;
  const requirements: Requirement[] = [];
  for (const [key, value] of Object.entries(matchLabels ?? {})) requirements.push({ key, op: 'in', values: [String(value)] });
  for (const expression of matchExpressions ?? []) {
    if (!expression?.key) continue;
    const op = ({ In: 'in', NotIn: 'notin', Exists: 'exists', DoesNotExist: 'doesnotexist' } as const)[expression.operator as 'In'];
    if (!op) return () => false;
    requirements.push({ key: expression.key, op, values: expression.values ?? [] });
  }
  return (labels) => requirements.every((r) => satisfies(r, labels));
}
