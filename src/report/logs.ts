/**
 * Container log tails as the report shows them: a collapsible block per container in the job summary, a
 * `::group::` in the step log, and the one line an annotation gets. Pure: the explained container and what
 * was read for it (already masked) in, text out.
 *
 * Log text is the cluster's, not ours: in the summary it goes into a code fence longer than any backtick run
 * in it, stripped of terminal control codes; in the step log it is wrapped in `::stop-commands::`, so a line
 * like `::add-mask::` or `::error::` that a container printed is shown, not obeyed.
 */
import type { ContainerLogView, TargetReport } from '../result.js';
import { annotationSummary, lastMeaningfulLine } from '../status/log-lines.js';
import type { WarningEvent } from '../status/types.js';
import { escapeHtml, escapeMarkdown, table, cell } from './markdown.js';
import { byStanding, outputRef, truncate } from './text.js';

export type { ContainerLogView } from '../result.js';

export interface LogBlockOptions {
  /** Lines of the tail to show (default 30). */
  lines?: number;
  /** Lines the `kubectl logs` hint asks for (default 200). */
  commandTail?: number;
  /** Other pods whose container printed the same log (`distinctLogs`): named, not shown again. */
  samePods?: readonly string[];
}

/** The views with a log text that no earlier view of the same container had: replicas of a crash loop and
 *  retries of a Job print the same lines, and one block of them is enough. Each kept view names the pods
 *  that printed the same. */
export function distinctLogs(views: readonly ContainerLogView[]): Array<{ view: ContainerLogView; samePods: string[] }> {
  const kept: Array<{ view: ContainerLogView; samePods: string[]; key?: string }> = [];
  for (const view of views) {
    const shown = view.outcome?.kind === 'text' && view.outcome.text !== '' ? view.outcome.text : view.request.noLogs;
    const key = shown === undefined ? undefined : `${view.request.container}\n${shown}`;
    const same = key === undefined ? undefined : kept.find((k) => k.key === key);
    if (same) same.samePods.push(view.request.pod);
    else kept.push({ view, samePods: [], ...(key !== undefined ? { key } : {}) });
  }
  return kept.map(({ view, samePods }) => ({ view, samePods }));
}

/** A target's log views worth a block: every one but a container that never started (no log to show) whose
 *  cause its diagnosis already names, in the failing containers the report lists: a cause is said once. */
export function telling(target: Pick<TargetReport, 'explanation' | 'diagnosis'>): ContainerLogView[] {
  const named = new Set((target.diagnosis?.problems ?? []).map((p) => `${p.pod}\n${p.container}`));
  return (target.explanation?.logs ?? []).filter((view) => !(view.request.noLogs && named.has(`${view.request.pod}\n${view.request.container}`)));
}

/** Every log block of a run, as the step log shows them: worst target first, each container's log once. */
export function logBlocks(targets: readonly TargetReport[]): Array<{ target: TargetReport; view: ContainerLogView; samePods: string[] }> {
  // Only targets with a log read: at the end of a wait on thousands of ready targets, that is none of them.
  const withLogs = targets.filter((target) => (target.explanation?.logs.length ?? 0) > 0);
  return byStanding(withLogs).flatMap((target) => distinctLogs(telling(target)).map((kept) => ({ target, ...kept })));
}

const DEFAULT_LINES = 30;
const DEFAULT_COMMAND_TAIL = 200;
/** A line longer than this is cut in the summary: 30 lines stay a few KiB whatever the program printed. */
const MAX_LINE_CHARS = 500;
const MAX_EVENTS = 5;
/** A heading is one line: a pull error's full text stays in the block. */
const TITLE_CHARS = 200;

// eslint-disable-next-line no-control-regex -- terminal escape sequences are control characters by definition
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b[@-_]/g;
// eslint-disable-next-line no-control-regex -- other control characters (tab and newline stay)
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/g;

/** Whether the text shown is of the run before the current one (a fallback may have read the current one). */
function showsPrevious(view: ContainerLogView): boolean {
  return view.outcome?.kind === 'text' ? view.outcome.previous : view.request.previous;
}

/** `kubectl logs -n shop api-7d9c-abcde -c api --previous --tail=200` */
export function logsCommand(view: ContainerLogView, tail = DEFAULT_COMMAND_TAIL): string {
  const c = view.request;
  return `kubectl logs -n ${c.namespace} ${c.pod} -c ${c.container}${showsPrevious(view) ? ' --previous' : ''} --tail=${tail}`;
}

/** `pod api-7d9c-abcde, init container migrate (previous run)` */
function where(view: ContainerLogView): string {
  const c = view.request;
  const run = view.outcome?.kind === 'text' && showsPrevious(view) ? ' (previous run)' : '';
  return `pod ${c.pod}, ${c.init ? 'init container' : 'container'} ${c.container}${run}`;
}

/** The annotation's text: `exit 1: panic: missing DATABASE_URL`, `ImagePullBackOff: Back-off pulling image ...`. */
export function annotationText(view: ContainerLogView): string {
  const outcome = view.outcome;
  const line = outcome?.kind === 'text' ? lastMeaningfulLine(outcome.text) : '';
  if (outcome?.kind === 'unavailable' && !view.request.noLogs && view.request.exitCode === undefined) {
    return `${view.request.reason}: ${outcome.reason}`;
  }
  return annotationSummary(view.request, line);
}

/** The annotation line of a container: `pod api-7d9c-abcde, container api: exit 1: panic: missing DATABASE_URL`. */
export function annotationLine(view: ContainerLogView): string {
  const c = view.request;
  return `pod ${c.pod}, ${c.init ? 'init container' : 'container'} ${c.container}: ${annotationText(view)}`;
}

/** The last `count` lines of a log, without the empty line its final newline leaves. */
function tail(text: string, count: number): string[] {
  const lines = text.split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop();
  return count > 0 ? lines.slice(-count) : [];
}

function forSummary(line: string): string {
  const clean = line.replace(ANSI, '').replace(CONTROL, '');
  return clean.length > MAX_LINE_CHARS ? `${clean.slice(0, MAX_LINE_CHARS - 1)}…` : clean;
}

/** A fenced code block that no backtick run in `text` can close. */
function fenced(text: string, info = 'text'): string {
  const longest = Math.max(0, ...Array.from(text.matchAll(/`+/g), (m) => m[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${info}\n${text}\n${fence}`;
}

/** Why there is no log text, in words. */
function missingText(view: ContainerLogView): string {
  const outcome = view.outcome;
  // The heading says why (its waiting reason and message): not again here.
  if (view.request.noLogs) return 'No log: the container has not started.';
  if (!outcome) return 'No log was read.';
  switch (outcome.kind) {
    case 'unavailable':
      return `No log: ${outcome.reason}.`;
    case 'forbidden':
      return 'No log: reading container logs is not allowed here (get on pods/log).';
    case 'failed':
      return `No log: ${outcome.message}.`;
    case 'text':
      return 'The log is empty.';
  }
}

function eventsTable(events: readonly WarningEvent[]): string {
  const rows = events.slice(0, MAX_EVENTS).map((e) => [cell(e.reason), String(e.count), cell(e.lastSeen ?? ''), cell(e.message)]);
  return `**Warning events of the pod**\n\n${table(['Reason', 'Count', 'Last seen', 'Message'], rows)}`;
}

/** An event that adds to what the container's own state says: not `Error: ErrImagePull`, not a text the
 *  waiting message already holds. */
function saysMore(event: WarningEvent, view: ContainerLogView): boolean {
  if (event.reason === 'Failed' && /^Error: \w+$/.test(event.message)) return false;
  if (event.reason === 'BackOff' && event.message.startsWith('Back-off restarting failed container')) return false;
  const said = view.request.noLogs ?? `${view.request.reason}: ${view.request.message}`;
  return !said.includes(event.message.replace(/^Failed to pull image "[^"]*": /, ''));
}

function sameLine(pods: readonly string[] = []): string[] {
  return pods.length > 0 ? [`The same in pod${pods.length === 1 ? '' : 's'} ${pods.join(', ')}.`] : [];
}

/** The job summary's collapsible block for one container. */
export function logDetails(view: ContainerLogView, options: LogBlockOptions = {}): string {
  const lines = options.lines ?? DEFAULT_LINES;
  const outcome = view.outcome;
  const summaryHtml = `📄 ${escapeHtml(where(view))}: ${escapeHtml(truncate(annotationText(view), TITLE_CHARS))}`;
  const body: string[] = [];
  const text = outcome?.kind === 'text' ? tail(outcome.text, lines).map(forSummary) : [];
  if (text.length > 0) {
    const shown =
      outcome?.kind === 'text' && outcome.truncated
        ? 'the log was cut at the size limit; its end may be missing'
        : `last ${text.length} line${text.length === 1 ? '' : 's'}`;
    body.push(`_${escapeMarkdown(shown)}_`, fenced(text.join('\n')));
  } else {
    body.push(escapeMarkdown(missingText(view)));
    const events = (view.events ?? []).filter((e) => saysMore(e, view));
    if (events.length > 0) body.push(eventsTable(events));
  }
  body.push(...sameLine(options.samePods).map(escapeMarkdown));
  if (!view.request.noLogs) body.push(`More: \`${logsCommand(view, options.commandTail)}\``);
  return `<details>\n<summary>${summaryHtml}</summary>\n\n${body.join('\n\n')}\n\n</details>`;
}

/**
 * The log's group for one container: its title and lines, for `startGroup(title)`, `info(line)` each,
 * `endGroup()`. With a `token` (GitHub Actions' step log), the lines are wrapped in `::stop-commands::`; it
 * must be unguessable (a random UUID): the log cannot end `::stop-commands::` early. Without one (a terminal,
 * a JUnit file, GitLab's log), terminal control codes are stripped instead: a container's output can neither
 * repaint the reader's terminal nor close a GitLab section.
 */
export function logGroup(view: ContainerLogView, token: string | undefined, options: LogBlockOptions = {}): { title: string; lines: string[] } {
  const c = view.request;
  const heading = `Logs ${c.namespace}/${c.pod}/${c.container}${view.outcome?.kind === 'text' && showsPrevious(view) ? ' (previous)' : ''}: ${annotationText(view)}`;
  const title = token === undefined ? plain(heading) : heading;
  const outcome = view.outcome;
  if (outcome?.kind !== 'text' || outcome.text === '') return { title, lines: [missingText(view)] };
  const text = tail(outcome.text, options.lines ?? DEFAULT_LINES);
  const cut = outcome.truncated ? ['(the log was cut at the size limit; its end may be missing)'] : [];
  const after = [...cut, ...sameLine(options.samePods), `More: ${logsCommand(view, options.commandTail)}`];
  if (token === undefined) return { title, lines: [...text.map(plain), ...after] };
  return { title, lines: [`::stop-commands::${token}`, ...text.map((line) => line.split(token).join('<token>')), `::${token}::`, ...after] };
}

/** A line without terminal control codes (tabs stay). */
function plain(line: string): string {
  return line.replace(ANSI, '').replace(CONTROL, '');
}

/** One container's log tail as data (the command's `-o json`): what the step log's group says, in fields. */
export interface LogRecord {
  /** The target it explains, as the `pending` and `failed` outputs name it (`NAMESPACE/KIND/NAME`). */
  resource: string;
  pod: string;
  container: string;
  init: boolean;
  /** The text is of the run before the current one (`kubectl logs --previous`). */
  previous: boolean;
  /** The annotation's line: `exit 1: panic: missing DATABASE_URL`. */
  summary: string;
  /** The tail as read (already masked); absent when there is none, and then `missing` says why. */
  lines?: string[];
  /** The log was cut at the size limit: its end may be missing. */
  truncated?: boolean;
  missing?: string;
  /** Other pods whose container printed the same log. */
  samePods: string[];
  /** `kubectl logs ...` for more of it; absent when the container never started. */
  command?: string;
}

/** Every log block of a run (`logBlocks`) as `LogRecord`s. */
export function logRecords(targets: readonly TargetReport[]): LogRecord[] {
  return logBlocks(targets).map(({ target, view, samePods }) => {
    const c = view.request;
    const outcome = view.outcome;
    const text = outcome?.kind === 'text' && outcome.text !== '' ? outcome : undefined;
    return {
      resource: outputRef(target),
      pod: c.pod,
      container: c.container,
      init: c.init,
      previous: text !== undefined && showsPrevious(view),
      summary: annotationText(view),
      ...(text ? { lines: tail(text.text, Number.MAX_SAFE_INTEGER), ...(text.truncated && { truncated: true }) } : { missing: missingText(view) }),
      samePods,
      ...(!c.noLogs && { command: logsCommand(view) }),
    };
  });
}
