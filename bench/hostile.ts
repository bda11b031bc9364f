/**
 * Hostile conditions (issue 12): time to exit and result of one build against another, case by case.
 *
 *   npx tsx bench/hostile.ts --before /path/to/old/index.js [--after dist/index.js] [--write]
 *
 * Each case runs the bundle as the runner does (test/e2e/runAction.ts) against its own API server
 * stand-in (fault injection is per server), both builds at the same time. `--write` puts the table in
 * bench/RESULTS.md between the `hostile` markers. Figures, not assertions: test/e2e/hostile-*.e2e.test.ts
 * asserts the behaviour.
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import { startCluster, type TestCluster } from '../test/cluster/index.js';
import { DIST_ENTRY, ensureDist, ROOT } from '../test/e2e/dist.js';
import { deployment } from '../test/e2e/objects.js';
import { runAction, type ActionRun, type RunOptions } from '../test/e2e/runAction.js';

interface Case {
  name: string;
  /** Prepares the cluster, returns the inputs and run options. */
  setup(cluster: TestCluster, scratch: string): Promise<{ inputs: Record<string, string>; options?: RunOptions; during?: (cluster: TestCluster) => void }>;
  /** Something the result column should say besides the result (a leak, ...). */
  note?(run: ActionRun): string;
}

const KILL_AFTER_MS = 130_000;

type Kubeconfig = { clusters: Array<{ cluster: Record<string, unknown> }>; users: Array<{ user: Record<string, unknown> }> };
function edited(cluster: TestCluster, namespace: string, edit: (c: Kubeconfig) => void): string {
  const config = parse(cluster.kubeconfig({ namespace })) as Kubeconfig;
  edit(config);
  return stringify(config);
}

function plugin(scratch: string, name: string, body: string): string {
  const file = path.join(scratch, name);
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
  return file;
}
const exec = (command: string) => (c: Kubeconfig) => {
  c.users[0]!.user = { exec: { apiVersion: 'client.authentication.k8s.io/v1', command } };
};

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function shown(run: ActionRun, secret: string): boolean {
  const visible = run.stdout
    .split('\n')
    .filter((l) => !l.startsWith('::add-mask::'))
    .join('\n');
  return [visible, run.stderr, JSON.stringify(run.outputs), run.summary].some((text) => text.includes(secret));
}

const CASES: Case[] = [
  {
    name: 'rejected token (401), timeout 60s',
    setup: async (c) => ({ inputs: { kubeconfig: c.kubeconfig({ token: 'wrong', namespace: 'b' }), resources: 'deployment/web', timeout: '60s' } }),
  },
  {
    name: 'unknown CA, timeout 60s',
    setup: async (c) => {
      const { generate } = await import('selfsigned');
      const other = await generate([{ name: 'commonName', value: 'other' }]);
      const kubeconfig = edited(c, 'b', (k) => (k.clusters[0]!.cluster['certificate-authority-data'] = Buffer.from(other.cert).toString('base64')));
      return { inputs: { kubeconfig, resources: 'deployment/web', timeout: '60s' } };
    },
  },
  {
    name: 'failing exec plugin (secret on stderr), timeout 60s',
    setup: async (c, scratch) => ({
      inputs: { kubeconfig: edited(c, 'b', exec(plugin(scratch, 'fail.sh', 'echo hunter2-secret >&2; exit 1'))), resources: 'deployment/web', timeout: '60s' },
    }),
    note: (run) => (shown(run, 'hunter2-secret') ? 'stderr shown' : ''),
  },
  {
    name: 'missing exec plugin, timeout 60s',
    setup: async (c, scratch) => ({ inputs: { kubeconfig: edited(c, 'b', exec(path.join(scratch, 'nope'))), resources: 'deployment/web', timeout: '60s' } }),
  },
  {
    name: 'connection refused, timeout 60s',
    setup: async (c) => {
      const port = await closedPort();
      return {
        inputs: {
          kubeconfig: edited(c, 'b', (k) => (k.clusters[0]!.cluster.server = `https://127.0.0.1:${port}`)),
          resources: 'deployment/web',
          timeout: '60s',
        },
      };
    },
  },
  {
    name: 'exec plugin sleeping 45 s, timeout 5s',
    setup: async (c, scratch) => ({
      inputs: { kubeconfig: edited(c, 'b', exec(plugin(scratch, 'slow.sh', 'sleep 45'))), resources: 'deployment/web', timeout: '5s' },
    }),
  },
  {
    name: 'exec plugin sleeping 120 s, SIGTERM at 2 s',
    setup: async (c, scratch) => ({
      inputs: { kubeconfig: edited(c, 'b', exec(plugin(scratch, 'hang.sh', 'sleep 120'))), resources: 'deployment/web', timeout: '5m' },
      options: { signalAfter: { ms: 2000, signal: 'SIGTERM' } },
    }),
  },
  {
    name: 'SIGTERM 150 ms after start',
    setup: async (c) => ({
      inputs: { kubeconfig: c.kubeconfig({ namespace: 'b' }), resources: 'deployment/missing', timeout: '60s' },
      options: { signalAfter: { ms: 150, signal: 'SIGTERM' } },
    }),
  },
  {
    name: '30,000 manifest documents, timeout 30s',
    setup: async (c, scratch) => {
      const documents = Array.from({ length: 30_000 }, (_, i) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-${i}\n`);
      writeFileSync(path.join(scratch, 'many.yaml'), documents.join('---\n'));
      return { inputs: { kubeconfig: c.kubeconfig({ namespace: 'b' }), manifests: 'many.yaml', timeout: '30s' }, options: { workspace: scratch } };
    },
    note: (run) => `resources output ${(Buffer.byteLength(run.outputs.resources ?? '') / 1e6).toFixed(2)} MB`,
  },
  {
    name: 'timeout: 597h',
    setup: async (c) => {
      c.create(deployment('slow', { namespace: 'b', readyAfterMs: 3000 }));
      return { inputs: { kubeconfig: c.kubeconfig({ namespace: 'b' }), resources: 'deployment/slow', timeout: '597h' } };
    },
  },
  {
    name: '429 Retry-After: 3600 on the first LIST, timeout 60s',
    setup: async (c) => {
      c.create(deployment('web', { namespace: 'b', readyAfterMs: 200 }));
      c.faults.failNext(1, { status: 429, retryAfterSeconds: 3600, verb: 'list', resource: 'deployments' });
      return { inputs: { kubeconfig: c.kubeconfig({ namespace: 'b' }), resources: 'deployment/web', timeout: '60s' } };
    },
  },
  {
    name: 'twenty 500s in a row, timeout 30s',
    setup: async (c) => {
      c.create(deployment('web', { namespace: 'b', readyAfterMs: 200 }));
      c.faults.failNext(20, { status: 500 });
      return { inputs: { kubeconfig: c.kubeconfig({ namespace: 'b' }), resources: 'deployment/web', timeout: '30s' } };
    },
  },
  {
    name: '10 s outage (connections refused) while waiting; time after it ends',
    setup: async () => ({ inputs: {} }), // replaced in runCase
  },
  {
    name: 'manifests with only empty documents',
    setup: async (c, scratch) => {
      writeFileSync(path.join(scratch, 'empty.yaml'), '---\n---\n');
      return { inputs: { kubeconfig: c.kubeconfig({ namespace: 'b' }), manifests: 'empty.yaml' }, options: { workspace: scratch } };
    },
  },
  {
    name: 'wait-for: deleted, deploymnt/web (exists)',
    setup: async (c) => {
      c.create(deployment('web', { namespace: 'b' }));
      return { inputs: { kubeconfig: c.kubeconfig({ namespace: 'b' }), resources: 'deploymnt/web', 'wait-for': 'deleted', timeout: '60s' } };
    },
  },
  {
    name: 'jsonpath on a Secret, timeout 3s',
    setup: async (c) => {
      c.create({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'db', namespace: 'b' }, data: { password: 'UzNjcjN0LXNlY3JldA==' } });
      return { inputs: { kubeconfig: c.kubeconfig({ namespace: 'b' }), resources: 'secret/db', 'wait-for': 'jsonpath={.data.password}=x', timeout: '3s' } };
    },
    note: (run) => (shown(run, 'UzNjcjN0LXNlY3JldA==') ? 'value shown' : ''),
  },
  {
    name: 'userinfo in the URL of a server that refuses, timeout 3s',
    setup: async (c) => {
      const port = await closedPort();
      const kubeconfig = edited(c, 'b', (k) => (k.clusters[0]!.cluster.server = `https://robot:pa55word@127.0.0.1:${port}`));
      return { inputs: { kubeconfig, resources: 'deployment/missing', timeout: '3s' } };
    },
    note: (run) => (shown(run, 'robot') || shown(run, 'pa55word') ? 'userinfo shown' : ''),
  },
];

interface Figure {
  seconds: number;
  result: string;
  note: string;
}

async function runCase(entry: string, item: Case): Promise<Figure> {
  const cluster = await startCluster({ speed: 0.2 });
  const scratch = mkdtempSync(path.join(tmpdir(), 'kubewait-bench-hostile-'));
  try {
    let inputs: Record<string, string>;
    let options: RunOptions = {};
    let outageEnd = 0;
    if (item.name.startsWith('10 s outage')) {
      inputs = { kubeconfig: cluster.kubeconfig({ namespace: 'b' }), resources: 'deployment/web', timeout: '60s' };
      let started = false;
      options = {
        onStdout: (stdout) => {
          if (started || !stdout.includes('Waiting for')) return;
          started = true;
          setTimeout(() => {
            cluster.faults.refuse(10_000);
            outageEnd = Date.now() + 10_000;
            cluster.create(deployment('web', { namespace: 'b', readyAfterMs: 100 }));
          }, 500);
        },
      };
    } else {
      ({ inputs, options = {} } = await item.setup(cluster, scratch));
    }
    const start = Date.now();
    const run = await runAction(inputs, { killAfterMs: KILL_AFTER_MS, ...options, entry });
    const end = Date.now();
    const seconds = (outageEnd ? end - outageEnd : end - start) / 1000;
    const result = run.signal ? `killed (${run.signal}), no outputs` : (run.outputs.result ?? 'no outputs');
    return { seconds, result, note: item.note?.(run) ?? '' };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
    await cluster.close();
  }
}

function argument(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

async function main(): Promise<void> {
  const before = argument('--before') && path.resolve(argument('--before')!);
  if (!before) throw new Error('usage: npx tsx bench/hostile.ts --before OLD/index.js [--after dist/index.js] [--write]');
  const after = path.resolve(argument('--after') ?? (await ensureDist(), DIST_ENTRY));
  const only = argument('--only');
  const rows: string[] = ['| case | before: exit after | before: result | after: exit after | after: result |', '|---|---:|---|---:|---|'];
  for (const item of CASES.filter((c) => !only || c.name.includes(only))) {
    const [old, now] = await Promise.all([runCase(before, item), runCase(after, item)]);
    const cell = (f: Figure) => [`${f.seconds.toFixed(1)} s`, f.note ? `${f.result}; ${f.note}` : f.result];
    const row = `| ${item.name} | ${cell(old).join(' | ')} | ${cell(now).join(' | ')} |`;
    rows.push(row);
    console.log(row);
  }
  const table = rows.join('\n');
  console.log(`\n${table}`);
  if (process.argv.includes('--write')) {
    const file = path.join(ROOT, 'bench/RESULTS.md');
    const section = [
      '<!-- hostile:start -->',
      '## Hostile conditions (issue 12)',
      '',
      `\`npx tsx bench/hostile.ts --before <main's dist/index.js> --write\` on ${new Date().toISOString().slice(0, 19)}Z: time from start to exit`,
      '(for the outage: from the end of the outage to exit) and `result`, each case on its own stand-in, both builds at once.',
      '',
      table,
      '<!-- hostile:end -->',
    ].join('\n');
    const text = readFileSync(file, 'utf8');
    const marked = /<!-- hostile:start -->[\s\S]*<!-- hostile:end -->/;
    writeFileSync(file, marked.test(text) ? text.replace(marked, section) : `${text.trimEnd()}\n\n${section}\n`);
  }
}

await main();
process.exit(0);
