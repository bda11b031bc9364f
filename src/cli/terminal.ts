/**
 * The command's live log: the action's lines (src/report/live-log.ts), written for where the command runs.
 * A terminal gets colour (only on a TTY, never with NO_COLOR); GitLab CI gets collapsible sections; GitHub
 * Actions gets its groups and warnings as workflow commands. Every line passes through the redactor first.
 */
import type { LogSink } from '../report/live-log.js';

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

/** A workflow command line (`::error title=...::message`), escaped as @actions/core escapes it. */
export function workflowCommand(command: string, properties: Record<string, string | number | undefined>, message: string): string {
  const escapeData = (text: string) => text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
  const escapeProperty = (text: string) => escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
  const props = Object.entries(properties)
    .filter(([, value]) => value !== undefined && value !== '')
    .map(([key, value]) => `${key}=${escapeProperty(String(value))}`)
    .join(',');
  return `::${command}${props ? ` ${props}` : ''}::${escapeData(message)}`;
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
  const sections: string[] = [];
  let counter = 0;
  return {
    info: lines,
    warning(message) {
      if (options.flavour === 'github') write(`${workflowCommand('warning', {}, message)}\n`);
      else lines(options.colour ? `${yellow('warning')}: ${message}` : `warning: ${message}`);
    },
    startGroup(name) {
      if (options.flavour === 'github') return write(`::group::${name}\n`);
      if (options.flavour === 'gitlab') {
        // https://docs.gitlab.com/ci/jobs/job_logs/#custom-collapsible-sections
        const section = `kubewait_${++counter}`;
        sections.push(section);
        return write(`${ESC}[0Ksection_start:${Math.floor(now() / 1000)}:${section}[collapsed=true]\r${ESC}[0K${name}\n`);
      }
      lines(options.colour ? bold(name) : name);
    },
    endGroup() {
      if (options.flavour === 'github') return write('::endgroup::\n');
      const section = sections.pop();
      if (options.flavour === 'gitlab' && section) write(`${ESC}[0Ksection_end:${Math.floor(now() / 1000)}:${section}\r${ESC}[0K\n`);
    },
  };
}
