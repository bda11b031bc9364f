/**
 * Every action input, read once, validated and turned into the `Settings` of src/settings.ts. A bad value
 * becomes an `InputError` that names the input, says what is wrong and shows a correct example; the caller turns
 * it into one error annotation. Pure: the input values come through `read`, so tests need no environment.
 */
import {
  INPUT_DEFAULTS,
  InputError,
  selectorStandsAlone,
  type Mode,
  type PausedPolicy,
  type RollbackMode,
  type PrCommentMode,
  type ReleaseMinRevision,
  type ClusterSpec,
  type ResourceRef,
  type Settings,
  type WaitFor,
} from './settings.js';
import { parseTemplate } from './status/jsonpath/parser.js';
import { relaxedJsonPath } from './status/wait-for.js';
import { namespaceNameProblem, parseResourceRef, splitResourceEntries } from './targets/refs.js';
import { releaseNameProblem } from './release/decode.js';
import { parseClusterPolicy, parseClusters } from './fleet/clusters-input.js';
import { parseRevision } from './status/gitops/revision.js';
import { selectorProblem } from './targets/selector.js';

/** Returns the (trimmed) value of an input, '' when unset: `core.getInput` in the action. */
export type InputReader = (name: string) => string;

const MIN_POLL_INTERVAL_MS = 100;
/** Longer than any GitHub job may run (6 h hosted, 5 days self-hosted); also far below where timers overflow. */
export const MAX_TIMEOUT_MS = 7 * 24 * 3_600_000;
/** Polling less often than hourly is not waiting any more. */
export const MAX_POLL_INTERVAL_MS = 3_600_000;

/** The reader with the action.yml defaults applied to unset inputs (the runner fills them in; tests may not). */
function withDefaults(read: InputReader): InputReader {
  return (name) => {
    const given = read(name).trim();
    return given !== '' ? given : (INPUT_DEFAULTS[name as keyof typeof INPUT_DEFAULTS] ?? '');
  };
}

export function parseSettings(read: InputReader): Settings {
  const value = withDefaults(read);
  const namespace = value('namespace');
  if (namespace !== '' && namespaceNameProblem(namespace)) {
    throw new InputError(
      'namespace',
      `Input "namespace" is "${namespace}": expected a namespace name of lowercase letters, digits and "-", like shop or kube-system.`,
    );
  }
  const resources = parseResources(value('resources'));
  const selector = parseSelector(value('selector'));
  const manifests = splitLines(value('manifests'));
  const release = parseRelease(value('release'));
  const clusters = parseClusters(value('clusters'), value('context'));
  checkEachClusterHasTargets(clusters, resources, selector, manifests, release);

  return {
    kubeconfig: read('kubeconfig').trim(),
    context: value('context'),
    namespace,
    clusters,
    clusterPolicy: parseClusterPolicy(value('cluster-policy')),
    resources,
    selector,
    manifests,
    waitFor: parseWaitFor(value('wait-for')),
    timeoutMs: parseTimeout(value('timeout')),
    pollIntervalMs: parsePollInterval(value('poll-interval')),
    mode: parseMode(value('mode')),
    failFast: parseBoolean('fail-fast', value('fail-fast')),
    jobCompletion: parseBoolean('job-completion', value('job-completion')),
    summary: parseBoolean('summary', value('summary')),
    ...parseGitHubReportInputs(read),
    // Kept as written (multi-line, indentation matters): loaded with the workspace's files before the wait.
    healthChecks: read('health-checks'),
    builtinHealthChecks: parseBoolean('builtin-health-checks', value('builtin-health-checks')),
    statusGraceMs: parseWindow('status-grace', value('status-grace'), '30s'),
    stableForMs: parseWindow('stable-for', value('stable-for'), '30s'),
    failureGraceMs: parseWindow('failure-grace', value('failure-grace'), '30s'),
    endpoints: parseBoolean('endpoints', value('endpoints')),
    // Kept as written (multi-line YAML): parsed with the default namespace before the wait (src/smoke/).
    smoke: read('smoke'),
    paused: parsePaused(value('paused')),
    release,
    releaseMinRevision: parseReleaseMinRevision(value('release-min-revision'), release),
    ...parseRevisionInput(value('revision')),
    inventory: parseBoolean('inventory', value('inventory')),
    reconcile: parseBoolean('reconcile', value('reconcile')),
    ...parseRollbackInputs(value),
    logs: parseBoolean('logs', value('logs')),
    logLines: parseLogLines(value('log-lines')),
  };
}

function parseResources(text: string): ResourceRef[] {
  return splitResourceEntries(text).map((entry) => {
    const parsed = parseResourceRef(entry);
    if (parsed.ok) return parsed.value;
    throw new InputError(
      'resources',
      `Input "resources" has "${entry}": ${parsed.problem}. Expected TYPE/NAME or NAMESPACE/TYPE/NAME, like deployment/web or shop/deployment/web.`,
    );
  });
}

function parseSelector(selector: string): string {
  const problem = selectorProblem(selector);
  if (problem) {
    throw new InputError(
      'selector',
      `Input "selector" is "${selector}": ${problem}. Expected a label selector like app=web,tier!=cache or env in (prod,staging).`,
    );
  }
  return selector;
}

function parseRelease(name: string): string {
  const problem = name === '' ? undefined : releaseNameProblem(name);
  if (problem) throw new InputError('release', `Input "release" is "${name}": ${problem}. Expected the name given to helm install, like release: shop.`);
  return name;
}

/** `next`, a revision number, or '' (0: whichever revision is latest); only with `release`. */
function parseReleaseMinRevision(text: string, release: string): ReleaseMinRevision {
  if (text === '') return 0;
  const expected =
    'Expected next (a revision newer than the one recorded when the step starts) or a revision number, like release-min-revision: next or release-min-revision: 4.';
  if (!/^(next|[1-9]\d{0,8})$/.test(text)) throw new InputError('release-min-revision', `Input "release-min-revision" is "${text}". ${expected}`);
  if (release === '') {
    throw new InputError(
      'release-min-revision',
      `Input "release-min-revision" is "${text}", but "release" is empty: it says which revision of a Helm release to wait for, like release: shop with release-min-revision: ${text}.`,
    );
  }
  return text === 'next' ? 'next' : Number(text);
}

/** `revision`: a commit sha, a tag or branch, or Flux's `main@sha1:<sha>`; unset leaves it out. */
function parseRevisionInput(text: string): Pick<Settings, 'revision'> {
  if (text === '') return {};
  const parsed = parseRevision(text);
  if (parsed.ok) return { revision: parsed.value };
  throw new InputError(
    'revision',
    `Input "revision" is "${text}": ${parsed.problem}. Expected the commit sha the step pushed, a tag or branch, or Flux's form, like revision: \${{ github.sha }}, revision: v1.2.3 or revision: main@sha1:0123abc.`,
  );
}

/**
 * The step's `resources`, `selector`, `manifests` and `release` are checked as they are whenever a cluster
 * waits for them (one cluster, or a cluster of `clusters` without resources of its own); a cluster with its
 * own `resources` is checked with those, and its entry of `clusters` named.
 */
function checkEachClusterHasTargets(clusters: ClusterSpec[], resources: ResourceRef[], selector: string, manifests: string[], release: string): void {
  if (clusters.length === 0 || clusters.some((cluster) => cluster.resources === undefined)) {
    checkSomethingToWaitFor(resources, selector, manifests, release);
    checkSelectorIsUsed(selector, resources, manifests, release);
  }
  for (const { name, resources: own } of clusters) {
    if (own === undefined) continue;
    if (own.length === 0 && selector === '' && manifests.length === 0 && release === '') {
      throw new InputError(
        'clusters',
        `Input "clusters" has cluster "${name}" with empty resources, and "selector", "manifests" and "release" are empty: nothing to wait for there. Give it targets, like resources: [deployment/web], or leave its resources out to wait for the step's "resources".`,
      );
    }
    if (selectorIsUnused(selector, own, manifests, release)) {
      throw new InputError(
        'clusters',
        `Input "clusters" has cluster "${name}" whose resources replace the step's and name every object, so the "selector" "${selector}" is not used there: it filters bare types, like resources: [deployments], or stands alone where a cluster has no resources, like resources: [].`,
      );
    }
  }
}

function checkSomethingToWaitFor(resources: ResourceRef[], selector: string, manifests: string[], release: string): void {
  if (resources.length === 0 && selector === '' && manifests.length === 0 && release === '') {
    throw new InputError(
      'resources',
      'Inputs "resources", "selector", "manifests" and "release" are all empty: nothing to wait for. Set at least one, like resources: deployment/web, selector: app=web, manifests: k8s/*.yaml or release: shop.',
    );
  }
}

/** A selector nobody applies would be ignored silently; say so instead. */
function checkSelectorIsUsed(selector: string, resources: ResourceRef[], manifests: string[], release: string): void {
  if (selectorIsUnused(selector, resources, manifests, release)) {
    throw new InputError(
      'selector',
      `Input "selector" is "${selector}", but nothing uses it: it filters the bare types of "resources" (like resources: deployments), or stands alone without "resources", "manifests" and "release".`,
    );
  }
}

/** A selector filters the bare types of `resources`, or stands alone; otherwise it would be ignored. */
function selectorIsUnused(selector: string, resources: ResourceRef[], manifests: string[], release: string): boolean {
  const filtersABareType = resources.some((ref) => ref.name === undefined);
  return selector !== '' && !selectorStandsAlone({ resources, manifests, release }) && !filtersABareType;
}

function splitLines(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
}

function parseWaitFor(text: string): WaitFor {
  const lower = text.toLowerCase();
  if (lower === 'ready') return { kind: 'ready' };
  if (lower === 'deleted' || lower === 'delete') return { kind: 'deleted' };
  if (lower.startsWith('condition=')) return parseConditionWait(text, text.slice('condition='.length));
  if (lower.startsWith('jsonpath=')) return parseJsonPathWait(text, text.slice('jsonpath='.length));
  throw new InputError(
    'wait-for',
    `Input "wait-for" is "${text}": expected ready, deleted, condition=TYPE[=VALUE] or jsonpath=EXPR[=VALUE], like condition=Available or jsonpath={.status.phase}=Running.`,
  );
}

function parseConditionWait(text: string, rest: string): WaitFor {
  const separator = rest.indexOf('=');
  const type = separator >= 0 ? rest.slice(0, separator) : rest;
  const value = separator >= 0 ? rest.slice(separator + 1) : 'True';
  if (type === '' || /\s/.test(type)) {
    throw new InputError(
      'wait-for',
      `Input "wait-for" is "${text}": the condition type is ${type === '' ? 'empty' : 'not a single word'}; expected condition=TYPE[=VALUE], like condition=Available or condition=Ready=False.`,
    );
  }
  if (value === '') {
    throw new InputError(
      'wait-for',
      `Input "wait-for" is "${text}": the condition value after "=" is empty; expected condition=TYPE[=VALUE], like condition=Available or condition=Ready=False.`,
    );
  }
  return { kind: 'condition', type, value };
}

/** `EXPR[=VALUE]`: the value starts at the first `=` outside braces, brackets, parentheses and quotes, so
 *  filters like `{.status.conditions[?(@.type=="Ready")].status}=True` work. */
function parseJsonPathWait(text: string, rest: string): WaitFor {
  const parsed = parseJsonPathCheck(rest);
  if ('problem' in parsed) {
    const example = 'expected jsonpath=EXPR[=VALUE], like jsonpath={.status.phase}=Running or jsonpath={.status.loadBalancer.ingress}';
    throw new InputError('wait-for', `Input "wait-for" is "${text}": ${parsed.problem}; ${example}.`);
  }
  return { kind: 'jsonpath', ...parsed };
}

/**
 * The `EXPR[=VALUE]` after `jsonpath=`, as kubectl wait reads it: the one parser of a JSONPath check, for
 * `wait-for` and a smoke check's `expect-body` alike. `expression` comes back as a `{...}` template, checked
 * with the parser that evaluates it later (`matchesJsonPath`), so a typo fails now, not at the deadline.
 */
export function parseJsonPathCheck(rest: string): { expression: string; value?: string } | { problem: string } {
  const separator = topLevelEquals(rest);
  const expression = stripQuotes((separator >= 0 ? rest.slice(0, separator) : rest).trim());
  const value = separator >= 0 ? stripQuotes(rest.slice(separator + 1).trim()) : undefined;
  if (expression === '' || expression === '{}') return { problem: 'the JSONPath expression is empty' };
  if (value === '') return { problem: 'the value after "=" is empty' };
  const relaxed = relaxedJsonPath(expression);
  const problem = relaxed.error ? `the JSONPath expression is not valid (${relaxed.error})` : jsonPathSyntaxProblem(relaxed.template!);
  if (problem) return { problem };
  return { expression: relaxed.template!, ...(value !== undefined && { value }) };
}

function topLevelEquals(text: string): number {
  let depth = 0;
  let quote: string | undefined;
  for (let at = 0; at < text.length; at++) {
    const char = text.charAt(at);
    if (quote) {
      if (char === quote) quote = undefined;
    } else if (char === '"' || char === "'") quote = char;
    else if ('{[('.includes(char)) depth++;
    else if ('}])'.includes(char)) depth--;
    else if (char === '=' && depth === 0) return at;
  }
  return -1;
}

/** The same JSONPath parser that evaluates the expression later, so a typo fails now, not at the deadline. */
function jsonPathSyntaxProblem(template: string): string | undefined {
  try {
    parseTemplate(template);
    return filterProblem(template);
  } catch (error) {
    return `the JSONPath expression is not valid (${error instanceof Error ? error.message : String(error)})`;
  }
}

/** A filter operand is `@`, `@.path`, `@[...]`, a quoted string or a plain literal. The parser takes
 *  `@@@` for `@` (so `{..[?(@@@)]}` would pass, then fail on every object until the deadline). */
const FILTER = /\[\?\((.*?)\)\]/g;
const OPERAND = /^(@([.[][^@]*)?|"[^"]*"|'[^']*'|[\w.+-]+)$/;

function filterProblem(template: string): string | undefined {
  for (const [, filter = ''] of template.matchAll(FILTER)) {
    const operands = filter.split(/==|!=|<=|>=|<|>/).map((operand) => operand.trim());
    if (operands.length > 2 || operands.some((operand) => !OPERAND.test(operand))) {
      return `the filter [?(${filter})] is not valid: expected [?(@.FIELD)] or [?(@.FIELD=="VALUE")]`;
    }
  }
  return undefined;
}

function stripQuotes(value: string): string {
  return value.replace(/^['"]+|['"]+$/g, '');
}

function parseTimeout(text: string): number {
  const ms = parseDurationMs(text);
  if (ms === undefined) {
    throw new InputError('timeout', `Input "timeout" is "${text}": expected a duration like 90s, 5m or 1h30m, or a number of seconds.`);
  }
  if (ms < 1) {
    throw new InputError('timeout', `Input "timeout" is "${text}": expected a duration greater than zero, like 90s, 5m or 1h30m.`);
  }
  if (ms > MAX_TIMEOUT_MS) {
    throw new InputError('timeout', `Input "timeout" is "${text}": expected at most 168h (7 days, longer than any job may run), like 90s, 5m or 1h30m.`);
  }
  return ms;
}

function parsePollInterval(text: string): number {
  const ms = parseDurationMs(text);
  if (ms === undefined) {
    throw new InputError('poll-interval', `Input "poll-interval" is "${text}": expected a duration like 500ms, 2s or 10s, or a number of seconds.`);
  }
  if (ms < MIN_POLL_INTERVAL_MS) {
    throw new InputError('poll-interval', `Input "poll-interval" is "${text}": expected at least 100ms (to spare the API server), like 500ms, 2s or 10s.`);
  }
  if (ms > MAX_POLL_INTERVAL_MS) {
    throw new InputError('poll-interval', `Input "poll-interval" is "${text}": expected at most 1h, like 500ms, 2s or 10s.`);
  }
  return ms;
}

const UNIT_MS: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, μs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
const PLAIN_SECONDS = /^[-+]?(\d+(\.\d*)?|\.\d+)$/;
const GO_DURATION = /^[-+]?((\d+(\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h))+$/;

/** Go's time.ParseDuration (`1h30m`, `1.5h`, `500ms`) or a plain number of seconds. Undefined when neither. */
export function parseDurationMs(text: string): number | undefined {
  if (PLAIN_SECONDS.test(text)) return Math.round(Number(text) * 1000);
  if (!GO_DURATION.test(text)) return undefined;
  const sign = text.startsWith('-') ? -1 : 1;
  let total = 0;
  for (const [, amount, , unit] of text.matchAll(/(\d+(\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/g)) {
    total += Number(amount) * (UNIT_MS[unit ?? ''] ?? 0);
  }
  return sign * Math.round(total);
}

/** A duration that may be zero (`0s` turns the feature off). */
function parseWindow(name: string, text: string, example: string): number {
  const ms = parseDurationMs(text);
  if (ms === undefined || ms < 0) {
    throw new InputError(name, `Input "${name}" is "${text}": expected a duration of zero or more, like ${example}, 2m or 0s (off).`);
  }
  return ms;
}

// rollback (issue 32): src/rollback/.
const ROLLBACK_MODES: readonly RollbackMode[] = ['off', 'on-failure', 'on-timeout', 'on-failure-or-timeout'];

function parseRollbackInputs(value: (name: string) => string): Pick<Settings, 'rollback' | 'rollbackTimeoutMs' | 'rollbackScope'> {
  const mode = value('rollback').toLowerCase();
  if (!ROLLBACK_MODES.includes(mode as RollbackMode)) {
    throw new InputError(
      'rollback',
      `Input "rollback" is "${value('rollback')}": expected off, on-failure, on-timeout or on-failure-or-timeout, like rollback: on-failure.`,
    );
  }
  const scope = value('rollback-scope').toLowerCase();
  if (scope !== 'failed' && scope !== 'all') {
    throw new InputError(
      'rollback-scope',
      `Input "rollback-scope" is "${value('rollback-scope')}": expected failed (the workloads that did not get there) or all (every workload among the targets), like rollback-scope: all.`,
    );
  }
  const rollbackTimeoutMs = parseDurationMs(value('rollback-timeout'));
  if (rollbackTimeoutMs === undefined || rollbackTimeoutMs <= 0) {
    throw new InputError('rollback-timeout', `Input "rollback-timeout" is "${value('rollback-timeout')}": expected a duration above zero, like 5m or 90s.`);
  }
  return { rollback: mode as RollbackMode, rollbackTimeoutMs, rollbackScope: scope };
}

/** Argo Rollouts sets no limit on a canary's steps; this only keeps N a plain, readable number. */
const MAX_GATE_STEP = 10_000;

function parsePaused(text: string): PausedPolicy {
  const lower = text.trim().toLowerCase();
  if (lower === 'wait' || lower === 'ready' || lower === 'analysis') return lower;
  const step = /^step:\s*(\d+)$/.exec(lower);
  if (step && Number(step[1]) <= MAX_GATE_STEP) return `step:${Number(step[1])}`;
  throw new InputError(
    'paused',
    `Input "paused" is "${text}": expected wait (a paused rollout is not ready until it continues), ready (it is ready where it paused), ` +
      `step:N (an Argo Rollout is ready once paused at canary step N or later, N as kubectl argo rollouts get shows Step: N/M) ` +
      `or analysis (ready once its canary analysis passed), like paused: step:2.`,
  );
}

function parseMode(text: string): Mode {
  const lower = text.toLowerCase();
  if (lower === 'auto' || lower === 'watch' || lower === 'poll') return lower;
  throw new InputError('mode', `Input "mode" is "${text}": expected auto, watch or poll.`);
}

const MAX_LOG_LINES = 1000;

/** A whole number of lines: the tail read through pods/log and shown per container. */
function parseLogLines(text: string): number {
  const lines = /^\d+$/.test(text) ? Number(text) : NaN;
  if (lines >= 1 && lines <= MAX_LOG_LINES) return lines;
  throw new InputError(
    'log-lines',
    `Input "log-lines" is "${text}": expected a whole number of lines from 1 to ${MAX_LOG_LINES}, like 30. To show no logs, set logs: false.`,
  );
}

/** YAML 1.2 core schema booleans, as core.getBooleanInput accepts them. */
function parseBoolean(name: string, text: string): boolean {
  if (['true', 'True', 'TRUE'].includes(text)) return true;
  if (['false', 'False', 'FALSE'].includes(text)) return false;
  throw new InputError(
    name,
    `Input "${name}" is "${text}": expected true or false, like ${name}: ${INPUT_DEFAULTS[name as keyof typeof INPUT_DEFAULTS] ?? 'true'}.`,
  );
}

const PR_COMMENT_MODES: readonly string[] = ['off', 'always', 'on-failure'] satisfies PrCommentMode[];

/**
 * The inputs of the GitHub reports alone. `parseSettings` reads them with the others; after a setup failure
 * (another input is bad, the kubeconfig is unusable) main.ts reads them once more, to report that failure too.
 */
export function parseGitHubReportInputs(
  read: InputReader,
): Pick<Settings, 'prComment' | 'githubToken' | 'deploymentEnvironment' | 'deploymentUrl' | 'reportMatrix' | 'reportJobId'> {
  const value = withDefaults(read);
  const prComment = value('pr-comment');
  if (!PR_COMMENT_MODES.includes(prComment)) {
    throw new InputError('pr-comment', `Input "pr-comment" is "${prComment}": expected off, always or on-failure, like pr-comment: on-failure.`);
  }
  const deploymentEnvironment = value('deployment-environment');
  const deploymentUrl = value('deployment-url');
  if (deploymentUrl !== '') {
    if (!isHttpUrl(deploymentUrl)) {
      throw new InputError(
        'deployment-url',
        `Input "deployment-url" is "${deploymentUrl}": expected an http(s) URL, like deployment-url: https://staging.example.com.`,
      );
    }
    if (deploymentEnvironment === '') {
      throw new InputError(
        'deployment-url',
        'Input "deployment-url" is set but "deployment-environment" is empty: name the environment too, like deployment-environment: staging.',
      );
    }
  }
  return {
    prComment: prComment as PrCommentMode,
    githubToken: value('github-token'),
    deploymentEnvironment,
    deploymentUrl,
    // Kept as given: helpers of the reports, never the verdict. A runner that does not expand their defaults
    // passes the literal text; report/github/ then reports without them, with one warning (run-context.ts).
    reportMatrix: value('report-matrix'),
    reportJobId: value('report-job-id'),
  };
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}
