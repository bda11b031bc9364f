/**
 * Hostile conditions, round three (issue 34): time to exit, result, outputs, peak RSS and CPU seconds of one
 * build against another, case by case, a few runs each (medians).
 *
 *   npx tsx bench/hostile-three.ts --before /path/to/old/dist [--after dist] [--runs 3] [--cases fifo,clusters]
 *
 * Each run starts the entry as the runner (or a shell) does, under /usr/bin/time for its peak RSS, against
 * one API server stand-in and one GitHub API stand-in that never answers. The builds run one after the other,
 * not at once: the machine is shared. Prints a markdown table for bench/RESULTS.md. Figures, not
 * assertions: test/e2e/hostile-bodies.e2e.test.ts and hostile-setup.e2e.test.ts assert the behaviour.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import { startCluster, type TestCluster } from '../test/cluster/index.js';
import { startGitHub, WRITE_TOKEN, type TestGitHub } from '../test/github/index.js';
import { ensureDist, ROOT } from '../test/e2e/dist.js';
import { deployment } from '../test/e2e/objects.js';
import { interceptingServer, isList } from '../test/e2e/intercept.js';
import { kustomization, NEW_SHA } from '../test/status/gitops/statuses.js';
import { crdsIn, establishCrds } from '../test/cluster/testkit.js';
import { inputEnv, parseOutputFile, runnerEnv } from '../test/e2e/runAction.js';
import { median } from './stats.js';

interface Run {
  exitMs: number;
  /** From the start to the wait's first line (`Waiting for ...`), when there was one. */
  waitStartMs?: number;
  code: number | null;
  signal: NodeJS.Signals | null;
  rssKiB: number;
  /** User and system CPU seconds of the process (and its children). */
  cpuSeconds: number;
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
    const child = spawn('/usr/bin/time', ['-f', '%U %S\n%M', '-o', rssFile, process.execPath, ...o.args], {
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
        cpuSeconds: (timeReport.trim().split('\n').at(-2) ?? '0 0').split(' ').reduce((sum, part) => sum + Number(part), 0),
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

const MiB = 1024 * 1024;

/** A kubeconfig with `count` contexts, each with a cluster and a user of its own, all the one stand-in. */
function fleetKubeconfig(ctx: Context, count: number, namespace: string): { file: string; names: string[] } {
  const config = parse(ctx.cluster.kubeconfig({ namespace })) as {
    clusters: Array<{ name: string }>;
    users: Array<{ name: string }>;
    contexts: Array<{ name: string; context: Record<string, unknown> }>;
  };
  const names = Array.from({ length: count }, (_, i) => `c${i}`);
  const [cluster, user, context] = [config.clusters[0]!, config.users[0]!, config.contexts[0]!];
  config.clusters = names.map((name) => ({ ...cluster, name }));
  config.users = names.map((name) => ({ ...user, name }));
  config.contexts = names.map((name) => ({ name, context: { ...context.context, cluster: name, user: name } }));
  const file = path.join(ctx.scratch, `fleet-${count}.yaml`);
  writeFileSync(file, stringify(config, { aliasDuplicateObjects: false }));
  return { file, names };
}

function fifo(ctx: Context): string {
  const file = path.join(mkdtempSync(path.join(ctx.scratch, 'fifo-')), 'kubeconfig');
  execFileSync('mkfifo', [file]);
  return file;
}

const manyClusters = (count: number, timeout: string): Case => ({
  name: `${count} clusters, contexts of one kubeconfig, a Deployment ready in each, timeout ${timeout}`,
  run: (dist, ctx) => {
    const { file, names } = fleetKubeconfig(ctx, count, 'three');
    return action(dist, { clusters: names.join(', '), resources: 'deployment/web', timeout }, { env: { KUBECONFIG: file }, killAfterMs: 300_000 }, ctx);
  },
  describe: (run) => {
    if (!run.outputs.clusters) return outcome(run);
    const ready = Object.values(JSON.parse(run.outputs.clusters) as Record<string, { result: string }>).filter((c) => c.result === 'ready').length;
    return `${outcome(run)}, ${ready} of ${count} ready; wait started ${run.waitStartMs === undefined ? 'never' : `after ${(run.waitStartMs / 1000).toFixed(1)} s`}`;
  },
});

/** A hostile answer to the LIST of deployments in `namespace`, the rest passed on to the stand-in. */
async function intercepted(ctx: Context, namespace: string, answer: (response: ServerResponse) => void) {
  return interceptingServer(ctx.cluster, (request) => (isList(request, 'deployments', namespace) ? answer : undefined), namespace);
}

const CASES: Case[] = [
  {
    name: 'LIST item holding a 200 MB number, timeout 10s',
    run: async (dist, ctx) => {
      const body = `{"kind":"DeploymentList","apiVersion":"apps/v1","metadata":{"resourceVersion":"1"},"items":[{"n":${'9'.repeat(200 * MiB)}}]}`;
      const front = await intercepted(ctx, 'three', (response) => {
        response.writeHead(200, { 'Content-Type': 'application/json' });
        response.end(body);
      });
      try {
        return await action(dist, { kubeconfig: front.kubeconfig, resources: 'deployment/web', timeout: '10s' }, { killAfterMs: 120_000 }, ctx);
      } finally {
        await front.close();
      }
    },
    describe: (run) => `${outcome(run)}${/was refused/.test(run.outputs.resources ?? '') ? ' (the LIST refused, naming the bound)' : ''}`,
  },
  {
    name: 'gzip bomb: 0.4 MB of gzip holding a 400 MB number in a LIST item, timeout 10s',
    run: async (dist, ctx) => {
      const bomb = gzipSync(
        Buffer.concat([
          Buffer.from('{"kind":"DeploymentList","metadata":{"resourceVersion":"1"},"items":[{"n":'),
          Buffer.alloc(400 * MiB, '9'),
          Buffer.from('}]}'),
        ]),
      );
      const front = await intercepted(ctx, 'three', (response) => {
        response.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' });
        response.end(bomb);
      });
      try {
        return await action(dist, { kubeconfig: front.kubeconfig, resources: 'deployment/web', timeout: '10s' }, { killAfterMs: 120_000 }, ctx);
      } finally {
        await front.close();
      }
    },
    describe: (run) => `${outcome(run)}${/was refused/.test(run.outputs.resources ?? '') ? ' (the LIST refused, naming the bound)' : ''}`,
  },
  {
    name: '500 with a 300 MB body on the first LIST, timeout 30s',
    run: async (dist, ctx) => {
      let answered = false;
      const front = await interceptingServer(
        ctx.cluster,
        (request) => {
          if (answered || !isList(request, 'deployments', 'three')) return undefined;
          answered = true;
          return (response) => {
            response.writeHead(500, { 'Content-Type': 'application/json' });
            let left = 300;
            const chunk = 'x'.repeat(MiB);
            const more = () => {
              while (left > 0 && !response.destroyed) {
                left--;
                if (!response.write(chunk)) return void response.once('drain', more);
              }
              response.end();
            };
            more();
          };
        },
        'three',
      );
      try {
        return await action(dist, { kubeconfig: front.kubeconfig, resources: 'deployment/web', timeout: '30s' }, { killAfterMs: 120_000 }, ctx);
      } finally {
        await front.close();
      }
    },
    describe: outcome,
  },
  {
    name: '$KUBECONFIG naming a FIFO nobody writes to, timeout 6s',
    run: (dist, ctx) => action(dist, { resources: 'deployment/web', timeout: '6s' }, { env: { KUBECONFIG: fifo(ctx) }, killAfterMs: 30_000 }, ctx),
    describe: (run) => `${outcome(run)}${/not a regular file/.test(run.stdout) ? ' (not a regular file)' : ''}`,
  },
  manyClusters(50, '60s'),
  manyClusters(150, '60s'),
  manyClusters(300, '60s'),
  {
    name: 'Kustomization revision with \\u202e, NUL and ESC, timeout 3s',
    run: (dist, ctx) =>
      action(
        dist,
        {
          kubeconfig: ctx.cluster.kubeconfig({ namespace: 'bidi' }),
          resources: 'kustomizations.kustomize.toolkit.fluxcd.io/apps',
          revision: NEW_SHA,
          inventory: 'false',
          timeout: '3s',
        },
        { killAfterMs: 60_000 },
        ctx,
      ),
    describe: (run) => {
      // eslint-disable-next-line no-control-regex -- the control characters the revision carried
      const raw = /[\u0000\u001b\u202e]/.test(run.stdout + run.summary);
      return `${outcome(run)}; ${raw ? 'control characters in the log and summary' : 'none in the log or summary'}`;
    },
  },
  {
    name: 'API server answers (a 503 on /apis), then refuses every connection before discovery completes, timeout 40s',
    run: async (dist, ctx) => {
      const gone = await startCluster({ controllers: false });
      try {
        gone.faults.failNext(1, { status: 503, verb: 'discovery', resource: '/apis' });
        const running = action(dist, { kubeconfig: gone.kubeconfig(), resources: 'deployment/web', timeout: '40s' }, { killAfterMs: 120_000 }, ctx);
        await gone.waitFor(() => gone.counters.requests().some((r) => r.resource === '/apis' && r.status === 503), 60_000);
        gone.faults.refuse(10 * 60_000);
        return await running;
      } finally {
        gone.faults.refuse(0);
        await gone.close();
      }
    },
    describe: (run) => `${outcome(run)}${/Input "kubeconfig"/.test(run.stdout) ? ' (input "kubeconfig" blamed)' : ''}`,
  },
  {
    name: 'pr-comment on, GitHub API never answers, Deployment Available from the start',
    run: (dist, ctx) => {
      const { inputs, env } = github(ctx);
      return action(
        dist,
        { kubeconfig: ctx.cluster.kubeconfig({ namespace: 'three' }), resources: 'deployment/web', timeout: '60s', ...inputs, 'deployment-environment': '' },
        { env, killAfterMs: 120_000 },
        ctx,
      );
    },
    describe: outcome,
  },
];
function option(name: string, fallback?: string): string {
  const at = process.argv.indexOf(`--${name}`);
  const value = at >= 0 ? process.argv[at + 1] : fallback;
  if (value === undefined) throw new Error(`usage: npx tsx bench/hostile-three.ts --before OLD_DIST [--after dist] [--runs 3] [--cases WORD,...]`);
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
  const scratch = mkdtempSync(path.join(tmpdir(), 'kubewait-hostile-three-'));
  const cluster = await startCluster({ speed: 0.2 });
  const gh = await startGitHub();
  gh.failNext(1_000_000, { kind: 'hang' });
  const ctx: Context = { cluster, gh, scratch };
  cluster.create(deployment('web', { namespace: 'three', readyAfterMs: 0 }));
  await establishCrds(cluster, crdsIn(new URL('../test/cluster/fixtures/gitops/', import.meta.url)));
  const object = kustomization.object(kustomization.ready('main@sha1:0ld\u202efed\u0000\u001b[2J')) as { metadata: Record<string, unknown> };
  cluster.create({ ...object, metadata: { ...object.metadata, namespace: 'bidi' } });
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
        const cpu = median(measured.map((r) => r.cpuSeconds));
        const says = [...new Set(measured.map((r) => c.describe(r)))].join(' / ');
        cells.push(`${(exit / 1000).toFixed(1)} s`, says, `${Math.round(rss / 1024)} MiB`, `${cpu.toFixed(1)} s`);
        console.error(`${c.name} [${dist === before ? 'before' : 'after'}]: ${cells.slice(-4).join(' | ')}`);
      }
      rows.push(`| ${c.name} | ${cells.join(' | ')} |`);
    }
  } finally {
    await gh.close();
    await cluster.close();
    rmSync(scratch, { recursive: true, force: true });
  }
  console.log(`load average (1 min) during the runs: median ${median(loads).toFixed(1)}, ${Math.min(...loads).toFixed(1)}-${Math.max(...loads).toFixed(1)}\n`);
  console.log(
    '| case | before: exit after | before: result | before: peak RSS | before: CPU | after: exit after | after: result | after: peak RSS | after: CPU |',
  );
  console.log('|---|---:|---|---:|---:|---:|---|---:|---:|');
  for (const row of rows) console.log(row);
}

await main();
