/**
 * Where the report goes: the one interface both shells write the live log and the report through. The
 * action writes with `@actions/core` (core-writer.ts); the command inside GitHub Actions writes the same
 * workflow commands and runner files itself (stream-writer.ts). The report is rendered once (report/index.ts)
 * and does not know which one it writes to.
 */
import { appendFileSync } from 'node:fs';

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
 * value contains; from the global Web Crypto, not node:crypto (loading it costs milliseconds).
 */
export function appendOutputs(file: string, outputs: Readonly<Record<string, string>>): void {
  const values = Object.values(outputs);
  let delimiter: string;
  do delimiter = `ghadelimiter_${crypto.randomUUID()}`;
  while (values.some((value) => value.includes(delimiter)));
  const text = Object.entries(outputs)
    .map(([name, value]) => `${name}<<${delimiter}\n${value}\n${delimiter}\n`)
    .join('');
  appendFileSync(file, text);
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
