/**
 * A signal at a given millisecond after the start (issue 34): is it reported (`result: cancelled`, every
 * output; the command: its JSON document and exit 130), or does it kill the process with nothing written?
 *
 *   npx tsx bench/early-signal.ts [--before /path/to/other/dist] [--reps 3] [--delays 0,10,...] [--signal SIGTERM]
 *
 * For the action (dist/index.js, run as the runner runs it) and the command (dist/cli.js, `-o json`) of this
 * build and of `--before` (another build's dist/, e.g. one that restarted Node with V8 flags), and for the
 * floor: a one-line Node script whose first statement installs the handler, the earliest any JavaScript can
 * (before it, Node's own start runs, which resets every inherited disposition and the signal mask). The
 * kubeconfig names a server that never answers, so a run ends only by the signal. All programs run in turn
 * at each delay, so they share the machine's load. Figures, not assertions: test/e2e/start-once.e2e.test.ts
 * holds the moments that are deterministic.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { DIST_CLI, DIST_ENTRY, ensureDist } from '../test/e2e/dist.js';
import { parseOutputFile } from '../test/e2e/runAction.js';
import { actionEnv } from './waiters.js';

type Outcome = 'reported' | 'killed' | 'other';

function option(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

const KUBECONFIG = `apiVersion: v1
kind: Config
clusters: [{ name: c, cluster: { server: "https://127.0.0.1:1", insecure-skip-tls-verify: true } }]
users: [{ name: u, user: { token: t } }]
contexts: [{ name: c, context: { cluster: c, user: u, namespace: default } }]
current-context: c
`;

/** The floor: handlers in the first statement, then what a report would be. */
const FLOOR = `const end = () => { process.stdout.write('{"result":"cancelled"}'); process.exit(130); };
process.on('SIGINT', end); process.on('SIGTERM', end); setTimeout(() => {}, 60000);`;

interface Program {
  name: string;
  run(scratch: string): { args: string[]; env: Record<string, string>; outcome: (code: number | null, signal: string | null, stdout: string) => Outcome };
}

function action(name: string, entry: string, kubeconfig: string): Program {
  return {
    name,
    run(scratch) {
      const env = actionEnv({ kubeconfig: readFileSync(kubeconfig, 'utf8'), resources: 'deployment/web', timeout: '60s' }, scratch);
      return {
        args: [entry],
        env,
        outcome: (code, signal) => {
          if (signal) return 'killed';
          const outputs = parseOutputFile(readFileSync(env.GITHUB_OUTPUT, 'utf8'));
          return code === 1 && outputs.result === 'cancelled' && outputs.resources !== undefined ? 'reported' : 'other';
        },
      };
    },
  };
}

function command(name: string, cli: string, kubeconfig: string): Program {
  return {
    name,
    run: (scratch) => ({
      args: [cli, 'deployment/web', '-o', 'json', '--kubeconfig', kubeconfig, '--timeout', '60s'],
      env: { PATH: process.env.PATH ?? '', HOME: scratch },
      outcome: (code, signal, stdout) => (signal ? 'killed' : code === 130 && stdout.includes('"cancelled"') ? 'reported' : 'other'),
    }),
  };
}

function runOnce(program: Program, delayMs: number, signal: NodeJS.Signals): Promise<Outcome> {
  const scratch = mkdtempSync(path.join(tmpdir(), 'kubewait-early-signal-'));
  const { args, env, outcome } = program.run(scratch);
  return new Promise<Outcome>((resolve) => {
    const child = spawn(process.execPath, args, { cwd: scratch, env, stdio: ['ignore', 'pipe', 'ignore'] });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    const timer = setTimeout(() => child.kill(signal), delayMs);
    const killer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('close', (code, killedBy) => {
      clearTimeout(timer);
      clearTimeout(killer);
      resolve(outcome(code, killedBy, stdout));
      rmSync(scratch, { recursive: true, force: true });
    });
  });
}

await ensureDist();
const scratch = mkdtempSync(path.join(tmpdir(), 'kubewait-early-signal-'));
const kubeconfig = path.join(scratch, 'kubeconfig.yaml');
writeFileSync(kubeconfig, KUBECONFIG);
const floor = path.join(scratch, 'floor.cjs');
writeFileSync(floor, FLOOR);
const before = option('before');
const reps = Number(option('reps') ?? 3);
const signal = (option('signal') ?? 'SIGTERM') as NodeJS.Signals;
const delays = (option('delays') ?? '0,10,20,30,40,50,60,80,100,150,200,250,300').split(',').map(Number);
const programs: Program[] = [
  {
    name: 'floor: a handler in the first statement',
    run: () => ({ args: [floor], env: { PATH: process.env.PATH ?? '' }, outcome: (c, s) => (s ? 'killed' : c === 130 ? 'reported' : 'other') }),
  },
  ...(before ? [action('action, before', path.join(before, 'index.js'), kubeconfig), command('command, before', path.join(before, 'cli.js'), kubeconfig)] : []),
  action('action, this build', DIST_ENTRY, kubeconfig),
  command('command, this build', DIST_CLI, kubeconfig),
];

const loadAtStart = os.loadavg()[0]!;
const results = new Map<string, Map<number, Outcome[]>>(programs.map((p) => [p.name, new Map(delays.map((d) => [d, []]))]));
for (let rep = 0; rep < reps; rep++) {
  for (const delay of delays) {
    for (const program of programs)
      results
        .get(program.name)!
        .get(delay)!
        .push(await runOnce(program, delay, signal));
  }
}
rmSync(scratch, { recursive: true, force: true });

const cell = (outcomes: Outcome[]) => {
  const killed = outcomes.filter((o) => o === 'killed').length;
  const other = outcomes.filter((o) => o === 'other').length;
  return `${killed}/${outcomes.length}${other ? ` (+${other} other)` : ''}`;
};
console.log(
  `${signal} at a given ms after spawn: runs killed with nothing written, of ${reps}. Load average ${loadAtStart.toFixed(1)} at start, ${os.loadavg()[0]!.toFixed(1)} at end.\n`,
);
console.log(`| program | ${delays.map((d) => `${d} ms`).join(' | ')} | killed in all |`);
console.log(`|---|${delays.map(() => '---:').join('|')}|---:|`);
for (const [name, byDelay] of results) {
  const all = [...byDelay.values()].flat();
  console.log(`| ${name} | ${[...byDelay.values()].map(cell).join(' | ')} | ${all.filter((o) => o === 'killed').length}/${all.length} |`);
}
