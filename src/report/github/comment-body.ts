/**
 * The sticky pull-request comment as markdown. Pure: result + run in, string out; `pr-comment.ts` posts it.
 * A reviewer reads it in the PR conversation, so it is short: the verdict, what is not ready and why the
 * first failure happened; everything else is one link away in the job summary.
 *
 * With several clusters (the `clusters` input) it is grouped as the job summary is (summary.ts): the step's
 * headline, the counts of each cluster, then one section per cluster, the worst first, each as the comment
 * of a one-cluster wait within its share of the length limit.
 */
import { shownText } from '../shown-text.js';
import type { ClusterRun, RunResult, TargetReport } from '../../result.js';
import { describeInputProblem, type WaitFor } from '../../settings.js';
import { cell, code, details, escapeHtml, escapeMarkdown, table } from '../markdown.js';
import { rolledBackSection } from '../rolled-back.js';
import { smokeSection } from '../smoke-section.js';
import { clustersHeadline, clustersTable, clustersWorstFirst, headline, statusSymbol } from '../summary.js';
import { byStanding, desiredPhrase, diagnosisLines, formatSeconds, targetCount, titleRef, truncate } from '../text.js';
import { matrixLabel, reportKey, runLink, summaryLink, type GitHubRunContext } from './run-context.js';

/** GitHub refuses an issue comment over 65,536 characters. */
export const MAX_COMMENT_CHARS = 65_536;

/** The last lines of a failing container's log (from the container-logs feature, already secret-masked). */
export interface LogTail {
  pod: string;
  container: string;
  lines: string[];
}

export interface CommentInput {
  result: RunResult;
  waitFor: WaitFor;
  run: GitHubRunContext;
}

/** The first failing container's log that was read, as the job summary shows it in full (`explanation.logs`). */
export function firstLogTail(target: TargetReport): LogTail | undefined {
  for (const { request, outcome } of target.explanation?.logs ?? []) {
    if (outcome?.kind !== 'text' || outcome.text.trim() === '') continue;
    return { pod: request.pod, container: request.container, lines: outcome.text.replace(/\n+$/, '').split('\n') };
  }
  return undefined;
}

export interface CommentLimits {
  /** Up to this many targets, the table lists all of them; above, only the ones not done. */
  allRowsUpTo: number;
  rows: number;
  cellChars: number;
  logLines: number;
  logChars: number;
  maxChars: number;
}

export const COMMENT_LIMITS: CommentLimits = { allRowsUpTo: 10, rows: 50, cellChars: 200, logLines: 40, logChars: 8_000, maxChars: MAX_COMMENT_CHARS };

/** The hidden first line that finds this job's comment again. */
export function commentMarker(run: Pick<GitHubRunContext, 'workflow' | 'job' | 'matrix'>): string {
  return `<!-- kubewait:pr-comment ${reportKey(run)} -->`;
}

/** Cluster text cannot mention people or teams: `@name` would notify them from every run. */
function noMentions(text: string): string {
  return text.replace(/@(?=[\w-])/g, '@\u200b');
}

const prose = (text: string) => escapeMarkdown(noMentions(text));
const tableCell = (text: string) => cell(noMentions(text));

function jobLine(input: CommentInput, shortened: boolean): string {
  const { run, result } = input;
  const parts: string[] = [];
  const job = run.job ? `**Job** \`${run.job.replace(/`/g, '')}\`` : '';
  const matrix = matrixLabel(run.matrix);
  if (job) parts.push(matrix ? `${job} (${escapeMarkdown(matrix)})` : job);
  parts.push(`**Duration** ${formatSeconds(result.durationSeconds)}`);
  if (run.sha)
    parts.push(
      run.owner ? `**Commit** [${run.sha.slice(0, 7)}](${run.serverUrl}/${run.owner}/${run.repo}/commit/${run.sha})` : `**Commit** ${run.sha.slice(0, 7)}`,
    );
  const runUrl = runLink(run);
  if (runUrl) parts.push(`[Workflow run](${runUrl})`);
  const summaryUrl = summaryLink(run);
  if (summaryUrl) parts.push(`[Job summary](${summaryUrl})${shortened ? ' (everything, this comment is shortened)' : ''}`);
  return parts.join(' · ');
}

function row(target: TargetReport, limits: CommentLimits): string[] {
  return [
    tableCell(`${target.kind}/${target.name}`),
    tableCell(target.namespace),
    `${statusSymbol(target)} ${target.status}`,
    tableCell(truncate(target.message, limits.cellChars)),
  ];
}

function fence(text: string): string {
  const longest = Math.max(2, ...Array.from(text.matchAll(/`+/g), (m) => m[0].length));
  const marks = '`'.repeat(longest + 1);
  return `${marks}text\n${text}\n${marks}`;
}

/** The first target not done, explained. Its message is said once: in its table row (`inTable`), and here only
 *  when the row does not show it or cut it short. */
function firstFailure(input: CommentInput, limits: CommentLimits, inTable: (target: TargetReport) => boolean): string | undefined {
  const target = byStanding(input.result.targets).find((t) => !t.done);
  if (!target) return undefined;
  const summary = `${statusSymbol(target)} <b>${escapeHtml(noMentions(titleRef(target)))}</b> ${escapeHtml(target.status)}`;
  const body: string[] = [];
  if (target.message && (!inTable(target) || target.message.length > limits.cellChars)) body.push(prose(truncate(target.message, 1000)));
  const lines = diagnosisLines(target.diagnosis, { alreadySaid: target.message });
  if (lines.length > 0) body.push(lines.map((l) => `- ${prose(truncate(l, 500))}`).join('\n'));
  const tail = firstLogTail(target);
  if (tail && tail.lines.length > 0) {
    const shown = tail.lines.slice(-limits.logLines);
    let text = shown.join('\n');
    if (text.length > limits.logChars) text = `…${text.slice(-limits.logChars)}`;
    body.push(
      `**Last ${shown.length} log lines** of container \`${tail.container.replace(/`/g, '')}\` in pod \`${tail.pod.replace(/`/g, '')}\`:\n\n${fence(text)}`,
    );
  }
  if (body.length === 0) body.push('_No pod problems or events were recorded: see the job summary for its conditions and history._');
  return details(summary, body.join('\n\n'));
}

/** The comment of one wait; a cluster's section (`label`, its name) has no marker and no job line of its own. */
function render(input: CommentInput, limits: CommentLimits, rows: number, shortened: boolean, label?: string): string {
  const { result, waitFor } = input;
  const goal = desiredPhrase(waitFor);
  const ordered = byStanding(result.targets);
  const notDone = ordered.filter((t) => !t.done);
  const listed = ordered.length <= limits.allRowsUpTo ? ordered : notDone;
  const shown = listed.slice(0, rows);
  const sections: string[] =
    label === undefined ? [commentMarker(input.run), headline(result, waitFor), jobLine(input, shortened)] : [headline(result, waitFor, label)];
  if (result.error) sections.push(cautionBlock(result.error));
  if (shown.length > 0)
    sections.push(
      table(
        ['Resource', 'Namespace', 'Status', 'Message'],
        shown.map((t) => row(t, limits)),
      ),
    );
  const notes: string[] = [];
  if (listed.length > shown.length) notes.push(`${listed.length - shown.length} more targets that are not ${escapeMarkdown(goal)} are not listed here`);
  const doneCount = ordered.length - notDone.length;
  if (listed === notDone && doneCount > 0) notes.push(`${targetCount(doneCount)} ${doneCount === 1 ? 'is' : 'are'} ${escapeMarkdown(goal)} (not listed)`);
  if (notes.length > 0) sections.push(`_${notes.join('; ')}: the job summary lists every target._`);
  const failure = firstFailure(input, limits, (target) => shown.includes(target));
  if (failure) sections.push(failure);
  // The smoke checks (issue 31), as the job summary shows them: the bodies cut to a cell, as many rows as
  // the targets' table may have (fewer as the comment is shortened), the ones that did not pass first.
  const smoke = smokeSection(result, { cell: tableCell, bodyChars: limits.cellChars, rows });
  if (smoke) sections.push(smoke);
  const rolledBack = rolledBackSection(result.rollback); // rollback (issue 32): after the failure
  if (rolledBack) sections.push(rolledBack);
  return `${sections.join('\n\n')}\n`;
}

function cautionBlock(error: NonNullable<RunResult['error']>): string {
  return `> [!CAUTION]\n> ${prose(describeInputProblem(error))}`;
}

/**
 * The comment body, under GitHub's limit: when too long, fewer table rows and a shorter log tail, and as a
 * last resort a hard cut; a shortened comment says so and points at the job summary.
 */
export function renderPrComment(input: CommentInput, limits: CommentLimits = COMMENT_LIMITS): string {
  // What the cluster wrote is shown as text, never acted on (shown-text.ts): stripping only shortens it.
  if (input.result.clusters) return shownText(renderClustersComment(input, input.result.clusters, limits));
  return shownText(fitted(input, limits).body);
}

/** `render` within `limits.maxChars`, and whether it had to be shortened. */
function fitted(input: CommentInput, limits: CommentLimits, label?: string): { body: string; shortened: boolean } {
  // Characters as GitHub counts them are at most UTF-16 units, so `length` is a safe measure.
  let current = limits;
  let rows = limits.rows;
  let body = render(input, current, rows, false, label);
  if (body.length <= limits.maxChars) return { body, shortened: false };
  while (body.length > limits.maxChars && (rows > 0 || current.logChars > 500)) {
    if (current.logChars > 500) current = { ...current, logChars: Math.floor(current.logChars / 2), logLines: Math.max(5, Math.floor(current.logLines / 2)) };
    else rows = Math.floor(rows / 2);
    body = render(input, current, rows, true, label);
  }
  return { body: cutToLimit(body, limits.maxChars), shortened: true };
}

/** The last resort: a hard cut at a line break, so no markup is split inside a line; an open <details> still renders. */
function cutToLimit(body: string, maxChars: number): string {
  if (body.length <= maxChars) return body;
  const note = "\n\n_… cut here to stay under GitHub's comment limit: the job summary has everything._\n";
  const cut = body.slice(0, maxChars - note.length);
  return `${cut.slice(0, Math.max(0, cut.lastIndexOf('\n')))}${note}`;
}

/** Several clusters: the job summary's grouping, each cluster's section within its share of the limit. */
function renderClustersComment(input: CommentInput, runs: readonly ClusterRun[], limits: CommentLimits): string {
  const { result, waitFor } = input;
  const share = { ...limits, maxChars: Math.floor(limits.maxChars / (runs.length + 1)) };
  const sections = clustersWorstFirst(runs).map((run) =>
    fitted({ ...input, result: run.result, waitFor: run.result.waitFor ?? waitFor }, share, code(run.name)),
  );
  const shortened = sections.some((section) => section.shortened);
  const overview = [
    commentMarker(input.run),
    clustersHeadline(result, runs, waitFor),
    jobLine(input, shortened),
    ...(result.error ? [cautionBlock(result.error)] : []),
    clustersTable(runs, waitFor),
  ];
  return cutToLimit(`${[...overview, ...sections.map((section) => section.body.trimEnd())].join('\n\n')}\n`, limits.maxChars);
}
