/**
 * `npx tsx bench/cli.ts [ROUNDS] [BEFORE_CLI]`: only the command's start-up against kubectl wait
 * (bench/cli-startup.ts), printed, and put into bench/results.json and bench/RESULTS.md beside the last full
 * `npm run bench`. BEFORE_CLI is another build's dist/cli.js (a worktree of the commit to compare with, after
 * `npm run package` there), measured in the same rounds, as is the single executable (`npm run sea`, built or
 * reused from its cache).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildSea } from '../scripts/sea.js';
import { kubectlPath } from '../test/cluster/kubectl.js';
import { DIST_CLI, ensureDist } from '../test/e2e/dist.js';
import { measureCliStartup, renderCliStartup } from './cli-startup.js';
import { explanation } from './explain.js';
import { renderResults, type BenchResults } from './report.js';

const RESULTS_JSON = fileURLToPath(new URL('./results.json', import.meta.url));
const RESULTS_MD = fileURLToPath(new URL('./RESULTS.md', import.meta.url));

await ensureDist();
const sea = await buildSea();
const startup = await measureCliStartup(DIST_CLI, await kubectlPath(), Number(process.argv[2] ?? 15), { before: process.argv[3], sea });
console.log(renderCliStartup(startup));
const results = JSON.parse(readFileSync(RESULTS_JSON, 'utf8')) as BenchResults;
results.startedAt = new Date(results.startedAt);
results.cliStartup = startup;
writeFileSync(RESULTS_JSON, `${JSON.stringify(results, null, 1)}\n`);
writeFileSync(RESULTS_MD, withStartupSection(readFileSync(RESULTS_MD, 'utf8'), renderCliStartup(startup)));

/** RESULTS.md with its start-up section replaced, and every other section kept as it is: those written by
 *  other scripts (bench:real, the CEL comparison) or by hand would be lost by rendering the file anew. */
function withStartupSection(markdown: string, section: string): string {
  const start = markdown.indexOf('## Start-up of the command');
  if (start < 0) return renderResults(results, explanation(results));
  const next = markdown.indexOf('\n## ', start + 1);
  return `${markdown.slice(0, start)}${section}\n${next < 0 ? '' : markdown.slice(next)}`;
}
