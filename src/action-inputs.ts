/** Generated from action.yml by `npm run inputs`; do not edit (a test checks it matches). */

/** Every input of action.yml, in its order. */
export const INPUT_NAMES = [
  'kubeconfig',
  'context',
  'namespace',
  'clusters',
  'cluster-policy',
  'resources',
  'selector',
  'manifests',
  'release',
  'release-min-revision',
  'revision',
  'inventory',
  'wait-for',
  'timeout',
  'poll-interval',
  'mode',
  'fail-fast',
  'job-completion',
  'summary',
  'logs',
  'log-lines',
  'health-checks',
  'builtin-health-checks',
  'status-grace',
  'stable-for',
  'paused',
  'pr-comment',
  'deployment-environment',
  'deployment-url',
  'github-token',
  'report-matrix',
  'report-job-id',
] as const;

export type InputName = (typeof INPUT_NAMES)[number];

/** The defaults of action.yml that are values (an expression default is the runner's to evaluate). */
export const INPUT_DEFAULTS = {
  'cluster-policy': 'all',
  inventory: 'true',
  'wait-for': 'ready',
  timeout: '5m',
  'poll-interval': '2s',
  mode: 'auto',
  'fail-fast': 'true',
  'job-completion': 'true',
  summary: 'true',
  logs: 'true',
  'log-lines': '30',
  'builtin-health-checks': 'true',
  'status-grace': '30s',
  'stable-for': '0s',
  paused: 'wait',
  'pr-comment': 'off',
} as const satisfies Partial<Record<InputName, string>>;
