/**
 * The programs being compared, each started against a Fixture the way a CI step would run it:
 * - kubewait (a bundle of src/): run as the GitHub runner runs dist/index.js — `INPUT_*` variables,
 *   `GITHUB_OUTPUT`, `GITHUB_STEP_SUMMARY` — with every Deployment named in `resources`;
 * - kubectl wait / kubectl rollout status: one process per namespace, all started at once (kubectl wait
 *   handles the objects of one invocation one after another, and rollout status has no --all-namespaces).
 * A waiter is "armed" once it has listed and is watching (or, polling, has listed every namespace once):
 * only then does the bench make the Deployments ready.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inputEnv, parseOutputFile } from '../test/e2e/runAction.js';
import type { Fixture, Scenario } from './fixture.js';
import { lastLineAt, spawnMeasured, type Exit } from './process.js';

const KILL_AFTER_MS = 15 * 60_000;

export interface RunExit {
  ok: boolean;
  problem?: string;
  /** The first process's spawn and the last one's exit (epoch ms). */
  spawnAt: number;
  exitAt: number;
  /** Peak RSS of the largest process, and the sum over processes (KiB). */
  peakRssKiB: number;
  totalRssKiB: number;
  processes: number;
  /** When the last "this one is ready" line was printed (the waiter's detection), epoch ms. */
  detectedAt?: number;
  /** Node processes: when the process's 'exit' event ran (before the OS tears it down). */
  jsExitAt?: number;
  /** Diagnostic runs with --expose-gc: heap still used after a full GC at exit. */
  heapAfterGcKiB?: number;
  /** The first process: start-up figures come from it. */
  first: Exit;
}

export interface Running {
  armed(): boolean;
  done: Promise<RunExit>;
}

export interface Waiter {
  id: string;
  label: string;
  /** The command line, for RESULTS.md. */
  command(s: Scenario): string;
  start(fixture: Fixture): Running;
}

// ---- kubewait ----------------------------------------------------------------------------------------

export interface KubewaitOptions {
  id: string;
  label: string;
  /** The bundle to run (dist/index.js, or the esbuild bundle), and how RESULTS.md names it. */
  entry: string;
  entryName: string;
  mode: 'watch' | 'poll';
  pollInterval?: string;
  /** Node flags, for diagnostic runs only (a GitHub Action cannot pass any). */
  nodeArgs?: string[];
  /** V8 flags the probe sets at run time before the bundle is evaluated (diagnostic runs). */
  v8Flags?: string;
  /** Inputs instead of one `resources` line per Deployment (20,000 lines exceed Linux's limit for one variable). */
  inputs?: (fixture: Fixture) => Record<string, string>;
  /** The inputs as RESULTS.md names them, with `inputs`. */
  inputsName?: string;
}

/** `bench-00/deploy/app-0000` lines: 5,000 of them stay under Linux's 128 KiB limit for one variable. */
export function resourcesInput(fixture: Pick<Fixture, 'refs'>): string {
  return fixture.refs.map((r) => `${r.namespace}/deploy/${r.name}`).join('\n');
}

function kubewaitInputs(fixture: Fixture, mode: 'watch' | 'poll', pollInterval = '2s'): Record<string, string> {
  return { kubeconfig: fixture.kubeconfig(), resources: resourcesInput(fixture), timeout: '10m', mode, 'poll-interval': pollInterval };
}

/** The environment the runner gives an action step (a clean one: no KUBECONFIG, a fresh HOME). */
export function actionEnv(inputs: Record<string, string>, scratch: string): Record<string, string> & { GITHUB_OUTPUT: string; GITHUB_STEP_SUMMARY: string } {
  const output = path.join(scratch, 'github_output');
  const summary = path.join(scratch, 'step_summary');
  writeFileSync(output, '');
  writeFileSync(summary, '');
  return {
    PATH: process.env.PATH ?? '',
    HOME: scratch,
    RUNNER_TEMP: scratch,
    GITHUB_ACTIONS: 'true',
    GITHUB_WORKSPACE: scratch,
    GITHUB_OUTPUT: output,
    GITHUB_STEP_SUMMARY: summary,
    ...inputEnv(inputs),
  };
}

export function kubewait(options: KubewaitOptions): Waiter {
  return {
    id: options.id,
    label: options.label,
    command: () =>
      `${options.v8Flags ? `v8.setFlagsFromString('${options.v8Flags}'), then ` : ''}node ${options.nodeArgs?.length ? `${options.nodeArgs.join(' ')} ` : ''}${options.entryName} with INPUT_MODE=${options.mode}, ${options.inputsName ?? 'INPUT_RESOURCES = one NAMESPACE/deploy/NAME line per Deployment'}`,
    start(fixture) {
      const scratch = mkdtempSync(path.join(tmpdir(), 'kubewait-step-'));
      const inputs = kubewaitInputs(fixture, options.mode, options.pollInterval);
      const env = actionEnv(options.inputs ? { ...inputs, resources: '', ...options.inputs(fixture) } : inputs, scratch);
      if (options.v8Flags) env.KUBEWAIT_BENCH_V8_FLAGS = options.v8Flags;
      const proc = spawnMeasured(options.entry, [], { node: true, nodeArgs: options.nodeArgs, env, cwd: scratch, killAfterMs: KILL_AFTER_MS });
      const done = proc.done.then((exit): RunExit => {
        const outputs = parseOutputFile(readFileSync(env.GITHUB_OUTPUT, 'utf8'));
        rmSync(scratch, { recursive: true, force: true });
        const ok = exit.code === 0 && outputs.result === 'ready';
        return {
          ok,
          ...(!ok && { problem: `exit ${exit.code ?? exit.signal}, result=${outputs.result}: ${lastLines(exit.stdout + exit.stderr)}` }),
          spawnAt: exit.spawnAt,
          exitAt: exit.exitAt,
          peakRssKiB: exit.peakRssKiB,
          totalRssKiB: exit.peakRssKiB,
          processes: 1,
          detectedAt: lastLineAt(exit, /-> Current after/),
          jsExitAt: exit.probe?.exitAt,
          heapAfterGcKiB: exit.probe?.heapAfterGcKiB,
          first: exit,
        };
      });
      const armed = options.mode === 'watch' ? () => fixture.cluster.counters.openWatches() >= fixture.namespaces.length : () => listedEveryNamespace(fixture);
      return { armed, done };
    },
  };
}

/** Polling: every namespace's Deployments were listed at least once (and answered). */
function listedEveryNamespace(fixture: Fixture): boolean {
  const listed = new Set(
    fixture
      .requests()
      .filter((r) => r.verb === 'list' && r.resource === 'deployments' && r.status === 200)
      .map((r) => r.namespace),
  );
  return fixture.namespaces.every((ns) => listed.has(ns));
}

// ---- kubectl ------------------------------------------------------------------------------------------

export function kubectlWait(kubectl: string): Waiter {
  return perNamespace(kubectl, {
    id: 'kubectl-wait',
    label: 'kubectl wait',
    args: (ns) => ['wait', '--for=condition=Available', 'deployment', '--all', '-n', ns, '--timeout=10m'],
    readyLine: /condition met/,
  });
}

export function kubectlRollout(kubectl: string): Waiter {
  return perNamespace(kubectl, {
    id: 'kubectl-rollout',
    label: 'kubectl rollout status',
    args: (ns) => ['rollout', 'status', 'deployment', '-l', 'app.kubernetes.io/part-of=bench', '-n', ns, '--timeout=10m'],
    readyLine: /successfully rolled out/,
  });
}

function perNamespace(kubectl: string, spec: { id: string; label: string; args(ns: string): string[]; readyLine: RegExp }): Waiter {
  return {
    id: spec.id,
    label: spec.label,
    command: (s) => `kubectl ${spec.args('NS').join(' ')}` + (s.namespaces > 1 ? ` — ${s.namespaces} processes, one per namespace, started together` : ''),
    start(fixture) {
      // A fresh HOME per run: kubectl's discovery cache (~/.kube/cache) starts cold, as on a CI runner.
      const home = mkdtempSync(path.join(tmpdir(), 'kubectl-home-'));
      const env = { PATH: process.env.PATH ?? '', HOME: home };
      const procs = fixture.namespaces.map((ns) =>
        spawnMeasured(kubectl, [...spec.args(ns), '--kubeconfig', fixture.kubeconfigPath], { env, killAfterMs: KILL_AFTER_MS }),
      );
      const done = Promise.all(procs.map((p) => p.done)).then((exits): RunExit => {
        rmSync(home, { recursive: true, force: true });
        if (!exits[0]) throw new Error('kubectl: no processes (the fixture has no namespaces)');
        const failed = exits.find((e) => e.code !== 0);
        return {
          ok: !failed,
          ...(failed && { problem: `exit ${failed.code ?? failed.signal}: ${lastLines(failed.stdout + failed.stderr)}` }),
          spawnAt: Math.min(...exits.map((e) => e.spawnAt)),
          exitAt: Math.max(...exits.map((e) => e.exitAt)),
          peakRssKiB: Math.max(...exits.map((e) => e.peakRssKiB)),
          totalRssKiB: exits.reduce((sum, e) => sum + e.peakRssKiB, 0),
          processes: exits.length,
          detectedAt: Math.max(...exits.map((e) => lastLineAt(e, spec.readyLine) ?? Number.NaN)),
          first: exits[0],
        };
      });
      return { armed: () => fixture.cluster.counters.openWatches() >= fixture.namespaces.length, done };
    },
  };
}

function lastLines(text: string, count = 12): string {
  return text.trim().split('\n').slice(-count).join(' / ').slice(0, 2000);
}
