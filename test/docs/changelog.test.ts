/**
 * CHANGELOG.md is kept from now on (docs/releasing.md): an Unreleased section at the top collects what the
 * next release changes, and the version in package.json has its section, the one the release workflow
 * (.github/workflows/release.yml) turns into the release notes.
 */
import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';

const changelog = readFileSync('CHANGELOG.md', 'utf8');
const headings = changelog.split('\n').filter((line) => line.startsWith('## '));
const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };

describe('CHANGELOG.md', () => {
  it('starts with the Unreleased section', () => {
    expect(headings[0]).toBe('## [Unreleased]');
  });

  it("has a section for package.json's version", () => {
    const escaped = version.replace(/\./g, '\\.');
    expect(headings.some((heading) => new RegExp(`^## \\[?${escaped}\\]?( |$)`).test(heading))).toBe(true);
  });
});
