/**
 * Runs `dist/cli.js` as a user's shell or a CI job does: arguments, a clean environment (no KUBECONFIG,
 * a HOME without ~/.kube, no CI variables unless the test sets them), and reads back stdout, stderr and
 * the exit code. `viaKubectl` runs it as `kubectl kubewait ...` through the real kubectl, which finds the
 * plugin `kubectl-kubewait` on PATH: a link to dist/cli.js itself, so its shebang and mode are tested too.
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
  /** Run as `kubectl kubewait ARGS` through the real kubectl v1.35.2. */
  viaKubectl?: boolean;
  /** Run on a pseudo-terminal (util-linux `script`), as in a person's shell; stdout and stderr both arrive on stdout. */
  terminal?: boolean;
  /** Options for Node itself, before dist/cli.js (like `--import` of a preload). */
  nodeArgs?: string[];
}

export async function runCommand(args: string[], options: CommandOptions = {}): Promise<CommandRun> {
  const scratch = mkdtempSync(path.join(tmpdir(), 'kubewait-cli-'));
  try {
    // The plugin's shebang (`#!/usr/bin/env node`) must find the Node this test runs on (24), not the system's.
    const bin = path.join(scratch, 'bin');
    const env: Record<string, string> = {
      PATH: [bin, path.dirname(process.execPath), process.env.PATH ?? ''].join(path.delimiter),
      HOME: scratch,
      ...options.env,
    };
    let command = process.execPath;
    let argv = [...(options.nodeArgs ?? []), DIST_CLI, ...args];
    if (options.viaKubectl) {
      mkdirSync(bin);
      symlinkSync(DIST_CLI, path.join(bin, 'kubectl-kubewait'));
      command = await kubectlPath();
      argv = ['kubewait', ...args];
    }
    if (options.terminal) {
      const quote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;
      argv = ['-qec', [command, ...argv].map(quote).join(' '), '/dev/null'];
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
