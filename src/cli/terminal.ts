/**
 * The command's live log: the action's lines (src/report/live-log.ts), written for where the command runs.
 * A terminal gets colour (only on a TTY, never with NO_COLOR); GitLab CI gets collapsible sections; GitHub
 * Actions gets its groups and warnings as workflow commands. Every line passes through the redactor first.
 */
import { workflowCommandLog } from '../report/stream-writer.js';
import type { LogSink } from '../report/writer.js';

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
  /** Epoch milliseconds, for GitLab's section timestamps. */
  now?: () => number;
}

/** A `LogSink` writing whole lines through `write`. */
export function terminalLog(write: (text: string) => void, options: TerminalOptions): LogSink {
  const now = options.now ?? Date.now;
  const lines = (text: string) => write(`${options.colour ? text.split('\n').map(colourise).join('\n') : text}\n`);
  // GitHub Actions: the workflow commands the report writes too (report/stream-writer.ts).
  if (options.flavour === 'github') {
    return { ...workflowCommandLog(write), info: lines };
  }
  const sections: string[] = [];
  let counter = 0;
  return {
    info: lines,
    warning(message) {
      lines(options.colour ? `${yellow('warning')}: ${message}` : `warning: ${message}`);
    },
    startGroup(name) {
      if (options.flavour === 'gitlab') {
        // https://docs.gitlab.com/ci/jobs/job_logs/#custom-collapsible-sections
        const section = `kubewait_${++counter}`;
        sections.push(section);
        return write(`${ESC}[0Ksection_start:${Math.floor(now() / 1000)}:${section}[collapsed=true]\r${ESC}[0K${name}\n`);
      }
      lines(options.colour ? bold(name) : name);
    },
    endGroup() {
      const section = sections.pop();
      if (options.flavour === 'gitlab' && section) write(`${ESC}[0Ksection_end:${Math.floor(now() / 1000)}:${section}\r${ESC}[0K\n`);
    },
  };
}
