/**
 * Several clusters in one step (issue 22): 3 clusters x 100 Deployments (10 namespaces each, on three API
 * server stand-ins) waited for by one dist/index.js with `clusters`, against 3 separate steps, one per
 * cluster, started together (a matrix) and one after another (three steps of one job).
 *
 *   npm run bench:fleet [-- --runs 5]
 *
 * Each run follows bench/measure.ts: the Deployments not ready, the step(s) started, and once every
 * cluster is armed (each stand-in sees a watch per namespace) and settled, every ready status written
 * in-process; detection latency is the last ready status written -> the (last) process exit. The three
 * shapes take turns within each round, so a busy spell of the shared machine falls on all of them. Peak
 * RSS is each Node process's VmHWM at exit (bench/probe.mjs). Prints the figures and writes the marked
 * "fleet" section of bench/RESULTS.md. Figures, not assertions: test/e2e/clusters.e2e.test.ts asserts the
 * behaviour.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ensureDist, ROOT } from '../test/e2e/dist.js';
import { parseOutputFile } from '../test/e2e/runAction.js';
import { Fixture, now, type Scenario } from './fixture.js';
import { describeMachine } from './machine.js';
import { SETTLE_MS } from './measure.js';
import { lastLineAt, spawnMeasured, type Exit } from './process.js';
import { setSection } from './sections.js';
import { formatMiB, formatMs, formatSummary, summarize } from './stats.js';
import { actionEnv, resourcesInput } from './waiters.js';

const RESULTS_MD = path.join(ROOT, 'bench/RESULTS.md');
const SCENARIO: Scenario = { deployments: 100, namespaces: 10 };
const CLUSTERS = ['eu-west', 'us-east', 'ap-south'] as const;
const ARM_TIMEOUT_MS = 120_000;
const KILL_AFTER_MS = 5 * 60_000;

type Shape = 'fleet' | 'parallel' | 'sequential';
const SHAPES: Shape[] = ['fleet', 'parallel', 'sequential'];
const LABELS: Record<Shape, string> = {
  fleet: 'one step, `clusters` with 3 entries',
  parallel: '3 steps, one per cluster, started together',
  sequential: '3 steps, one per cluster, one after another',
};

/** One measured run of a shape. Per process for the separate steps: each cluster's own flip -> exit. */
interface Sample {
  ok: boolean;
  problem?: string;
  /** Last ready status written (of the last cluster flipped) -> the last process's exit. */
  latencyMs: number;
  /** Last ready status written -> the last `-> Current` line printed. */
  detectMs: number;
  /** The largest process's peak RSS, and the sum over the processes that ran at once. */
  peakRssKiB: number;
  concurrentRssKiB: number;
  /** The first spawn -> the last exit, settle pauses included (SETTLE_MS per armed wait). */
  wallMs: number;
  load: number;
}

interface Step {
  exit: Promise<Exit>;
  armed(): boolean;
  outputs(): Record<string, string>;
  close(): void;
}

/** A step as the runner starts dist/index.js: the action's environment, and the clusters' kubeconfigs. */
function step(dist: string, inputs: Record<string, string>, env: Record<string, string>, armed: () => boolean): Step {
  const scratch = mkdtempSync(path.join(tmpdir(), 'kubewait-fleet-'));
  const stepEnv = { ...actionEnv({ ...inputs, timeout: '5m', mode: 'watch' }, scratch), ...env };
  const proc = spawnMeasured(dist, [], { node: true, env: stepEnv, cwd: scratch, killAfterMs: KILL_AFTER_MS });
  return {
    exit: proc.done,
    armed,
    outputs: () => parseOutputFile(readFileSync(stepEnv.GITHUB_OUTPUT, 'utf8')),
    close: () => rmSync(scratch, { recursive: true, force: true }),
  };
}

const watching = (fixture: Fixture) => () => fixture.cluster.counters.openWatches() >= fixture.namespaces.length;

/** Until every step is armed (or one exited early), then the settle pause of bench/measure.ts. */
async function armed(steps: Step[], exited: () => boolean): Promise<void> {
  const started = now();
  while (!steps.every((s) => s.armed()) && !exited() && now() - started < ARM_TIMEOUT_MS) await sleep(2);
  if (!exited()) await sleep(SETTLE_MS);
}

function flipAll(fixtures: Fixture[]): number {
  let last = 0;
  for (const fixture of fixtures) last = fixture.flipReady().lastWrittenAt;
  return last;
}

function problemOf(exit: Exit, outputs: Record<string, string>): string | undefined {
  if (exit.code === 0 && outputs.result === 'ready') return undefined;
  return `exit ${exit.code ?? exit.signal}, result=${outputs.result}: ${(exit.stdout + exit.stderr).trim().split('\n').slice(-6).join(' / ')}`;
}

/** Starts `steps`, waits until all are armed, flips `fixtures`, and measures until every step exited. */
async function together(make: () => Step[], fixtures: Fixture[]): Promise<Omit<Sample, 'load'>> {
  for (const fixture of fixtures) fixture.reset();
  const steps = make();
  let exitedEarly = false;
  for (const s of steps) void s.exit.then(() => (exitedEarly = true));
  await armed(steps, () => exitedEarly);
  const flippedAt = flipAll(fixtures);
  const exits = await Promise.all(steps.map((s) => s.exit));
  const problems = steps.map((s, at) => problemOf(exits[at]!, s.outputs())).filter((p): p is string => p !== undefined);
  steps.forEach((s) => s.close());
  const premature = exits.some((e) => e.exitAt < flippedAt);
  return {
    ok: problems.length === 0 && !premature,
    ...((problems.length > 0 || premature) && { problem: problems[0] ?? 'exited before the flip' }),
    latencyMs: Math.max(...exits.map((e) => e.exitAt)) - flippedAt,
    detectMs: Math.max(...exits.map((e) => lastLineAt(e, /-> Current after/) ?? Number.NaN)) - flippedAt,
    peakRssKiB: Math.max(...exits.map((e) => e.peakRssKiB)),
    concurrentRssKiB: exits.reduce((sum, e) => sum + e.peakRssKiB, 0),
    wallMs: Math.max(...exits.map((e) => e.exitAt)) - Math.min(...exits.map((e) => e.spawnAt)),
  };
}

function oneClusterStep(dist: string, fixture: Fixture): Step {
  return step(dist, { kubeconfig: fixture.kubeconfig(), resources: resourcesInput(fixture) }, {}, watching(fixture));
}

/** The `clusters` input of the one step: each cluster's kubeconfig a secret in an environment variable. */
function fleetStep(dist: string, fixtures: Fixture[]): Step {
  const variable = (at: number) => `KUBECONFIG_${CLUSTERS[at]!.toUpperCase().replace('-', '_')}`;
  const clusters = fixtures.map((_, at) => `- name: ${CLUSTERS[at]}\n  kubeconfig: ${variable(at)}`).join('\n');
  const env = Object.fromEntries(fixtures.map((fixture, at) => [variable(at), fixture.kubeconfig()]));
  // The Deployments have the same names in each stand-in (bench/fixture.ts's layout).
  return step(dist, { clusters, resources: resourcesInput(fixtures[0]!) }, env, () => fixtures.every((f) => watching(f)()));
}

async function sample(shape: Shape, dist: string, fixtures: Fixture[]): Promise<Sample> {
  const load = os.loadavg()[0] ?? Number.NaN;
  if (shape === 'fleet') return { ...(await together(() => [fleetStep(dist, fixtures)], fixtures)), load };
  if (shape === 'parallel') return { ...(await together(() => fixtures.map((f) => oneClusterStep(dist, f)), fixtures)), load };
  // One after another: each step's own flip -> exit; the run's wall time is the three steps end to end.
  const runs = [];
  for (const fixture of fixtures) runs.push(await together(() => [oneClusterStep(dist, fixture)], [fixture]));
  const failed = runs.find((r) => !r.ok);
  return {
    ok: !failed,
    ...(failed && { problem: failed.problem }),
    latencyMs: runs.at(-1)!.latencyMs,
    detectMs: runs.at(-1)!.detectMs,
    peakRssKiB: Math.max(...runs.map((r) => r.peakRssKiB)),
    concurrentRssKiB: Math.max(...runs.map((r) => r.peakRssKiB)),
    wallMs: runs.reduce((sum, r) => sum + r.wallMs, 0),
    load,
  };
}

function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? (process.argv[at + 1] ?? fallback) : fallback;
}

function section(samples: Record<Shape, Sample[]>, runs: number, machine: ReturnType<typeof describeMachine>, loadAtEnd: number): string {
  const loads = SHAPES.flatMap((shape) => samples[shape].map((s) => s.load));
  const load = summarize(loads);
  const fixed = (v: number) => v.toFixed(1);
  const rows = SHAPES.map((shape) => {
    const ok = samples[shape].filter((s) => s.ok);
    const of = (pick: (s: Sample) => number, format?: (v: number) => string) => formatSummary(summarize(ok.map(pick)), format);
    return `| ${LABELS[shape]} | ${of((s) => s.latencyMs)} | ${of((s) => s.detectMs)} | ${of((s) => s.peakRssKiB, formatMiB)} | ${of((s) => s.concurrentRssKiB, formatMiB)} | ${of((s) => s.wallMs)} | ${ok.length} of ${samples[shape].length} |`;
  });
  return [
    '## Several clusters in one step (issue 22)',
    '',
    `Generated by \`npm run bench:fleet -- --runs ${runs}\` on ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')} (${machine.cpus} shared CPUs, ${machine.cpuModel}, Node ${machine.node}).`,
    `**The machine is shared**: 1-min load average ${fixed(machine.loadAtStart)} at start, ${fixed(loadAtEnd)} at end, ` +
      `${fixed(load.median)} (${fixed(load.min)}–${fixed(load.max)}) over the runs; the spread below is mostly the machine's.`,
    '',
    `3 API server stand-ins (test/cluster/, in the bench's process), each with ${SCENARIO.deployments} Deployments in ${SCENARIO.namespaces} namespaces,`,
    'the same names in each, every one named in `resources`; dist/index.js run as the runner runs it (watch mode). Once every',
    `cluster is watched and ${SETTLE_MS} ms passed, every ready status of the three is written in-process. The three shapes take turns in each round.`,
    '',
    '| shape | last ready status written -> last exit | -> last `Current` line | peak RSS, largest process | peak RSS, processes at once (sum) | first spawn -> last exit | ok |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...rows,
    '',
    "Medians (min–max, n). One after another: the latency is the last step's (each step flips only its own cluster); the",
    `wall time adds the three steps, each with its own start-up and the bench's ${SETTLE_MS} ms settle.`,
  ].join('\n');
}

async function main(): Promise<void> {
  const runs = Math.max(5, Number(option('runs', '5')));
  const dist = await ensureDist();
  const machine = describeMachine();
  const fixtures = await Promise.all(CLUSTERS.map(() => Fixture.start(SCENARIO)));
  const samples: Record<Shape, Sample[]> = { fleet: [], parallel: [], sequential: [] };
  try {
    // One unmeasured round warms the bench process (its stand-ins' JIT), not the steps: each is a fresh process.
    for (const shape of SHAPES) await sample(shape, dist, fixtures);
    for (let round = 0; round < runs; round++) {
      for (const shape of SHAPES) {
        const s = await sample(shape, dist, fixtures);
        samples[shape].push(s);
        console.error(
          `round ${round + 1} ${shape}: ${s.ok ? '' : `FAILED (${s.problem}) `}latency ${formatMs(s.latencyMs)}, detect ${formatMs(s.detectMs)}, ` +
            `peak RSS ${formatMiB(s.peakRssKiB)} (at once ${formatMiB(s.concurrentRssKiB)}), wall ${formatMs(s.wallMs)}, load ${s.load.toFixed(1)}`,
        );
      }
    }
  } finally {
    await Promise.all(fixtures.map((f) => f.close()));
  }
  const text = section(samples, runs, machine, os.loadavg()[0] ?? Number.NaN);
  console.log(text);
  writeFileSync(RESULTS_MD, setSection(readFileSync(RESULTS_MD, 'utf8'), 'fleet', text));
  console.error(`wrote the fleet section of ${RESULTS_MD}`);
}

await main();
