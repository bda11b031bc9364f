/**
 * Peak RSS of kubewait's action (issue 21, "Start-up and memory"): the wait of bench/run.ts (Deployments not
 * ready, armed, every status flipped, exit), only kubewait, few repetitions, one build against another.
 *
 *   npx tsx bench/memory.ts [--before /path/to/old/index.js --before-name e45cd7b] [--cells 5000x50,5000x50+applied,20000x1]
 *     [--reps 3] [--kubectl] [--write]
 *     [--node-args "--trace-gc"]   (diagnostics: the process's output is printed when it fails only)
 *
 * Cells up to 5,000 name every Deployment in `resources` (`NAMESPACE/deploy/NAME` lines, as bench/run.ts);
 * larger ones exceed Linux's 128 KiB limit for one environment variable, so they select the Deployments of
 * their one namespace (`resources: deploy`, `selector: app.kubernetes.io/part-of=bench`). `+applied`: each
 * Deployment also carries the last-applied-configuration annotation `kubectl apply` writes. Runs of the two
 * builds alternate, so the machine's noise spreads over both. `--kubectl`: `kubectl wait` on the same Deployments in
 * the same rounds (one process per namespace, as it waits in one namespace; its peak per process and their sum), up
 * to `KUBECTL_MOST_PER_NAMESPACE` Deployments in a namespace: it opens one watch per Deployment. `--write` puts the table in bench/RESULTS.md
 * between the `memory` markers (bench/sections.ts). Figures, not assertions: test/e2e asserts the bound
 * on one huge object.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DIST_ENTRY, ensureDist } from '../test/e2e/dist.js';
import { Fixture, type Scenario } from './fixture.js';
import { measure, type RunRecord } from './measure.js';
import { setSection } from './sections.js';
import { formatMiB, formatMs, formatSummary, summarize } from './stats.js';
import { kubectlPath } from '../test/cluster/kubectl.js';
import { kubectlWait, kubewait, type Waiter } from './waiters.js';

const RESULTS_MD = fileURLToPath(new URL('./RESULTS.md', import.meta.url));
/** Above this many Deployments, `resources` lines no longer fit in one environment variable. */
const MOST_NAMED = 5000;
/** `kubectl wait` opens one watch per Deployment: above this many in one namespace a run takes minutes. */
const KUBECTL_MOST_PER_NAMESPACE = 1000;
const KUBECTL = 'kubectl wait';

function option(name: string): string | undefined {
  const args = process.argv.slice(2);
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : undefined;
}

function cells(): Scenario[] {
  return (option('cells') ?? '5000x50')
    .split(',')
    .filter(Boolean)
    .map((cell) => {
      const [size = '', variant] = cell.split('+');
      const [deployments, namespaces] = size.split('x').map(Number);
      if (!deployments || !namespaces || (variant !== undefined && variant !== 'applied'))
        throw new Error(`--cells: "${cell}" is not DEPLOYMENTSxNAMESPACES[+applied], like 5000x50 or 5000x50+applied`);
      if (deployments > MOST_NAMED && namespaces !== 1) throw new Error(`--cells: more than ${MOST_NAMED} Deployments are selected, in one namespace`);
      return { deployments, namespaces, ...(variant && { lastApplied: true }) };
    });
}

function waiterFor(label: string, entry: string, scenario: Scenario): Waiter {
  const selected = scenario.deployments > MOST_NAMED;
  return kubewait({
    id: label,
    label,
    entry,
    entryName: label,
    mode: 'watch',
    // Diagnostic runs only (`--node-args "--trace-gc"`): a GitHub Action cannot pass Node flags.
    ...(option('node-args') && { nodeArgs: option('node-args')!.split(' ') }),
    ...(selected && {
      inputs: (fixture: Fixture) => ({ namespace: fixture.namespaces[0]!, resources: 'deploy', selector: 'app.kubernetes.io/part-of=bench' }),
      inputsName: 'INPUT_RESOURCES=deploy, INPUT_SELECTOR=app.kubernetes.io/part-of=bench',
    }),
  });
}

interface Row {
  scenario: Scenario;
  build: string;
  runs: RunRecord[];
}

async function main(): Promise<void> {
  const reps = Number(option('reps') ?? 3);
  const before = option('before');
  await ensureDist();
  const beforeName = option('before-name') ?? 'before';
  const builds: Array<[string, string]> = [...(before ? [[beforeName, path.resolve(before)] as [string, string]] : []), ['this build', DIST_ENTRY]];
  const kubectl = process.argv.includes('--kubectl') ? kubectlWait(await kubectlPath()) : undefined;
  const waiters = (scenario: Scenario): Array<[string, Waiter]> => [
    ...builds.map(([build, entry]): [string, Waiter] => [build, waiterFor(build, entry, scenario)]),
    ...(kubectl && scenario.deployments / scenario.namespaces <= KUBECTL_MOST_PER_NAMESPACE ? [[KUBECTL, kubectl] as [string, Waiter]] : []),
  ];
  const loadAtStart = os.loadavg()[0] ?? Number.NaN;
  const rows: Row[] = [];
  for (const scenario of cells()) {
    const fixture = await Fixture.start(scenario);
    try {
      const measured = waiters(scenario);
      const byBuild = measured.map(([build]) => ({ scenario, build, runs: [] as RunRecord[] }));
      for (let rep = 0; rep < reps; rep++) {
        for (const [i, [build, waiter]] of measured.entries()) {
          const record = await measure(fixture, waiter);
          byBuild[i]!.runs.push(record);
          const state = record.ok ? `${formatMiB(record.peakRssKiB)}, ${formatMs(record.latencyMs)}` : `FAILED: ${record.problem}`;
          console.log(`${scenario.deployments}x${scenario.namespaces} ${build} #${rep + 1}: ${state}`);
        }
      }
      rows.push(...byBuild);
    } finally {
      await fixture.close();
    }
  }
  const loadAtEnd = os.loadavg()[0] ?? Number.NaN;
  const section = render(rows, [...builds.map(([build]) => build), ...(kubectl ? [KUBECTL] : [])], { start: loadAtStart, end: loadAtEnd });
  console.log(section);
  if (process.argv.includes('--write')) writeFileSync(RESULTS_MD, setSection(readFileSync(RESULTS_MD, 'utf8'), 'memory', section));
  if (rows.some((r) => r.runs.some((run) => !run.ok))) process.exitCode = 1;
}

function render(rows: Row[], columns: string[], load: { start: number; end: number }): string {
  const cell = (scenario: Scenario, build: string, value: (r: RunRecord) => number, format: (v: number) => string) => {
    const row = rows.find((r) => r.scenario === scenario && r.build === build);
    if (!row) return build === KUBECTL ? `skipped (over ${KUBECTL_MOST_PER_NAMESPACE.toLocaleString('en-US')} in a namespace)` : '—';
    const ok = row.runs.filter((r) => r.ok);
    const text = formatSummary(summarize(ok.map(value)), format);
    // kubectl waits in one namespace: one process per namespace, each peak and their sum.
    const processes = ok[0]?.processes ?? 1;
    return value === peakRss && processes > 1
      ? `${text} per process (sum of ${processes}: ${formatSummary(summarize(ok.map((r) => r.totalRssKiB)), formatMiB)})`
      : text;
  };
  const scenarios = [...new Set(rows.map((r) => r.scenario))];
  const header = columns.flatMap((build) => [`peak RSS, ${build}`, `latency, ${build}`]);
  const lines = [
    '## Peak RSS of the action, build against build',
    '',
    `\`npx tsx bench/memory.ts\`: kubewait watch (\`dist/index.js\` run as the runner does, peak RSS from \`VmHWM\` at exit, as in`,
    '"Peak RSS" above), Deployments as the stand-in serves them (no `managedFields`; "with last-applied": each also carries the',
    '`kubectl.kubernetes.io/last-applied-configuration` annotation `kubectl apply` writes). Up to 5,000 every Deployment is named in',
    '`resources`; 20,000 exceed one environment variable, so they are selected in their one namespace (`resources: deploy`,',
    '`selector: app.kubernetes.io/part-of=bench`). Median (min–max, n). Latency: last ready status written -> exit.',
    `Builds: ${columns.filter((c) => c !== KUBECTL).join(', ')} (\`dist/\` of each)${
      columns.includes(KUBECTL)
        ? `; \`${KUBECTL}\` in the same rounds (\`--for=condition=Available deployment --all\`, one process per namespace started together)`
        : ''
    }.`,
    `Shared 2-core machine, other work running: load average ${load.start.toFixed(2)} at start, ${load.end.toFixed(2)} at end.`,
    '',
    `| Deployments / namespaces | ${header.join(' | ')} |`,
    `|---|${header.map(() => '---:').join('|')}|`,
    ...scenarios.map(
      (s) =>
        `| ${s.deployments.toLocaleString('en-US')} / ${s.namespaces}${s.lastApplied ? ', with last-applied' : ''} | ${columns
          .flatMap((build) => [cell(s, build, peakRss, formatMiB), cell(s, build, (r) => r.latencyMs, formatMs)])
          .join(' | ')} |`,
    ),
  ];
  return lines.join('\n');
}

const peakRss = (r: RunRecord): number => r.peakRssKiB;

await main();
