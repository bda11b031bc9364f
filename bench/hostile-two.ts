/**
 * Hostile conditions, round two (issue 24): time to exit, result, outputs and peak RSS of one build
 * against another, case by case, a few runs each (medians).
 *
 *   npx tsx bench/hostile-two.ts --before /path/to/old/dist [--after dist] [--runs 3] [--cases fifo,glob]
 *
 * Each run starts the entry as the runner (or a shell) does, under /usr/bin/time for its peak RSS, against
 * one API server stand-in and one GitHub API stand-in that never answers. The builds run one after the other,
 * not at once: the machine is shared. Prints a markdown table for bench/RESULTS.md. Figures, not
 * assertions: test/e2e/hostile-*.e2e.test.ts assert the behaviour.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import { startCluster, type TestCluster } from '../test/cluster/index.js';
import { startGitHub, WRITE_TOKEN, type TestGitHub } from '../test/github/index.js';
import { ensureDist, ROOT } from '../test/e2e/dist.js';
import { job } from '../test/e2e/objects.js';
import { inputEnv, parseOutputFile, runnerEnv } from '../test/e2e/runAction.js';
import { median } from './stats.js';

interface Run {
  exitMs: number;
  /** From the start to the wait's first line (`Waiting for ...`), when there was one. */
  waitStartMs?: number;
  code: number | null;
  signal: NodeJS.Signals | null;
  rssKiB: number;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  summary: string;
}

interface Spawn {
  args: string[];
  env: Record<string, string>;
  cwd: string;
  /** [ms after start, signal] */
  signals?: Array<[number, NodeJS.Signals]>;
  /** Send this signal once stderr says so (`parsing ` of test/e2e/slow-parse.ts). */
  signalOnStderr?: [string, NodeJS.Signals];
  killAfterMs?: number;
  outputFile?: string;
  summaryFile?: string;
}

function measure(o: Spawn): Promise<Run> {
  const rssFile = path.join(o.cwd, `rss-${Math.random().toString(36).slice(2)}`);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn('/usr/bin/time', ['-f', '%M', '-o', rssFile, process.execPath, ...o.args], {
      cwd: o.cwd,
      env: o.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let waitStartMs: number | undefined;
    let signalled = false;
    // /usr/bin/time does not pass signals on: send them to node, its child.
    const node = (): number | undefined => {
      try {
        return (
          Number(
            execFileSync('pgrep', ['-P', String(child.pid)], { encoding: 'utf8' })
              .trim()
              .split('\n')[0],
          ) || undefined
        );
      } catch {
        return undefined;
      }
    };
    const send = (signal: NodeJS.Signals) => {
      const pid = node();
      if (pid) process.kill(pid, signal);
    };
    const timers = (o.signals ?? []).map(([ms, signal]) => setTimeout(() => send(signal), ms));
    const killer = setTimeout(() => send('SIGKILL'), o.killAfterMs ?? 120_000);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      if (waitStartMs === undefined && /Waiting for \d+ target/.test(stdout)) waitStartMs = performance.now() - started;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      if (!signalled && o.signalOnStderr && stderr.includes(o.signalOnStderr[0])) {
        signalled = true;
        send(o.signalOnStderr[1]);
      }
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      const exitMs = performance.now() - started;
      timers.forEach(clearTimeout);
      clearTimeout(killer);
      const timeReport = readFileSync(rssFile, 'utf8');
      rmSync(rssFile, { force: true });
      // "Command terminated by signal 2" comes first when node died of a signal.
      const signalled = /terminated by signal (\d+)/.exec(timeReport);
      resolve({
        exitMs,
        ...(waitStartMs !== undefined && { waitStartMs }),
        code: signalled ? null : code,
        signal: signalled ? (Number(signalled[1]) === 2 ? 'SIGINT' : Number(signalled[1]) === 15 ? 'SIGTERM' : 'SIGKILL') : signal,
        rssKiB: Number(timeReport.trim().split('\n').at(-1)),
        stdout,
        stderr,
        outputs: o.outputFile ? parseOutputFile(readFileSync(o.outputFile, 'utf8')) : {},
        summary: o.summaryFile ? readFileSync(o.summaryFile, 'utf8') : '',
      });
    });
  });
}

interface Context {
  cluster: TestCluster;
  gh: TestGitHub;
  scratch: string;
}

/** The action's run: dist/index.js of `dist`, with the runner's variables and files. */
async function action(dist: string, inputs: Record<string, string>, more: Partial<Spawn> & { env?: Record<string, string>; workspace?: string }, ctx: Context) {
  const dir = mkdtempSync(path.join(ctx.scratch, 'run-'));
  const outputFile = path.join(dir, 'output');
  const summaryFile = path.join(dir, 'summary');
  writeFileSync(outputFile, '');
  writeFileSync(summaryFile, '');
  const env = { ...runnerEnv({ scratch: dir, workspace: more.workspace ?? dir, outputFile, summaryFile }), ...inputEnv(inputs), ...more.env };
  return measure({ ...more, args: [path.join(dist, 'index.js')], env, cwd: more.workspace ?? dir, outputFile, summaryFile });
}

/** The command: dist/cli.js of `dist`, in a clean environment. */
async function command(dist: string, args: string[], more: Partial<Spawn> & { nodeArgs?: string[] }, ctx: Context) {
  const dir = mkdtempSync(path.join(ctx.scratch, 'cli-'));
  return measure({ ...more, args: [...(more.nodeArgs ?? []), path.join(dist, 'cli.js'), ...args], env: { PATH: process.env.PATH ?? '', HOME: dir }, cwd: dir });
}

function visible(run: Run): string {
  const log = run.stdout
    .split('\n')
    .filter((line) => !line.startsWith('::add-mask::'))
    .join('\n');
  return [log, run.stderr, JSON.stringify(run.outputs), run.summary].join('\n');
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

interface Case {
  name: string;
  run(dist: string, ctx: Context): Promise<Run>;
  /** The result column: `result` and what else the case is about. */
  describe(run: Run): string;
}

const github = (ctx: Context) => ({
  inputs: { 'pr-comment': 'always', 'deployment-environment': 'preview', 'github-token': WRITE_TOKEN, 'report-matrix': '', 'report-job-id': '' },
  env: { GITHUB_API_URL: ctx.gh.url, GITHUB_EVENT_NAME: 'push', GITHUB_REF: 'refs/heads/main' },
});

function outcome(run: Run): string {
  if (run.signal) return `killed (${run.signal})`;
  const result = run.outputs.result ?? 'no outputs';
  return `${result}${run.outputs.result && !run.summary ? ', no summary' : ''}`;
}

const SECRET_VALUE = 'UzNjcjN0LW1hdGNoZWQtdmFsdWU=';
const QUERY_TOKEN = 'query-t0ken-5e3f';
const LOG_TOKEN = 'ghs_leakedLEAKEDleaked0123456789abcdef';

const CASES: Case[] = [
  {
    name: 'GitHub API never answers, runner-style cancel (SIGINT at 2.5 s, SIGTERM 7.5 s later)',
    run: (dist, ctx) => {
      const { inputs, env } = github(ctx);
      return action(
        dist,
        { kubeconfig: ctx.cluster.kubeconfig({ namespace: 'two' }), resources: 'deployment/never-created', timeout: '10m', ...inputs },
        {
          env,
          signals: [
            [2500, 'SIGINT'],
            [10_000, 'SIGTERM'],
          ],
          killAfterMs: 30_000,
        },
        ctx,
      );
    },
    describe: (run) => `${outcome(run)}; wait started ${run.waitStartMs === undefined ? 'never' : `after ${(run.waitStartMs / 1000).toFixed(1)} s`}`,
  },
  {
    name: 'GitHub API never answers, one SIGTERM at 2.5 s',
    run: (dist, ctx) => {
      const { inputs, env } = github(ctx);
      return action(
        dist,
        { kubeconfig: ctx.cluster.kubeconfig({ namespace: 'two' }), resources: 'deployment/never-created', timeout: '10m', ...inputs },
        { env, signals: [[2500, 'SIGTERM']], killAfterMs: 90_000 },
        ctx,
      );
    },
    describe: outcome,
  },
  {
    name: 'manifest with one 50 MB annotation, timeout 5s',
    run: (dist, ctx) => {
      const workspace = mkdtempSync(path.join(ctx.scratch, 'big-'));
      writeFileSync(
        path.join(workspace, 'big.yaml'),
        `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big\n  annotations:\n    blob: ${'x'.repeat(50 * 1024 * 1024)}\n`,
      );
      return action(
        dist,
        { kubeconfig: ctx.cluster.kubeconfig({ namespace: 'two' }), manifests: 'big.yaml', timeout: '5s' },
        { workspace, killAfterMs: 90_000 },
        ctx,
      );
    },
    describe: outcome,
  },
  {
    name: '`configmap` + selector matching 20,001 objects, timeout 60s',
    run: (dist, ctx) =>
      action(dist, { kubeconfig: ctx.cluster.kubeconfig({ namespace: 'crowd' }), resources: 'configmap', selector: 'crowd=yes', timeout: '60s' }, {}, ctx),
    describe: outcome,
  },
  {
    name: 'jsonpath wait on a Secret whose value matches',
    run: (dist, ctx) =>
      action(
        dist,
        {
          kubeconfig: ctx.cluster.kubeconfig({ namespace: 'two' }),
          resources: 'secret/db',
          'wait-for': `jsonpath={.data.password}=${SECRET_VALUE}`,
          timeout: '30s',
        },
        {},
        ctx,
      ),
    describe: (run) => {
      const file = run.outputs['resources-file'];
      const shown = visible(run).includes(SECRET_VALUE) || (file !== undefined && readFileSync(file, 'utf8').includes(SECRET_VALUE));
      return `${outcome(run)}${shown ? '; value shown' : ''}`;
    },
  },
  {
    name: '`?access_token=` in the URL of a server that refuses, timeout 3s',
    run: async (dist, ctx) => {
      const config = parse(ctx.cluster.kubeconfig({ namespace: 'two' })) as { clusters: Array<{ cluster: Record<string, unknown> }> };
      config.clusters[0]!.cluster.server = `https://127.0.0.1:${await closedPort()}/?access_token=${QUERY_TOKEN}`;
      return action(dist, { kubeconfig: stringify(config), resources: 'deployment/web', timeout: '3s' }, {}, ctx);
    },
    describe: (run) => `${outcome(run)}${visible(run).includes(QUERY_TOKEN) ? '; token shown' : ''}`,
  },
  {
    name: 'github-token in a failed container log, reporting off',
    run: (dist, ctx) =>
      action(dist, { kubeconfig: ctx.cluster.kubeconfig({ namespace: 'two' }), resources: 'job/seed', timeout: '60s', 'github-token': LOG_TOKEN }, {}, ctx),
    describe: (run) => `${outcome(run)}${run.summary.includes(LOG_TOKEN) ? '; token in the summary' : ''}`,
  },
  {
    name: '`health-checks: /usr/**` (a glob outside the workspace), timeout 5s',
    run: (dist, ctx) =>
      action(
        dist,
        { kubeconfig: ctx.cluster.kubeconfig({ namespace: 'two' }), resources: 'secret/db', 'health-checks': '/usr/**', timeout: '5s' },
        { killAfterMs: 90_000 },
        ctx,
      ),
    describe: outcome,
  },
  {
    // test/e2e/hostile-leaks.e2e.test.ts asserts the verdict and only a hang bound: the time is this table's.
    name: '`manifests` glob walking into /usr through a link, timeout 5s',
    run: (dist, ctx) => {
      const workspace = mkdtempSync(path.join(ctx.scratch, 'walk-'));
      symlinkSync('/usr', path.join(workspace, 'usr'));
      return action(
        dist,
        { kubeconfig: ctx.cluster.kubeconfig({ namespace: 'two' }), manifests: 'usr/**/*.never-a-manifest.yaml', timeout: '5s' },
        { workspace, killAfterMs: 90_000 },
        ctx,
      );
    },
    describe: outcome,
  },
  {
    name: '`health-checks` naming a FIFO nobody writes to, timeout 5s',
    run: (dist, ctx) => {
      const workspace = mkdtempSync(path.join(ctx.scratch, 'fifo-'));
      execFileSync('mkfifo', [path.join(workspace, 'rules.yaml')]);
      return action(
        dist,
        { kubeconfig: ctx.cluster.kubeconfig({ namespace: 'two' }), resources: 'secret/db', 'health-checks': 'rules.yaml', timeout: '5s' },
        { workspace, killAfterMs: 30_000 },
        ctx,
      );
    },
    describe: (run) => (run.signal ? `hung: killed at 30 s, ${outcome(run)}` : outcome(run)),
  },
  {
    name: 'API server that stops answering (held 12 s), timeout 5s',
    run: async (dist, ctx) => {
      // A server of its own: the held requests would stall the other cases' server.
      const cluster = await startCluster({ speed: 0.2 });
      const stallMs = 12_000;
      const started = Date.now();
      try {
        cluster.create(job('hung', { namespace: 'hung', readyAfterMs: 600_000 }));
        cluster.faults.unavailable(stallMs);
        return await action(
          dist,
          { kubeconfig: cluster.kubeconfig({ namespace: 'hung' }), resources: 'job/hung', timeout: '5s' },
          { killAfterMs: 40_000 },
          ctx,
        );
      } finally {
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, started + stallMs + 200 - Date.now())));
        await cluster.close();
      }
    },
    describe: outcome,
  },
  {
    name: 'command: `-o json --bogus`',
    run: (dist, ctx) => command(dist, ['-o', 'json', '--bogus', 'deployment/web'], {}, ctx),
    describe: (run) => `exit ${run.code}; ${run.stdout.trim().startsWith('{') ? 'JSON document' : 'stdout empty'}`,
  },
  {
    name: 'command: SIGINT while the bundle loads (test/e2e/slow-parse.ts)',
    run: (dist, ctx) => {
      const kubeconfig = path.join(ctx.scratch, 'kubeconfig');
      writeFileSync(kubeconfig, ctx.cluster.kubeconfig({ namespace: 'two' }));
      return command(
        dist,
        ['deployment/web', '-o', 'json', '--kubeconfig', kubeconfig, '--timeout', '60s'],
        { nodeArgs: ['--import', path.join(ROOT, 'test/e2e/slow-parse.ts')], signalOnStderr: ['parsing ', 'SIGINT'] },
        ctx,
      );
    },
    describe: (run) =>
      run.signal ? `killed (${run.signal}), stdout empty` : `exit ${run.code}; ${run.stdout.trim().startsWith('{') ? 'JSON document' : 'stdout empty'}`,
  },
];

function option(name: string, fallback?: string): string {
  const at = process.argv.indexOf(`--${name}`);
  const value = at >= 0 ? process.argv[at + 1] : fallback;
  if (value === undefined) throw new Error(`usage: npx tsx bench/hostile-two.ts --before OLD_DIST [--after dist] [--runs 3] [--cases WORD,...]`);
  return value;
}

async function main(): Promise<void> {
  const before = path.resolve(option('before'));
  const after = path.resolve(option('after', path.join(ROOT, 'dist')));
  const runs = Number(option('runs', '3'));
  // `--cases fifo,glob`: only the cases whose name contains one of these (case-insensitive).
  const only = option('cases', '')
    .split(',')
    .map((word) => word.trim().toLowerCase())
    .filter(Boolean);
  const cases = only.length ? CASES.filter((c) => only.some((word) => c.name.toLowerCase().includes(word))) : CASES;
  await ensureDist();
  const scratch = mkdtempSync(path.join(tmpdir(), 'kubewait-hostile-two-'));
  const cluster = await startCluster({ speed: 0.2 });
  const gh = await startGitHub();
  gh.failNext(1_000_000, { kind: 'hang' });
  const ctx: Context = { cluster, gh, scratch };
  cluster.create({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'db', namespace: 'two' }, type: 'Opaque', data: { password: SECRET_VALUE } });
  const seed = job('seed', { namespace: 'two', readyAfterMs: 200 });
  seed.metadata.annotations['kubewait.test/job-outcome'] = 'Failed';
  seed.metadata.annotations['kubewait.test/log'] = `connecting with ${LOG_TOKEN}\nError: seed failed`;
  cluster.create(seed);
  if (cases.some((c) => c.name.includes('20,001')))
    for (let i = 0; i <= 20_000; i++)
      cluster.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}`, namespace: 'crowd', labels: { crowd: 'yes' } } });
  const loads: number[] = [];
  const rows: string[] = [];
  try {
    for (const c of cases) {
      const cells: string[] = [];
      for (const dist of [before, after]) {
        const measured: Run[] = [];
        for (let i = 0; i < runs; i++) {
          loads.push(loadavg()[0]!);
          measured.push(await c.run(dist, ctx));
        }
        const exit = median(measured.map((r) => r.exitMs));
        const rss = median(measured.map((r) => r.rssKiB));
        const says = [...new Set(measured.map((r) => c.describe(r)))].join(' / ');
        cells.push(`${(exit / 1000).toFixed(1)} s`, says, `${Math.round(rss / 1024)} MiB`);
        console.error(`${c.name} [${dist === before ? 'before' : 'after'}]: ${cells.slice(-3).join(' | ')}`);
      }
      rows.push(`| ${c.name} | ${cells.join(' | ')} |`);
    }
  } finally {
    await gh.close();
    await cluster.close();
    rmSync(scratch, { recursive: true, force: true });
  }
  console.log(`load average (1 min) during the runs: median ${median(loads).toFixed(1)}, ${Math.min(...loads).toFixed(1)}-${Math.max(...loads).toFixed(1)}\n`);
  console.log('| case | before: exit after | before: result | before: peak RSS | after: exit after | after: result | after: peak RSS |');
  console.log('|---|---:|---|---:|---:|---|---:|');
  for (const row of rows) console.log(row);
}

await main();
