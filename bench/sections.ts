/**
 * Sections of bench/RESULTS.md that other bench scripts write (between `<!-- NAME:start -->` and
 * `<!-- NAME:end -->`), so that re-rendering the main report keeps them, and each script replaces only
 * its own. Today: `cel` (bench/cel.ts), `health` (bench/health.ts), `helm` (bench/helm.ts), `memory`
 * (bench/memory.ts), `tests` (bench/tests.ts), `fleet` (bench/fleet.ts), `gitops` (bench/gitops.ts), `serving_requests`
 * (bench/serving-requests.ts), `flux_reconcile` (bench/flux-reconcile.ts), and,
 * written by hand, `memory_diagnosis` (where the memory goes), `real_latency` (where bench/real.ts's latency
 * goes), `hostile_two` and `hostile_three` (bench/hostile-two.ts and hostile-three.ts print tables) and `json_stream` (bench/json-stream.ts prints a
 * table; the before/after figures of a change are put together by hand) and `exit_latency` (bench/exit-latency.ts,
 * bench/startup-cpu.ts, bench/early-signal.ts and bench/memory.ts print tables, put together by hand), `failed_create`
 * and `image_pull` (bench/failed-create.ts, its two cases) and `smoke` (bench/smoke.ts). A name is letters, digits and `_`
 * only. The appendices (bench/REAL-CLUSTER*.md, copied in by bench/run.ts after its own report) are replaced in place
 * by `setAppendix`.
 */
const SECTION = /<!-- (\w+):start -->[\s\S]*?<!-- \1:end -->\n?/g;

/** `rendered` plus every marked section of `previous` it does not have itself. */
export function keepSections(previous: string, rendered: string): string {
  const kept = [...previous.matchAll(SECTION)].filter((m) => !rendered.includes(`<!-- ${m[1]}:start -->`)).map((m) => m[0]);
  return kept.length === 0 ? rendered : `${rendered.trimEnd()}\n\n${kept.join('\n').trimEnd()}\n`;
}

/** `document` with the section `name` set to `body` (appended when absent). */
export function setSection(document: string, name: string, body: string): string {
  const block = `<!-- ${name}:start -->\n${body.trimEnd()}\n<!-- ${name}:end -->\n`;
  const existing = new RegExp(`<!-- ${name}:start -->[\\s\\S]*?<!-- ${name}:end -->\\n?`);
  return existing.test(document) ? document.replace(existing, block) : `${document.trimEnd()}\n\n${block}`;
}

/** `document` with the appendix that starts at the line `heading` (up to the next `## ` heading or marked
 *  section) replaced by `body`, which starts with that heading; appended when absent. What
 *  `npm run bench -- --render` would copy in, without re-rendering the rest of the file. */
export function setAppendix(document: string, heading: string, body: string): string {
  const start = document.indexOf(`\n${heading}\n`);
  if (start < 0) return `${document.trimEnd()}\n\n${body.trimEnd()}\n`;
  const rest = document.slice(start + heading.length + 2);
  const next = rest.search(/^(## |<!-- \w+:start -->)/m);
  const tail = next < 0 ? '' : `\n${rest.slice(next)}`;
  return `${document.slice(0, start + 1)}${body.trimEnd()}\n${tail}`;
}
