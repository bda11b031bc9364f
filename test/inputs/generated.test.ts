import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { ACTION_FILE, GENERATED_FILE, inputsSource } from '../../scripts/inputs.js';
import { INPUT_DEFAULTS, INPUT_NAMES } from '../../src/settings.js';

describe('the inputs generated from action.yml (npm run inputs)', () => {
  it('src/action-inputs.ts is what action.yml generates', () => {
    expect(readFileSync(GENERATED_FILE, 'utf8')).toBe(inputsSource(readFileSync(ACTION_FILE, 'utf8')));
  });

  it("has every input's name in order and every value default, and no expression default", () => {
    const inputs = (parse(readFileSync(ACTION_FILE, 'utf8')) as { inputs: Record<string, { default?: string }> }).inputs;
    expect([...INPUT_NAMES]).toEqual(Object.keys(inputs));
    expect(INPUT_DEFAULTS).toMatchObject({ timeout: '5m', 'wait-for': 'ready', 'status-grace': '30s' });
    expect(Object.keys(INPUT_DEFAULTS)).not.toContain('github-token');
    for (const [name, value] of Object.entries(INPUT_DEFAULTS)) expect(inputs[name]?.default).toBe(value);
  });

  it('follows an edit of action.yml', () => {
    const edited = readFileSync(ACTION_FILE, 'utf8').replace(/(\n {2}timeout:\n(?: {4}.*\n)*? {4}default: )5m/, '$110m');
    expect(edited).not.toBe(readFileSync(ACTION_FILE, 'utf8'));
    expect(inputsSource(edited)).toContain("timeout: '10m'");
  });
});
