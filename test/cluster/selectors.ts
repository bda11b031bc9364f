/** Label and field selectors with the API server's syntax and semantics. */

export type Matcher = (obj: KubeLike) => boolean;
interface KubeLike {
  metadata?: { labels?: Record<string, string>; [k: string]: unknown };
  [k: string]: unknown;
}

export class SelectorError extends Error {}

type Requirement = { key: string; op: 'exists' | '!exists' } | { key: string; op: 'in' | 'notin'; values: string[] };

/** Splits on commas that are not inside parentheses: `a in (x,y),b` -> [`a in (x,y)`, `b`]. */
function splitTopLevel(s: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of s) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      parts.push(current);
      current = '';
    } else current += ch;
  }
  parts.push(current);
  return parts.map((p) => p.trim()).filter((p) => p !== '');
}

const SET_RE = /^([A-Za-z0-9._/-]+)\s+(in|notin)\s*\(([^)]*)\)$/;
const EQ_RE = /^([A-Za-z0-9._/-]+)\s*(==|=|!=)\s*([A-Za-z0-9._-]*)$/;
const EXISTS_RE = /^(!?)\s*([A-Za-z0-9._/-]+)$/;

function parseRequirement(text: string): Requirement {
  let m = SET_RE.exec(text);
  if (m) {
    const values = (m[3] ?? '')
      .split(',')
      .map((v) => v.trim())
      .filter((v) => v !== '');
    return { key: m[1] ?? '', op: m[2] as 'in' | 'notin', values };
  }
  m = EQ_RE.exec(text);
  if (m) return { key: m[1] ?? '', op: m[2] === '!=' ? 'notin' : 'in', values: [m[3] ?? ''] };
  m = EXISTS_RE.exec(text);
  if (m) return { key: m[2] ?? '', op: m[1] ? '!exists' : 'exists' };
  throw new SelectorError(`unable to parse requirement: ${JSON.stringify(text)}`);
}

function matches(req: Requirement, labels: Record<string, string>): boolean {
  const has = Object.prototype.hasOwnProperty.call(labels, req.key);
  switch (req.op) {
    case 'exists':
      return has;
    case '!exists':
      return !has;
    case 'in':
      return has && req.values.includes(labels[req.key] ?? '');
    case 'notin':
      return !has || !req.values.includes(labels[req.key] ?? '');
  }
}

export function parseLabelSelector(text: string | null | undefined): Matcher {
  if (!text) return () => true;
  const requirements = splitTopLevel(text).map(parseRequirement);
  return (obj) => {
    const labels = obj.metadata?.labels ?? {};
    return requirements.every((r) => matches(r, labels));
  };
}

/** Field selectors the real API server accepts, per kind (metadata.name/namespace work everywhere). */
const EXTRA_FIELDS: Record<string, string[]> = {
  Pod: ['spec.nodeName', 'spec.restartPolicy', 'spec.schedulerName', 'spec.serviceAccountName', 'status.phase', 'status.podIP', 'status.nominatedNodeName'],
  Event: [
    'involvedObject.kind',
    'involvedObject.namespace',
    'involvedObject.name',
    'involvedObject.uid',
    'involvedObject.apiVersion',
    'involvedObject.resourceVersion',
    'involvedObject.fieldPath',
    'reason',
    'reportingComponent',
    'source',
    'type',
  ],
  Secret: ['type'],
  Namespace: ['status.phase'],
  ReplicaSet: ['status.replicas'],
  Job: ['status.successful'],
  Node: ['spec.unschedulable'],
};

function fieldValue(obj: unknown, path: string): string {
  let cur: unknown = obj;
  for (const part of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return '';
    cur = (cur as Record<string, unknown>)[part];
  }
  if (path === 'source' && cur && typeof cur === 'object') return String((cur as { component?: string }).component ?? '');
  return cur === undefined || cur === null ? '' : String(cur);
}

export function parseFieldSelector(text: string | null | undefined, kind: string): Matcher {
  if (!text) return () => true;
  const allowed = new Set(['metadata.name', 'metadata.namespace', ...(EXTRA_FIELDS[kind] ?? [])]);
  const terms = text
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '')
    .map((term) => {
      const m = /^([A-Za-z0-9._]+)\s*(==|=|!=)\s*(.*)$/.exec(term);
      if (!m) throw new SelectorError(`invalid selector: '${text}'; can't understand '${term}'`);
      if (!allowed.has(m[1] ?? '')) throw new SelectorError(`field label not supported: ${m[1]}`);
      return { path: m[1] ?? '', negate: m[2] === '!=', value: m[3] };
    });
  return (obj) => terms.every((t) => (fieldValue(obj, t.path) === t.value) !== t.negate);
}

/** The single name a `metadata.name=X` field selector pins, if any (used for `/watch/.../NAME` paths). */
export function fieldSelectorForName(name: string): string {
  return `metadata.name=${name}`;
}
