/**
 * The command line in kubectl's vocabulary -> the values of the action's inputs, so the command builds its
 * `Settings` with the action's own parser (`parseSettings`) and both shells share one validation. Parsing is
 * Node's `util.parseArgs` (tokens mode); this module adds kubectl's conventions (`--flag=false`, `TYPE NAME...`)
 * and one clear line for a bad flag.
 *
 * `INPUT_FLAGS` has one entry per input of action.yml: keyed by the input names generated from it, the compiler
 * fails when one is missing or unknown (and test/cli/flags.test.ts checks the order).
 */
import { parseArgs } from 'node:util';
import { parseSettings } from '../inputs.js';
import { INPUT_DEFAULTS, type InputName, type Settings } from '../settings.js';

/** How the command sets one action input. */
export interface InputFlag {
  /** Long name (`--for`); undefined for the input the positional arguments set. */
  flag?: string;
  short?: string;
  boolean?: boolean;
  /** Repeatable; the values become the input's lines. */
  multiple?: boolean;
  /** Placeholder in --help. */
  value?: string;
  help: string;
}

/** Every input of action.yml, in its order: the compiler holds the table to one entry per input (action-inputs.ts). */
export const INPUT_FLAGS = {
  kubeconfig: { flag: 'kubeconfig', value: 'PATH', help: 'kubeconfig file (default: $KUBECONFIG, then ~/.kube/config, then the in-cluster service account)' },
  context: {
    flag: 'context',
    value: 'NAME',
    help: "kubeconfig context (default: the kubeconfig's current-context); several, like eu-west,us-east: wait in each",
  },
  namespace: { flag: 'namespace', short: 'n', value: 'NAME', help: "namespace of targets that name none (default: the context's, else default)" },
  clusters: {
    flag: 'clusters',
    value: 'YAML',
    help: 'several clusters: a YAML list of {name, context, kubeconfig (an environment variable or a file), namespace, resources (replace the targets there)}, or contexts like eu-west,us-east',
  },
  'cluster-policy': { flag: 'cluster-policy', value: 'POLICY', help: 'with several clusters: all must be ready, or any: ends as soon as one is ready' },
  resources: { help: 'TYPE/NAME, NAMESPACE/TYPE/NAME, TYPE NAME..., or a bare TYPE (every object of it matching -l)' },
  selector: { flag: 'selector', short: 'l', value: 'SELECTOR', help: 'label selector; alone, every workload in the namespace that matches' },
  manifests: {
    flag: 'filename',
    short: 'f',
    multiple: true,
    value: 'PATH',
    help: 'manifest files, directories or globs (repeatable); every object in them is a target',
  },
  release: { flag: 'release', value: 'NAME', help: 'a Helm release in the namespace: every object of its latest revision' },
  'release-min-revision': {
    flag: 'release-min-revision',
    value: 'REVISION',
    help: 'with --release: next (newer than the revision at the start, for a wait beside helm upgrade) or N (revision N or newer)',
  },
  revision: {
    flag: 'revision',
    value: 'REVISION',
    help: 'the source revision shipped (commit sha, tag or main@sha1:SHA): Flux and Argo CD targets must have applied it',
  },
  inventory: {
    flag: 'inventory',
    boolean: true,
    help: 'the objects a Flux Kustomization or HelmRelease or Argo CD Application target applied are targets too (--inventory=false: not)',
  },
  reconcile: {
    flag: 'reconcile',
    boolean: true,
    help: "ask the Flux and Argo CD targets' controllers to act now, as flux reconcile --with-source and Argo CD's refresh do (needs patch)",
  },
  'wait-for': { flag: 'for', value: 'CONDITION', help: 'ready, deleted, condition=TYPE[=VALUE] or jsonpath=EXPR[=VALUE]' },
  timeout: { flag: 'timeout', value: 'DURATION', help: 'overall deadline, like 90s, 5m or 1h30m' },
  'poll-interval': { flag: 'poll-interval', value: 'DURATION', help: 'interval of LIST for polled types (at least 100ms)' },
  mode: { flag: 'mode', value: 'MODE', help: 'auto (watch, poll where watch is forbidden), watch or poll' },
  'fail-fast': {
    flag: 'fail-fast',
    boolean: true,
    help: 'stop as soon as any target is Failed (--fail-fast=false: wait to the deadline; statuses are the same)',
  },
  'job-completion': { flag: 'job-completion', boolean: true, help: 'Jobs must complete and bare Pods succeed (false: plain kstatus)' },
  summary: { flag: 'summary', boolean: true, help: 'write the job summary' },
  logs: { flag: 'logs', boolean: true, help: 'show the log tails of failing containers (needs get on pods/log)' },
  'log-lines': { flag: 'log-lines', value: 'N', help: "lines of each failing container's log to show, 1 to 1000" },
  'health-checks': {
    flag: 'health-checks',
    multiple: true,
    value: 'RULES',
    help: 'Flux healthCheckExprs for custom resources: an inline YAML list, or files/globs holding one or Flux Kustomizations (repeatable)',
  },
  'builtin-health-checks': { flag: 'builtin-health-checks', boolean: true, help: 'built-in rules for popular custom resources (false: plain kstatus)' },
  'status-grace': { flag: 'status-grace', value: 'DURATION', help: 'how long a custom resource without status waits for its controller (0s: plain kstatus)' },
  'stable-for': { flag: 'stable-for', value: 'DURATION', help: 'success only after every target stayed ready this long' },
  paused: { flag: 'paused', value: 'WHAT', help: 'a paused Argo Rollout or Deployment: wait (until it continues) or ready (where it paused)' },
  // rollback (issue 32)
  rollback: {
    flag: 'rollback',
    value: 'WHEN',
    help: 'undo the rollout of the workloads that did not get there: off, on-failure, on-timeout or on-failure-or-timeout',
  },
  'rollback-timeout': { flag: 'rollback-timeout', value: 'DURATION', help: 'how long to wait for the rolled-back workloads, outside --timeout' },
  'rollback-scope': { flag: 'rollback-scope', value: 'SCOPE', help: 'failed (the workloads that did not get there) or all (every workload among the targets)' },
  'pr-comment': { flag: 'pr-comment', value: 'WHEN', help: 'the sticky pull-request comment: off, always or on-failure' },
  'deployment-environment': { flag: 'deployment-environment', value: 'NAME', help: 'report to a Deployment of this environment' },
  'deployment-url': { flag: 'deployment-url', value: 'URL', help: "the Deployment's environment URL" },
  'github-token': { flag: 'github-token', value: 'TOKEN', help: 'token for the comment and the Deployment (default: $GITHUB_TOKEN)' },
  'report-matrix': { flag: 'report-matrix', value: 'JSON', help: "the job's matrix entry, to tell matrix comments apart" },
  'report-job-id': { flag: 'report-job-id', value: 'ID', help: "the job's check-run id, for links" },
} satisfies Record<InputName, InputFlag>;

export type Output = 'text' | 'json';

/** Flags of the command alone. */
export const COMMAND_FLAGS = {
  output: { flag: 'output', short: 'o', value: 'FORMAT', help: 'text (the live log) or json (one document on stdout)' },
  junit: { flag: 'junit', value: 'FILE', help: 'also write JUnit XML, one testcase per target' },
  help: { flag: 'help', short: 'h', boolean: true, help: 'show this help' },
  version: { flag: 'version', boolean: true, help: 'print the version' },
} satisfies Record<string, InputFlag>;

export interface CommandLine {
  /** Action input name -> value, as the action's runner would pass it ('' or absent: unset). */
  inputs: Record<string, string>;
  /** `--kubeconfig`: a path, as in kubectl (the action's input takes content). */
  kubeconfigPath?: string;
  output: Output;
  junit?: string;
  help: boolean;
  version: boolean;
}

/** A bad flag or argument: one line naming it, with a correct example. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
  /** `-o json` was asked for on the same command line: the error is the JSON document too. */
  output?: 'text' | 'json';
}

interface FlagEntry extends InputFlag {
  /** The action input it sets, or the command option. */
  key: string;
  input: boolean;
}

const ENTRIES: FlagEntry[] = [
  ...Object.entries(INPUT_FLAGS as Record<string, InputFlag>).map(([key, spec]) => ({ ...spec, key, input: true })),
  ...Object.entries(COMMAND_FLAGS as Record<string, InputFlag>).map(([key, spec]) => ({ ...spec, key, input: false })),
].filter((entry) => entry.flag !== undefined);

const BY_FLAG = new Map(ENTRIES.map((entry) => [entry.flag!, entry]));

/** An example value per flag, for error messages. */
const EXAMPLES: Record<string, string> = {
  kubeconfig: '~/.kube/config',
  context: 'kind-ci',
  namespace: 'shop',
  clusters: 'eu-west,us-east',
  'cluster-policy': 'any',
  selector: 'app=web',
  filename: 'k8s/',
  for: 'condition=Available',
  timeout: '5m',
  'poll-interval': '2s',
  mode: 'poll',
  output: 'json',
  junit: 'report.xml',
  release: 'shop',
  'release-min-revision': 'next',
  revision: '"$(git rev-parse HEAD)"',
  'health-checks': 'health/flux.yaml',
  'status-grace': '30s',
  'stable-for': '30s',
  paused: 'ready',
  'log-lines': '30',
  rollback: 'on-failure',
  'rollback-timeout': '5m',
  'rollback-scope': 'all',
  'pr-comment': 'on-failure',
  'deployment-environment': 'staging',
  'deployment-url': 'https://staging.example.com',
  'github-token': '"$GITHUB_TOKEN"',
  'report-matrix': '\'{"os":"linux"}\'',
  'report-job-id': '42',
};

export function example(flag: string): string {
  const entry = BY_FLAG.get(flag);
  if (entry?.boolean) return `--${flag} or --${flag}=false`;
  return `--${flag} ${EXAMPLES[flag] ?? 'VALUE'}`;
}

export function parseCommandLine(argv: string[]): CommandLine {
  const options = Object.fromEntries(
    ENTRIES.map((entry) => [entry.flag!, { type: entry.boolean ? 'boolean' : 'string', ...(entry.short && { short: entry.short }), multiple: true }] as const),
  );
  const { tokens } = parseArgs({ args: argv, options, allowPositionals: true, strict: false, tokens: true, allowNegative: true });
  const values = new Map<string, string[]>();
  const positionals: string[] = [];
  try {
    for (const token of tokens) {
      if (token.kind === 'positional') positionals.push(token.value);
      if (token.kind !== 'option') continue;
      const entry = BY_FLAG.get(token.name);
      if (!entry) throw new UsageError(`unknown flag ${token.rawName}${suggestion(token.name)}. Run kubewait --help for the flags.`);
      const value = entry.boolean ? booleanValue(entry, token.rawName, token.value) : stringValue(entry, token.rawName, token.value, token.inlineValue);
      values.set(entry.key, [...(values.get(entry.key) ?? []), value]);
    }
  } catch (error) {
    // A script that asked for JSON reads stdout whatever went wrong: say which output it asked for.
    if (error instanceof UsageError && tokens.some((t) => t.kind === 'option' && t.name === 'output' && t.value === 'json')) error.output = 'json';
    throw error;
  }
  const last = (key: string) => values.get(key)?.at(-1);
  const inputs: Record<string, string> = {};
  for (const [key, spec] of Object.entries(INPUT_FLAGS as Record<string, InputFlag>)) {
    const given = values.get(key);
    if (given && key !== 'kubeconfig') inputs[key] = spec.multiple ? given.join('\n') : given.at(-1)!;
  }
  inputs.resources = resourcesFrom(positionals).join('\n');
  const output = last('output') ?? 'text';
  if (output !== 'text' && output !== 'json') throw new UsageError(`--output is "${output}": expected text or json, like -o json.`);
  return {
    inputs,
    ...(last('kubeconfig') !== undefined && { kubeconfigPath: last('kubeconfig') }),
    output,
    ...(last('junit') !== undefined && { junit: last('junit') }),
    help: last('help') === 'true',
    version: last('version') === 'true',
  };
}

/** `--fail-fast`, `--no-fail-fast`, `--fail-fast=false` (kubectl's way), as the input's `true`/`false`. */
function booleanValue(entry: FlagEntry, rawName: string, value: string | undefined): string {
  if (rawName.startsWith('--no-')) return 'false';
  if (value === undefined) return 'true';
  if (value === 'true' || value === 'false') return value;
  throw new UsageError(`--${entry.flag} is "${value}": expected true or false, like ${example(entry.flag!)}.`);
}

function stringValue(entry: FlagEntry, rawName: string, value: string | undefined, inline: boolean | undefined): string {
  // parseArgs takes the next argument as the value even when it is a flag (`--timeout -n shop`): that is a
  // missing value, as in kubectl, not a value starting with a dash.
  if (value === undefined || (!inline && /^-[a-zA-Z-]/.test(value))) {
    throw new UsageError(`${rawName} needs a value, like ${example(entry.flag!)}.`);
  }
  // `-n=shop` is `-n shop` in kubectl (pflag); parseArgs would keep the `=`.
  return inline && !rawName.startsWith('--') && value.startsWith('=') ? value.slice(1) : value;
}

/**
 * Positional arguments as entries of the `resources` input. `TYPE/NAME` and `NAMESPACE/TYPE/NAME` as they
 * are; kubectl's `TYPE NAME...` form (`deployment web api`) as `TYPE/NAME` each; one bare `TYPE` (or
 * `TYPE,TYPE`) as bare types, filtered by `-l`.
 */
export function resourcesFrom(args: string[]): string[] {
  const [first, ...rest] = args;
  if (first === undefined) return [];
  if (first.includes('/') || rest.length === 0) {
    if (rest.length > 0 && !first.includes('/')) throw new UsageError(mixedForms(first));
    const bare = args.find((arg, at) => at > 0 && !arg.includes('/'));
    if (bare !== undefined) throw new UsageError(mixedForms(bare));
    return args;
  }
  const slashed = rest.find((arg) => arg.includes('/'));
  if (slashed !== undefined) throw new UsageError(mixedForms(first));
  const types = first.split(',').filter(Boolean);
  return types.flatMap((type) => rest.map((name) => `${type}/${name}`));
}

function mixedForms(arg: string): string {
  return `argument "${arg}": give targets either as TYPE/NAME each or as TYPE NAME..., like kubewait deployment/web job/migrate or kubewait deployment web api.`;
}

/** `--timout` -> ` (did you mean --timeout?)`: the flag at the smallest edit distance, if close. */
function suggestion(name: string): string {
  let best: { flag: string; distance: number } | undefined;
  for (const flag of BY_FLAG.keys()) {
    const distance = editDistance(name, flag);
    if (!best || distance < best.distance) best = { flag, distance };
  }
  return best && best.distance <= Math.max(1, Math.floor(name.length / 3)) ? ` (did you mean --${best.flag}?)` : '';
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row.push(Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)));
    previous = row;
  }
  return previous[b.length]!;
}

/** Nothing to wait for is a usage error of the command, said in its terms (the action's message names inputs). */
export function checkSomethingToWaitFor(line: CommandLine): void {
  // Each entry of --clusters may name its own resources: the action's parser checks every cluster.
  if (line.inputs.clusters) return;
  if (!line.inputs.resources && !line.inputs.selector && !line.inputs.manifests && !line.inputs.release) {
    throw new UsageError(
      'nothing to wait for: name targets, a selector, manifests or a Helm release, like kubewait deployment/web, kubewait -l app=web, kubewait -f k8s/ or kubewait --release shop. Run kubewait --help for more.',
    );
  }
}

/** The same `Settings` the action builds from the same input values (validation included). */
export function settingsFrom(line: CommandLine): Settings {
  return parseSettings((name) => line.inputs[name] ?? '');
}

/** Defaults for --help: the action's. */
export function defaultOf(input: string): string | undefined {
  return (INPUT_DEFAULTS as Partial<Record<string, string>>)[input];
}
