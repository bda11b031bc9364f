/** The Node the command needs (src/cli/node-version.ts), as package.json `engines` says it. */
import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { MINIMUM_NODE_MAJOR, nodeVersionProblem } from '../../src/cli/node-version.js';

const json = (file: string) => JSON.parse(readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8'));

describe('the Node version check', () => {
  it.each<[string, boolean]>([
    ['v4.9.1', true],
    ['v18.20.8', true],
    ['v20.20.2', true],
    ['v21.7.3', true],
    ['v22.0.0', false],
    ['v24.21.0', false],
    ['v30.0.0-nightly2027', false],
    ['not a Node version', false],
  ])('%s is too old: %s', (version, tooOld) => {
    expect(nodeVersionProblem(version, '/usr/bin/node') !== undefined).toBe(tooOld);
  });

  it('says what is needed, what was found, and the way without Node, in lines that fit a terminal', () => {
    const message = nodeVersionProblem('v20.20.2', '/usr/bin/node')!;
    expect(message).toMatch(/^kubewait: needs Node\.js 22 or later; this is Node\.js v20\.20\.2 \(\/usr\/bin\/node\)\.\n/);
    expect(message).toContain('single executable');
    expect(message).toContain('npm run sea');
    expect(message.endsWith('\n')).toBe(true);
    for (const line of message.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
  });

  it('is the minimum package.json (and its lock) declare in engines', () => {
    expect(json('package.json').engines).toEqual({ node: `>=${MINIMUM_NODE_MAJOR}` });
    expect(json('package-lock.json').packages[''].engines).toEqual({ node: `>=${MINIMUM_NODE_MAJOR}` });
  });
});
