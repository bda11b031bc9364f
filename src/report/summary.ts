/**
 * The job summary as markdown. Pure: result + context in, string out; `index.ts` writes it.
 * GitHub rejects a step summary over 1 MiB, so large target sets are aggregated, always saying so.
 */
import type { ClusterRun, Result, RunResult, TargetReport } from '../result.js';
import { clusterPublicResult } from './outputs.js';
import type { WaitFor } from '../settings.js';
import type { Status } from '../status/types.js';
import { progressPrefix } from '../status/progressive/progress.js';
import { describeInputProblem } from '../settings.js';
import { VERSION } from '../version.js';
import { cell, code, details, escapeHtml, escapeMarkdown, linkText, table, urlPath } from './markdown.js';
import { failedPodLines, failureHeadline } from './failure.js';
import { rolledBackSection } from './rolled-back.js';
import { smokeSection } from './smoke-section.js';
import { distinctLogs, logDetails, telling } from './logs.js';
import {
  byStanding,
  causeGroups,
  desiredPhrase,
  displayServer,
  doneFromTheStart,
  newsEvents,
  fileLine,
  formatSeconds,
  realHistory,
  standing,
  targetCount,
  objectRef,
  titleRef,
  truncate,
  waitForInput,
  workspaceFile,
} from './text.js';

/** Where the run lives on GitHub, for links (from `@actions/github`'s `context`). */
export interface RunInfo {
  serverUrl: string;
  /** `owner/repo` */
  repository?: string;
  runId?: number;
  runAttempt?: number;
  /** Commit the workflow runs on, for links to manifest lines. */
  sha?: string;
}

export interface SummaryContext {
  /** Cluster API server URL; shown without userinfo or query. */
  server: string;
  /** Kubeconfig context name. */
  context: string;
  waitFor: WaitFor;
  run?: RunInfo;
  /** Who speaks in the headline: `kubewait`, or a cluster's name in its section. */
  label?: string;
}

export interface SummaryLimits {
  /** Rows for targets at the desired status; the rest become one count line. */
  readyRows: number;
  /** Rows for failed and pending targets. */
  otherRows: number;
  /** `<details>` blocks for targets that are not done. */
  details: number;
  /** Characters of a message in a table cell. */
  cellChars: number;
  /** Upper bound of the rendered summary in UTF-8 bytes. */
  maxBytes: number;
}

/** GitHub's limit is 1 MiB per step; stay clearly below it. */
export const DEFAULT_LIMITS: SummaryLimits = {
  readyRows: 500,
  otherRows: 1000,
  details: 50,
  cellChars: 300,
  maxBytes: 1_000_000,
};

const DETAIL_ROWS = { conditions: 20, containers: 20, events: 10, history: 30 };
const DETAIL_CHARS = 1000;
const MAX_WARNINGS = 20;

function outcomeSymbol(result: Pick<RunResult, 'outcome' | 'cancelled'>): string {
  if (result.cancelled) return '🛑';
  return { ready: '✅', failed: '❌', timeout: '⏱️' }[result.outcome];
}

const symbols: Record<Status, string> = {
  Current: '✅',
  Failed: '❌',
  InProgress: '⏳',
  Terminating: '🗑️',
  NotFound: '❔',
  Unknown: '❓',
};

/** The symbol of a status on its own (history rows). */
function statusOnlySymbol(status: Status): string {
  return symbols[status];
}

/** ✅ for a target at the desired status whatever its status (NotFound is success for `deleted`);
 *  a Current target that is not done (e.g. waiting for a condition) shows as pending. */
export function statusSymbol(target: Pick<TargetReport, 'done' | 'status' | 'optedOut'>): string {
  if (target.optedOut) return '➖';
  if (target.done) return '✅';
  return target.status === 'Current' ? '⏳' : symbols[target.status];
}

export function headline(result: RunResult, waitFor: WaitFor, label = 'kubewait'): string {
  // Opted-out targets are done but not waited for: counted apart, so "3 of 3 ready" stays true.
  const optedOut = result.targets.filter((t) => t.optedOut).length;
  const total = result.targets.length - optedOut;
  const done = result.targets.filter((t) => t.done && !t.optedOut).length;
  const failed = result.targets.filter((t) => standing(t) === 'failed').length;
  const goal = desiredPhrase(waitFor);
  let text: string;
  if (result.cancelled) text = `cancelled with ${done} of ${targetCount(total)} ${goal}`;
  else if (result.outcome === 'ready') text = `${done} of ${targetCount(total)} ${goal}`;
  else if (result.error) text = `stopped: a problem with input ${code(result.error.input)}`;
  else if (result.outcome === 'timeout') text = `timed out with ${total - done} of ${targetCount(total)} not ${goal}`;
  else if (result.release?.verdict === 'failed') {
    text = `Helm release failed; ${failed > 0 ? `${failed} of ${targetCount(total)} failed` : `${done} of ${targetCount(total)} ${goal}`}`;
  } else text = `${failed} of ${targetCount(total)} failed`;
  const skipped = optedOut > 0 ? ` (${optedOut} not waited for)` : '';
  const release = result.release ? ` · release ${escapeMarkdown(result.release.title)}` : '';
  return `## ${outcomeSymbol(result)} ${label}: ${text}${skipped}${release}`;
}

export function runUrl(run: RunInfo | undefined): string | undefined {
  if (!run?.repository || !run.runId) return undefined;
  const attempt = run.runAttempt && run.runAttempt > 1 ? `/attempts/${run.runAttempt}` : '';
  return `${run.serverUrl}/${run.repository}/actions/runs/${run.runId}${attempt}`;
}

/** A link to a manifest line at the run's commit; only for repository-relative paths. */
export function fileUrl(run: RunInfo | undefined, file: string, line: number | undefined): string | undefined {
  if (!run?.repository || !run.sha) return undefined;
  const path = file.replace(/^\.\//, '');
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path) || path.split('/').includes('..')) return undefined;
  const anchor = line ? `#L${line}` : '';
  return `${run.serverUrl}/${run.repository}/blob/${run.sha}/${urlPath(path.split('/'))}${anchor}`;
}

function facts(result: RunResult, ctx: SummaryContext): string {
  const parts = [`**Duration** ${formatSeconds(result.durationSeconds)}`, `**Waited for** ${code(waitForInput(ctx.waitFor))}`];
  const server = displayServer(ctx.server);
  if (server) parts.push(`**Cluster** ${code(server)}`);
  if (ctx.context) parts.push(`**Context** ${code(ctx.context)}`);
  parts.push(...headlineTargets(result, ctx.waitFor));
  const url = runUrl(ctx.run);
  if (url) parts.push(`[Workflow run](${url})`);
  return parts.join(' · ');
}

/** How many targets the facts line names before it says `and N more`. */
const FACT_NAMES = 3;

/**
 * The targets the facts line names: on a run that did not succeed, what failed (else what was not at the goal
 * when it stopped); on a ready run, the slowest. The one that took longest to get ready says nothing about a
 * Deployment that failed.
 */
function headlineTargets(result: RunResult, waitFor: WaitFor): string[] {
  const named = (targets: TargetReport[]) => {
    const names = targets.slice(0, FACT_NAMES).map((t) => escapeMarkdown(`${t.kind}/${t.name}`));
    return `${names.join(', ')}${targets.length > FACT_NAMES ? ` and ${targets.length - FACT_NAMES} more` : ''}`;
  };
  if (result.outcome !== 'ready' || result.cancelled) {
    const failed = result.targets.filter((t) => standing(t) === 'failed');
    if (failed.length > 0) return [`**Failed** ${named(failed)}`];
    const pending = result.targets.filter((t) => standing(t) === 'pending');
    return pending.length > 0 ? [`**Not ${escapeMarkdown(desiredPhrase(waitFor))}** ${named(pending)}`] : [];
  }
  const slowest = slowestDone(result.targets);
  return slowest ? [`**Slowest** ${escapeMarkdown(`${slowest.kind}/${slowest.name}`)} (${formatSeconds(slowest.seconds)})`] : [];
}

/** The target that took longest to get done, when there are at least two to compare. */
function slowestDone(targets: readonly TargetReport[]): TargetReport | undefined {
  const done = targets.filter((t) => t.done && !t.optedOut);
  if (done.length < 2) return undefined;
  return done.reduce((slowest, t) => (t.seconds > slowest.seconds ? t : slowest));
}

function callout(kind: 'WARNING' | 'CAUTION', lines: string[]): string {
  return [`> [!${kind}]`, ...lines.map((l) => (l ? `> ${l}` : '>'))].join('\n');
}

function warningsBlock(result: RunResult): string | undefined {
  if (result.warnings.length === 0) return undefined;
  const shown = result.warnings.slice(0, MAX_WARNINGS).map((w) => escapeMarkdown(truncate(w, 500)));
  const more = result.warnings.length > MAX_WARNINGS ? [`... and ${result.warnings.length - MAX_WARNINGS} more warnings (see the log)`] : [];
  const lines = [...shown, ...more];
  // A blank quoted line between warnings keeps each one its own paragraph.
  return callout(
    'WARNING',
    lines.flatMap((l, i) => (i === 0 ? [l] : ['', l])),
  );
}

/** What the Helm release said (its status and Helm's description), when it is not simply deployed and ready. */
function releaseBlock(result: RunResult): string | undefined {
  const release = result.release;
  if (!release) return undefined;
  const status = release.status ? ` · **Status** ${code(release.status)}` : '';
  const line = `**Helm release** ${escapeMarkdown(release.title)} in ${code(release.namespace)}${status}`;
  if (!release.verdict) return `${line}\n\n${escapeMarkdown(release.message)}`;
  return callout('CAUTION', [line, '', escapeMarkdown(release.message)]);
}

function errorBlock(result: RunResult): string | undefined {
  if (!result.error) return undefined;
  return callout('CAUTION', [escapeMarkdown(describeInputProblem(result.error))]);
}

function resourceCell(target: TargetReport, run: RunInfo | undefined): string {
  const resource = cell(`${target.kind}/${target.name}`);
  // An object a GitOps target applied: under its parent, as the details heading and the annotation name it.
  if (target.parent) return `${resource}<br><sub>${cell(`applied by ${objectRef(target.parent)}`)}</sub>`;
  if (!target.file) return resource;
  const where = fileLine(target);
  const file = workspaceFile(target);
  const url = file && fileUrl(run, file, target.line);
  return `${resource}<br><sub>${url ? `[${linkText(where)}](${url})` : escapeMarkdown(where)}</sub>`;
}

function targetRow(target: TargetReport, ctx: SummaryContext, limits: SummaryLimits): string[] {
  return [
    resourceCell(target, ctx.run),
    cell(target.namespace),
    `${statusSymbol(target)} ${target.status}`,
    timeToGoal(target, ctx.waitFor),
    cell(truncate(progressPrefix(target.progress) + ruleNote(target) + target.message, limits.cellChars)),
  ];
}

/** `12.4s`; `already ready` for a target at the goal from its first look (no time was spent waiting for it);
 *  `—` for one that is not there, or opted out. */
function timeToGoal(target: TargetReport, waitFor: WaitFor): string {
  if (!target.done || target.optedOut) return '—';
  return doneFromTheStart(target) ? `already ${escapeMarkdown(desiredPhrase(waitFor))}` : formatSeconds(target.seconds);
}

/** Which rule judged a target that is not done, when it was not plain kstatus (a failed CR: whose verdict?). */
function ruleNote(target: TargetReport): string {
  return !target.done && target.rule !== 'kstatus' ? `${target.rule}: ` : '';
}

/** Rows left out of the table, by kind. */
interface Omitted {
  ready: number;
  other: number;
}

function targetsTable(ordered: TargetReport[], ctx: SummaryContext, limits: SummaryLimits): { markdown: string; omitted: Omitted } {
  const other = ordered.filter((t) => !t.done);
  const ready = ordered.filter((t) => t.done);
  const rows = [...other.slice(0, limits.otherRows), ...ready.slice(0, limits.readyRows)];
  const markdown = table(
    ['Resource', 'Namespace', 'Status', `Time to ${escapeMarkdown(desiredPhrase(ctx.waitFor))}`, 'Message'],
    rows.map((t) => targetRow(t, ctx, limits)),
  );
  return {
    markdown,
    omitted: {
      other: Math.max(0, other.length - limits.otherRows),
      ready: Math.max(0, ready.length - limits.readyRows),
    },
  };
}

function omittedNotes(omitted: Omitted, limits: SummaryLimits, shortened: boolean, waitFor: WaitFor): string[] {
  const goal = desiredPhrase(waitFor);
  const notes: string[] = [];
  if (omitted.other > 0) {
    notes.push(`**${omitted.other} more targets that are not ${escapeMarkdown(goal)} are not listed** (this table shows at most ${limits.otherRows} of them).`);
  }
  if (omitted.ready > 0) {
    notes.push(`**${omitted.ready} more targets that are ${escapeMarkdown(goal)} are not listed** (this table shows at most ${limits.readyRows} of them).`);
  }
  if (notes.length > 0) notes.push('The `resources`, `pending` and `failed` outputs list every target.');
  if (shortened) notes.push('_This summary was shortened to stay under the 1 MiB job summary limit._');
  return notes;
}

function detailTables(target: TargetReport): string[] {
  const chars = (text: string) => cell(truncate(text, DETAIL_CHARS));
  const parts: string[] = [];
  const section = (title: string, header: string[], rows: string[][], total: number, noun: string) => {
    if (rows.length === 0) return;
    const more = total > rows.length ? `\n\n_... and ${total - rows.length} more ${noun}._` : '';
    parts.push(`**${title}**\n\n${table(header, rows)}${more}`);
  };
  const own = target.conditions.filter((c) => !c.synthesized);
  section(
    'Conditions',
    ['Type', 'Status', 'Reason', 'Message'],
    own.slice(0, DETAIL_ROWS.conditions).map((c) => [cell(c.type), cell(String(c.status)), cell(c.reason), chars(c.message)]),
    own.length,
    'conditions',
  );
  const derived = target.conditions.filter((c) => c.synthesized && c.status === 'True' && c.reason);
  if (derived.length > 0) parts.push(`_kstatus: ${derived.map((c) => escapeMarkdown(`${c.type} (${c.reason})`)).join(', ')}_`);
  // One row per cause: the replicas of a crash loop are one row naming their pods, not one row each.
  const causes = causeGroups(target.diagnosis?.problems ?? []);
  section(
    'Failing containers',
    ['Pod', 'Container', 'Reason', 'Restarts', 'Message'],
    causes.slice(0, DETAIL_ROWS.containers).map(({ problem: p, problems }) => [
      cell(problems.map((q) => q.pod).join(', ')),
      cell(p.init ? `${p.container} (init)` : p.container),
      // One cause may show two reasons: a pull retried is ErrImagePull in one replica, ImagePullBackOff in another.
      cell(
        p.lastTerminationReason && !p.message.includes('last exit')
          ? `${p.reason} (last exit: ${p.lastTerminationReason})`
          : [...new Set(problems.map((q) => q.reason))].join(', '),
      ),
      [...new Set(problems.map((q) => String(q.restartCount ?? 0)))].join(', '),
      // The Restarts column has the count: the message need not say it again.
      chars(p.message.replace(/^restarted \d+ times, /, '')),
    ]),
    causes.length,
    'causes',
  );
  const events = target.diagnosis ? newsEvents(target.diagnosis) : [];
  section(
    'Last warning events',
    ['Object', 'Reason', 'Count', 'Last seen', 'Message'],
    events.slice(0, DETAIL_ROWS.events).map((e) => [cell(e.object), cell(e.reason), String(e.count), cell(e.lastSeen ?? ''), chars(e.message)]),
    events.length,
    'events',
  );
  const real = realHistory(target);
  const history = real.slice(-DETAIL_ROWS.history);
  // A transition whose message is the pods' diagnosis points at the table above rather than say it again.
  const diagnosed = causes.length > 0 ? target.diagnosis?.summary : undefined;
  const historyMessage = (message: string) => (diagnosed && message === diagnosed ? '_the failing containers above_' : chars(message));
  section(
    'History',
    ['After', 'Status', 'Message'],
    history.map((h) => [formatSeconds(h.atSeconds), `${statusOnlySymbol(h.status)} ${h.status}`, historyMessage(h.message)]),
    real.length,
    'earlier transitions',
  );
  return parts;
}

/** The rule that judged a target, in words: the ids are `kstatus`, `builtin:NAME`, `health-checks[I]` and `gitops:NAME`. */
function judgedBy(rule: string): string {
  const code = `\`${escapeMarkdown(rule)}\``;
  if (rule === 'kstatus') return 'kstatus (the status conventions of Kubernetes objects)';
  if (rule.startsWith('builtin:')) return `kubewait's built-in health rule ${code} (docs/health-rules.md)`;
  if (rule.startsWith('gitops:')) return `the revision its GitOps controller applied and the health it reports (${code})`;
  return `the health rule ${code}`;
}

function targetDetails(target: TargetReport, ctx: SummaryContext): string {
  // The message is in the table row above; the heading names the target, and the body says what the row could not.
  const summaryHtml = `${statusSymbol(target)} <b>${escapeHtml(titleRef(target))}</b> ${escapeHtml(target.status)}`;
  const body: string[] = [];
  if (target.file) {
    const where = `${target.file}${target.line ? ` line ${target.line}` : ''}`;
    const file = workspaceFile(target);
    const url = file && fileUrl(ctx.run, file, target.line);
    body.push(`Defined in ${url ? `[${linkText(where)}](${url})` : escapeMarkdown(where)}.`);
  }
  if (!target.done) body.push(`Judged by ${judgedBy(target.rule)}.`);
  const tablesShowDiagnosis = (target.diagnosis?.problems.length ?? 0) + (target.diagnosis?.events.length ?? 0) > 0;
  // A message cut short in the table is shown whole, unless it is the diagnosis the failing containers table says.
  const messageIsDiagnosis = tablesShowDiagnosis && target.message === target.diagnosis?.summary;
  if (target.message.length > DEFAULT_LIMITS.cellChars && !messageIsDiagnosis)
    body.push(`**Message**: ${escapeMarkdown(truncate(target.message, DETAIL_CHARS))}`);
  if (target.diagnosis?.summary && !tablesShowDiagnosis) body.push(`**Diagnosis**: ${escapeMarkdown(truncate(target.diagnosis.summary, DETAIL_CHARS))}`);
  const failure = target.explanation?.failure;
  if (failure)
    body.push(
      `**${escapeMarkdown(failureHeadline(failure))}**`,
      failedPodLines(failure)
        .map((l) => `- ${escapeMarkdown(l)}`)
        .join('\n'),
    );
  const tables = detailTables(target);
  body.push(...tables);
  // The log read is already the tail the user asked for (`log-lines`): show all of it.
  body.push(...distinctLogs(telling(target)).map(({ view, samePods }) => logDetails(view, { lines: Number.MAX_SAFE_INTEGER, samePods })));
  if (body.length === 0) body.push('_No conditions, pod problems or events were recorded._');
  return details(summaryHtml, body.join('\n\n'));
}

function render(result: RunResult, ctx: SummaryContext, limits: SummaryLimits, shortened: boolean): string {
  const ordered = byStanding(result.targets);
  const { markdown: tableMd, omitted } = targetsTable(ordered, ctx, limits);
  const notDone = ordered.filter((t) => !t.done);
  const detailed = notDone.slice(0, limits.details);
  const sections: (string | undefined)[] = [
    headline(result, ctx.waitFor, ctx.label),
    facts(result, ctx),
    releaseBlock(result),
    errorBlock(result),
    warningsBlock(result),
    result.targets.length === 0 ? '_No targets._' : tableMd,
    ...omittedNotes(omitted, limits, shortened, ctx.waitFor),
    smokeSection(result),
  ];
  if (detailed.length > 0) {
    sections.push(`### Why ${notDone.length === 1 ? 'it is' : 'they are'} not ${escapeMarkdown(desiredPhrase(ctx.waitFor))}`);
    sections.push(...detailed.map((t) => targetDetails(t, ctx)));
    if (notDone.length > detailed.length) {
      sections.push(
        `_Details are shown for the first ${detailed.length} of ${notDone.length} targets that are not ${escapeMarkdown(desiredPhrase(ctx.waitFor))}; the table lists the others._`,
      );
    }
  }
  sections.push(rolledBackSection(result.rollback)); // rollback (issue 32): after the failure's sections
  sections.push(footer());
  return `${sections.filter((s): s is string => s !== undefined).join('\n\n')}\n`;
}

/** Which kubewait wrote the summary: a report read weeks later, or beside another job's, says its version. */
function footer(): string {
  return `<sub>kubewait ${VERSION}</sub>`;
}

export function byteLength(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** The summary markdown, within `limits.maxBytes`: when the full version is too big, fewer details
 *  and rows are shown (and the summary says so) until it fits. */
export function renderSummary(result: RunResult, ctx: SummaryContext, limits: SummaryLimits = DEFAULT_LIMITS): string {
  if (result.clusters) return renderClustersSummary(result, result.clusters, ctx, limits);
  let current = limits;
  let markdown = render(result, ctx, current, false);
  while (byteLength(markdown) > limits.maxBytes) {
    const noMoreToCut = current.details === 0 && current.readyRows === 0 && current.otherRows === 0;
    if (noMoreToCut) break;
    current =
      current.details > 0
        ? { ...current, details: Math.floor(current.details / 2) }
        : {
            ...current,
            readyRows: Math.floor(current.readyRows / 2),
            otherRows: current.readyRows > 0 ? current.otherRows : Math.floor(current.otherRows / 2),
          };
    markdown = render(result, ctx, current, true);
  }
  return markdown;
}

/** Worst first: the clusters to look at lead the summary and the pull-request comment. */
const CLUSTER_ORDER: Record<Result, number> = { error: 0, failed: 1, timeout: 2, cancelled: 3, ready: 4 };

/** Several clusters' runs as every report of them lists their sections: the worst first, else as given. */
export function clustersWorstFirst(runs: readonly ClusterRun[]): ClusterRun[] {
  return [...runs].sort((a, b) => CLUSTER_ORDER[clusterPublicResult(a)] - CLUSTER_ORDER[clusterPublicResult(b)]);
}

/** The step's headline of a run of several clusters: its own counts, and how many clusters are at the goal. */
export function clustersHeadline(result: RunResult, runs: readonly ClusterRun[], waitFor: WaitFor): string {
  const readyClusters = runs.filter((run) => clusterPublicResult(run) === 'ready').length;
  return `${headline(result, waitFor)} · ${readyClusters} of ${runs.length} clusters ${escapeMarkdown(desiredPhrase(waitFor))}`;
}

/** The headline counts of each cluster, one row each, in the order of the `clusters` input. */
export function clustersTable(runs: readonly ClusterRun[], waitFor: WaitFor): string {
  const rows = runs.map((run) => {
    const counted = run.result.targets.filter((t) => !t.optedOut);
    return [
      code(run.name),
      `${outcomeSymbol(run.result)} ${clusterPublicResult(run)}${run.stopped ? ` (stopped: ${escapeMarkdown(run.stopped)})` : ''}`,
      `${counted.filter((t) => t.done).length} of ${counted.length}`,
      String(counted.filter((t) => standing(t) === 'failed').length),
      run.context ? code(run.context) : '',
    ];
  });
  return table(['Cluster', 'Result', escapeMarkdown(desiredPhrase(waitFor)), 'Failed', 'Context'], rows);
}

/**
 * With several clusters (the `clusters` input): the step's headline, one row of counts per cluster, then
 * one section per cluster, worst first, each as the summary of a one-cluster wait, within its share of the
 * byte limit.
 */
function renderClustersSummary(result: RunResult, runs: readonly ClusterRun[], ctx: SummaryContext, limits: SummaryLimits): string {
  const waitFor = ctx.waitFor;
  const overview = [
    clustersHeadline(result, runs, waitFor),
    facts({ ...result, targets: [] }, { ...ctx, server: '', context: '' }),
    errorBlock(result),
    clustersTable(runs, waitFor),
  ].filter((part): part is string => part !== undefined);
  const share = { ...limits, maxBytes: Math.floor(limits.maxBytes / (runs.length + 1)) };
  const sections = clustersWorstFirst(runs).map((run) =>
    renderSummary(
      { ...run.result, waitFor: run.result.waitFor ?? waitFor },
      { ...ctx, server: run.server, context: run.context, label: code(run.name) },
      share,
    ),
  );
  return `${[...overview, ...sections.map((section) => section.trimEnd())].join('\n\n')}\n`;
}
