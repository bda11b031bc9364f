/**
 * The action's vocabulary, in one leaf module that every layer may import and that imports nothing of
 * the project but the input table generated from action.yml (action-inputs.ts): what a run was asked to
 * do (`Settings`), its parts (`WaitFor`, `Mode`, `ResourceRef`), the defaults of action.yml, and the one
 * type for a problem that is the user's to fix (`InputError`).
 *
 * A shell (the action's inputs, the command line) builds one `Settings` object; the layers below take the
 * slice they need (`Pick<Settings, ...>`), so adding an input means: action.yml (then `npm run inputs`),
 * this file, the input's parser, its flag, and the layer that uses it, nothing else.
 */

/** The `wait-for` input, parsed. */
export type WaitFor =
  | { kind: 'ready' }
  | { kind: 'deleted' }
  /** `condition=TYPE[=VALUE]`; VALUE defaults to `True` (kubectl wait). */
  | { kind: 'condition'; type: string; value: string }
  /** `jsonpath=EXPR[=VALUE]`; without VALUE the path must merely exist (kubectl wait). */
  | { kind: 'jsonpath'; expression: string; value?: string };

/** The `revision` input, parsed (src/status/gitops/revision.ts): the source revision a deploy step shipped. */
export interface WantedRevision {
  /** As given, for messages. */
  text: string;
  /** Lowercase hex: a commit sha (or a digest) to match by prefix. */
  sha?: string;
  /** A tag, branch or chart version to match exactly (only when no sha is given). */
  name?: string;
}

/** `auto`: watch, and per group fall back to polling when watching is forbidden or keeps failing. */
export type Mode = 'auto' | 'watch' | 'poll';

/** `pr-comment`: `on-failure` posts only when the wait did not succeed, but still turns an earlier comment green. */
export type PrCommentMode = 'off' | 'always' | 'on-failure';

/** A reference from the `resources` input, before discovery resolves its type. */
export interface ResourceRef {
  /** As written (`deploy`, `deployments.apps`, `Certificate.cert-manager.io`); discovery resolves it. */
  type: string;
  namespace?: string;
  /** Undefined for a bare TYPE. */
  name?: string;
}

/** Where a manifest text came from: a file of the workspace (the `manifests` input), or a Helm release's
 *  manifest (the `release` input), which is no file a link or an annotation could point at. */
export type ManifestDocument = { kind: 'file'; file: string } | { kind: 'release'; name: string; revision: number };

/**
 * Where a target was defined, by kind, so that nothing has to guess it from a name: a line of a manifest
 * file, or of a release's manifest (the line as `helm get manifest NAME --revision N` prints it).
 */
export type TargetSource = ManifestDocument & { line: number };

/** A manifest document in words, for messages and the `file` of the `resources` output: the workspace
 *  path, or `release shop (revision 3)`. */
export function documentName(document: ManifestDocument): string {
  return document.kind === 'file' ? document.file : `release ${document.name} (revision ${document.revision})`;
}

/** `cluster-policy`: whether every cluster of `clusters` must be ready, or one is enough. */
export type ClusterPolicy = 'all' | 'any';

/** One entry of the `clusters` input (src/fleet/): where to wait for every target, under its name. */
export interface ClusterSpec {
  /** Unique; names the cluster in the report (`[eu-west] Deployment shop/api`). */
  name: string;
  /** Empty: its kubeconfig's current-context. */
  context: string;
  /** Where its kubeconfig is: '' for the step's own (`kubeconfig`), the name of an environment variable
   *  holding kubeconfig content (`KUBECONFIG_EU`), or file paths (`a:b`, merged as kubectl does). */
  kubeconfig: string;
  /** Empty: the `namespace` input's, else the context's. */
  namespace: string;
  /** Its own targets, replacing (not added to) the step's `resources` in this cluster; absent: the step's.
   *  `selector`, `manifests` and `release` stay the step's. */
  resources?: ResourceRef[];
}

export interface Settings {
  /** Kubeconfig content as given (YAML or base64). Never log it. Empty: $KUBECONFIG, ~/.kube/config, in-cluster. */
  kubeconfig: string;
  /** Empty: the kubeconfig's current-context. */
  context: string;
  /** Empty: the context's namespace, else `default`. */
  namespace: string;
  /** The `clusters` input: empty for one cluster (the code path of `kubeconfig` and `context` alone). */
  clusters: ClusterSpec[];
  clusterPolicy: ClusterPolicy;
  resources: ResourceRef[];
  /** Label selector in kubectl syntax; empty when not set. */
  selector: string;
  /** Paths or globs of manifest files, one per line (`!` lines exclude). */
  manifests: string[];
  waitFor: WaitFor;
  timeoutMs: number;
  pollIntervalMs: number;
  mode: Mode;
  failFast: boolean;
  jobCompletion: boolean;
  summary: boolean;
  /** The sticky pull-request comment (src/report/github/). */
  prComment: PrCommentMode;
  /** `github-token`, for the pull-request comment and the Deployment. Never log it: it is masked at the start
   *  of every run, reporting on or off (`secretSettings`). */
  githubToken: string;
  /** '' for no Deployment. */
  deploymentEnvironment: string;
  /** '' for none; an http(s) URL otherwise. */
  deploymentUrl: string;
  /** `report-matrix`: the job's matrix entry as `toJSON(matrix)` ('' or 'null' without one), as given. */
  reportMatrix: string;
  /** `report-job-id`: the job's check-run id, '' when the runner does not know it, as given (checked where used). */
  reportJobId: string;
  /** The `health-checks` input as given (inline rules or file lines); loaded before the wait. */
  healthChecks: string;
  builtinHealthChecks: boolean;
  /** `status-grace`; 0 means plain kstatus for custom resources without status. */
  statusGraceMs: number;
  /** `stable-for`; 0 means success as soon as every target is at the desired status. */
  stableForMs: number;
  /** `paused`: `wait` keeps waiting for a paused rollout to continue; `ready` counts it ready where it paused. */
  paused: PausedPolicy;
  /** A Helm release name (docs/helm-release.md); empty when not set. Its namespace is `namespace`'s. */
  release: string;
  /** `release-min-revision`: the oldest revision of `release` to wait for; `next`: one newer than the one recorded
   *  at the start; 0: whichever is latest. */
  releaseMinRevision: ReleaseMinRevision;
  /** `revision`: what Flux and Argo CD targets must have applied to be ready; undefined when not set. */
  revision?: WantedRevision;
  /** `inventory`: the objects a Flux Kustomization or HelmRelease or Argo CD Application target applied are targets too (src/gitops/). */
  inventory: boolean;
  /** `reconcile`: ask the GitOps targets' controllers to act now (annotations, src/gitops/reconcile.ts). */
  reconcile: boolean;
  // rollback (issue 32): src/rollback/.
  /** `rollback`: which outcome undoes the rollout of the workloads that did not get there. */
  rollback: RollbackMode;
  /** `rollback-timeout`: the wait for the rolled-back workloads, outside `timeout`. */
  rollbackTimeoutMs: number;
  /** `rollback-scope`: the workloads that did not get there, or every workload among the targets. */
  rollbackScope: RollbackScope;
  /** Container log tails of failing containers in the report. */
  logs: boolean;
  /** Lines of each failing container's log (1-1000). */
  logLines: number;
}

/** `rollback` (src/rollback/): off, or the outcomes that undo the rollout. */
export type RollbackMode = 'off' | 'on-failure' | 'on-timeout' | 'on-failure-or-timeout';

/** `rollback-scope`: `failed` targets only, or `all` the workloads among the targets. */
export type RollbackScope = 'failed' | 'all';

/** `paused`: what a paused Argo Rollout or Deployment is for the `ready` goal (status/paused.ts). */
export type PausedPolicy = 'wait' | 'ready';

/** `release-min-revision`: `next`, or the oldest revision to wait for (0: any, the input's default). */
export type ReleaseMinRevision = 'next' | number;

/** The defaults of action.yml, applied when an input is unset (the runner fills them in; tests may not):
 *  generated from action.yml (`npm run inputs`). */
export { INPUT_DEFAULTS, INPUT_NAMES, type InputName } from './action-inputs.js';

/** The settings that are credentials, registered as secrets before anything runs: a token is masked even when
 *  nothing uses it, as a container log or an API answer may carry it into the report. */
export function secretSettings(settings: Pick<Settings, 'githubToken'>): string[] {
  return [settings.githubToken].filter((value) => value.trim() !== '');
}

/** Without `resources` and `manifests`, a selector selects workloads of its own (src/targets/workloads.ts). */
export function selectorStandsAlone(settings: Pick<Settings, 'resources' | 'manifests'> & Partial<Pick<Settings, 'release'>>): boolean {
  return settings.resources.length === 0 && settings.manifests.length === 0 && !settings.release;
}

/** A problem that is the user's to fix, found up front or during the wait: names the input at fault. */
export interface InputProblem {
  /** The action input at fault, as named in action.yml (`resources`, `kubeconfig`, ...). */
  input: string;
  message: string;
  /** Where in a manifest file the problem is, for the annotation. */
  source?: { file: string; line?: number };
}

/** An `InputProblem` thrown before the wait starts (parsing inputs, reading manifests or the kubeconfig). */
export class InputError extends Error implements InputProblem {
  override readonly name = 'InputError';
  constructor(
    readonly input: string,
    message: string,
    readonly source?: { file: string; line?: number },
  ) {
    super(message);
  }
}

/** The problem in words, led by the input's name unless the message names it already. */
export function describeInputProblem(problem: Pick<InputProblem, 'input' | 'message'>): string {
  const named = problem.message.includes(`"${problem.input}"`) || problem.message.includes(`\`${problem.input}\``);
  return named ? problem.message : `Input "${problem.input}": ${problem.message}`;
}
