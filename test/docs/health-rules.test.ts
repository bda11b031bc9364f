/**
 * docs/health-rules.md lists every built-in rule, and the upstream source each one follows, and its rule
 * examples are valid health-checks input.
 */
import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { builtinRules } from '../../src/status/health/builtin.js';
import { loadHealthChecks } from '../../src/status/health/load.js';
import { BUILTIN_FUNCTION_RULES } from '../../src/status/progressive/index.js';
import { workspaceFiles } from '../../src/workspace-files.js';

const doc = readFileSync('docs/health-rules.md', 'utf8');
/** rules/builtin.yaml's and the ones written as functions (a Flagger Canary's, status/progressive/). */
const ruleNames = () => [...builtinRules().map((r) => r.id), ...BUILTIN_FUNCTION_RULES].map((id) => id.replace(/^builtin:/, '')).sort();
const namesInRows = (section: string) => [...section.matchAll(/^\| `([a-z0-9-]+)` \|/gm)].map((m) => m[1]).sort();

describe('docs/health-rules.md', () => {
  it('has a row for every built-in rule, and none for a rule that does not exist', () => {
    const section = doc.slice(doc.indexOf('### Built-in rules'), doc.indexOf('### What each built-in rule follows'));
    expect(namesInRows(section)).toEqual(ruleNames());
  });

  it('names, for every built-in rule, the upstream source it follows', () => {
    const section = doc.slice(doc.indexOf('### What each built-in rule follows'), doc.indexOf('### For Flux users'));
    expect(namesInRows(section)).toEqual(ruleNames());
    expect(section).not.toContain('not yet audited');
  });

  it('shows inline rules that parse without problems', async () => {
    const block = /health-checks: \|\n((?: {6}- [\s\S]*?))```/.exec(doc)?.[1];
    expect(block).toBeDefined();
    const value = (block ?? '')
      .split('\n')
      .map((line) => line.slice(6))
      .join('\n');
    const { rules, problems } = await loadHealthChecks(value, workspaceFiles(process.cwd()));
    expect(problems).toEqual([]);
    expect(rules.map((r) => r.id)).toEqual(['health-checks[0]', 'health-checks[1]']);
  });
});
