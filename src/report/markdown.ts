/**
 * Safe markdown/HTML pieces for the job summary. Messages come from the cluster (events, conditions,
 * container states) and must never break the table or inject markup.
 */

/** Text as HTML: for `<summary>` and other places where markdown is not rendered. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** What `escapeMarkdown` changes: HTML's and markdown's special characters, and line ends. */
const NEEDS_ESCAPE = /[&<>"\\`*_[\]~|\r\n]/;

/** Text as inline markdown: HTML escaped, markdown punctuation backslash-escaped, newlines as `<br>`. */
export function escapeMarkdown(text: string): string {
  // Most cells (names, namespaces, "Deployment is available") have nothing to escape: one test instead of
  // six replacements, for each cell of a summary of thousands of rows.
  if (!NEEDS_ESCAPE.test(text)) return text;
  return escapeHtml(text)
    .replace(/[\\`*_[\]~|]/g, (c) => `\\${c}`)
    .replace(/\r?\n/g, '<br>');
}

/**
 * Text as a markdown link's text: markdown punctuation, `&` and `<` backslash-escaped (CommonMark escapes any
 * ASCII punctuation so), and no HTML entity. `k8s/R&D app.yaml` shows as `R&D` wherever the link is rendered
 * or read, never `R&amp;D`; `<`, `[` and `]` can neither open a tag nor end the link early.
 */
export function linkText(text: string): string {
  return text.replace(/[\\`*_[\]~|<>&!]/g, (c) => `\\${c}`).replace(/\r?\n/g, ' ');
}

/** Text inside a table cell: like `escapeMarkdown`, and never empty (an empty cell reads as a bug). */
export function cell(text: string): string {
  return text === '' ? ' ' : escapeMarkdown(text);
}

/** A code span that cannot be broken by backticks in `text` (CommonMark: a longer fence). Not for tables. */
export function code(text: string): string {
  const longestRun = Math.max(0, ...Array.from(text.matchAll(/`+/g), (m) => m[0].length));
  const fence = '`'.repeat(longestRun + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text.replace(/\r?\n/g, ' ')}${pad}${fence}`;
}

/** A GFM table. Cells are raw markdown: escape them with `cell()` first. */
export function table(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

/** A collapsible block. `summaryHtml` is raw HTML; `body` is markdown. */
export function details(summaryHtml: string, body: string): string {
  return `<details>\n<summary>${summaryHtml}</summary>\n\n${body}\n\n</details>`;
}

/** A URL path built from raw segments, safe inside the `(...)` of a markdown link. */
export function urlPath(segments: string[]): string {
  return segments.map((s) => encodeURIComponent(s).replace(/[()'*!]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)).join('/');
}
