/**
 * Where the report goes: the one interface both shells write the live log and the report through. The
 * action writes with `@actions/core` (core-writer.ts); the command inside GitHub Actions writes the same
 * workflow commands and runner files itself (stream-writer.ts). The report is rendered once (report/index.ts)
 * and does not know which one it writes to.
 */
import { appendFileSync } from 'node:fs';
import { shownText } from './shown-text.js';
import { builtinModule } from '../builtin.js';

/** The live log's part of a writer: what a user watching the step sees. */
export interface LogSink {
  info(message: string): void;
  warning(message: string): void;
  startGroup(name: string): void;
  endGroup(): void;
}

/** Where an error annotation points (GitHub shows it on that file and line). */
export interface AnnotationProperties {
  title?: string;
  file?: string;
  startLine?: number;
}

export interface ReportWriter extends LogSink {
  /** An error annotation. */
  error(message: string, properties?: AnnotationProperties): void;
  /** Step outputs, all of them in one write (one file append, not one per output). */
  setOutputs(outputs: Readonly<Record<string, string>>): void;
  /** Registers a credential with the runner before anything could show it. */
  setSecret(secret: string): void;
  /** Appends markdown to the job summary; throws when there is none to append to (the report warns). */
  appendSummary(markdown: string): void;
}

/**
 * Appends to the file the runner names in GITHUB_STEP_SUMMARY. Synchronously, and not through `core.summary`:
 * its asynchronous file calls go through libuv's thread pool, which costs 2-50 ms after the outcome is known
 * (bench/), for one small append.
 */
export function appendStepSummary(markdown: string, env: Record<string, string | undefined> = process.env): void {
  const file = env.GITHUB_STEP_SUMMARY;
  if (!file) throw new Error('GITHUB_STEP_SUMMARY is not set');
  appendFileSync(file, markdown.endsWith('\n') ? markdown : `${markdown}\n`);
}

/**
 * Appends outputs to the file the runner names in GITHUB_OUTPUT, in the heredoc form `@actions/core` writes
 * (`name<<DELIMITER`, the value, `DELIMITER`), all in one append: one open, write and close instead of one
 * per output, after the outcome is known (bench/RESULTS.md, decision to exit). One delimiter for all, that no
 * value contains (`randomUUID`).
 */
export function appendOutputs(file: string, outputs: Readonly<Record<string, string>>): void {
  appendFileSync(file, outputsFileText(outputs));
}

/** What `appendOutputs` appends. */
export function outputsFileText(outputs: Readonly<Record<string, string>>): string {
  const values = Object.values(outputs);
  let delimiter: string;
  do delimiter = `ghadelimiter_${randomUUID()}`;
  while (values.some((value) => value.includes(delimiter)));
  return Object.entries(outputs)
    .map(([name, value]) => `${name}<<${delimiter}\n${value}\n${delimiter}\n`)
    .join('');
}

/**
 * From node:crypto, which every wait loads before V8's flags (src/startup.ts), asked for only here so that
 * what never writes outputs (`--version`) does not load it. Not the global Web Crypto: its modules loaded
 * after the decision, and after the flags, so from source (1.3 ms).
 */
function randomUUID(): string {
  return builtinModule('node:crypto').randomUUID();
}

/** `setSecret` that registers each value once: the shell, the kubeconfig and the GitHub client may each
 *  register the same token, and one `::add-mask::` line per secret is all the runner needs. */
export function registeringOnce(register: (secret: string) => void): (secret: string) => void {
  const registered = new Set<string>();
  return (secret) => {
    if (registered.has(secret)) return;
    registered.add(secret);
    register(secret);
  };
}

/**
 * `writer` with what it shows a reader passed through `shownText`: the log, annotations (and their titles) and
 * the summary. Outputs are data and secrets are the runner's: they go as they are.
 */
export function showingText<W extends ReportWriter>(writer: W): W {
  return {
    ...writer,
    info: (message) => writer.info(shownText(message)),
    warning: (message) => writer.warning(shownText(message)),
    error: (message, properties) =>
      writer.error(shownText(message), properties?.title === undefined ? properties : { ...properties, title: shownText(properties.title) }),
    startGroup: (name) => writer.startGroup(shownText(name)),
    appendSummary: (markdown) => writer.appendSummary(shownText(markdown)),
  };
}
