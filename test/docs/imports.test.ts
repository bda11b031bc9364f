/**
 * The import graph of src/ as docs/architecture.md draws it: no circle (type-only imports count: a circle
 * of types is still two modules that cannot be read apart), and `@actions/core` only in the action's shell
 * and the report writer's core implementation, so nothing below the shells can write to the runner.
 */
import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));

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
