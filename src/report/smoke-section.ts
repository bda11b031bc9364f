/**
 * The "Smoke checks" section (the `smoke` input, src/smoke/) of the job summary and the pull-request
 * comment: one row per check, with how it did and, for one that did not pass, why and the start of its last
 * body (both masked when they were read). Pure.
 */
import type { RunResult } from '../result.js';
import { cell, table } from './markdown.js';

export interface SmokeSectionOptions {
  /** How a cell's text is made safe (the comment also breaks `@mentions`). */
  cell?: (text: string) => string;
  /** Shown of a body in the table (the log has the whole KiB). */
  bodyChars?: number;
  /** At most this many rows, the checks that did not pass first (the comment's length limit); default all. */
  rows?: number;
}

const BODY_CHARS = 200;

export function smokeSection(result: Pick<RunResult, 'smoke'>, options: SmokeSectionOptions = {}): string | undefined {
  if (!result.smoke || result.smoke.length === 0) return undefined;
  const toCell = options.cell ?? cell;
  const bodyChars = options.bodyChars ?? BODY_CHARS;
  const failedFirst = [...result.smoke].sort((a, b) => Number(a.ok) - Number(b.ok));
  const shown = options.rows === undefined ? result.smoke : failedFirst.slice(0, options.rows);
  const rows = shown.map((check) => [
    toCell(check.name),
    check.ok ? 'passed' : check.reason ? `**did not pass**: ${toCell(check.reason)}` : '**did not pass**',
    check.status === 0 ? 'no answer' : String(check.status),
    String(check.attempts),
    `${check.latencyMs} ms`,
    toCell(check.ok ? '' : check.body.length > bodyChars ? `${check.body.slice(0, bodyChars)}…` : check.body),
  ]);
  const left = result.smoke.length - shown.length;
  const note = left > 0 ? `\n\n_${left} more ${left === 1 ? 'check is' : 'checks are'} not listed here: the job summary lists every check._` : '';
  const heading = '### Smoke checks';
  return rows.length === 0
    ? `${heading}${note}`
    : `${heading}\n\n${table(['Check', 'Result', 'Last status', 'Attempts', 'Latency', 'Last body'], rows)}${note}`;
}
