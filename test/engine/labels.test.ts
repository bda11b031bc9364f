/** Client-side label selector matching (kubectl syntax and LabelSelector objects). */
import { describe, expect, it } from '@jest/globals';
import { parseSelector, selectorFromObject } from '../../src/engine/labels.js';

const labels = { app: 'web', tier: 'frontend', version: '3' };

describe('parseSelector', () => {
  it.each([
    ['', true],
    ['app=web', true],
    ['app==web', true],
    ['app = web', true],
    ['app=api', false],
    ['app!=api', true],
    ['missing!=x', true],
    ['app in (api, web)', true],
    ['app notin (web)', false],
    ['app', true],
    ['!app', false],
    ['!canary', true],
    ['app=web,tier=frontend', true],
    ['app=web,tier in (backend)', false],
    ['version>2', true],
    ['version<3', false],
    ['app=web,', false], // invalid: matches nothing
    ['app=(x', false],
  ])('%s -> %s', (selector, expected) => {
    expect(parseSelector(selector)(labels)).toBe(expected);
  });
});

describe('spec.selector objects', () => {
  it.each([
    [{ matchLabels: { app: 'web' } }, true],
    [{ matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['frontend', 'x'] }] }, true],
    [{ matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['frontend'] }] }, false],
    [
      {
        matchExpressions: [
          { key: 'canary', operator: 'DoesNotExist' },
          { key: 'app', operator: 'Exists' },
        ],
      },
      true,
    ],
    [{ matchExpressions: [{ key: 'app', operator: 'Bogus' }] }, false],
  ])('%j', (selector, matches) => {
    expect(selectorFromObject(selector)!(labels)).toBe(matches);
  });

  it('has no matcher without a selector', () => {
    expect(selectorFromObject(undefined)).toBeUndefined();
  });
});
