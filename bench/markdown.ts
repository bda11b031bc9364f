/** Markdown tables for RESULTS.md. Pure. */

export type Align = 'left' | 'right';

export interface Column {
  title: string;
  align?: Align;
}

/** A GitHub-flavoured markdown table; `|` in cells is escaped, columns padded for reading as text too. */
export function table(columns: ReadonlyArray<Column | string>, rows: ReadonlyArray<ReadonlyArray<string | number>>): string {
  const cols = columns.map((c) => (typeof c === 'string' ? { title: c, align: 'left' as const } : { align: 'left' as const, ...c }));
  const cells = rows.map((row) => cols.map((_, i) => escapeCell(String(row[i] ?? ''))));
  const widths = cols.map((c, i) => Math.max(3, c.title.length, ...cells.map((row) => row[i]?.length ?? 0)));
  const line = (values: string[]) => `| ${values.map((v, i) => pad(v, widths[i] ?? 0, cols[i]?.align ?? 'left')).join(' | ')} |`;
  const rule = `|${cols.map((c, i) => (c.align === 'right' ? `${'-'.repeat((widths[i] ?? 0) + 1)}:` : `${'-'.repeat((widths[i] ?? 0) + 2)}`)).join('|')}|`;
  return [line(cols.map((c) => escapeCell(c.title))), rule, ...cells.map(line)].join('\n');
}

function escapeCell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

function pad(text: string, width: number, align: Align): string {
  return align === 'right' ? text.padStart(width) : text.padEnd(width);
}
