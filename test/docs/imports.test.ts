/**
 * The import graph of src/ as docs/architecture.md draws it: no circle (type-only imports count: a circle
 * of types is still two modules that cannot be read apart), `@actions/core` only in the action's shell
 * and the report writer's core implementation, so nothing below the shells can write to the runner, and
 * every import allowed by the "may import" table, every entry of the table used by an import.
 */
import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));
const ARCHITECTURE = fileURLToPath(new URL('../../docs/architecture.md', import.meta.url));

/** The shells and the writers they hand down: the only modules that may write to stdout. */
const STDOUT_WRITERS = /^(main\.ts|cli\.ts|boot\.ts|cli\/|report\/(core|stream)-writer\.ts)/;

/** The only modules that may import `@actions/core`. */
const CORE_USERS = ['main.ts', 'report/core-writer.ts'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** Every module specifier of a file: static imports and re-exports (type-only included) and dynamic imports. */
export function specifiers(source: string): string[] {
  const found: string[] = [];
  const patterns = [/^\s*(?:import|export)\b[^'";]*?\bfrom\s*['"]([^'"]+)['"]/gm, /^\s*import\s*['"]([^'"]+)['"]/gm, /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g];
  for (const pattern of patterns) for (const match of source.matchAll(pattern)) found.push(match[1]!);
  return found;
}

/** file (relative to src/) -> the src/ files it imports. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(SRC)) {
    const local = specifiers(readFileSync(file, 'utf8'))
      .filter((spec) => spec.startsWith('.'))
      .map((spec) => path.relative(SRC, path.resolve(path.dirname(file), spec.replace(/\.js$/, '.ts'))))
      .filter((target) => !target.startsWith('..'));
    graph.set(path.relative(SRC, file), local);
  }
  return graph;
}

/** The strongly connected components with more than one module (Tarjan), each a circle to break. */
function circles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

/** One row of docs/architecture.md's "may import" table. */
interface Layer {
  /** The src/ paths of its first cell, relative to src/: a folder ends in `/` (`engine/`, `main.ts`). */
  covers: string[];
  /** What its files may import besides each other: modules of src/ (`settings`, `status`) or one file of one
   *  (`release/decode`), as paths without `.ts`. */
  allowed: string[];
  /** `everything` (none) or `everything but engine/`: any module but these, instead of `allowed`. */
  allBut?: string[];
}

/** The cell's entries, split at its commas; what parentheses say (what an import is for) is left out. */
function entriesOf(cell: string): string[] {
  const entries = [''];
  let depth = 0;
  for (const char of cell) {
    if (char === '(') depth++;
    else if (char === ')') depth--;
    else if (depth > 0) continue;
    else if (char === ',') entries.push('');
    else entries[entries.length - 1] += char;
  }
  return entries.map((entry) => entry.replaceAll('`', '').trim().replace(/\/$/, ''));
}

/** The rows of the table whose last column is "may import". */
function importTable(markdown: string): Layer[] {
  const lines = markdown.split('\n');
  const header = lines.findIndex((line) => /^\|.*\|\s*may import\s*\|\s*$/.test(line));
  if (header < 0) throw new Error('no table with a "may import" column');
  const rows = lines.slice(header + 2);
  const end = rows.findIndex((line) => !line.startsWith('|'));
  return rows.slice(0, end < 0 ? undefined : end).map((row) => {
    const cells = row.trim().slice(1, -1).split('|');
    if (cells.length !== 3) throw new Error(`a row of the "may import" table without three cells: ${row}`);
    const covers = [...cells[0]!.matchAll(/`src\/([^`]+)`/g)].map((match) => match[1]!);
    const entries = entriesOf(cells[2]!);
    const [first = ''] = entries;
    if (first === 'nothing' && entries.length === 1) return { covers, allowed: [] };
    if (first.startsWith('everything')) {
      const allBut = [first.replace(/^everything( but)?/, '').trim(), ...entries.slice(1)].filter(Boolean);
      return { covers, allowed: [], allBut };
    }
    return { covers, allowed: entries };
  });
}

/** Whether a table entry (`status`, `release/decode`) or a row's path (`engine/`, `main.ts`) takes in a file. */
function takesIn(entryOrPath: string, file: string): boolean {
  if (entryOrPath.endsWith('/')) return file.startsWith(entryOrPath);
  return file === entryOrPath || file === `${entryOrPath}.ts` || file.startsWith(`${entryOrPath}/`);
}

/** The most precise of these entries or paths that takes in the file (`release/decode` before `release`). */
function mostPrecise(entriesOrPaths: string[], file: string): string | undefined {
  return entriesOrPaths.filter((entry) => takesIn(entry, file)).sort((a, b) => b.length - a.length)[0];
}

/** How the table names the module of a file, in a message: its folder or its name (`status`, `time`). */
function moduleOf(file: string): string {
  return file.split('/')[0]!.replace(/\.ts$/, '');
}

/**
 * Where the table and the graph disagree, each a line saying what to change: a file no row covers, an
 * import its row does not allow, and an entry no import of its row uses (so the table stays true both ways).
 * A file belongs to the row with the most precise path; files of one row may import each other.
 */
function tableProblems(graph: Map<string, string[]>, table: Layer[]): string[] {
  const problems: string[] = [];
  const rowName = (layer: Layer) => layer.covers.map((path) => `src/${path}`).join(', ');
  const rowOf = new Map(table.flatMap((layer) => layer.covers.map((path) => [path, layer] as const)));
  const layerOf = (file: string) => rowOf.get(mostPrecise([...rowOf.keys()], file) ?? '');
  const used = new Map<Layer, Set<string>>(table.map((layer) => [layer, new Set()]));
  for (const [file, imports] of graph) {
    const layer = layerOf(file);
    if (!layer) {
      problems.push(`src/${file} is in no row of the "may import" table: add it to one`);
      continue;
    }
    for (const target of imports) {
      if (layerOf(target) === layer) continue;
      if (layer.allBut) {
        const excluded = mostPrecise(layer.allBut, target);
        if (excluded) problems.push(`src/${file} imports src/${target}, which the row of ${rowName(layer)} excludes ("but ${excluded}")`);
        continue;
      }
      const entry = mostPrecise(layer.allowed, target);
      if (entry) used.get(layer)!.add(entry);
      else problems.push(`src/${file} imports src/${target}: add ${moduleOf(target)} to "may import" in the row of ${rowName(layer)}, or drop the import`);
    }
  }
  const files = [...graph.keys()];
  for (const layer of table) {
    for (const entry of [...layer.allowed, ...(layer.allBut ?? [])]) {
      const row = `the row of ${rowName(layer)}`;
      if (!files.some((file) => takesIn(entry, file))) problems.push(`${row} names ${entry}, which is no file or folder of src/`);
      else if (!layer.allBut && !used.get(layer)!.has(entry)) problems.push(`${row} may import ${entry}, but none of its files does: remove it`);
    }
  }
  return problems;
}

describe('the import graph of src/', () => {
  it('reads every kind of import', () => {
    const source =
      "import type { A } from './a.js';\nexport { B } from '../b.js';\nimport './side.js';\nconst c = await import('./c.js');\nimport {\n  D,\n} from './d.js';";
    expect(specifiers(source).sort()).toEqual(['../b.js', './a.js', './c.js', './d.js', './side.js']);
  });

  it('finds a circle when there is one', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
    ]);
    expect(circles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts']]);
  });

  it('has no import circle, type-only imports included', () => {
    expect(circles(importGraph())).toEqual([]);
  });

  it('reads the "may import" table: paths, entries without what parentheses say, nothing and everything', () => {
    const markdown = [
      '| layer | what it does | may import |',
      '|---|---|---|',
      '| `src/time.ts` | the clock | nothing |',
      '| `src/boot.ts`, `src/cli/` | the shells | settings (`WaitFor`, `Mode`), release/decode, `engine/` |',
      '| `src/main.ts` | the action | everything but engine/ |',
      '',
      '| `src/not-this-table.ts` | | |',
    ].join('\n');
    expect(importTable(markdown)).toEqual([
      { covers: ['time.ts'], allowed: [] },
      { covers: ['boot.ts', 'cli/'], allowed: ['settings', 'release/decode', 'engine'] },
      { covers: ['main.ts'], allowed: [], allBut: ['engine'] },
    ]);
  });

  it('names the file, the import and the row for an import the table does not allow, and an entry no import uses', () => {
    const graph = new Map([
      ['settings.ts', []],
      ['time.ts', []],
      ['release/decode.ts', ['settings.ts']],
      ['release/wait.ts', ['release/decode.ts', 'time.ts']],
      ['engine/index.ts', []],
      ['cli-boot.ts', ['cli/node-version.ts']],
      ['cli/node-version.ts', []],
      ['cli/run.ts', ['engine/index.ts', 'settings.ts']],
      ['new.ts', []],
    ]);
    const table = [
      { covers: ['settings.ts', 'time.ts', 'engine/'], allowed: [] },
      { covers: ['release/'], allowed: ['settings', 'kube'] },
      { covers: ['cli-boot.ts'], allowed: ['cli/node-version'] },
      { covers: ['cli/'], allowed: [], allBut: ['engine'] },
    ];
    expect(tableProblems(graph, table)).toEqual([
      'src/release/wait.ts imports src/time.ts: add time to "may import" in the row of src/release/, or drop the import',
      'src/cli/run.ts imports src/engine/index.ts, which the row of src/cli/ excludes ("but engine")',
      'src/new.ts is in no row of the "may import" table: add it to one',
      'the row of src/release/ names kube, which is no file or folder of src/',
    ]);
    graph.set('kube/index.ts', []);
    expect(tableProblems(graph, table)).toContain('the row of src/release/ may import kube, but none of its files does: remove it');
  });

  it('imports only what the "may import" table of docs/architecture.md allows, and all it names', () => {
    expect(tableProblems(importGraph(), importTable(readFileSync(ARCHITECTURE, 'utf8')))).toEqual([]);
  });

  it('imports @actions/core only in the action shell and the core report writer', () => {
    const users = sourceFiles(SRC)
      .filter((file) => specifiers(readFileSync(file, 'utf8')).includes('@actions/core'))
      .map((file) => path.relative(SRC, file))
      .sort();
    expect(users.filter((file) => !CORE_USERS.includes(file))).toEqual([]);
  });

  it('writes to stdout only in the shells and their writers', () => {
    const writers = sourceFiles(SRC)
      .filter((file) => /\bprocess\.stdout\b|\bconsole\.(log|info|warn|error)\b/.test(readFileSync(file, 'utf8')))
      .map((file) => path.relative(SRC, file));
    expect(writers.filter((file) => !STDOUT_WRITERS.test(file))).toEqual([]);
  });
});
