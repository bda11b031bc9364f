/** `kubewait --help` (src/cli/help.ts): every flag and exit code, each line within 80 columns. */
import { describe, expect, it } from '@jest/globals';
import { EXIT_CODES, EXIT_MEANINGS, type Verdict } from '../../src/cli/exit-code-table.js';
import { COMMAND_FLAGS, INPUT_FLAGS, type InputFlag } from '../../src/cli/flags.js';
import { HELP_WIDTH, helpText } from '../../src/cli/help.js';
import { displayWidth } from '../../src/cli/wrap.js';

const help = helpText('0.1.0');
const lines = help.split('\n');
/** The help with its line breaks and indentation undone, to find a text however it was wrapped. */
const flowing = help.replace(/\s+/g, ' ');

describe('kubewait --help', () => {
  it('fits an 80-column terminal on every line, whatever the version string', () => {
    expect(HELP_WIDTH).toBe(80);
    for (const text of [help, helpText('10.20.300-rc.1+build.20261203')]) {
      expect(text.split('\n').filter((line) => displayWidth(line) > HELP_WIDTH)).toEqual([]);
    }
  });

  it('lists every flag with its whole help', () => {
    const flags = [...Object.values(INPUT_FLAGS), ...Object.values(COMMAND_FLAGS)] as InputFlag[];
    for (const spec of flags.filter((flag) => flag.flag !== undefined)) {
      expect(lines.filter((line) => new RegExp(`^ {2}(-\\w, | {4})--${spec.flag}( |$)`).test(line))).toHaveLength(1);
      expect(flowing).toContain(spec.help.replace(/\s+/g, ' '));
    }
  });

  it("wraps a flag's help under the help column, not under the flag", () => {
    const at = lines.findIndex((line) => line.startsWith('      --clusters YAML'));
    const column = lines[at]!.indexOf('several clusters');
    expect(column).toBeGreaterThan(30);
    expect(lines[at + 1]).toMatch(new RegExp(`^ {${column}}\\S`));
  });

  it('gives every exit code with its meaning', () => {
    for (const [verdict, code] of Object.entries(EXIT_CODES)) expect(flowing).toContain(` ${code} ${EXIT_MEANINGS[verdict as Verdict]}`);
  });
});
