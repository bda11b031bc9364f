/**
 * The job summary's "Smoke checks" section (the `smoke` input, src/smoke/): one row per check, with how it
 * did and, for one that did not pass, the first KiB of its last body (masked when it was read). Pure.
 */
import type { RunResult } from '../result.js';
import { cell, table } from './markdown.js';

/** Shown of a body in the table; the log has the whole KiB. */
const BODY_CHARS = 200;

export function smokeSection(result: Pick<RunResult, 'smoke'>): string | undefined {
  if (!result.smoke || result.smoke.length === 0) return undefined;
  const rows = result.smoke.map((check) => [
    cell(check.name),
    check.ok ? 'passed' : '**did not pass**',
    check.status === 0 ? 'no answer' : String(check.status),
    String(check.attempts),
    `${check.latencyMs} ms`,
    cell(check.ok ? '' : check.body.length > BODY_CHARS ? `${check.body.slice(0, BODY_CHARS)}…` : check.body),
  ]);
  return `### Smoke checks\n\n${table(['Check', 'Result', 'Last status', 'Attempts', 'Latency', 'Last body'], rows)}`;
}
