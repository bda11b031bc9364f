/**
 * `npx tsx bench/tests.ts [--before DIR] [ROUNDS]`: the everyday test loop's wall time (bench/test-loop.ts),
 * of this checkout and, with `--before`, of another (e.g. `git worktree add /tmp/before <commit>` plus its
 * own `npm ci`), printed, and put into bench/results.json and bench/RESULTS.md beside the last full
 * `npm run bench`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { explanation } from './explain.js';
import { renderResults, type BenchResults } from './report.js';
import { measureTestLoop, renderTestLoop } from './test-loop.js';

const RESULTS_JSON = fileURLToPath(new URL('./results.json', import.meta.url));
const RESULTS_MD = fileURLToPath(new URL('./RESULTS.md', import.meta.url));

const args = process.argv.slice(2);
const at = args.indexOf('--before');
const before = at >= 0 ? path.resolve(args[at + 1] ?? '') : undefined;
const rounds = Number(args.filter((_, i) => i !== at && i !== at + 1)[0] ?? 1);
const loop = measureTestLoop(before, rounds);
console.log(renderTestLoop(loop));
const results = JSON.parse(readFileSync(RESULTS_JSON, 'utf8')) as BenchResults;
results.startedAt = new Date(results.startedAt);
results.testLoop = loop;
writeFileSync(RESULTS_JSON, `${JSON.stringify(results, null, 1)}\n`);
writeFileSync(RESULTS_MD, renderResults(results, explanation(results)));
