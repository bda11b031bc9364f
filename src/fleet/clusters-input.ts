/**
 * The `clusters` and `cluster-policy` inputs, parsed (inputs.ts calls this): which clusters one step waits
 * in, each by name. Pure, like inputs.ts: where a cluster's kubeconfig is is only named here; the fleet's
 * run (fleet/index.ts) reads it.
 *
 * Two shapes, one meaning:
 * - a YAML list of `{name, context?, kubeconfig?, namespace?, resources?}`, for clusters with kubeconfigs of
 *   their own; `resources` (a list, or text as the `resources` input takes it) replaces the step's
 *   `resources` in that cluster;
 * - the shorthand `eu-west, us-east` (or `context: eu-west,us-east`, the command's `--context a,b`):
 *   contexts of the step's one kubeconfig, each cluster named after its context.
 */
import { parse } from 'yaml';
import { InputError, type ClusterPolicy, type ClusterSpec, type ResourceRef } from '../settings.js';
import { namespaceNameProblem, parseResourceRef, splitResourceEntries } from '../targets/refs.js';

const EXAMPLE =
  'Expected a YAML list like\n' +
  '  clusters: |\n' +
  '    - name: eu-west\n' +
  '      kubeconfig: KUBECONFIG_EU\n' +
  '    - name: us-east\n' +
  '      context: us-east-1\n' +
  'or contexts of the one kubeconfig, like clusters: eu-west, us-east';

/** A name that reads well in `[eu-west] Deployment shop/api` and as a key of the `clusters` output. */
const CLUSTER_NAME = /^[A-Za-z0-9]([A-Za-z0-9._-]{0,61}[A-Za-z0-9])?$/;
const FIELDS = ['name', 'context', 'kubeconfig', 'namespace', 'resources'] as const;
type TextField = Exclude<(typeof FIELDS)[number], 'resources'>;
/** Upper case like the variables secrets are passed in: anything else names a file (`./kubeconfig`). */
export const ENVIRONMENT_VARIABLE = /^[A-Z_][A-Z0-9_]*$/;

/**
 * The clusters of `clusters`, or of a `context` that lists several (`eu-west,us-east`). Empty: one cluster,
 * as today. `context` and a `clusters` list do not mix: each cluster names its own context.
 */
export function parseClusters(text: string, context: string): ClusterSpec[] {
  const contexts = context.includes(',') ? splitNames(context) : [];
  if (text === '') return contexts.map(fromContext);
  if (context !== '') {
    throw new InputError(
      'clusters',
      `Inputs "clusters" and "context" are both set: give each cluster its context in "clusters" (context: us-east-1), or list the contexts in one of them. ${EXAMPLE}`,
    );
  }
  let value: unknown;
  try {
    value = parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new InputError('clusters', `Input "clusters" is not valid YAML (${reason}). ${EXAMPLE}`);
  }
  const clusters = typeof value === 'string' ? splitNames(value).map(fromContext) : Array.isArray(value) ? value.map(clusterEntry) : undefined;
  if (clusters === undefined || clusters.length === 0) {
    throw new InputError('clusters', `Input "clusters" holds no list of clusters. ${EXAMPLE}`);
  }
  checkUnique(clusters);
  return clusters;
}

export function parseClusterPolicy(text: string): ClusterPolicy {
  if (text === 'all' || text === 'any') return text;
  throw new InputError(
    'cluster-policy',
    `Input "cluster-policy" is "${text}": expected all (every cluster must be ready) or any (one ready cluster is enough), like cluster-policy: all.`,
  );
}

function splitNames(text: string): string[] {
  return text
    .split(/[,\s]+/)
    .map((name) => name.trim())
    .filter(Boolean);
}

function fromContext(context: string): ClusterSpec {
  return { name: checkedName(context), context, kubeconfig: '', namespace: '' };
}

function clusterEntry(entry: unknown, at: number): ClusterSpec {
  if (typeof entry === 'string') return fromContext(entry);
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) {
    throw new InputError('clusters', `Input "clusters" has an entry ${at + 1} that is not a mapping with a name. ${EXAMPLE}`);
  }
  const fields = entry as Record<string, unknown>;
  const unknown = Object.keys(fields).filter((key) => !(FIELDS as readonly string[]).includes(key));
  if (unknown.length > 0) {
    throw new InputError(
      'clusters',
      `Input "clusters" entry ${at + 1} has ${unknown.map((key) => `"${key}"`).join(', ')}: expected only ${FIELDS.join(', ')}. ${EXAMPLE}`,
    );
  }
  const text = (field: TextField): string => {
    const value = fields[field];
    if (value === undefined || value === null) return '';
    if (typeof value !== 'string' && typeof value !== 'number') {
      throw new InputError('clusters', `Input "clusters" entry ${at + 1} has a ${field} that is not text. ${EXAMPLE}`);
    }
    return String(value).trim();
  };
  const name = text('name');
  if (name === '') throw new InputError('clusters', `Input "clusters" entry ${at + 1} has no name. ${EXAMPLE}`);
  const namespace = text('namespace');
  if (namespace !== '' && namespaceNameProblem(namespace)) {
    throw new InputError('clusters', `Input "clusters" has cluster "${name}" with namespace "${namespace}": expected a namespace name like shop. ${EXAMPLE}`);
  }
  checkedName(name);
  const resources = 'resources' in fields ? { resources: clusterResources(fields.resources, name) } : {};
  return { name, context: text('context'), kubeconfig: text('kubeconfig'), namespace, ...resources };
}

/**
 * A cluster's own `resources`: the syntax of the `resources` input, as a YAML list or as its text (entries
 * separated by lines or commas). Empty (`resources: []`) is none of the step's: the selector, manifests or
 * release must then give that cluster something to wait for (inputs.ts checks each cluster).
 */
function clusterResources(value: unknown, name: string): ResourceRef[] {
  const example =
    `Expected TYPE/NAME or NAMESPACE/TYPE/NAME entries, which replace the step's "resources" in this cluster, like\n` +
    `  clusters: |\n    - name: ${name}\n      resources: [deployment/web, shop/deployment/api]\n` +
    'or, as text, resources: deployment/web, shop/deployment/api.';
  const entries =
    value === null || value === undefined
      ? []
      : typeof value === 'string'
        ? splitResourceEntries(value)
        : Array.isArray(value) && value.every((item) => typeof item === 'string')
          ? value.flatMap((item: string) => splitResourceEntries(item))
          : undefined;
  if (entries === undefined) {
    throw new InputError('clusters', `Input "clusters" has cluster "${name}" with resources that are neither a list of TYPE/NAME nor text. ${example}`);
  }
  return entries.map((entry) => {
    const parsed = parseResourceRef(entry);
    if (parsed.ok) return parsed.value;
    throw new InputError('clusters', `Input "clusters" has cluster "${name}" with resources entry "${entry}": ${parsed.problem}. ${example}`);
  });
}

function checkedName(name: string): string {
  if (CLUSTER_NAME.test(name)) return name;
  throw new InputError(
    'clusters',
    `Input "clusters" has a cluster named "${name}": expected letters, digits, ".", "_" and "-" (at most 63), like eu-west. ${EXAMPLE}`,
  );
}

function checkUnique(clusters: ClusterSpec[]): void {
  const seen = new Set<string>();
  for (const { name } of clusters) {
    if (seen.has(name)) throw new InputError('clusters', `Input "clusters" names cluster "${name}" twice: each name must be unique. ${EXAMPLE}`);
    seen.add(name);
  }
}
