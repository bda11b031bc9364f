/** Word wrapping for --help and the live log on a terminal (src/cli/wrap.ts). */
import { describe, expect, it } from '@jest/globals';
import { displayWidth, wrapLine } from '../../src/cli/wrap.js';

describe('wrapLine', () => {
  it('keeps a line that fits as it is, spaces and all', () => {
    expect(wrapLine('deployment/web (shop)  apps/v1  Current', 80, 4)).toEqual(['deployment/web (shop)  apps/v1  Current']);
    expect(wrapLine('x'.repeat(80), 80, 4)).toEqual(['x'.repeat(80)]);
  });

  it('breaks at spaces, never inside a word, with a hanging indent', () => {
    const line = 'deployment/web (shop): InProgress -> Current after 12.4s: Deployment is available. Replicas: 3';
    expect(wrapLine(line, 40, 4)).toEqual(['deployment/web (shop): InProgress ->', '    Current after 12.4s: Deployment is', '    available. Replicas: 3']);
  });

  it('keeps the first row’s own indentation and drops the spaces at a break', () => {
    expect(wrapLine('  pod/a: Unknown: waiting     for the first list', 24, 6)).toEqual(['  pod/a: Unknown:', '      waiting     for', '      the first list']);
  });

  it('cuts a word wider than a row, as a terminal would, and goes on after it', () => {
    expect(wrapLine(`see https://example.com/${'a'.repeat(30)} now`, 20, 2)).toEqual([
      'see',
      '  https://example.co',
      '  m/aaaaaaaaaaaaaaaa',
      '  aaaaaaaaaaaaaa now',
    ]);
  });

  it('gives every row room for text when the indent is as wide as the row', () => {
    const rows = wrapLine('alpha beta gamma delta epsilon', 10, 40);
    expect(rows).toEqual(['alpha beta', '     gamma', '     delta', '     epsil', '     on']);
    for (const row of rows) expect(displayWidth(row)).toBeLessThanOrEqual(10);
  });

  it('counts what a terminal shows: wide characters take two columns, combining marks none', () => {
    expect(displayWidth('❓ Unknown')).toBe(10);
    expect(displayWidth('日本語')).toBe(6);
    expect(displayWidth('e\u0301')).toBe(1); // e and a combining acute accent
    expect(displayWidth('⚠ warning')).toBe(9); // a text-style symbol
    expect(wrapLine('日本語 日本語 日本語', 13, 0)).toEqual(['日本語 日本語', '日本語']);
  });

  it('leaves the line whole without a width', () => {
    expect(wrapLine('a b c', 0, 2)).toEqual(['a b c']);
  });
});
