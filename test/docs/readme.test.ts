/** README.md's generated tables match action.yml, and its examples are well-formed. */
import { describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parse, parseAllDocuments } from 'yaml';
import { inputsTable, MARKERS, outputsTable, updateReadme } from '../../scripts/readme-tables.js';
import { EXIT_CODES, EXIT_MEANINGS, type Verdict } from '../../src/cli/exit-code-table.js';

const readme = readFileSync('README.md', 'utf8');
const actionYml = readFileSync('action.yml', 'utf8');

describe('README tables', () => {
  it('are up to date with action.yml (run `npm run readme` when this fails)', () => {
    expect(updateReadme(readme, actionYml)).toBe(readme);
  });

  it('would be detected as stale when action.yml changes', () => {
    const changed = actionYml.replace('default: 5m', 'default: 10m');
    expect(changed).not.toBe(actionYml);
    expect(updateReadme(readme, changed)).not.toBe(readme);
    const renamedOutput = actionYml.replace(/^ {2}duration:/m, '  elapsed:');
    expect(updateReadme(readme, renamedOutput)).toContain('| `elapsed` |');
  });

  it('list every input and output of action.yml once', () => {
    const manifest = { inputs: { a: { description: 'x | y\n  z', default: '' }, b: { default: true } }, outputs: { o: { description: 'out' } } };
    expect(inputsTable(manifest)).toBe('| Input | Default | Description |\n| --- | --- | --- |\n| `a` | _empty_ | x \\| y z |\n| `b` | `true` |  |');
    expect(outputsTable(manifest)).toBe('| Output | Description |\n| --- | --- |\n| `o` | out |');
  });

  it('`npm run readme -- --check` agrees (the CLI CI and humans run)', () => {
    const out = execFileSync(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'scripts/readme.ts', '--check'], { encoding: 'utf8' });
    expect(out).toContain('README.md is up to date with action.yml.');
  });

  it('needs its markers', () => {
    expect(() => updateReadme('# no markers', actionYml)).toThrow(MARKERS.inputs[0]);
  });
});

describe('README content', () => {
  it('has the exit codes of the command, with their meanings (src/cli/exit-code-table.ts)', () => {
    const section = readme.slice(readme.indexOf('**Exit codes**'));
    const rows = section.slice(section.indexOf('| code |')).split('\n\n')[0]!.split('\n').slice(2);
    expect(rows).toEqual(Object.entries(EXIT_CODES).map(([verdict, code]) => `| ${code} | ${EXIT_MEANINGS[verdict as Verdict]} |`));
  });

  it('keeps the Development section and its commands', () => {
    const development = readme.slice(readme.indexOf('## Development'));
    for (const command of ['npm ci', 'npm test', 'npm run demo', 'npm run readme']) expect(development).toContain(command);
    const scripts = JSON.parse(readFileSync('package.json', 'utf8')).scripts as Record<string, string>;
    expect(Object.keys(scripts)).toEqual(expect.arrayContaining(['test', 'demo', 'readme']));
  });

  it('has YAML examples that parse', () => {
    const blocks = Array.from(readme.matchAll(/```yaml\n([\s\S]*?)```/g), (m) => m[1]!);
    expect(blocks.length).toBeGreaterThan(10);
    for (const block of blocks) {
      const errors = parseAllDocuments(block).flatMap((doc) => ('errors' in doc ? doc.errors.map((e) => e.message) : []));
      expect({ block, errors }).toEqual({ block, errors: [] });
    }
  });

  it('passes only declared inputs to the action and the reusable workflow', () => {
    const actionInputs = Object.keys((parse(actionYml) as { inputs: object }).inputs);
    const reusable = parse(readFileSync('.github/workflows/kubewait.yml', 'utf8')) as { on: { workflow_call: { inputs: object } } };
    const reusableInputs = Object.keys(reusable.on.workflow_call.inputs);
    const checked: string[][] = [];
    const visit = (node: unknown): void => {
      if (Array.isArray(node)) return node.forEach(visit);
      if (!node || typeof node !== 'object') return;
      const { uses, with: given } = node as { uses?: unknown; with?: Record<string, unknown> };
      if (typeof uses === 'string' && given) {
        const allowed = uses.startsWith('kubewait/kubewait@') ? actionInputs : uses.includes('workflows/kubewait.yml') ? reusableInputs : undefined;
        if (allowed) {
          checked.push(Object.keys(given));
          expect(Object.keys(given).filter((k) => !allowed.includes(k))).toEqual([]);
        }
      }
      Object.values(node).forEach(visit);
    };
    const docs = Array.from(readme.matchAll(/```yaml\n([\s\S]*?)```/g)).flatMap(([, block]) => parseAllDocuments(block!).map((d) => d.toJS() as unknown));
    for (const doc of docs) {
      // A fragment of a `with:` block (only input names at the top) is checked as one.
      const keys = doc && typeof doc === 'object' && !Array.isArray(doc) ? Object.keys(doc) : [];
      if (keys.length > 0 && keys.every((k) => actionInputs.includes(k))) checked.push(keys);
      else visit(doc);
    }
    expect(checked.length).toBeGreaterThan(10);
  });
});
