import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';

describe('toolchain', () => {
  it('runs jest on Node 24 (client-node 2 needs >= 22)', () => {
    const major = Number(process.versions.node.split('.')[0]);
    expect(major).toBeGreaterThanOrEqual(24);
  });
  it('declares an ES module package', () => {
    expect(JSON.parse(readFileSync('package.json', 'utf8')).type).toBe('module');
  });
});
