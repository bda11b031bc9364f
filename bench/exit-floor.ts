/**
 * The floor of "decision -> exit" for any Node process (issue 35): a child that holds a heap of a given size
 * and has loaded node:https (as a waiter has) writes one line, then ends in one of four ways; this process
 * times the line's arrival to the child's exit, as bench/exit-latency.ts times a waiter's last line to its
 * exit. `SIGKILL` skips all of Node's teardown (the exit status is not usable: it only shows what is left,
 * the kernel freeing the process and this process seeing it go); `process.exit` is what kubewait does.
 *
 *   npx tsx bench/exit-floor.ts [--rounds 15] [--objects 0,200000,1000000]
 *
 * Figures, not assertions; printed as a markdown table.
 */
import { spawn } from 'node:child_process';
import os from 'node:os';
import { formatMiB, formatMs, formatSummary, summarize } from './stats.js';

const ENDINGS = {
  'process.exit(0)': 'process.exit(0)',
  'process.reallyExit(0) (no exit event)': 'process.reallyExit(0)',
  'the event loop drains': '',
  'SIGKILL to itself': "process.kill(process.pid, 'SIGKILL')",
} as const;

function option(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

/** The child: `objects` small objects kept alive (about 100 bytes each), node:https loaded, one line, the ending. */
function childSource(objects: number, ending: string): string {
  return [
    'const keep = [];',
    `for (let i = 0; i < ${objects}; i++) keep.push({ i, s: 'x' + i });`,
    "require('node:https');",
    `process.stdout.write(process.memoryUsage.rss() + '\\n', () => { ${ending} });`,
  ].join('\n');
}

/** Milliseconds from the child's line (its RSS) reaching this process to its exit, and that RSS. */
function lineToExit(objects: number, ending: string): Promise<{ ms: number; rssBytes: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', childSource(objects, ending)], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { PATH: process.env.PATH ?? '' },
    });
    let lineAt: number | undefined;
    let line = '';
    child.stdout.on('data', (chunk: Buffer) => {
      lineAt ??= performance.now();
      line += chunk.toString();
    });
    child.on('error', reject);
    child.on('exit', () => (lineAt === undefined ? reject(new Error('no line')) : resolve({ ms: performance.now() - lineAt, rssBytes: Number(line.trim()) })));
  });
}

const rounds = Number(option('rounds') ?? 15);
const sizes = (option('objects') ?? '0,200000,1000000').split(',').map(Number);
const loadAtStart = os.loadavg()[0]!;
const samples = new Map<string, number[]>();
const rss = new Map<number, number[]>();
for (let round = 0; round <= rounds; round++) {
  for (const objects of sizes) {
    for (const [label, ending] of Object.entries(ENDINGS)) {
      const { ms, rssBytes } = await lineToExit(objects, ending);
      const key = `${objects}\t${label}`;
      if (round === 0) continue; // it warms the page cache
      samples.set(key, [...(samples.get(key) ?? []), ms]);
      rss.set(objects, [...(rss.get(objects) ?? []), rssBytes]);
    }
  }
}
console.log(`Load average ${loadAtStart.toFixed(1)} at start, ${os.loadavg()[0]!.toFixed(1)} at end; ${rounds} rounds. Median (min–max, n).\n`);
console.log(`| objects kept | RSS at the line | ${Object.keys(ENDINGS).join(' | ')} |`);
console.log(
  `|---:|---:|${Object.keys(ENDINGS)
    .map(() => '---:')
    .join('|')}|`,
);
for (const objects of sizes) {
  const cells = Object.keys(ENDINGS).map((label) => formatSummary(summarize(samples.get(`${objects}\t${label}`)!), formatMs));
  console.log(`| ${objects.toLocaleString('en')} | ${formatMiB(summarize(rss.get(objects)!).median / 1024)} | ${cells.join(' | ')} |`);
}
