/**
 * `npx tsx bench/cel.ts`: the figures behind the CEL library choice (bench/RESULTS.md, "CEL library").
 * For `@marcbachmann/cel-js` (what src/status/health/cel.ts uses) and `@bufbuild/cel` (the fallback):
 * - bundle size: an esbuild bundle (`--bundle --minify --platform=node`, as dist/ is built) of a module
 *   that parses and runs one rule, minified and gzipped, minus the same bundle without the library;
 * - import time: a fresh Node process importing that bundle (median of several), minus an empty module;
 * - evaluation: microseconds per evaluation of a realistic rule on a realistic Certificate, parsed once.
 * Prints Markdown; `--write` also replaces the "CEL library" section of bench/RESULTS.md. Never part of
 * `npm test`: these are timings.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { Environment } from '@marcbachmann/cel-js';
import { celEnv, parse as bufParse, plan as bufPlan } from '@bufbuild/cel';
import { celInput, compileExpression } from '../src/status/health/cel.js';
import { setSection } from './sections.js';
import { computeStatus } from '../src/status/compute.js';
import { evaluateHealth } from '../src/status/health/evaluate.js';
import { resolveRules } from '../src/status/health/resolve.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const RESULTS_MD = path.join(ROOT, 'bench/RESULTS.md');
const IMPORT_RUNS = 9;
const EVALUATIONS = 20_000;

/** The rule a Flux user writes for a cert-manager Certificate (the optional form where the library has it). */
const RULE_OPTIONAL =
  "status.?conditions.orValue([]).exists(e, e.type == 'Ready' && e.status == 'True') && !status.?conditions.orValue([]).exists(e, e.type == 'Issuing' && e.status == 'True')";
const RULE_PLAIN =
  "status.conditions.exists(e, e.type == 'Ready' && e.status == 'True') && !status.conditions.exists(e, e.type == 'Issuing' && e.status == 'True')";

const CERTIFICATE = {
  apiVersion: 'cert-manager.io/v1',
  kind: 'Certificate',
  metadata: {
    name: 'web-tls',
    namespace: 'prod',
    generation: 3,
    uid: '5c1f7e1a-2a4e-4d7e-9a51-0c7b8f0e6f11',
    resourceVersion: '918273',
    creationTimestamp: '2026-11-30T08:12:45Z',
    labels: { app: 'web', 'app.kubernetes.io/managed-by': 'Helm' },
    annotations: { 'meta.helm.sh/release-name': 'web', 'meta.helm.sh/release-namespace': 'prod' },
  },
  spec: {
    secretName: 'web-tls',
    dnsNames: ['web.example.com', 'www.example.com'],
    issuerRef: { name: 'letsencrypt', kind: 'ClusterIssuer' },
    privateKey: { rotationPolicy: 'Always' },
  },
  status: {
    observedGeneration: 3,
    notBefore: '2026-11-30T07:12:45Z',
    notAfter: '2027-02-28T07:12:44Z',
    renewalTime: '2027-01-29T07:12:44Z',
    revision: 2,
    conditions: [
      {
        type: 'Ready',
        status: 'True',
        reason: 'Ready',
        message: 'Certificate is up to date and has not expired',
        lastTransitionTime: '2026-11-30T08:13:10Z',
        observedGeneration: 3,
      },
      {
        type: 'Issuing',
        status: 'False',
        reason: 'Issued',
        message: 'The certificate has been successfully issued',
        lastTransitionTime: '2026-11-30T08:13:10Z',
        observedGeneration: 3,
      },
    ],
  },
};

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

interface Library {
  name: string;
  /** A module body that parses and runs the rule once, so nothing is tree-shaken away. */
  entry: string;
}

const LIBRARIES: Library[] = [
  {
    name: '@marcbachmann/cel-js',
    entry: `import { Environment } from '@marcbachmann/cel-js';
const env = new Environment({ unlistedVariablesAreDyn: true, enableOptionalTypes: true });
globalThis.__celBench = env.parse(${JSON.stringify(RULE_OPTIONAL)})(${JSON.stringify(CERTIFICATE)});`,
  },
  {
    name: '@bufbuild/cel',
    entry: `import { run } from '@bufbuild/cel';
globalThis.__celBench = run(${JSON.stringify(RULE_PLAIN)}, ${JSON.stringify(CERTIFICATE)});`,
  },
];

async function bundle(dir: string, name: string, source: string): Promise<{ file: string; bytes: number; gzip: number }> {
  const entry = path.join(dir, `${name}.entry.mjs`);
  const file = path.join(dir, `${name}.bundle.mjs`);
  writeFileSync(entry, source);
  await build({
    entryPoints: [entry],
    outfile: file,
    bundle: true,
    minify: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    logLevel: 'error',
    nodePaths: [path.join(ROOT, 'node_modules')],
  });
  const code = readFileSync(file);
  return { file, bytes: code.length, gzip: gzipSync(code).length };
}

/** Median milliseconds for a fresh process to import `file` (the process start itself excluded). */
function importMs(file: string): number {
  const probe = `const t = performance.now(); await import(${JSON.stringify(file)}); process.stdout.write(String(performance.now() - t));`;
  const runs = Array.from({ length: IMPORT_RUNS }, () => Number(execFileSync(process.execPath, ['--input-type=module', '-e', probe], { encoding: 'utf8' })));
  return median(runs);
}

function microsPerEval(fn: () => unknown): number {
  for (let i = 0; i < 2_000; i++) fn(); // warm up the JIT
  const start = process.hrtime.bigint();
  for (let i = 0; i < EVALUATIONS; i++) fn();
  return Number(process.hrtime.bigint() - start) / 1_000 / EVALUATIONS;
}

function evaluationFigures(): { label: string; micros: number }[] {
  const marc = new Environment({ unlistedVariablesAreDyn: true, enableOptionalTypes: true }).parse(RULE_OPTIONAL);
  const marcPlain = new Environment({ unlistedVariablesAreDyn: true, enableOptionalTypes: true }).parse(RULE_PLAIN);
  const env = celEnv();
  const buf = bufPlan(env, bufParse(RULE_PLAIN));
  const compiled = compileExpression(RULE_OPTIONAL);
  if (!compiled.ok) throw new Error(compiled.message);
  const adapter = compiled.program;
  const input = celInput(CERTIFICATE);
  const check = (label: string, value: unknown) => {
    if (value !== true) throw new Error(`${label} returned ${String(value)}, expected true`);
  };
  check('marcbachmann', marc(CERTIFICATE));
  check('bufbuild', buf(CERTIFICATE));
  check('adapter', adapter.evaluate(celInput(CERTIFICATE)));
  return [
    { label: '@marcbachmann/cel-js, optional rule (`.?`/`orValue`)', micros: microsPerEval(() => marc(CERTIFICATE)) },
    { label: '@marcbachmann/cel-js, plain rule', micros: microsPerEval(() => marcPlain(CERTIFICATE)) },
    { label: '@bufbuild/cel, plain rule (it cannot parse `.?`)', micros: microsPerEval(() => buf(CERTIFICATE)) },
    { label: 'our adapter, optional rule, object converted once (as the evaluator does)', micros: microsPerEval(() => adapter.evaluate(input)) },
    {
      label: 'our adapter, optional rule, including the per-object conversion (JSON ints to int64)',
      micros: microsPerEval(() => adapter.evaluate(celInput(CERTIFICATE))),
    },
  ];
}

/**
 * The pure cost the engine adds per status event: judging 1,000 distinct Certificates with kstatus
 * alone, with the built-in rule, and with a user rule (medians of several passes, milliseconds).
 */
function thousandObjects(): { label: string; ms: number }[] {
  const objects = Array.from({ length: 1000 }, (_, i) => ({
    ...structuredClone(CERTIFICATE),
    metadata: { ...CERTIFICATE.metadata, name: `cert-${i}`, uid: `uid-${i}` },
  }));
  const builtin = resolveRules({ user: [], builtin: true }).ruleFor('cert-manager.io/v1', 'Certificate');
  const parsed = compileExpression(RULE_OPTIONAL);
  if (!builtin || !parsed.ok) throw new Error('rules did not load');
  const user = { id: 'health-checks[0]', apiVersion: 'cert-manager.io/v1', group: 'cert-manager.io', kind: 'Certificate', current: parsed.program };
  const now = new Date();
  const pass = (judge: (o: (typeof objects)[number]) => unknown) => {
    const runs: number[] = [];
    for (let r = 0; r < 15; r++) {
      const start = process.hrtime.bigint();
      for (const o of objects) judge(o);
      runs.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
    return median(runs.slice(5)); // the first passes warm up the JIT
  };
  return [
    { label: 'kstatus (computeStatus)', ms: pass((o) => computeStatus(o, { now })) },
    { label: 'built-in rule builtin:cert-manager-certificate (evaluateHealth)', ms: pass((o) => evaluateHealth(builtin, o)) },
    { label: 'a user rule (the optional Certificate rule above)', ms: pass((o) => evaluateHealth(user, o)) },
  ];
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'kubewait-cel-bench-'));
  const lines: string[] = [];
  try {
    const empty = await bundle(dir, 'empty', 'globalThis.__celBench = 1;');
    const emptyMs = importMs(empty.file);
    const rows: string[] = [];
    for (const lib of LIBRARIES) {
      const b = await bundle(dir, lib.name.replace(/\W/g, '_'), lib.entry);
      const ms = importMs(b.file) - emptyMs;
      rows.push(`| ${lib.name} | ${(b.bytes / 1024).toFixed(0)} KB | ${(b.gzip / 1024).toFixed(0)} KB | ${ms.toFixed(1)} ms |`);
    }
    lines.push(`Node ${process.version}, ${IMPORT_RUNS} imports per bundle (median), ${EVALUATIONS} evaluations per rule (\`npx tsx bench/cel.ts\`).`, '');
    lines.push('| library | bundle (minified) | gzip | import (fresh process, minus an empty module) |', '|---|---|---|---|', ...rows, '');
    lines.push('| evaluation of the Certificate rule | µs per evaluation |', '|---|---|');
    for (const { label, micros } of evaluationFigures()) lines.push(`| ${label} | ${micros.toFixed(2)} |`);
    lines.push('', '| judging 1,000 Certificates once (each object converted, every expression of the rule run) | ms |', '|---|---|');
    for (const { label, ms } of thousandObjects()) lines.push(`| ${label} | ${ms.toFixed(1)} |`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const body = lines.join('\n');
  console.log(body);
  if (process.argv.includes('--write')) {
    const section = `## CEL library\n\n${CHOICE}\n\n${body}`;
    writeFileSync(RESULTS_MD, setSection(readFileSync(RESULTS_MD, 'utf8'), 'cel', section));
    console.log(`\n${path.relative(ROOT, RESULTS_MD)}: section "CEL library" updated`);
  }
}

/** What the figures decided; kept beside them in RESULTS.md. */
const CHOICE = `Health rules run on \`@marcbachmann/cel-js\` (behind src/status/health/cel.ts): it is the only npm CEL that
parses the optional syntax Flux enables and real rules use (\`status.?conditions.orValue([])\`; \`@bufbuild/cel\`
rejects it), a third of the size, faster to import and an order of magnitude faster to evaluate. Its weak spot, no
official conformance run upstream, is covered by test/status/health/conformance.test.ts (the cel-spec sections a rule
uses, through our adapter, with every known gap listed). Import times on this shared 2-core machine vary by ±15 ms
between runs; the sizes and the evaluation ratio do not. The last table is the pure cost a rule adds to the engine:
a few milliseconds per 1,000 status events (mostly converting each object's JSON integers to int64 once), against
detection latencies of hundreds of milliseconds in the tables above; the end-to-end comparison at 1,000 custom
resources with and without rules is the next section (bench/health.ts).`;

await main();
