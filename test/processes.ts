/**
 * Whether processes a test started indirectly (an exec credential plugin and its children) are gone. A
 * zombie counts as gone: it is dead and only its reaper is late (in a container whose init does not reap,
 * a killed plugin stays a zombie for good, and `kill(pid, 0)` still finds it).
 */
import { existsSync, readFileSync } from 'node:fs';

export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    // `PID (COMMAND) STATE ...`: the state follows the last parenthesis.
    return !/\)\s+Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return !existsSync('/proc/self'); // gone meanwhile; without /proc, kill(0) is all there is
  }
}

/** The pids still running after allowing the kernel up to `graceMs` to finish killing them; those are
 *  killed here, so a failing test leaves nothing behind. */
export async function survivors(pids: number[], graceMs = 1000): Promise<number[]> {
  for (let waited = 0; waited < graceMs && pids.some(isRunning); waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
  const left = pids.filter(isRunning);
  for (const pid of left) process.kill(pid, 'SIGKILL');
  return left;
}

/** The pids a plugin script wrote to `file`, one a line (its own `$$`, then its children's `$!`). */
export function pidsIn(file: string): number[] {
  return readFileSync(file, 'utf8').trim().split('\n').map(Number);
}
