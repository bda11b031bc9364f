/** parseLabelSelector: the requirements the engine matches with, read by the same grammar the inputs check. */
import { describe, expect, it } from '@jest/globals';
import { parseLabelSelector, type Requirement } from '../../src/targets/selector.js';

describe('parseLabelSelector', () => {
  it.each<[string, Requirement[]]>([
    ['', []],
    ['app', [{ key: 'app', op: 'exists', values: [] }]],
    ['!canary', [{ key: 'canary', op: 'doesnotexist', values: [] }]],
    ['app = web', [{ key: 'app', op: 'in', values: ['web'] }]],
    ['app==web', [{ key: 'app', op: 'in', values: ['web'] }]],
    ['app!=web', [{ key: 'app', op: 'notin', values: ['web'] }]],
    ['app=', [{ key: 'app', op: 'in', values: [''] }]],
    ['version>2', [{ key: 'version', op: 'gt', values: ['2'] }]],
    ['version<-1', [{ key: 'version', op: 'lt', values: ['-1'] }]],
    ['tier in (a, b)', [{ key: 'tier', op: 'in', values: ['a', 'b'] }]],
    ['tier notin (a,)', [{ key: 'tier', op: 'notin', values: ['a', ''] }]],
    [
      'example.com/app=web,!canary',
      [
        { key: 'example.com/app', op: 'in', values: ['web'] },
        { key: 'canary', op: 'doesnotexist', values: [] },
      ],
    ],
  ])('%j', (selector, requirements) => {
    expect(parseLabelSelector(selector)).toEqual(requirements);
  });

  it.each([
    ['app=web,', 'it ends with ","'],
    ['app in ()', '"app in ()" has no values'],
    ['-app', '"-app" is not a valid label key (up to 63 letters, digits, "-", "_" or ".", starting and ending with a letter or digit)'],
  ])('%j is a problem', (selector, problem) => {
    expect(parseLabelSelector(selector)).toBe(problem);
  });
});
