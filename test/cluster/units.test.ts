/** Pure parts of the stand-in: selectors, patches, duration printing. */
import { describe, expect, it } from '@jest/globals';
import { jsonPatch, mergePatch, strategicMergePatch } from './patch.js';
import { parseFieldSelector, parseLabelSelector } from './selectors.js';
import { humanDuration } from './tables.js';

const labelled = (labels: Record<string, string>) => ({ metadata: { labels } });

describe('label selectors', () => {
  it.each([
    ['', {}, true],
    ['a', { a: '' }, true],
    ['!a', { a: 'x' }, false],
    ['a=1,b!=2', { a: '1', b: '3' }, true],
    ['a=1,b!=2', { a: '1', b: '2' }, false],
    ['a notin (1,2)', {}, true],
    ['a in (1, 2)', { a: '2' }, true],
    ['a in (1,2),c', { a: '2' }, false],
    ['app.kubernetes.io/name==web', { 'app.kubernetes.io/name': 'web' }, true],
  ])('%p on %p -> %p', (selector, labels, expected) => {
    expect(parseLabelSelector(selector)(labelled(labels))).toBe(expected);
  });

  it.each(['a in', '=x', 'a in (1', 'a b'])('rejects %p', (selector) => {
    expect(() => parseLabelSelector(selector)).toThrow('unable to parse requirement');
  });
});

describe('field selectors', () => {
  it('supports the per-kind fields a real server supports and rejects others', () => {
    const event = { metadata: { name: 'e', namespace: 'n' }, involvedObject: { uid: 'u1', kind: 'Pod' }, type: 'Warning' };
    expect(parseFieldSelector('involvedObject.uid=u1,type=Warning', 'Event')(event)).toBe(true);
    expect(parseFieldSelector('involvedObject.uid!=u1', 'Event')(event)).toBe(false);
    expect(() => parseFieldSelector('involvedObject.uid=u1', 'ConfigMap')).toThrow('field label not supported: involvedObject.uid');
    expect(parseFieldSelector('status.phase=Running', 'Pod')({ metadata: {}, status: { phase: 'Running' } })).toBe(true);
  });
});

describe('patches', () => {
  it('merge patch deletes with null and replaces lists', () => {
    expect(mergePatch({ a: 1, b: { c: 2, d: 3 }, l: [1, 2] }, { b: { c: null }, l: [3] })).toEqual({ a: 1, b: { d: 3 }, l: [3] });
  });

  it('strategic merge patch merges named items and honours $patch: delete', () => {
    const target = {
      containers: [
        { name: 'a', image: '1' },
        { name: 'b', image: '1' },
      ],
    };
    expect(
      strategicMergePatch(target, {
        containers: [
          { name: 'b', image: '2' },
          { name: 'c', image: '1' },
        ],
      }),
    ).toEqual({
      containers: [
        { name: 'a', image: '1' },
        { name: 'b', image: '2' },
        { name: 'c', image: '1' },
      ],
    });
    expect(strategicMergePatch(target, { containers: [{ name: 'a', $patch: 'delete' }] })).toEqual({ containers: [{ name: 'b', image: '1' }] });
  });

  it('JSON patch applies add/remove/replace/move/copy/test in order', () => {
    const doc = { a: { b: 1 }, l: [1, 2] };
    expect(
      jsonPatch(doc, [
        { op: 'add', path: '/l/-', value: 3 },
        { op: 'replace', path: '/a/b', value: 2 },
        { op: 'copy', from: '/a', path: '/c' },
        { op: 'move', from: '/l/0', path: '/first' },
        { op: 'remove', path: '/a' },
        { op: 'test', path: '/c/b', value: 2 },
      ]),
    ).toEqual({ c: { b: 2 }, l: [2, 3], first: 1 });
    expect(doc).toEqual({ a: { b: 1 }, l: [1, 2] });
    expect(() => jsonPatch(doc, [{ op: 'test', path: '/a/b', value: 9 }])).toThrow('test failed');
    expect(() => jsonPatch(doc, [{ op: 'remove', path: '/missing' }])).toThrow('missing');
  });
});

describe('humanDuration (the AGE column)', () => {
  it.each([
    [0, '0s'],
    [59_000, '59s'],
    [119_000, '119s'],
    [120_000, '2m'],
    [125_000, '2m5s'],
    [11 * 60_000, '11m'],
    [3 * 3600_000 + 5 * 60_000, '3h5m'],
    [30 * 3600_000, '30h'],
    [3 * 86400_000 + 3600_000, '3d1h'],
    [40 * 86400_000, '40d'],
  ])('%p ms -> %p', (ms, text) => {
    expect(humanDuration(ms)).toBe(text);
  });
});
