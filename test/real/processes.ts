/**
 * Child processes that must never outlive their owner: each runs in a process group of its own (so a
 * signal reaches whatever it forks too), logs to a file, and is stopped by its group id: SIGTERM, then
 * SIGKILL after a grace period. If the owning Node process exits without stopping them (a crash, a
 * killed jest worker), an exit hook SIGKILLs every group still running.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';

export interface Managed {
  name: string;
  logFile: string;
  child: ChildProcess;
  /** Resolves when the process has exited (with its code or signal). */
  exited: Promise<string>;
}

const running = new Set<Managed>();

function killGroup(m: Managed, signal: NodeJS.Signals): void {
  if (m.child.pid === undefined) return;
  try {
    process.kill(-m.child.pid, signal);
  } catch {
    // the group is gone already
  }
}

let hooked = false;
function hookExit(): void {
  if (hooked) return;
  hooked = true;
  process.on('exit', () => {
    for (const m of running) killGroup(m, 'SIGKILL');
  });
}

export function startProcess(name: string, command: string, args: string[], logFile: string, env: NodeJS.ProcessEnv = process.env): Managed {
  hookExit();
  const fd = openSync(logFile, 'a');
  const child = spawn(command, args, { detached: true, stdio: ['ignore', fd, fd], env });
  closeSync(fd);
  const exited = new Promise<string>((resolve) => {
    child.on('exit', (code, signal) => resolve(signal ? `signal ${signal}` : `exit code ${code ?? '?'}`));
    child.on('error', (err) => resolve(`failed to start: ${err.message}`));
  });
  const managed: Managed = { name, logFile, child, exited };
  running.add(managed);
  void exited.then(() => {
    running.delete(managed);
    // Its group may still hold children it forked: take them down with it.
    killGroup(managed, 'SIGKILL');
  });
  return managed;
}

/** Stops the process group: SIGTERM, then SIGKILL after graceMs. */
export async function stopProcess(m: Managed, graceMs = 10_000): Promise<void> {
  if (!running.has(m)) return;
  killGroup(m, 'SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const forced = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      killGroup(m, 'SIGKILL');
      resolve();
    }, graceMs);
  });
  await Promise.race([m.exited, forced]);
  clearTimeout(timer);
  await m.exited;
}

/** The last lines of a process's log, to put in an error about it. */
export function logTail(m: Managed, lines = 30): string {
  try {
    return readFileSync(m.logFile, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}
