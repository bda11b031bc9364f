/**
 * Label selector matching, client-side: one LIST/WATCH serves several targets of a group, so membership
 * is decided here. Two sources: kubectl selector text (`app=web,tier in (a,b),!canary`) and a workload's
 * `spec.selector` (matchLabels + matchExpressions).
 */
import { parseLabelSelector, type Requirement } from '../targets/selector.js';

export type Labels = Record<string, string>;
export type LabelMatcher = (labels: Labels) => boolean;

const matchAll: LabelMatcher = () => true;

/**
 * Parses kubectl selector text. Invalid text gives a matcher that matches nothing (the inputs layer
 * validates selectors up front; the API server would reject them too).
 */
export function parseSelector(text: string | undefined): LabelMatcher {
  const source = (text ?? '').trim();
  if (!source) return matchAll;
  const requirements = parseLabelSelector(source);
  if (typeof requirements === 'string') return () => false;
  return (labels) => requirements.every((r) => satisfies(r, labels));
}

function satisfies(r: Requirement, labels: Labels): boolean {
  const has = Object.prototype.hasOwnProperty.call(labels, r.key);
  const value = labels[r.key];
  switch (r.op) {
    case 'in':
      return has && value !== undefined && r.values.includes(value);
    case 'notin':
      return !has || value === undefined || !r.values.includes(value);
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
