/**
 * Sections of bench/RESULTS.md that other bench scripts write (between `<!-- NAME:start -->` and
 * `<!-- NAME:end -->`), so that re-rendering the main report keeps them, and each script replaces only
 * its own. Today: `cel` (bench/cel.ts), `health` (bench/health.ts), `helm` (bench/helm.ts), `memory`
 * (bench/memory.ts; `memory_diagnosis`, where the memory goes, written by hand), `tests` (bench/tests.ts).
 * A name is letters, digits and `_` only.
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
