import { describe, expect, it } from '@jest/globals';
import { asksForHelpOrVersion } from '../../src/cli/help-or-version.js';

describe('asksForHelpOrVersion', () => {
  it.each([
    [['--help'], true],
    [['-h'], true],
    [['--version'], true],
    [['deployment/web', '--help'], true],
    [['--help=true'], true],
    [['--help=false', 'deployment/web'], false],
    [['--version=false', 'deployment/web'], false],
    [['deployment/web', '--', '--help'], false],
    [['deployment/web'], false],
    [['deployment/web', '-n', 'shop', '--timeout', '5m'], false],
    [['--helpful'], false],
    [['-l', 'app=help'], false],
    [[], false],
  ])('%j -> %s', (argv, expected) => {
    expect(asksForHelpOrVersion(argv)).toBe(expected);
  });
});
