/**
 * Spawns a measured process and reports when it started and exited (as this process sees it) and its
 * peak RSS. Node processes get bench/probe.mjs preloaded (exact VmHWM at exit, plus their own start and
 * bootstrap instants); any other program (kubectl) has its /proc/<pid>/status VmHWM read every
 * RSS_POLL_MS — a high-water mark, so a sample misses only growth in the last interval before exit.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { now } from './fixture.js';

const PROBE = fileURLToPath(new URL('./probe.mjs', import.meta.url));
const RSS_POLL_MS = 10;

export interface ProbeReport {
  /** The child's performance.timeOrigin (process start), epoch ms. */
  startAt: number;
  /** The preload ran: Node's bootstrap is done, the main module is next. */
  preloadAt: number;
  exitAt: number;
  peakRssKiB: number;
  /** Only with --expose-gc: heap used after a full GC at exit. */
  heapAfterGcKiB?: number;
  /** User + system CPU of the process up to its exit event, seconds. */
  cpuSeconds?: number;
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  spawnAt: number;
  /** When this process saw the child exit (epoch ms). */
  exitAt: number;
  stdout: string;
  /** When each stdout chunk arrived: `end` is the stdout length after it. */
  stdoutChunks: Array<{ at: number; end: number }>;
  stderr: string;
  peakRssKiB: number;
  rssMethod: 'probe' | 'poll';
  probe?: ProbeReport;
  timedOut: boolean;
}

export interface SpawnOptions {
  env: Record<string, string>;
  cwd?: string;
  /** A Node script: run it with process.execPath and the probe preloaded. */
  node?: boolean;
  /** Extra Node flags (before the script). */
  nodeArgs?: string[];
  killAfterMs?: number;
}

export interface Measured {
  pid: number;
  spawnAt: number;
  done: Promise<Exit>;
}

export function spawnMeasured(command: string, args: string[], options: SpawnOptions): Measured {
  const scratch = options.node ? mkdtempSync(path.join(tmpdir(), 'kubewait-probe-')) : undefined;
  const probeFile = scratch && path.join(scratch, 'probe.json');
  const [file, argv] = options.node ? [process.execPath, ['--import', PROBE, ...(options.nodeArgs ?? []), command, ...args]] : [command, args];
  const env = probeFile ? { ...options.env, KUBEWAIT_BENCH_PROBE: probeFile } : options.env;

  const spawnAt = now();
  const child = spawn(file, argv, { cwd: options.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const pid = child.pid ?? -1;
  let sampledKiB = 0;
  const sampler = options.node ? undefined : setInterval(() => (sampledKiB = Math.max(sampledKiB, readHwm(pid))), RSS_POLL_MS);
  let timedOut = false;
  const killer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGKILL');
  }, options.killAfterMs ?? 600_000);

  const stdout: string[] = [];
  const stdoutChunks: Array<{ at: number; end: number }> = [];
  let stdoutLength = 0;
  const stderr: string[] = [];
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout.push(chunk);
    stdoutLength += chunk.length;
    stdoutChunks.push({ at: now(), end: stdoutLength });
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => stderr.push(chunk));

  const done = new Promise<Exit>((resolve, reject) => {
    let exitAt = 0;
    let status: { code: number | null; signal: NodeJS.Signals | null } = { code: null, signal: null };
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      exitAt = now();
      status = { code, signal };
      if (sampler) clearInterval(sampler);
      clearTimeout(killer);
    });
    // 'close' comes after the pipes drained: the output is complete.
    child.on('close', () => {
      const probe = probeFile ? readProbe(probeFile) : undefined;
      if (scratch) rmSync(scratch, { recursive: true, force: true });
      resolve({
        ...status,
        spawnAt,
        exitAt,
        stdout: stdout.join(''),
        stdoutChunks,
        stderr: stderr.join(''),
        peakRssKiB: probe ? probe.peakRssKiB : sampledKiB || Number.NaN,
        rssMethod: options.node ? 'probe' : 'poll',
        probe,
        timedOut,
      });
    });
  });
  return { pid, spawnAt, done };
}

function readHwm(pid: number): number {
  try {
    const match = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0; // gone already
  }
}

function readProbe(file: string): ProbeReport | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as ProbeReport;
  } catch {
    return undefined; // killed before its exit handler ran
  }
}

/** When the last line matching `pattern` reached this process's end of the stdout pipe (epoch ms). */
export function lastLineAt(exit: Pick<Exit, 'stdout' | 'stdoutChunks'>, pattern: RegExp): number | undefined {
  const flags = pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`;
  let offset = -1;
  for (const match of exit.stdout.matchAll(new RegExp(pattern.source, flags))) offset = match.index + match[0].length;
  if (offset < 0) return undefined;
  return exit.stdoutChunks.find((c) => c.end >= offset)?.at;
}
