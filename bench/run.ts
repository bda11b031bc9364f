/**
 * `npm run bench`: kubewait against the API server stand-in, side by side with the real kubectl, and
 * regenerates bench/RESULTS.md. `npm run bench -- --quick`: a smoke run (small sizes, one repetition) that
 * writes its report to the temp dir instead. `--scenarios=1000x1,5000x50` runs only those cells (its report
 * also goes to the temp dir). The raw runs are written beside the report (results.json); `--render`
 * re-renders RESULTS.md from bench/results.json without measuring. Never part of `npm test`: timings.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import { kubectlPath } from '../test/cluster/kubectl.js';
import { prepareBundles } from './bundles.js';
import { explanation } from './explain.js';
import { Fixture, now } from './fixture.js';
import { describeMachine } from './machine.js';
import { measure, type RunRecord } from './measure.js';
import { plan, schedule, selectScenarios, WAITER_IDS, type WaiterId } from './plan.js';
import { renderResults, type BenchResults } from './report.js';
import { keepSections } from './sections.js';
import { measureEvaluation, type EvalRecord } from './startup.js';
import { measureCliStartup } from './cli-startup.js';
import { formatBytes, formatMiB, formatMs } from './stats.js';
import { kubectlRollout, kubectlWait, kubewait, type Waiter } from './waiters.js';

const POLL_INTERVAL_MS = 2000;

function args(argv: string[]) {
  const value = (flag: string) => argv.find((a) => a.startsWith(`--${flag}=`))?.slice(flag.length + 3);
  return {
    quick: argv.includes('--quick'),
    scenarios: (value('scenarios') ?? '').split(',').filter(Boolean),
    rebuild: argv.includes('--rebuild'),
    render: argv.includes('--render'),
  };
}

const RESULTS_MD = fileURLToPath(new URL('./RESULTS.md', import.meta.url));
const RESULTS_JSON = fileURLToPath(new URL('./results.json', import.meta.url));
/** Sections measured by other means, carried into RESULTS.md as they are: the real control plane's cold
 *  build (measured by hand, see the file) and `npm run bench:real`'s report. */
const APPENDICES = ['./REAL-CLUSTER-BUILD.md', './REAL-CLUSTER.md'].map((f) => fileURLToPath(new URL(f, import.meta.url)));
const appendices = () =>
  APPENDICES.filter((f) => existsSync(f))
    .map((f) => `\n${readFileSync(f, 'utf8').trimEnd()}\n`)
    .join('');

function write(results: BenchResults, partial: boolean): string {
  const [md, json] = partial
    ? [path.join(os.tmpdir(), 'kubewait-bench-RESULTS.md'), path.join(os.tmpdir(), 'kubewait-bench-results.json')]
    : [RESULTS_MD, RESULTS_JSON];
  writeFileSync(json, `${JSON.stringify(results, null, 1)}\n`);
  writeFileSync(md, keepSections(readPrevious(RESULTS_MD), renderResults(results, explanation(results)) + appendices()));
  return md;
}

function render(): void {
  const results = JSON.parse(readFileSync(RESULTS_JSON, 'utf8')) as BenchResults;
  results.startedAt = new Date(results.startedAt);
  writeFileSync(RESULTS_MD, keepSections(readPrevious(RESULTS_MD), renderResults(results, explanation(results)) + appendices()));
  log(`re-rendered ${RESULTS_MD} from ${RESULTS_JSON}`);
}

async function main(): Promise<void> {
  const options = args(process.argv.slice(2));
  if (options.render) return render();
  const startedAt = new Date();
  const started = now();
  const machine = describeMachine();
  log(
    `kubewait bench${options.quick ? ' (quick)' : ''}: ${machine.cpus} CPUs, ${machine.cpuModel}, ${machine.memoryGiB} GiB, Node ${machine.node}, load ${machine.loadAtStart.toFixed(2)}`,
  );

  const kubectl = await kubectlPath();
  const kubectlVersion = (
    JSON.parse(execFileSync(kubectl, ['version', '--client', '-o', 'json'], { encoding: 'utf8' })) as { clientVersion: { gitVersion: string } }
  ).clientVersion.gitVersion;
  log('bundles: dist/ (built if stale), ncc and esbuild to a temp dir...');
  const bundles = await prepareBundles({ rebuildDist: options.rebuild, ncc: !options.quick });
  const compared = [bundles.empty, bundles.clientNodeFloor, bundles.esbuild, ...(bundles.ncc ? [bundles.ncc] : []), bundles.dist];
  log(
    `  dist ${formatBytes(bundles.dist.bytes)}, ncc ${bundles.ncc ? `${formatBytes(bundles.ncc.bytes)} (${formatMs(bundles.ncc.buildMs ?? NaN)})` : 'not built (quick)'}, esbuild ${formatBytes(bundles.esbuild.bytes)} (${formatMs(bundles.esbuild.buildMs ?? NaN)})`,
  );

  const waiters: Record<WaiterId, Waiter> = {
    'kubewait-watch': kubewait({ id: 'kubewait-watch', label: 'kubewait watch', entry: bundles.dist.entry, entryName: 'dist/index.js', mode: 'watch' }),
    'kubewait-poll': kubewait({ id: 'kubewait-poll', label: 'kubewait poll', entry: bundles.dist.entry, entryName: 'dist/index.js', mode: 'poll' }),
    'kubewait-esbuild': kubewait({
      id: 'kubewait-esbuild',
      label: 'kubewait watch (esbuild bundle)',
      entry: bundles.esbuild.entry,
      entryName: '<temp>/esbuild/index.mjs',
      mode: 'watch',
    }),
    'kubectl-wait': kubectlWait(kubectl),
    'kubectl-rollout': kubectlRollout(kubectl),
    'kubewait-gc': kubewait({
      id: 'kubewait-gc',
      label: 'kubewait watch, heap after GC',
      entry: bundles.dist.entry,
      entryName: 'dist/index.js',
      mode: 'watch',
      nodeArgs: ['--expose-gc'],
    }),
    'kubewait-young': kubewait({
      id: 'kubewait-young',
      label: 'kubewait watch, young generation not grown',
      entry: bundles.dist.entry,
      entryName: 'dist/index.js',
      mode: 'watch',
      v8Flags: '--semi-space-growth-factor=1',
    }),
  };

  try {
    const evals: EvalRecord[] = [];
    const evalReps = options.quick ? 2 : 7;
    log(`start-up without a cluster (${evalReps} runs each)...`);
    for (let rep = 0; rep < evalReps; rep++) {
      for (const bundle of compared) evals.push(await measureEvaluation(bundle));
    }

    const plans = selectScenarios(plan(options.quick), options.scenarios);
    const runs: RunRecord[] = [];
    let objectBytes = 0;
    const total = plans.reduce((sum, p) => sum + schedule(p).length, 0);
    for (const p of plans) {
      const fixture = await Fixture.start(p);
      objectBytes = fixture.objectBytes();
      try {
        for (const { waiter, rep, of } of schedule(p)) {
          const phaseMs = waiter === 'kubewait-poll' ? ((rep + 0.5) / of) * POLL_INTERVAL_MS : 0;
          const record = await measure(fixture, waiters[waiter], { phaseMs });
          runs.push(record);
          log(`[${runs.length}/${total}] ${p.deployments}x${p.namespaces} ${waiter} #${rep + 1}: ${describe(record)}`);
        }
      } finally {
        await fixture.close();
      }
    }

    log('start-up of the command (dist/cli.js) against kubectl wait...');
    const cliStartup = await measureCliStartup(path.join(path.dirname(bundles.dist.entry), 'cli.js'), kubectl, options.quick ? 2 : 15);

    machine.loadAtEnd = os.loadavg()[0];
    const results: BenchResults = {
      quick: options.quick,
      machine,
      startedAt,
      durationMs: now() - started,
      kubectlVersion,
      objectBytes,
      bundles: compared,
      evals,
      plans,
      runs,
      commands: Object.fromEntries(WAITER_IDS.map((id) => [id, waiters[id].command({ deployments: 2, namespaces: 2 })])) as Record<WaiterId, string>,
      labels: Object.fromEntries(WAITER_IDS.map((id) => [id, waiters[id].label])) as Record<WaiterId, string>,
      cliStartup,
    };
    const file = write(results, options.quick || options.scenarios.length > 0);
    log(`wrote ${file} after ${formatMs(now() - started)}`);
    if (runs.some((r) => !r.ok)) process.exitCode = 1;
  } finally {
    bundles.dispose();
  }
}

function describe(r: RunRecord): string {
  if (!r.ok) return `FAILED: ${r.problem}`;
  return `${formatMs(r.latencyMs)}, ${r.requestsTotal} requests, ${formatBytes(r.bytesSent)}, ${formatMiB(r.peakRssKiB)}${r.processes > 1 ? ` (${r.processes} processes)` : ''}`;
}

function log(line: string): void {
  process.stdout.write(`${line}\n`);
}

await main();

/** The current RESULTS.md, whose sections written by other bench scripts (bench/sections.ts) are kept. */
function readPrevious(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
