/**
 * What the `endpoints` check asks of the API server over a wait with many polls (issue 31: no LIST or
 * watch per poll beyond one per new resource type), one build against another:
 *   npx tsx bench/serving-requests.ts [--before-ref d1fd5c4] [--namespaces 3] [--timeout 15] [--write]
 *
 * The scenario: in each of `--namespaces` namespaces, two Services `web` and `api`, ready for the wait; `web`'s
 * one endpoint never turns ready, so the check goes on to the timeout (`--timeout` seconds, `poll-interval:
 * 500ms`: some thirty polls); `api`'s is ready. `dist/index.js` runs with `endpoints: true`; so does the build of
 * `--before-ref` (its dist/ taken from git, as committed). The stand-in counts every request by verb, resource and
 * namespace; the counts of the wait itself (the engine's LIST and WATCH of Services) are in both builds' figures.
 *
 * Prints requests per verb and resource, per build, and with `--write` sets the marked section
 * "serving_requests" of bench/RESULTS.md (bench/sections.ts). Never part of `npm test`.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startCluster } from '../test/cluster/index.js';
import { DIST_ENTRY, ensureDist, ROOT } from '../test/e2e/dist.js';
import { runAction } from '../test/e2e/runAction.js';
import { setSection } from './sections.js';

const RESULTS_MD = fileURLToPath(new URL('RESULTS.md', import.meta.url));
const args = process.argv.slice(2);
const option = (name: string, fallback: string) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1]! : fallback);
const beforeRef = option('before-ref', 'main');
const namespaces = Number(option('namespaces', '3'));
const timeoutSeconds = Number(option('timeout', '15'));

/** The committed dist/ of `ref`, extracted to a temporary directory: its entry point. */
function builtAt(ref: string, into: string): string {
  const archive = execFileSync('git', ['archive', '--format=tar', ref, 'dist'], { cwd: ROOT, maxBuffer: 256 * 1024 * 1024 });
  execFileSync('tar', ['-x', '-C', into], { input: archive });
  return path.join(into, 'dist', 'index.js');
}

await ensureDist();
const scratch = mkdtempSync(path.join(os.tmpdir(), 'kubewait-serving-bench-'));
const builds: Array<[string, string]> = [
  [`before (${beforeRef})`, builtAt(beforeRef, scratch)],
  ['after (this tree)', DIST_ENTRY],
];
const cluster = await startCluster({ controllers: false });

function services(prefix: string): string[] {
  const names: string[] = [];
  for (let i = 0; i < namespaces; i++) {
    const namespace = `${prefix}-${i}`;
    names.push(namespace);
    cluster.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
    for (const [name, ready] of [
      ['web', false],
      ['api', true],
    ] as const) {
      cluster.create({
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name, namespace },
        spec: { selector: { app: name }, ports: [{ port: 80 }], clusterIP: '10.96.0.10' },
      });
      cluster.create({
        apiVersion: 'discovery.k8s.io/v1',
        kind: 'EndpointSlice',
        metadata: { name: `${name}-x1`, namespace, labels: { 'kubernetes.io/service-name': name } },
        addressType: 'IPv4',
        endpoints: [{ addresses: ['10.244.0.7'], conditions: { ready } }],
      });
    }
  }
  return names;
}

const rows: string[] = [];
const load = () => os.loadavg()[0]!.toFixed(1);
try {
  for (const [index, [label, entry]] of builds.entries()) {
    const names = services(`serving-bench-${index}`);
    const resources = names.flatMap((ns) => [`${ns}/service/web`, `${ns}/service/api`]).join('\n');
    const loadAtStart = load();
    const run = await runAction(
      { kubeconfig: cluster.kubeconfig(), resources, endpoints: 'true', 'poll-interval': '500ms', timeout: `${timeoutSeconds}s` },
      { entry, killAfterMs: (timeoutSeconds + 60) * 1000 },
    );
    const counts = new Map<string, number>();
    for (const r of cluster.counters.requests().filter((r) => r.namespace !== undefined && names.includes(r.namespace))) {
      const key = `${r.verb} ${r.resource}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    const count = (key: string) => counts.get(key) ?? 0;
    const line = `| ${label} | ${run.outputs.result} | ${run.outputs.duration}s | ${count('list endpointslices')} | ${count('watch endpointslices')} | ${count('list services')} | ${count('watch services')} | ${loadAtStart} |`;
    console.log(`${label}: result ${run.outputs.result}, ${[...counts].map(([k, v]) => `${k} ${v}`).join(', ')}`);
    rows.push(line);
  }
} finally {
  await cluster.close();
  rmSync(scratch, { recursive: true, force: true });
}

const body = [
  '### Endpoints check: requests over a wait with many polls (issue 31)',
  '',
  `\`npx tsx bench/serving-requests.ts --before-ref ${beforeRef} --namespaces ${namespaces} --timeout ${timeoutSeconds}\`: ${namespaces} namespaces, each with a Service`,
  `whose endpoint never turns ready and one whose endpoint is ready, \`endpoints: true\`, \`poll-interval: 500ms\`, \`timeout: ${timeoutSeconds}s\``,
  `(some ${timeoutSeconds * 2} polls). Requests the stand-in served in those namespaces over the whole run (the wait's own LIST and WATCH of`,
  `Services included), on ${os.cpus().length} cores. Counts, not timings: one run of each build says it. Before: a LIST of`,
  'EndpointSlices and of Services per poll and namespace. After: one LIST and one WATCH of each per namespace (the check',
  "reads each type once and follows it), beside the wait's own LIST and WATCH of Services.",
  '',
  '| build | result | duration | LIST endpointslices | WATCH endpointslices | LIST services | WATCH services | load at start |',
  '|---|---|---:|---:|---:|---:|---:|---:|',
  ...rows,
].join('\n');
console.log(`\n${body}`);
if (args.includes('--write')) writeFileSync(RESULTS_MD, setSection(readFileSync(RESULTS_MD, 'utf8'), 'serving_requests', body));
