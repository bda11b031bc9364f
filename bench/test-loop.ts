/**
 * The wall time of the everyday test loop (`npm test`: type-check, lint, jest) of this checkout and, to
 * compare, of another checkout of the project (an earlier commit, with its own node_modules), run
 * alternately so both see the same machine. The entry is bench/tests.ts.
 *
 * Wall time is what a developer waits for; CPU time (user + system of every process the loop starts) says
 * how much of it the machine was busy, so a loaded machine shows as wall time well above CPU time / cores.
 */
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface TestLoopRun {
  /** Which checkout: `this` or `before`. */
  checkout: 'this' | 'before';
  commit: string;
  wallS: number;
  cpuS: number;
  /** 1-minute load average at the start of the run. */
  load: number;
  passed: boolean;
}

export interface TestLoop {
  cpus: number;
  runs: TestLoopRun[];
}

function commitOf(dir: string): string {
  return spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: dir, encoding: 'utf8' }).stdout.trim();
}

/** One `npm test` in `dir`, timed by /usr/bin/time (children included). */
function runOnce(dir: string, checkout: TestLoopRun['checkout']): TestLoopRun {
  const load = os.loadavg()[0] ?? Number.NaN;
  const run = spawnSync('/usr/bin/time', ['-f', 'TIME %e %U %S', 'npm', 'test', '--silent'], { cwd: dir, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  const match = /TIME ([\d.]+) ([\d.]+) ([\d.]+)/.exec(run.stderr);
  if (!match) throw new Error(`no timing from npm test in ${dir}: ${run.stderr.slice(-500)}`);
  const [, wall, user, system] = match.map(Number);
  return { checkout, commit: commitOf(dir), wallS: wall!, cpuS: user! + system!, load, passed: run.status === 0 };
}

export function measureTestLoop(before: string | undefined, rounds: number): TestLoop {
  const runs: TestLoopRun[] = [];
  for (let round = 0; round < rounds; round++) {
    if (before) runs.push(runOnce(before, 'before'));
    runs.push(runOnce(ROOT, 'this'));
  }
  return { cpus: os.availableParallelism(), runs };
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

export function renderTestLoop(loop: TestLoop): string {
  const rows = loop.runs.map(
    (r) => `| ${r.checkout} (${r.commit}) | ${r.wallS.toFixed(0)} s | ${r.cpuS.toFixed(0)} s | ${r.load.toFixed(2)} | ${r.passed ? 'passed' : 'failed'} |`,
  );
  const wall = (checkout: TestLoopRun['checkout']) => median(loop.runs.filter((r) => r.checkout === checkout).map((r) => r.wallS));
  const before = wall('before');
  const after = wall('this');
  const comparison =
    Number.isFinite(before) && loop.runs.some((r) => r.checkout === 'before') ? ` against ${before.toFixed(0)} s before (${(before / after).toFixed(1)}x)` : '';
  return `## The everyday test loop

\`npm test\` (type-check, lint, jest) on ${loop.cpus} cores, run alternately with the earlier checkout so both
see the same machine. CPU is user + system time of every process the loop starts; load is the 1-minute load
average at the start of each run (the machine is shared: wall time well above CPU / cores means it waited).

| checkout | wall | CPU | load | tests |
|---|---:|---:|---:|---|
${rows.join('\n')}

Median wall time now: ${after.toFixed(0)} s${comparison}.`;
}
