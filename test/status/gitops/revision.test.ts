import { describe, expect, it } from '@jest/globals';
import { parseRevision, revisionMatches, anyRevisionMatches } from '../../../src/status/gitops/revision.js';

const SHA = '9f8e7d6c5b4a39281706f5e4d3c2b1a098765432';
const OTHER = 'abc1234def5678901234567890abcdef01234567';

function wanted(text: string) {
  const parsed = parseRevision(text);
  if (!parsed.ok) throw new Error(`${text}: ${parsed.problem}`);
  return parsed.value;
}

describe('parseRevision', () => {
  it.each([
    [SHA, { text: SHA, sha: SHA }],
    ['9F8E7D6', { text: '9F8E7D6', sha: '9f8e7d6' }],
    [`main@sha1:${SHA}`, { text: `main@sha1:${SHA}`, sha: SHA }],
    [`sha1:${SHA}`, { text: `sha1:${SHA}`, sha: SHA }],
    ['v1.2.3', { text: 'v1.2.3', name: 'v1.2.3' }],
    ['refs/heads/main', { text: 'refs/heads/main', name: 'main' }],
    ['release/2026-12', { text: 'release/2026-12', name: 'release/2026-12' }],
    ['1.2.3', { text: '1.2.3', name: '1.2.3' }],
    // All hex but no digit, or no letter: a branch or tag name, not a sha.
    ['beef', { text: 'beef', name: 'beef' }],
    ['2026', { text: '2026', name: '2026' }],
  ])('%s', (text, value) => {
    expect(parseRevision(text)).toEqual({ ok: true, value });
  });

  it.each([
    ['abc12', 'it looks like a commit sha shorter than 7 hex characters, which could match unrelated commits'],
    ['main@sha1:abc', 'the digest after "main@sha1:" is not 7 or more hex characters'],
    ['main@sha1:xyz1234', 'the digest after "main@sha1:" is not 7 or more hex characters'],
    [`@sha1:${SHA}`, '"" before "@" is not a branch or tag name'],
    ['${{ github.sha }}', 'it is an unexpanded workflow expression'],
    ['main branch', 'it is neither a commit sha nor a tag or branch name'],
    ['v1..2', 'it is neither a commit sha nor a tag or branch name'],
    ['-main', 'it is neither a commit sha nor a tag or branch name'],
  ])('%s is refused', (text, problem) => {
    expect(parseRevision(text)).toEqual({ ok: false, problem });
  });
});

describe('revisionMatches: the user’s revision against what the controllers write', () => {
  it.each([
    // A sha of 7 or more hex characters against Flux's forms, Argo CD's full sha and a chart's build metadata.
    [SHA, `main@sha1:${SHA}`, true],
    [SHA.slice(0, 7), `main@sha1:${SHA}`, true],
    [SHA.slice(0, 7).toUpperCase(), `sha1:${SHA}`, true],
    [SHA.slice(0, 12), SHA, true],
    [SHA, SHA, true],
    [SHA, `refs/heads/main@sha1:${SHA}`, true],
    [SHA, `1.2.3+${SHA.slice(0, 12)}`, true],
    [SHA, `main/${SHA}`, true],
    [`main@sha1:${SHA}`, `main@sha1:${SHA}`, true],
    [`main@sha1:${SHA.slice(0, 7)}`, SHA, true],
    [SHA, `main@sha1:${OTHER}`, false],
    [SHA.slice(0, 7), OTHER, false],
    [SHA, '1.2.3', false],
    [SHA, '', false],
    // A sha never matches by name.
    [SHA.slice(0, 8), SHA.slice(0, 6), false],
    // Tags, branches and chart versions exactly.
    ['v1.2.3', `v1.2.3@sha1:${SHA}`, true],
    ['v1.2.3', `refs/tags/v1.2.3@sha1:${SHA}`, true],
    ['v1.2.3', 'v1.2.3', true],
    ['v1.2.3', `v1.2.30@sha1:${SHA}`, false],
    ['v1.2', `v1.2.3@sha1:${SHA}`, false],
    ['main', `main@sha1:${SHA}`, true],
    ['main', `refs/heads/main@sha1:${SHA}`, true],
    ['refs/heads/main', `main@sha1:${SHA}`, true],
    ['main', `maintenance@sha1:${SHA}`, false],
    ['1.2.3', `1.2.3+${SHA.slice(0, 12)}`, true],
    ['1.2.3', '1.2.3', true],
    ['1.2.3', '1.2.4', false],
    ['v1.2.3', SHA, false],
  ])('%s ~ %s: %s', (given, reported, matches) => {
    expect(revisionMatches(wanted(given), reported)).toBe(matches);
  });

  it('multi-source: any of the revisions', () => {
    expect(anyRevisionMatches(wanted(SHA.slice(0, 7)), ['1.2.3', SHA])).toBe(true);
    expect(anyRevisionMatches(wanted(SHA.slice(0, 7)), ['1.2.3', OTHER])).toBe(false);
    expect(anyRevisionMatches(wanted(SHA.slice(0, 7)), [])).toBe(false);
  });
});
