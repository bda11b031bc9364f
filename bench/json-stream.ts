/**
 * `npx tsx bench/json-stream.ts`: how fast the JSON readers (src/kube/json-items.ts, json-lines.ts) cut a
 * response into objects, in MB/s of UTF-8 received. A synthetic LIST page and a watch stream of the same objects (Deployments
 * of about 1 KB, their last-applied annotation full of `\"` and `\u003c` as API servers write it, one in a
 * hundred with a 200 KB annotation that the 64 Ki cap cuts), handed over in 64 Ki-character chunks as a socket
 * delivers them; the callback only counts, so the figure is the reader's alone (JSON.parse of each object
 * comes after, in the client). Prints the median of several samples and the load average, which matters on a
 * shared machine. Never part of `npm test`: these are timings.
 */
import { loadavg } from 'node:os';
import { MAX_STRING_CHARS } from '../src/kube/json-scanner.js';
import { readItems, readLines } from './json-stream-reader.js';

const OBJECTS = 4_000;
const RUNS = 7;
const CHUNK_CHARS = 64 * 1024;
const SAMPLE_MS = 200;

function deployment(i: number, outsized: boolean): object {
  const name = `web-${i}`;
  const applied = JSON.stringify({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, annotations: { note: '<b>bold</b> & "quoted"' } },
    spec: { replicas: 2, template: { spec: { containers: [{ name: 'app', image: 'registry.example.com/app:1.2.3', args: ['--flag=<x>'] }] } } },
  });
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name,
      namespace: 'bench',
      uid: `00000000-0000-0000-0000-${String(i).padStart(12, '0')}`,
      resourceVersion: String(1000 + i),
      labels: { app: name, 'app.kubernetes.io/part-of': 'bench' },
      annotations: {
        // What Go's encoding/json writes: HTML characters as \u escapes (replaced below in the text).
        'kubectl.kubernetes.io/last-applied-configuration': applied,
        ...(outsized && i % 100 === 0 ? { huge: 'x'.repeat(200_000) } : {}),
      },
    },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'app', image: 'registry.example.com/app:1.2.3' }] } },
    },
    status: {
      observedGeneration: 1,
      replicas: 2,
      readyReplicas: 1,
      conditions: [{ type: 'Available', status: 'False', reason: 'MinimumReplicasUnavailable', message: 'Deployment does not have minimum availability.' }],
    },
  };
}

/** JSON as an API server writes it: `<`, `>` and `&` escaped. */
const goJson = (value: unknown) => JSON.stringify(value).replace(/[<>&]/g, (c) => `\\u00${c.charCodeAt(0).toString(16)}`);

function texts(outsized: boolean): { list: string; watch: string } {
  const objects = Array.from({ length: OBJECTS }, (_, i) => deployment(i, outsized));
  const list = goJson({ kind: 'DeploymentList', apiVersion: 'apps/v1', metadata: { resourceVersion: '99999' }, items: objects });
  const watch = objects.map((object) => goJson({ type: 'ADDED', object })).join('\n') + '\n';
  return { list, watch };
}
const chunks = (text: string) => Array.from({ length: Math.ceil(text.length / CHUNK_CHARS) }, (_, i) => text.slice(i * CHUNK_CHARS, (i + 1) * CHUNK_CHARS));

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Median MB/s of `read` over `text`, which must hand over `expected` objects. */
function measure(text: string, read: (chunks: string[]) => number, expected: number): number {
  const pieces = chunks(text);
  const megabytes = Buffer.byteLength(text) / 1e6;
  const rates: number[] = [];
  for (let run = 0; run < RUNS + 1; run++) {
    // One sample reads the text as many times as fit in SAMPLE_MS: a fast reader's single pass is too short to time.
    let passes = 0;
    const start = performance.now();
    do {
      const count = read(pieces);
      if (count !== expected) throw new Error(`handed over ${count} objects, not ${expected}`);
      passes++;
    } while (performance.now() - start < SAMPLE_MS);
    const seconds = (performance.now() - start) / 1000;
    if (run > 0) rates.push((passes * megabytes) / seconds); // the first sample warms the JIT up
  }
  return median(rates);
}

const load = () => loadavg()[0]!.toFixed(2);
const loadAtStart = load();
const ordinary = texts(false);
const outsized = texts(true);
const mb = (text: string) => `${(Buffer.byteLength(text) / 1e6).toFixed(1)} MB`;
const rows = [
  [`LIST page (${mb(ordinary.list)}), strings whole (\`getItems\` default)`, ordinary.list, (c: string[]) => readItems(c, Number.POSITIVE_INFINITY)],
  [`LIST page (${mb(ordinary.list)}), strings cut at 64 Ki (\`listItems\`)`, ordinary.list, (c: string[]) => readItems(c, MAX_STRING_CHARS)],
  [`LIST page, 1 in 100 with a 200 KB string (${mb(outsized.list)}), cut at 64 Ki`, outsized.list, (c: string[]) => readItems(c, MAX_STRING_CHARS)],
  [`watch stream (${mb(ordinary.watch)}), cut at 64 Ki`, ordinary.watch, (c: string[]) => readLines(c, MAX_STRING_CHARS)],
  [`watch stream, 1 in 100 with a 200 KB string (${mb(outsized.watch)}), cut at 64 Ki`, outsized.watch, (c: string[]) => readLines(c, MAX_STRING_CHARS)],
] as const;
console.log(`| ${OBJECTS.toLocaleString('en')} Deployments | median MB/s (n=${RUNS}) |`);
console.log('|---|---:|');
for (const [name, text, read] of rows) console.log(`| ${name} | ${measure(text, read, OBJECTS).toFixed(0)} |`);
console.log(`\nNode ${process.version}; 1-min load average ${loadAtStart} at start, ${load()} at end (2 cores shared).`);
