/** SecretMasks: what is registered is masked in any text, as the runner masks its log. */
import { describe, expect, it } from '@jest/globals';
import { SecretMasks } from '../../src/kube/masks.js';

describe('SecretMasks', () => {
  it.each<[string, string[], string, string]>([
    ['a token', ['s3cr3t-token'], 'Authorization: Bearer s3cr3t-token, again s3cr3t-token', 'Authorization: Bearer ***, again ***'],
    ['the longest first', ['abcd', 'abcdefgh'], 'x abcdefgh y abcd', 'x *** y ***'],
    [
      'each line of a multi-line secret, not its short lines',
      ['-----BEGIN KEY-----\nMIIEvQIBADANBg\n}\n-----END KEY-----'],
      'line: MIIEvQIBADANBg }',
      'line: *** }',
    ],
    ['nothing registered', [], 'plain text', 'plain text'],
    ['an empty secret masks nothing', [''], 'plain text', 'plain text'],
  ])('%s', (_what, secrets, text, expected) => {
    const masks = new SecretMasks();
    secrets.forEach((s) => masks.mask(s));
    expect(masks.apply(text)).toBe(expected);
  });

  it('registers with the runner too', () => {
    const registered: string[] = [];
    const masks = new SecretMasks((v) => registered.push(v));
    masks.mask('s3cr3t');
    expect(registered).toEqual(['s3cr3t']);
  });
});
