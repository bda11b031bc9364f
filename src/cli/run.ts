/**
 * The command's shell: flags -> the action's `Settings` -> the shared pipeline (src/pipeline.ts) with the
 * command's sink -> text, JSON or JUnit, and an exit code from one table (exit-codes.ts). Returns the exit
 * code; the entry point (src/cli.ts) exits with it. A bad flag is one line on stderr, never a stack trace.
 */
import { existsSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { RunResult } from '../result.js';
import type { KubeconfigSources } from '../kube/index.js';
import { SecretMasks } from '../kube/masks.js';
import type { ClusterInfo, PipelineSink } from '../pipeline.js';
import { finalLogLines } from '../report/live-log.js';
import { logBlocks, logGroup, logRecords } from '../report/logs.js';
import { clustersOutput, publicResult, resourceOutput, smokeOutput } from '../report/outputs.js';
import { rollbackJson, rolledBackLogLines } from '../report/rolled-back.js';
import { streamWriter } from '../report/stream-writer.js';
import type { LogSink, ReportWriter } from '../report/writer.js';
import { InputError, type InputProblem, type Settings } from '../settings.js';
import { EXIT_CODES, exitCodeOf } from './exit-codes.js';
import { checkSomethingToWaitFor, parseCommandLine, settingsFrom, UsageError, type CommandLine } from './flags.js';
import { helpText } from './help.js';
import { renderJunit, renderSetupFailureJunit } from './junit.js';
import { describeForCommand, inCommandTerms } from './messages.js';
import { colourWanted, flavourOf, terminalColumns, terminalLog } from './terminal.js';
import { VERSION } from '../version.js';

export interface Stream {
  write(text: string): unknown;
  isTTY?: boolean;
  /** A terminal's width (Node sets it on a TTY stream and updates it when the window is resized). */
  columns?: number;
}

export interface CommandIO {
  argv: string[];
  env: Record<string, string | undefined>;
  cwd: string;
  stdout: Stream;
  stderr: Stream;
}

export async function runCommand(io: CommandIO): Promise<number> {
  // Every secret the run registers is masked in everything the command writes, by the runner's rule.
  const masks = new SecretMasks();
  const out = (text: string) => io.stdout.write(masks.apply(text));
  const err = (text: string) => io.stderr.write(masks.apply(text));
  let line: CommandLine | undefined;
  try {
    line = parseCommandLine(io.argv);
    // As gh and the action's default do: the job's token, unless one is given.
    if (!line.inputs['github-token'] && io.env.GITHUB_TOKEN) line.inputs['github-token'] = io.env.GITHUB_TOKEN;
    if (line.inputs['github-token']) masks.mask(line.inputs['github-token']);
    if (line.help) return (out(helpText(VERSION)), EXIT_CODES.ready);
    if (line.version) return (out(`kubewait ${VERSION}\n`), EXIT_CODES.ready);
    checkSomethingToWaitFor(line);
    const settings = settingsFrom(line);
    const result = await wait(settings, line, io, await kubeconfigSources(line, io), masks);
    finish(result, settings, line, io, masks);
    if (result.error) err(`kubewait: ${describeForCommand(result.error)}\n`);
    return exitCodeOf(result);
  } catch (error) {
    return failed(error, line, io, masks, { out, err });
  }
}

/** `--kubeconfig PATH` is kubectl's flag: a file, read as $KUBECONFIG would be (relative paths inside it too). */
async function kubeconfigSources(line: CommandLine, io: CommandIO): Promise<KubeconfigSources> {
  const env = { ...io.env };
  if (line.kubeconfigPath !== undefined) {
    const file = path.resolve(io.cwd, line.kubeconfigPath);
    if (!existsSync(file) || !statSync(file).isFile()) {
      throw new UsageError(`--kubeconfig is "${line.kubeconfigPath}": no such file. Expected a kubeconfig file, like --kubeconfig ~/.kube/config.`);
    }
    env.KUBECONFIG = file;
  }
  const { defaultSources } = await import('../kube/kubeconfig.js');
  return { ...defaultSources(), env, home: io.env.HOME || io.env.USERPROFILE };
}

/** With -o json, stdout holds the document alone: the log goes to stderr. */
function logStream(line: CommandLine, io: CommandIO): Stream {
  return line.output === 'json' ? io.stderr : io.stdout;
}

/** Inside GitHub Actions, the command writes what the action writes (workflow commands, outputs, the job
 *  summary), masked, with annotations in the command's terms. */
function gitHubWriter(stream: Stream, masks: SecretMasks, env: CommandIO['env']): ReportWriter {
  const writer = streamWriter({ write: (text) => void stream.write(text), redact: (text) => masks.apply(text), env });
  return {
    ...writer,
    error: (message, properties = {}) =>
      writer.error(inCommandTerms(message), { ...properties, ...(properties.title !== undefined && { title: inCommandTerms(properties.title) }) }),
  };
}

async function wait(settings: Settings, line: CommandLine, io: CommandIO, kubeconfigSources: KubeconfigSources, masks: SecretMasks): Promise<RunResult> {
  const stream = logStream(line, io);
  const flavour = flavourOf(io.env);
  const logOptions = {
    flavour,
    colour: colourWanted(stream, io.env),
    redact: (text: string) => masks.apply(text),
    columns: () => terminalColumns(stream),
  };
  const log = terminalLog((text) => stream.write(text), logOptions);
  const github = flavour === 'github' ? gitHubWriter(stream, masks, io.env) : undefined;
  const closingLines = (result: RunResult, to: LogSink) => {
    to.info(finalLogLines(result, settings.waitFor).join('\n'));
    if (result.rollback) to.info(rolledBackLogLines(result.rollback).join('\n')); // rollback (issue 32)
    writeLogBlocks(result, to);
  };
  let reports: { finish(result: RunResult): Promise<void> } | undefined;
  let rehearseForGitHub: ((sample: RunResult) => void) | undefined;
  const sink: PipelineSink = {
    log,
    mask(secret) {
      masks.mask(secret);
      github?.setSecret(secret);
    },
    async begin() {
      if (!github) return;
      const gitHub = await import('./github.js');
      reports = gitHub.startGitHub(settings, github);
      rehearseForGitHub = (sample) => gitHub.rehearseReportToGitHub(sample, settings);
    },
    async report(result: RunResult, cluster: ClusterInfo) {
      if (github) (await import('./github.js')).reportToGitHub(result, settings, cluster, github);
      else closingLines(result, log);
      await reports?.finish(result);
    },
    rehearse(sample) {
      // src/rehearsal.ts: what `report` and `finish` will render, rendered into nothing.
      const nowhere = terminalLog(() => true, logOptions);
      if (github) rehearseForGitHub?.(sample);
      else closingLines(sample, nowhere);
      documentsFor(sample, settings, line);
    },
  };
  // Loaded here, not up front: --help, --version and a bad flag answer without evaluating client-node.
  const { waitEverywhere } = await import('../fleet/index.js');
  return waitEverywhere(settings, sink, { cwd: io.cwd, kubeconfigSources });
}

/** The failing containers' log tails after the closing lines, one group each (a collapsed section in GitLab),
 *  as the action writes them to the step log; the text was masked when it was read. */
function writeLogBlocks(result: RunResult, log: LogSink): void {
  for (const { view, samePods } of logBlocks(result.targets)) {
    const { title, lines } = logGroup(view, undefined, { lines: Number.MAX_SAFE_INTEGER, samePods });
    log.startGroup(title);
    log.info(lines.map((line) => `  ${line}`).join('\n'));
    log.endGroup();
  }
}

/** `-o json` and `--junit`, in every outcome that has targets. */
function finish(result: RunResult, settings: Settings, line: CommandLine, io: CommandIO, masks: SecretMasks): void {
  const { json, junit } = documentsFor(result, settings, line);
  if (json !== undefined) io.stdout.write(masks.apply(`${json}\n`));
  if (line.junit && junit !== undefined) writeJunit(line.junit, io, masks, junit);
}

/** The `-o json` document and the `--junit` XML of `result`, as the command line asks for them. */
function documentsFor(result: RunResult, settings: Settings, line: CommandLine): { json?: string; junit?: string } {
  const problem = result.error && describeForCommand(result.error);
  return {
    ...(line.output === 'json' && { json: jsonDocument(publicResult(result), result, problem) }),
    ...(line.junit && { junit: renderJunit(result, { waitFor: settings.waitFor, failFast: settings.failFast, ...(problem && { problem }) }) }),
  };
}

/** `{"result": ..., "resources": [...]}`: the action's `result` and `resources` outputs, in one document; with
 *  `--release`, `release-revision` and `release-status` too (null when no record of the release was found);
 *  `logs` when failing containers' log tails were read (`logRecords`). */
function jsonDocument(result: string, wait: RunResult | undefined, problem: string | undefined): string {
  const release = wait?.release && { 'release-revision': wait.release.revision ?? null, 'release-status': wait.release.status ?? null };
  const clusters = wait?.clusters && { clusters: clustersOutput(wait.clusters) };
  const smoke = wait?.smoke && { smoke: wait.smoke.map((check) => smokeOutput(check, { withBody: true })) };
  const logs = logRecords(wait?.targets ?? []);
  return JSON.stringify(
    {
      result,
      resources: (wait?.targets ?? []).map(resourceOutput),
      ...release,
      ...clusters,
      ...(wait?.rollback && { rollback: rollbackJson(wait.rollback) }), // rollback (issue 32)
      ...smoke,
      ...(logs.length > 0 && { logs }),
      ...(problem && { error: problem }),
    },
    null,
    2,
  );
}

/** Masked as everything else the command writes: the file is a CI artifact anyone with access to the job reads. */
function writeJunit(file: string, io: CommandIO, masks: SecretMasks, xml: string): void {
  try {
    writeFileSync(path.resolve(io.cwd, file), masks.apply(xml));
  } catch (error) {
    const code = (error as { code?: string }).code ?? String(error);
    io.stderr.write(`kubewait: could not write --junit ${file} (${code})\n`);
  }
}

/** Before any target was judged: one line, the JSON document and the JUnit file still say so. */
async function failed(
  error: unknown,
  line: CommandLine | undefined,
  io: CommandIO,
  masks: SecretMasks,
  { out, err }: { out: (text: string) => void; err: (text: string) => void },
): Promise<number> {
  const usage = error instanceof UsageError || error instanceof InputError;
  const message = error instanceof InputError ? describeForCommand(error) : error instanceof Error ? error.message.split('\n')[0]! : String(error);
  err(`kubewait: ${message}\n`);
  if ((line?.output ?? (error instanceof UsageError ? error.output : undefined)) === 'json') out(`${jsonDocument('error', undefined, message)}\n`);
  if (line?.junit) writeJunit(line.junit, io, masks, renderSetupFailureJunit(message));
  if (line && flavourOf(io.env) === 'github' && error instanceof InputError) await annotateSetupFailure(error, io, line, masks);
  return usage ? EXIT_CODES['bad-input'] : EXIT_CODES['cluster-error'];
}

/** Inside GitHub Actions a bad input is also an annotation and a job summary, as in the action. */
async function annotateSetupFailure(problem: InputProblem, io: CommandIO, line: CommandLine, masks: SecretMasks): Promise<void> {
  const { reportSetupFailureToGitHub } = await import('./github.js');
  await reportSetupFailureToGitHub(problem, line, gitHubWriter(logStream(line, io), masks, io.env));
}
