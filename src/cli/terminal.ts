/**
 * The command's live log: the action's lines (src/report/live-log.ts), written for where the command runs.
 * A terminal gets colour (only on a TTY, never with NO_COLOR) and lines wrapped at words to its width;
 * GitLab CI gets collapsible sections; GitHub Actions gets its groups and warnings as workflow commands.
 * Every line passes through the redactor first, before it is wrapped or coloured: a secret cut in two or
 * painted in parts would no longer match its mask.
 */
import { shownText } from '../report/shown-text.js';
import { workflowCommandLog } from '../report/stream-writer.js';
import type { LogSink } from '../report/writer.js';
import { wrapLine } from './wrap.js';

export type Flavour = 'plain' | 'gitlab' | 'github';

export function flavourOf(env: Record<string, string | undefined>): Flavour {
  if (env.GITHUB_ACTIONS === 'true') return 'github';
  if (env.GITLAB_CI === 'true') return 'gitlab';
  return 'plain';
}

/** https://no-color.org: any non-empty NO_COLOR turns colour off; otherwise colour only on a terminal. */
export function colourWanted(stream: { isTTY?: boolean }, env: Record<string, string | undefined>): boolean {
  if (env.NO_COLOR) return false;
  return stream.isTTY === true && env.TERM !== 'dumb';
}

/** The width to wrap the log at: a terminal's columns, read at each write so a resized window is followed.
 *  Off a terminal (a pipe, a file, a CI log) lines stay whole: whatever shows them wraps them its own way. */
export function terminalColumns(stream: { isTTY?: boolean; columns?: number }): number | undefined {
  return stream.isTTY === true && stream.columns !== undefined && stream.columns > 0 ? stream.columns : undefined;
}

/** Continuation rows of a wrapped log line start 4 columns right of the line's own indentation. */
const HANGING_INDENT = 4;

/** `line` wrapped at words to `columns` (undefined: one row). */
export function wrapForTerminal(line: string, columns: number | undefined): string[] {
  if (columns === undefined) return [line];
  return wrapLine(line, columns, /^ */.exec(line)![0].length + HANGING_INDENT);
}

const ESC = '\u001b';
const paint = (code: string) => (text: string) => `${ESC}[${code}m${text}${ESC}[0m`;
const green = paint('32');
const red = paint('31');
const yellow = paint('33');
const bold = paint('1');

const STATUS_COLOUR: Record<string, (text: string) => string> = {
  Current: green,
  Failed: red,
  InProgress: yellow,
  NotFound: yellow,
  Terminating: yellow,
  Unknown: yellow,
};
const STATUS_WORDS = new RegExp(`\\b(${Object.keys(STATUS_COLOUR).join('|')})\\b`, 'g');
const OUTCOME_LINE = /^kubewait: (ready|failed|timeout|cancelled|error)\b/;

/** Colours the status words and the outcome of a log line (its text unchanged). */
export function colourise(line: string): string {
  const outcome = OUTCOME_LINE.exec(line);
  if (outcome) {
    const word = outcome[1]!;
    return `kubewait: ${bold(word === 'ready' ? green(word) : red(word))}${line.slice(outcome[0].length).replace(STATUS_WORDS, (w) => STATUS_COLOUR[w]!(w))}`;
  }
  return line.replace(STATUS_WORDS, (word) => STATUS_COLOUR[word]!(word));
}

export interface TerminalOptions {
  flavour: Flavour;
  colour: boolean;
  /** Masks the secrets in a text (the run's `SecretMasks.apply`); none by default. */
  redact?: (text: string) => string;
  /** The width to wrap lines at, asked at each write (`terminalColumns`); none by default. */
  columns?: () => number | undefined;
  /** Epoch milliseconds, for GitLab's section timestamps. */
  now?: () => number;
}

/** A `LogSink` writing whole lines through `write`. */
export function terminalLog(write: (text: string) => void, options: TerminalOptions): LogSink {
  const now = options.now ?? Date.now;
  const redact = options.redact ?? ((text: string) => text);
  // What the cluster wrote is shown as text, never acted on (report/shown-text.ts); the colours and GitLab's
  // section codes are added after.
  const shown = (text: string) => shownText(redact(text));
  const out = (text: string) => write(redact(text));
  // Painted row by row once wrapped: the width counts only what shows.
  const lines = (text: string, paint: (row: string) => string = colourise) => {
    const columns = options.columns?.();
    const rows = shown(text)
      .split('\n')
      .flatMap((line) => wrapForTerminal(line, columns));
    write(`${(options.colour ? rows.map(paint) : rows).join('\n')}\n`);
  };
  // GitHub Actions: the workflow commands the report writes too (report/stream-writer.ts).
  if (options.flavour === 'github') {
    return { ...workflowCommandLog((text) => write(shown(text))), info: lines };
  }
  const sections: string[] = [];
  let counter = 0;
  return {
    info: lines,
    warning(message) {
      lines(`warning: ${message}`, (row) => colourise(row).replace(/^warning:/, `${yellow('warning')}:`));
    },
    startGroup(name) {
      if (options.flavour === 'gitlab') {
        // https://docs.gitlab.com/ci/jobs/job_logs/#custom-collapsible-sections
        const section = `kubewait_${++counter}`;
        sections.push(section);
        return out(`${ESC}[0Ksection_start:${Math.floor(now() / 1000)}:${section}[collapsed=true]\r${ESC}[0K${shownText(name)}\n`);
      }
      lines(name, bold);
    },
    endGroup() {
      const section = sections.pop();
      if (options.flavour === 'gitlab' && section) out(`${ESC}[0Ksection_end:${Math.floor(now() / 1000)}:${section}\r${ESC}[0K\n`);
    },
  };
}
