/**
 * The CPU of the report after the decision (issue 35): `reportResult` for N ready Deployments, rendered once
 * and cold as the action does at the end of a wait, through the action's writer (@actions/core), into runner
 * files in a temp dir. Run it once per sample, several times (each run is one cold process):
 *
 *   for i in 1 2 3 4 5 6 7; do npx tsx bench/report-cpu.ts 1000 [--rehearsed]; done
 *
 * `--rehearsed`: after the rehearsal of src/rehearsal.ts (`rehearseReport` of two of the targets), as the report
 * of a wait that waited 100 ms or more runs.
 *
 * CPU (user + system of this process during the call), which load inflates little; src/ through tsx, so a
 * build of another commit is measured from that commit's checkout. Figures, not assertions.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ready, result } from '../test/report/fixtures.js';

const count = Number(process.argv[2] ?? 1000);
const dir = mkdtempSync(path.join(tmpdir(), 'kubewait-report-cpu-'));
process.env.GITHUB_OUTPUT = path.join(dir, 'output');
process.env.GITHUB_STEP_SUMMARY = path.join(dir, 'summary');
process.env.RUNNER_TEMP = dir;
writeFileSync(process.env.GITHUB_OUTPUT, '');
writeFileSync(process.env.GITHUB_STEP_SUMMARY, '');
const { coreWriter } = await import('../src/report/core-writer.js');
const { rehearseReport, reportResult } = await import('../src/report/index.js');
const rehearsed = process.argv.includes('--rehearsed');
const run = result(Array.from({ length: count }, (_, i) => ready(`app-${String(i).padStart(5, '0')}`)));
const context = {
  server: 'https://10.0.0.1:6443',
  context: 'ci',
  summary: true,
  waitFor: { kind: 'ready' as const },
  failFast: true,
  run: { serverUrl: 'https://github.com' },
};

// The report's log lines go to stdout: kept off the figure's line.
const write = process.stdout.write.bind(process.stdout);
process.stdout.write = () => true;
if (rehearsed) rehearseReport(result(run.targets.slice(0, 2)), context);
const before = process.cpuUsage();
reportResult(run, context, coreWriter);
const used = process.cpuUsage(before);
process.stdout.write = write;
rmSync(dir, { recursive: true, force: true });
console.log(`reportResult, ${count} ready targets, ${rehearsed ? 'after the rehearsal' : 'cold'}: ${((used.user + used.system) / 1000).toFixed(2)} ms CPU`);
