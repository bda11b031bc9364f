/**
 * Runs `dist/index.js` exactly as the GitHub runner does, and reads back what the runner would read:
 * - every input of action.yml as an `INPUT_<NAME>` variable (upper case, dashes kept), with the
 *   action.yml default when the test sets none (the runner fills defaults in the same way);
 * - `GITHUB_OUTPUT` and `GITHUB_STEP_SUMMARY` files, `GITHUB_WORKSPACE` as the working directory;
 * - workflow commands on stdout (`::error title=...,file=...,line=...::message`), parsed and unescaped;
 * - the exit code.
 * The environment is otherwise clean: no KUBECONFIG, and a HOME without ~/.kube.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { DIST_ENTRY, ROOT } from './dist.js';

export interface WorkflowCommand {
  command: string;
  properties: Record<string, string>;
  message: string;
}

export interface ActionRun {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** stdout lines that are not workflow commands: the plain log. */
  log: string[];
  commands: WorkflowCommand[];
  errors: WorkflowCommand[];
  warnings: WorkflowCommand[];
  /** Values of `::add-mask::`. */
  masks: string[];
  outputs: Record<string, string>;
  /** The job summary file's content ('' when nothing was written). */
  summary: string;
  /** Log lines as a reader of the runner's log sees them: groups, warnings and errors rendered. */
  rendered: string;
}

export interface RunOptions {
  /** The workspace: the process's working directory and GITHUB_WORKSPACE. Default: a fresh temp dir. */
  workspace?: string;
  env?: Record<string, string>;
  /** Kill the process after this long (a hang is a failure, never a stuck test). Default 90 s. */
  killAfterMs?: number;
  /** Called with the stdout so far after each chunk (to act on the cluster while the action waits), and the
   *  process's id. */
  onStdout?: (stdout: string, pid: number) => void;
  /** Called with the stdout so far after each chunk; return a signal to send it to the process (once). */
  signalWhen?: (stdout: string) => NodeJS.Signals | undefined;
  /** Send this signal this long after the start, whatever the process is doing (start-up included). */
  signalAfter?: { ms: number; signal: NodeJS.Signals };
  /** Cancel the job as the runner does: SIGINT this long after the start, SIGTERM 7.5 s after that. */
  runnerCancelAfterMs?: number;
  /** Cancel the job as the runner does (SIGINT, SIGTERM 7.5 s after it) once the stdout so far satisfies
   *  this: after an event, not after a time a loaded machine may take to start the process. */
  runnerCancelWhen?: (stdout: string) => boolean;
  /** Run this bundle instead of dist/index.js (bench/ compares builds). */
  entry?: string;
}

/** Every input of action.yml as the runner passes it: `INPUT_<NAME>` (upper case, dashes kept), the
 *  action.yml default when `inputs` sets none. Throws for a name action.yml does not declare. */
export function inputEnv(inputs: Record<string, string>): Record<string, string> {
  const declared = (parse(readFileSync(path.join(ROOT, 'action.yml'), 'utf8')) as { inputs: Record<string, { default?: string }> }).inputs;
  const unknown = Object.keys(inputs).filter((name) => !(name in declared));
  if (unknown.length > 0) throw new Error(`not inputs of action.yml: ${unknown.join(', ')}`);
  return Object.fromEntries(
    // An expression default (`${{ github.token }}`) is evaluated by the runner; here it knows no contexts: ''.
    Object.entries(declared).map(([name, input]) => [`INPUT_${name.replace(/ /g, '_').toUpperCase()}`, inputs[name] ?? expressionFree(input.default)]),
  );
}

function expressionFree(value: string | undefined): string {
  return value === undefined || value.includes('${{') ? '' : value;
}

/** The environment the runner gives a step (no KUBECONFIG, a HOME without ~/.kube): its files, its workspace
 *  and the run's context, without the inputs. */
export function runnerEnv(files: { scratch: string; workspace: string; outputFile: string; summaryFile: string }): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: files.scratch,
    RUNNER_TEMP: files.scratch,
    GITHUB_ACTIONS: 'true',
    GITHUB_WORKSPACE: files.workspace,
    GITHUB_OUTPUT: files.outputFile,
    GITHUB_STEP_SUMMARY: files.summaryFile,
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_REPOSITORY: 'octo-org/shop',
    GITHUB_RUN_ID: '4242',
    GITHUB_RUN_ATTEMPT: '1',
    GITHUB_SHA: '0123456789abcdef0123456789abcdef01234567',
  };
}

export async function runAction(inputs: Record<string, string>, options: RunOptions = {}): Promise<ActionRun> {
  const scratch = mkdtempSync(path.join(tmpdir(), 'kubewait-run-'));
  const workspace = options.workspace ?? scratch;
  const outputFile = path.join(scratch, 'github_output');
  const summaryFile = path.join(scratch, 'step_summary');
  writeFileSync(outputFile, '');
  writeFileSync(summaryFile, '');

  const env: Record<string, string> = { ...runnerEnv({ scratch, workspace, outputFile, summaryFile }), ...inputEnv(inputs), ...options.env };

  try {
    const { exitCode, signal, stdout, stderr } = await spawnAction(env, workspace, options);
    const commands = parseCommands(stdout);
    return {
      exitCode,
      signal,
      stdout,
      stderr,
      log: stdout.split('\n').filter((line) => line !== '' && !line.startsWith('::')),
      commands,
      errors: commands.filter((c) => c.command === 'error'),
      warnings: commands.filter((c) => c.command === 'warning'),
      masks: commands.filter((c) => c.command === 'add-mask').map((c) => c.message),
      outputs: parseOutputFile(readFileSync(outputFile, 'utf8')),
      summary: readFileSync(summaryFile, 'utf8'),
      rendered: render(stdout),
    };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The runner's cancellation: SIGINT, then SIGTERM this much later (actions/runner, ProcessInvoker). */
const RUNNER_SIGTERM_AFTER_MS = 7_500;

function spawnAction(env: Record<string, string>, cwd: string, options: RunOptions) {
  return new Promise<{ exitCode: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [options.entry ?? DIST_ENTRY], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let signalled = false;
    const killer = setTimeout(() => child.kill('SIGKILL'), options.killAfterMs ?? 90_000);
    const early = options.signalAfter && setTimeout(() => child.kill(options.signalAfter!.signal), options.signalAfter.ms);
    const cancel = options.runnerCancelAfterMs;
    const runnerSignals =
      cancel === undefined ? [] : [setTimeout(() => child.kill('SIGINT'), cancel), setTimeout(() => child.kill('SIGTERM'), cancel + RUNNER_SIGTERM_AFTER_MS)];
    let runnerCancelled = false;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      options.onStdout?.(stdout, child.pid!);
      if (!runnerCancelled && options.runnerCancelWhen?.(stdout)) {
        runnerCancelled = true;
        child.kill('SIGINT');
        runnerSignals.push(setTimeout(() => child.kill('SIGTERM'), RUNNER_SIGTERM_AFTER_MS));
      }
      const signal = signalled ? undefined : options.signalWhen?.(stdout);
      if (signal) {
        signalled = true;
        child.kill(signal);
      }
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (exitCode, signal) => {
      clearTimeout(killer);
      clearTimeout(early);
      runnerSignals.forEach(clearTimeout);
      resolve({ exitCode, signal, stdout, stderr });
    });
  });
}

const unescapeData = (text: string) => text.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%25/g, '%');
const unescapeProperty = (text: string) => unescapeData(text.replace(/%3A/g, ':').replace(/%2C/g, ','));

/** `::name key=value,key=value::message` lines, as the runner parses them. */
export function parseCommands(stdout: string): WorkflowCommand[] {
  return stdout.split('\n').flatMap((line) => {
    const match = /^::([a-z-]+)(?: ([^:]*))?::(.*)$/.exec(line.replace(/\r$/, ''));
    if (!match) return [];
    const properties = Object.fromEntries(
      (match[2] ?? '')
        .split(',')
        .filter(Boolean)
        .map((pair) => {
          const at = pair.indexOf('=');
          return [pair.slice(0, at), unescapeProperty(pair.slice(at + 1))];
        }),
    );
    return [{ command: match[1]!, properties, message: unescapeData(match[3]!) }];
  });
}

/** The `GITHUB_OUTPUT` file: `name<<DELIMITER`, value lines, `DELIMITER` (and `name=value` lines). */
export function parseOutputFile(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = text.split('\n');
  for (let at = 0; at < lines.length; at++) {
    const heredoc = /^([^=<]+)<<(.+)$/.exec(lines[at]!);
    if (heredoc) {
      const end = lines.indexOf(heredoc[2]!, at + 1);
      if (end < 0) throw new Error(`unterminated output ${heredoc[1]}`);
      outputs[heredoc[1]!] = lines.slice(at + 1, end).join('\n');
      at = end;
    } else if (lines[at]!.includes('=')) {
      const eq = lines[at]!.indexOf('=');
      outputs[lines[at]!.slice(0, eq)] = lines[at]!.slice(eq + 1);
    }
  }
  return outputs;
}

/** Roughly how the runner's log view shows the step: groups folded open, annotations prefixed. */
function render(stdout: string): string {
  return stdout
    .split('\n')
    .flatMap((line) => {
      const [command] = parseCommands(line);
      if (!command) return [line];
      if (command.command === 'group') return [`▼ ${command.message}`];
      if (command.command === 'endgroup' || command.command === 'add-mask' || command.command === 'debug') return [];
      const title = command.properties.title ? `${command.properties.title}: ` : '';
      const where = command.properties.file ? ` (${command.properties.file}${command.properties.line ? `:${command.properties.line}` : ''})` : '';
      return `${command.command === 'error' ? 'Error' : command.command === 'warning' ? 'Warning' : command.command}: ${title}${command.message}${where}`.split(
        '\n',
      );
    })
    .join('\n');
}
