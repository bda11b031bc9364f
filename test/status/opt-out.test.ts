import { describe, expect, it } from '@jest/globals';
import { optedOut } from '../../src/status/opt-out.js';

const annotated = (annotations: unknown) => ({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', annotations } });

describe('optedOut: kubewait.io/wait: "false"', () => {
  it.each<[string, unknown, boolean]>([
    ['the annotation "false"', annotated({ 'kubewait.io/wait': 'false' }), true],
    ['"true"', annotated({ 'kubewait.io/wait': 'true' }), false],
    ['"False" (only the exact string opts out)', annotated({ 'kubewait.io/wait': 'False' }), false],
    ['"no"', annotated({ 'kubewait.io/wait': 'no' }), false],
    ['another annotation', annotated({ 'example.com/wait': 'false' }), false],
    ['no annotations', { metadata: { name: 'web' } }, false],
    ['annotations that are not a map', annotated('kubewait.io/wait=false'), false],
    ['no object', undefined, false],
  ])('%s', (_name, object, expected) => {
    expect(optedOut(object)).toBe(expected);
  });
});
