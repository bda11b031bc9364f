/**
 * A `ReportWriter` for the command inside a GitHub Actions `run:` step: the workflow commands `@actions/core`
 * would print, written to a stream the caller picks (stderr with `-o json`, so stdout stays one JSON document),
 * and the runner's GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files, as `@actions/core` writes them.
 */
import { appendOutputs, appendStepSummary, registeringOnce, type AnnotationProperties, type LogSink, type ReportWriter } from './writer.js';

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

/** The log commands: warnings and groups as the runner shows them; `info` lines as they are. */
export function workflowCommandLog(write: (text: string) => void): LogSink & Pick<ReportWriter, 'error'> {
  return {
    info: (message) => write(`${message}\n`),
    warning: (message) => write(`${workflowCommand('warning', {}, message)}\n`),
    error: (message, properties: AnnotationProperties = {}) =>
      write(`${workflowCommand('error', { title: properties.title, file: properties.file, line: properties.startLine }, message)}\n`),
    startGroup: (name) => write(`${workflowCommand('group', {}, name)}\n`),
    endGroup: () => write('::endgroup::\n'),
  };
}

export interface StreamWriterOptions {
  /** The log stream. */
  write(text: string): void;
  /** Applied to everything written (stream and files) but the secrets registered with the runner. */
  redact?(text: string): string;
  /** The runner's environment: GITHUB_OUTPUT and GITHUB_STEP_SUMMARY. */
  env: Record<string, string | undefined>;
}

export function streamWriter(options: StreamWriterOptions): ReportWriter {
  const redact = (text: string) => (options.redact ? options.redact(text) : text);
  const write = (text: string) => options.write(text);
  return {
    ...workflowCommandLog((text) => write(redact(text))),
    // Escaped: a multi-line secret (a PEM key) is one command, not one line registered and the rest printed.
    setSecret: registeringOnce((secret) => write(`${workflowCommand('add-mask', {}, secret)}\n`)),
    setOutputs(outputs) {
      const file = options.env.GITHUB_OUTPUT;
      if (!file) return; // not a step that has outputs
      appendOutputs(file, Object.fromEntries(Object.entries(outputs).map(([name, value]) => [name, redact(value)])));
    },
    appendSummary: (markdown) => appendStepSummary(redact(markdown), options.env),
  };
}
