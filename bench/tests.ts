/**
 * `npx tsx bench/tests.ts [--before DIR] [ROUNDS]`: the everyday test loop's wall time (bench/test-loop.ts),
 * of this checkout and, with `--before`, of another (e.g. `git worktree add /tmp/before <commit>` plus its
 * own `npm ci`), printed, and put into its own section of bench/RESULTS.md (`tests`, bench/sections.ts).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setSection } from './sections.js';
import { measureTestLoop, renderTestLoop } from './test-loop.js';

const RESULTS_MD = fileURLToPath(new URL('./RESULTS.md', import.meta.url));

const args = process.argv.slice(2);
const at = args.indexOf('--before');
const before = at >= 0 ? path.resolve(args[at + 1] ?? '') : undefined;
const rounds = Number(args.filter((_, i) => i !== at && i !== at + 1)[0] ?? 1);
const section = renderTestLoop(measureTestLoop(before, rounds));
console.log(section);
writeFileSync(RESULTS_MD, setSection(readFileSync(RESULTS_MD, 'utf8'), 'tests', section));
