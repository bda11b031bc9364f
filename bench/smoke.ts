/**
 * Smoke checks (issue 31): how soon the first request goes out, and what they cost the API server.
 *   npx tsx bench/smoke.ts [--runs 7]
 *
 * 1. From the last target's readiness to the first smoke request (goal: within 100 ms): a Deployment in the
 *    API server stand-in (controllers off), `dist/cli.js` waiting for it with one `url:` check on a local
 *    HTTP server; once its watch is open, this process writes the Deployment's ready status and records
 *    when, and the server records when the check's first request arrives.
 * 2. The API requests the smoke stage makes (goal: none per poll; a `service:` check only its proxy GETs):
 *    the same wait with `--mode poll --poll-interval 200ms`, a check that passes on its 10th try 100 ms
 *    apart, as a `url:` and as a `service:` (through the stand-in's service proxy to the same server). The
 *    stand-in's request log is read when the first smoke request arrives and when the command exits: what
 *    came between is the smoke stage's, by verb and resource; the whole run's too, beside a run without
 *    smoke checks.
 *
 * Prints the figures and writes the marked section "smoke" of bench/RESULTS.md (bench/sections.ts).
 * Never part of `npm test`: timings.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { startCluster } from '../test/cluster/index.js';
import { PROXY_TO_ANNOTATION } from '../test/cluster/service-proxy.js';
import { deployment, deploymentStatus } from '../test/engine/fixtures.js';
import { DIST_CLI, ensureDist } from '../test/e2e/dist.js';
import { now } from './fixture.js';
import { describeMachine } from './machine.js';
import { spawnMeasured } from './process.js';
import { setSection } from './sections.js';
import { formatSummary, summarize } from './stats.js';

const RESULTS_MD = fileURLToPath(new URL('RESULTS.md', import.meta.url));
const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 7;
/** The counting runs' check passes on this try. */
const TRIES = 10;

await ensureDist();
const machine = describeMachine();
const cluster = await startCluster({ controllers: false });
const scratch = mkdtempSync(path.join(os.tmpdir(), 'kubewait-smoke-bench-'));
const kubeconfig = path.join(scratch, 'kubeconfig');
writeFileSync(kubeconfig, cluster.kubeconfig());

/** By path: when its first request arrived, how many came, and the stand-in's request count then. */
const arrivals = new Map<string, { at: number; hits: number; apiRequestsThen: number }>();
const app = createServer((request, response) => {
  const url = request.url ?? '/';
  const seen = arrivals.get(url) ?? { at: now(), hits: 0, apiRequestsThen: cluster.counters.requests().length };
  seen.hits++;
  arrivals.set(url, seen);
  const up = !url.startsWith('/count/') || seen.hits >= TRIES;
  response.writeHead(up ? 200 : 503).end(up ? 'ok' : 'warming up');
});
await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;

function setUp(ns: string): void {
  cluster.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
  cluster.create(deployment('web', { namespace: ns, state: 'progressing' }));
  cluster.create({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'web', namespace: ns, annotations: { [PROXY_TO_ANNOTATION]: base } },
    spec: { selector: { app: 'web' }, ports: [{ name: 'http', port: 80 }] },
  });
}

/** Runs the command on `ns`, makes the Deployment ready once it follows it, and returns its exit. */
async function waitFor(ns: string, extra: string[]): Promise<{ readyAt: number; exit: Awaited<ReturnType<typeof spawnMeasured>['done']> }> {
  const before = cluster.counters.requests().length;
  const proc = spawnMeasured(DIST_CLI, ['deployment/web', '-n', ns, '--timeout', '60s', ...extra], {
    node: true,
    env: { PATH: process.env.PATH ?? '', HOME: os.tmpdir(), KUBECONFIG: kubeconfig },
    killAfterMs: 120_000,
  });
  const following = () =>
    cluster.counters
      .requests()
      .slice(before)
      .some((r) => r.namespace === ns && r.resource === 'deployments');
  while (!following()) await sleep(5);
  await sleep(300); // settled: every LIST answered, the watch (or the polls) going
  const readyAt = now();
  cluster.patchStatus('apps/v1', 'Deployment', ns, 'web', deploymentStatus('ready'));
  return { readyAt, exit: await proc.done };
}

const loads: number[] = [];
const latencies: number[] = [];
let countTable: string;
try {
  // 1. Readiness -> first smoke request.
  for (let i = 0; i < runs; i++) {
    const ns = `smoke-first-${i}`;
    setUp(ns);
    loads.push(os.loadavg()[0]!);
    const { readyAt, exit } = await waitFor(ns, ['--smoke', `[{url: '${base}/first/${i}'}]`]);
    const first = arrivals.get(`/first/${i}`);
    if (exit.code !== 0 || !first) {
      console.error(`run ${i}: no measurement (exit ${exit.code}): ${(exit.stdout + exit.stderr).slice(-400)}`);
      continue;
    }
    latencies.push(first.at - readyAt);
    console.log(`run ${i}: ready status written -> first smoke request ${(first.at - readyAt).toFixed(1)} ms`);
  }

  // 2. What the smoke stage asks of the API server, polled.
  const polled = ['--mode', 'poll', '--poll-interval', '200ms'];
  const variants: Array<[string, string[]]> = [
    ['no smoke check', []],
    ['`url:` check', ['--smoke', `[{url: '${base}/count/url', interval: 100ms}]`]],
    ['`service:` check', ['--smoke', `[{service: 'smoke-count-2/web:http', path: /count/service, interval: 100ms}]`]],
  ];
  const columns: Array<{ whole: Map<string, number>; stage?: Map<string, number>; attempts?: number }> = [];
  for (const [index, [label, extra]] of variants.entries()) {
    const ns = `smoke-count-${index}`;
    setUp(ns);
    const before = cluster.counters.requests().length;
    loads.push(os.loadavg()[0]!);
    const { exit } = await waitFor(ns, [...polled, ...extra]);
    if (exit.code !== 0) throw new Error(`${label}: exit ${exit.code}: ${(exit.stdout + exit.stderr).slice(-400)}`);
    const log = cluster.counters.requests();
    const byKind = (records: typeof log) => {
      const counts = new Map<string, number>();
      for (const r of records) counts.set(`${r.verb} ${r.resource}`, (counts.get(`${r.verb} ${r.resource}`) ?? 0) + 1);
      return counts;
    };
    const path = extra.length === 0 ? undefined : label.startsWith('`url') ? '/count/url' : '/count/service';
    const first = path ? arrivals.get(path) : undefined;
    columns.push({ whole: byKind(log.slice(before)), ...(first && { stage: byKind(log.slice(first.apiRequestsThen)), attempts: first.hits }) });
  }
  const kinds = [...new Set(columns.flatMap((c) => [...c.whole.keys(), ...(c.stage?.keys() ?? [])]))].sort();
  const cellOf = (c: (typeof columns)[number], kind: string) => `${c.whole.get(kind) ?? 0}${c.stage ? ` (${c.stage.get(kind) ?? 0})` : ''}`;
  countTable = [
    `| request | ${variants.map(([label]) => label).join(' | ')} |`,
    `|---|${variants.map(() => '---:').join('|')}|`,
    ...kinds.map((kind) => `| ${kind} | ${columns.map((c) => cellOf(c, kind)).join(' | ')} |`),
    `| smoke attempts | — | ${columns
      .slice(1)
      .map((c) => c.attempts ?? '—')
      .join(' | ')} |`,
  ].join('\n');
  console.log(countTable);
} finally {
  await cluster.close();
  await new Promise((resolve) => app.close(resolve));
  rmSync(scratch, { recursive: true, force: true });
}
const summary = formatSummary(summarize(latencies));
const load = `load ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)} on ${machine.cpus} cores`;
console.log(`ready status written -> first smoke request: ${summary} (${load})`);
const body = [
  '### Smoke checks: the first request after readiness, and the API requests (issue 31)',
  '',
  '`npx tsx bench/smoke.ts`: a Deployment in the stand-in (controllers off) made ready by this process once `dist/cli.js`',
  'follows it, one `url:` check on a local HTTP server; from the ready status written to the first request arriving',
  '(goal: within 100 ms). Before `warmUpFetch` (src/smoke/run.ts: Node loads its `fetch` on the first call, 100-250 ms',
  'on this machine, so the first check paid for it; now a `data:` URL is fetched before the wait): 80 ms (58 ms–158 ms,',
  'n=7, load 10.4–11.1 on 2 cores).',
  '',
  '| runs | ready status written -> first smoke request | load |',
  '|---:|---|---|',
  `| ${latencies.length} | ${summary} | ${load} |`,
  '',
  `The API requests of the same wait, polled (\`--mode poll --poll-interval 200ms\`), with a check that passes on its`,
  `${TRIES}th try 100 ms apart: the whole run's, and in parentheses those made from the check's first request to the exit`,
  '(the smoke stage). The engine has stopped when the stage starts: a `url:` check adds no request, a `service:`',
  'check one proxy GET per try (`get services/proxy` in the table, however the stand-in names it), and neither a LIST or',
  'a watch (the stand-in logs a proxy GET when it has answered, after its request reached the app: the stage shows the',
  'first one in the whole run only). The whole runs differ only by how many polls fit before the status was written.',
  '',
  countTable,
].join('\n');
writeFileSync(RESULTS_MD, setSection(readFileSync(RESULTS_MD, 'utf8'), 'smoke', body));
