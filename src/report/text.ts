/**
 * Plain-text building blocks shared by the live log, the annotations, the summary and the outputs:
 * how a target is named, how long something took, and what the user waited for.
 */
import type { ContainerProblem, Diagnosis } from '../status/types.js';
import type { TargetReport } from '../result.js';
import type { WaitFor } from '../settings.js';
import { shownJsonPathValue } from '../status/jsonpath/secret-data.js';

type Named = Pick<TargetReport, 'kind' | 'namespace' | 'name' | 'selector' | 'cluster'> & Partial<Pick<TargetReport, 'parent'>>;

/** With several clusters (the `clusters` input), every reference says which: `[eu-west] `. */
function clusterPrefix(target: Named): string {
  return target.cluster ? `[${target.cluster}] ` : '';
}

/** kubectl-style reference for the log: `deployment/web (shop)`, `namespace/shop`,
 *  `deployment -l app=web (shop)` for a selector that matched nothing; an object a GitOps target applied
 *  under its parent: `kustomization/apps (flux-system) -> deployment/api (shop)`. */
export function logRef(target: Named): string {
  const parent = target.parent ? `${kubectlRef(target.parent)} -> ` : '';
  const kind = target.kind.toLowerCase();
  const what = target.name ? `${kind}/${target.name}` : `${kind} ${selectorPhrase(target)}`;
  return clusterPrefix(target) + parent + (target.namespace ? `${what} (${target.namespace})` : what);
}

function kubectlRef(object: Pick<TargetReport, 'kind' | 'namespace' | 'name'>): string {
  const what = `${object.kind.toLowerCase()}/${object.name}`;
  return object.namespace ? `${what} (${object.namespace})` : what;
}

/** Annotation title and summary heading: `Deployment shop/web`, `Namespace shop`; an object a GitOps
 *  target applied under its parent: `Kustomization flux-system/apps -> Deployment shop/api`. */
export function titleRef(target: Named): string {
  if (!target.name) {
    const where = target.namespace ? ` in ${target.namespace}` : '';
    return `${clusterPrefix(target)}${target.kind}${where} ${selectorPhrase(target)}`;
  }
  const parent = target.parent ? `${objectRef(target.parent)} -> ` : '';
  return clusterPrefix(target) + parent + objectRef(target);
}

/** `Deployment shop/web`, `Namespace shop`. */
export function objectRef(object: Pick<TargetReport, 'kind' | 'namespace' | 'name'>): string {
  return object.namespace ? `${object.kind} ${object.namespace}/${object.name}` : `${object.kind} ${object.name}`;
}

/** The `pending` / `failed` output format: `NAMESPACE/KIND/NAME`, `KIND/NAME` when cluster-scoped.
 *  A selector target that matched nothing has an empty NAME, as in the `resources` output. */
export function outputRef(target: Named): string {
  const kindName = `${target.kind}/${target.name}`;
  return clusterPrefix(target) + (target.namespace ? `${target.namespace}/${kindName}` : kindName);
}

/** The target's file when it is one of the workspace, for links and annotation `file=`: a Helm release's
 *  manifest (`release shop (revision 3)`) is not. The source's kind says which, never its name. */
export function workspaceFile(target: Pick<TargetReport, 'source'>): string | undefined {
  return target.source?.kind === 'file' ? target.source.file : undefined;
}

/** Where a target was defined: `k8s/web.yaml:12`, or the file alone when the line is unknown. */
export function fileLine(target: Pick<TargetReport, 'file' | 'line'>): string {
  return `${target.file ?? ''}${target.line ? `:${target.line}` : ''}`;
}

function selectorPhrase(target: Named): string {
  return target.selector ? `-l ${target.selector}` : '(none found)';
}

/** `1 target`, `3 targets`. */
export function targetCount(n: number): string {
  return `${n} target${n === 1 ? '' : 's'}`;
}

/** `0.4s`, `12.4s`, `1m05s`, `1h02m03s`: precise when short, readable when long. */
export function formatSeconds(seconds: number): string {
  const safe = Number.isFinite(seconds) && seconds > 0 ? seconds : 0;
  if (safe < 60) return `${(Math.round(safe * 10) / 10).toFixed(1)}s`;
  const whole = Math.round(safe);
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = whole % 60;
  const pad = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}h${pad(m)}m${pad(s)}s` : `${m}m${pad(s)}s`;
}

/** Seconds for machine outputs: one decimal, never negative or NaN. */
export function roundSeconds(seconds: number): number {
  return Number.isFinite(seconds) && seconds > 0 ? Math.round(seconds * 10) / 10 : 0;
}

/** What "done" means for this wait, as an adjective phrase: `ready`, `deleted`, `Available=True`. */
export function desiredPhrase(waitFor: WaitFor): string {
  switch (waitFor.kind) {
    case 'ready':
      return 'ready';
    case 'deleted':
      return 'deleted';
    case 'condition':
      return `${waitFor.type}=${waitFor.value}`;
    case 'jsonpath':
      return waitFor.value === undefined ? `${waitFor.expression} present` : `${waitFor.expression}=${shownJsonPathValue(waitFor.expression, waitFor.value)}`;
  }
}

/** The `wait-for` input as the user wrote it. */
export function waitForInput(waitFor: WaitFor): string {
  switch (waitFor.kind) {
    case 'ready':
    case 'deleted':
      return waitFor.kind;
    case 'condition':
      return `condition=${waitFor.type}=${waitFor.value}`;
    case 'jsonpath':
      return waitFor.value === undefined
        ? `jsonpath=${waitFor.expression}`
        : `jsonpath=${waitFor.expression}=${shownJsonPathValue(waitFor.expression, waitFor.value)}`;
  }
}

/** A target's history from its first real status: the engine's `Unknown` rows before the object was first read
 *  (resolving its type, waiting for the first list) are dropped when a real status follows. */
export function realHistory(target: Pick<TargetReport, 'history'>): TargetReport['history'] {
  const first = target.history.findIndex((h) => h.status !== 'Unknown');
  return first < 0 ? target.history.slice(-1) : target.history.slice(first);
}

/** Done at its first real status: nothing was waited for, so there is no time to show. */
export function doneFromTheStart(target: Pick<TargetReport, 'history' | 'done' | 'status'>): boolean {
  const real = realHistory(target);
  return target.done && real.length === 1 && real[0]?.status === target.status;
}

export type Standing = 'failed' | 'pending' | 'done';

/** Failed targets first, then the ones still pending, then the ones at the desired status. */
export function standing(target: Pick<TargetReport, 'done' | 'status'>): Standing {
  if (target.done) return 'done';
  return target.status === 'Failed' ? 'failed' : 'pending';
}

/** Stable: within a standing, targets keep the order the user gave them. One pass, no sort: the report
 *  orders every target several times (summary, log blocks, annotations), thousands of them at the end of a
 *  wait, when every millisecond is one the step waits for (bench/RESULTS.md, decision to exit). */
export function byStanding<T extends Pick<TargetReport, 'done' | 'status'>>(targets: readonly T[]): T[] {
  const by: Record<Standing, T[]> = { failed: [], pending: [], done: [] };
  for (const target of targets) by[standing(target)].push(target);
  return by.failed.concat(by.pending, by.done);
}

export interface DiagnosisLineOptions {
  /** At most this many container lines (default 5) and event lines (default 3). */
  containers?: number;
  events?: number;
  /** Text already shown (the target's message): a container problem it already names is not repeated. */
  alreadySaid?: string;
}

/** Failing containers that fail for the same cause: the same container of several replicas, one per pod. */
export interface CauseGroup {
  /** The first of them, whose words are shown. */
  problem: ContainerProblem;
  /** Every one of them, in order. */
  problems: ContainerProblem[];
}

/**
 * The problems grouped by cause, in order of first appearance: the container (and whether it is an init
 * container), the reason and the message, apart from the restart count (`restarted 8 times` and `restarted 7
 * times` are one crash loop) and from where a pull is in its retries (below). Replicas of a Deployment fail
 * alike; the report says each cause once and names the pods, instead of one row per replica.
 */
export function causeGroups(problems: readonly ContainerProblem[]): CauseGroup[] {
  const groups = new Map<string, CauseGroup>();
  for (const problem of problems) {
    const key = JSON.stringify([problem.init, problem.container, ...causeOf(problem), problem.lastTerminationReason ?? '']);
    const group = groups.get(key);
    if (group) group.problems.push(problem);
    else groups.set(key, { problem, problems: [problem] });
  }
  return [...groups.values()];
}

/** The kubelet turns ErrImagePull into ImagePullBackOff and back while it retries a pull, so the replicas of
 *  one bad image are in either at any moment; ImagePullBackOff's message restates the pull's error after this. */
const PULL_BACK_OFF = /^Back-off pulling image "[^"]*": ErrImagePull: /;

/** A problem's reason and message as a cause: one pull error whichever of its two reasons it shows. */
function causeOf(problem: ContainerProblem): [reason: string, message: string] {
  if (problem.reason === 'ErrImagePull' || problem.reason === 'ImagePullBackOff') {
    const error = problem.message.replace(PULL_BACK_OFF, '');
    // Without the error (an older kubelet's `Back-off pulling image "x"`), the back-off stays a cause of its own.
    if (problem.reason === 'ErrImagePull' || error !== problem.message) return ['image pull', error];
  }
  return [problem.reason, problem.message.replace(/\brestarted \d+ times?\b/, 'restarted N times')];
}

/** `pod a` or `pods a, b`. */
export function podsPhrase(pods: readonly string[]): string {
  return `${pods.length === 1 ? 'pod' : 'pods'} ${pods.join(', ')}`;
}

/** One line per cause of failing containers (naming their pods) and per recent warning event, most useful
 *  first. A cause the target's message already states (`alreadySaid`) is not stated again: only the other pods
 *  it holds for are named (`container api of pod b: the same`). */
export function diagnosisLines(diagnosis: Diagnosis | undefined, options: DiagnosisLineOptions = {}): string[] {
  if (!diagnosis) return [];
  const said = options.alreadySaid ?? '';
  const isSaid = (p: ContainerProblem) => said.includes(p.pod) && said.includes(p.container) && said.includes(`${p.reason}: ${p.message}`);
  const containers = causeGroups(diagnosis.problems).flatMap(({ problem: p, problems }) => {
    const kind = p.init ? 'init container' : 'container';
    // A pod-level problem (Unschedulable) names no container.
    const where = (pods: string[]) => (p.container ? `${kind} ${p.container} of ${podsPhrase(pods)}` : podsPhrase(pods));
    if (problems.some(isSaid)) {
      const others = problems.filter((q) => !said.includes(q.pod)).map((q) => q.pod);
      return others.length > 0 ? [`${where(others)}: the same`] : [];
    }
    // A crash loop's message says both already (`restarted 8 times, last exit: Error (exit code 1)`).
    const restarts = p.restartCount && !p.message.includes('restarted') ? `, ${p.restartCount} restarts` : '';
    const last = p.lastTerminationReason && !p.message.includes('last exit') ? `, last exit: ${p.lastTerminationReason}` : '';
    const message = p.message ? `: ${p.message}` : '';
    return [`${where(problems.map((q) => q.pod))}: ${p.reason}${message}${restarts}${last}`];
  });
  const events = newsEvents(diagnosis).map((e) => {
    const times = e.count > 1 ? ` (x${e.count})` : '';
    return `event ${e.reason} on ${e.object}${times}: ${e.message}`;
  });
  const lines = [...capped(containers, options.containers ?? 5, 'containers'), ...capped(events, options.events ?? 3, 'events')];
  const nothingItemised = diagnosis.problems.length === 0 && diagnosis.events.length === 0;
  if (nothingItemised && diagnosis.summary && !said.includes(diagnosis.summary)) lines.push(diagnosis.summary);
  return lines;
}

/** The kubelet's events that only restate a listed container's state are left out: `BackOff: Back-off
 *  restarting failed container` beside a CrashLoopBackOff, `Failed: Error: ErrImagePull`, or an event whose text
 *  the container's message already holds. They add a row, not a fact. An event that says more (the pull
 *  error's `not found`, scheduling, mounts, probes) stays. */
export function newsEvents(diagnosis: Pick<Diagnosis, 'problems' | 'events'>): Diagnosis['events'] {
  return diagnosis.events.filter((e) => {
    const problems = diagnosis.problems.filter((p) => e.object === `Pod/${p.pod}`);
    if (problems.length === 0) return true;
    if (e.reason === 'BackOff' && e.message.startsWith('Back-off restarting failed container')) return false;
    if (e.reason === 'Failed' && /^Error: \w+$/.test(e.message)) return false;
    // `Failed to pull image "x": rpc error: ...` beside an ImagePullBackOff whose message holds the same error.
    const pullError = /^Failed to pull image "[^"]*": (.+)$/s.exec(e.message)?.[1];
    if (e.reason === 'Failed' && pullError && problems.some((p) => p.message.includes(pullError))) return false;
    return !problems.some((p) => p.message.includes(e.message));
  });
}

function capped(lines: string[], limit: number, noun: string): string[] {
  if (lines.length <= limit) return lines;
  if (limit <= 0) return [];
  return [...lines.slice(0, limit), `... and ${lines.length - limit} more ${noun}`];
}

/** Below this, a shortened text keeps only its start. */
const MIN_TWO_ENDED = 40;

/** Keeps log lines and table cells readable; the full text stays in the outputs. Cut at word boundaries, and
 *  keeping the end as well as the start: Kubernetes messages put the decisive part last
 *  (`failed to pull image "...": ...: not found`). */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max < MIN_TWO_ENDED) return `${text.slice(0, Math.max(0, max - 1))}…`;
  const room = max - 3; // ' … '
  const headRoom = Math.ceil(room * 0.6);
  const head = atWordEnd(text.slice(0, headRoom + 1), headRoom);
  const tail = atWordStart(text.slice(text.length - (room - head.length) - 1), room - head.length);
  return `${head.trimEnd()} … ${tail.trimStart()}`;
}

/** At most `max` characters of `text`, ending at the last space when there is one in the second half. */
function atWordEnd(text: string, max: number): string {
  const cut = text.slice(0, max);
  const space = text.lastIndexOf(' ', max);
  return space > max / 2 ? text.slice(0, space) : cut;
}

/** At most `max` characters of the end of `text`, starting after a space when there is one in the first half. */
function atWordStart(text: string, max: number): string {
  const cut = text.slice(text.length - max);
  const space = text.indexOf(' ', text.length - max - 1);
  return space >= 0 && space < text.length - max / 2 ? text.slice(space + 1) : cut;
}

/** One-line form of a possibly multi-line message. */
export function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' ').trim();
}

/** A cluster server URL as it may be shown: scheme, host, port and path, never userinfo or query. */
export function displayServer(server: string): string {
  try {
    const url = new URL(server);
    return `${url.protocol}//${url.host}${url.pathname === '/' ? '' : url.pathname}`;
  } catch {
    // Not a URL: show nothing rather than something that might carry a credential.
    return server ? '(unparsable server address)' : '';
  }
}
