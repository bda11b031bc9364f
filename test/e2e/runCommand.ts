/**
 * Runs `dist/cli.js` as a user's shell or a CI job does: arguments, a clean environment (no KUBECONFIG,
 * a HOME without ~/.kube, no CI variables unless the test sets them), and reads back stdout, stderr and
 * the exit code. `viaKubectl` runs it as `kubectl kubewait ...` through the real kubectl, which finds the
 * plugin `kubectl-kubewait` on PATH: a link to dist/cli.js itself, so its shebang and mode are tested too.
 * `command` runs an installed executable instead of dist/cli.js (the npm package's bin link); KUBEWAIT_BIN
 * in the environment of the tests does so for every run that names none: the single executable
 * (`KUBEWAIT_BIN=$(npm run sea --silent | tail -n 1) npx jest test/e2e/cli.e2e.test.ts`, scripts/sea.ts).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { kubectlPath } from '../cluster/kubectl.js';
import { DIST_CLI } from './dist.js';

export interface CommandRun {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CommandOptions {
  cwd?: string;
  env?: Record<string, string>;
  /** Kill the process after this long (a hang is a failure, never a stuck test). Default 90 s. */
  killAfterMs?: number;
  /** Called with stdout and stderr so far after each chunk; return a signal to send it to the process (once). */
  signalWhen?: (output: string) => NodeJS.Signals | undefined;
  /** Called with stdout and stderr so far after each chunk (to act on the cluster while the command waits). */
  onOutput?: (output: string) => void;
  /** Run as `kubectl kubewait ARGS` through the real kubectl v1.35.2. */
  viaKubectl?: boolean;
  /** An executable to run instead of `node dist/cli.js` (and KUBEWAIT_BIN): an installed `kubewait`
   *  (test/e2e/package.e2e.test.ts), the single executable (test/e2e/sea.e2e.test.ts). */
  command?: string;
  /** PATH holds only the directory of the plugin link (`viaKubectl`): no Node, nothing else (the single executable). */
  standalone?: boolean;
  /** Run on a pseudo-terminal (util-linux `script`), as in a person's shell; stdout and stderr both arrive on stdout. */
  terminal?: boolean;
  /** With `terminal`: its width, as a window this many columns wide (without it the terminal says none). */
  columns?: number;
  /** Options for Node itself, before dist/cli.js (like `--import` of a preload). */
  nodeArgs?: string[];
}

export async function runCommand(args: string[], options: CommandOptions = {}): Promise<CommandRun> {
  const scratch = mkdtempSync(path.join(tmpdir(), 'kubewait-cli-'));
  try {
    // The plugin's shebang (`#!/usr/bin/env node`) must find the Node this test runs on (24), not the system's.
    const bin = path.join(scratch, 'bin');
    const env: Record<string, string> = {
      PATH: options.standalone ? bin : [bin, path.dirname(process.execPath), process.env.PATH ?? ''].join(path.delimiter),
      HOME: scratch,
      ...options.env,
    };
    // Node options (nodeArgs) are for dist/cli.js: such a run never takes KUBEWAIT_BIN.
    const executable = options.command ?? (options.nodeArgs ? undefined : process.env.KUBEWAIT_BIN || undefined);
    let command = executable ?? process.execPath;
    let argv = executable ? [...args] : [...(options.nodeArgs ?? []), DIST_CLI, ...args];
    if (options.viaKubectl) {
      mkdirSync(bin);
      symlinkSync(executable ?? DIST_CLI, path.join(bin, 'kubectl-kubewait'));
      command = await kubectlPath();
      argv = ['kubewait', ...args];
    }
    if (options.terminal) {
      const quote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;
      const size = options.columns ? `stty cols ${options.columns} rows 24; exec ` : '';
      argv = ['-qec', size + [command, ...argv].map(quote).join(' '), '/dev/null'];
      command = 'script';
    }
    return await spawnCommand(command, argv, env, options.cwd ?? scratch, options);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function spawnCommand(command: string, argv: string[], env: Record<string, string>, cwd: string, options: CommandOptions): Promise<CommandRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, argv, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let signalled = false;
    const killer = setTimeout(() => child.kill('SIGKILL'), options.killAfterMs ?? 90_000);
    const seen = () => {
      options.onOutput?.(stdout + stderr);
      const signal = signalled ? undefined : options.signalWhen?.(stdout + stderr);
      if (signal) {
        signalled = true;
        child.kill(signal);
      }
    };
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => ((stdout += chunk), seen()));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => ((stderr += chunk), seen()));
    child.on('error', reject);
    child.on('close', (exitCode, signal) => {
      clearTimeout(killer);
      resolve({ exitCode, signal, stdout, stderr });
    });
  });
}
