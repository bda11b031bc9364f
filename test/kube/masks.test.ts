/**
 * SecretMasks, the one masking rule of both shells: what is registered is masked in any text as the runner masks
 * its step log after `::add-mask::` (the value, and each line of it trimmed, whatever its length).
 */
import { describe, expect, it } from '@jest/globals';
import { SecretMasks } from '../../src/kube/masks.js';

describe('SecretMasks', () => {
  it.each<[string, string[], string, string]>([
    ['a token', ['s3cr3t-token'], 'Authorization: Bearer s3cr3t-token, again s3cr3t-token', 'Authorization: Bearer ***, again ***'],
    ['the longest first', ['abcd', 'abcdefgh'], 'x abcdefgh y abcd', 'x *** y ***'],
    ['a secret that contains another, whole', ['token-abc', 'token-abc-longer'], 'a token-abc-longer b token-abc', 'a *** b ***'],
    [
      'each line of a multi-line secret',
      ['-----BEGIN KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END KEY-----'],
      'line: MIIEvQIBADANBgkqhkiG9w0BAQEFAASC then -----END KEY-----',
      'line: *** then ***',
    ],
    // The runner masks every line whatever its length: the last line of a PEM key may be 4 characters.
    ['a short last line of a PEM key', ['-----BEGIN KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\nZw==\n-----END KEY-----'], 'tail Zw== shown', 'tail *** shown'],
    ['lines trimmed, CRLF too', ['  first-line  \r\n\tsecond-line\r\n'], '[first-line] [second-line]', '[***] [***]'],
    ['the value as given, surrounding spaces included', ['  spaced  '], 'a  spaced  b', 'a***b'],
    ['a multi-line secret whole', ['ab\ncd'], 'ab\ncd and ab, cd', '*** and ***, ***'],
    ['nothing registered', [], 'plain text', 'plain text'],
    ['an empty secret masks nothing', [''], 'plain text', 'plain text'],
    ['a blank secret masks nothing', [' \n\t'], 'plain text', 'plain text'],
  ])('%s', (_what, secrets, text, expected) => {
    const masks = new SecretMasks();
    secrets.forEach((s) => masks.mask(s));
    expect(masks.apply(text)).toBe(expected);
  });

  it('registers each secret with the runner as given (the runner splits it the same way), and no blank one', () => {
    const registered: string[] = [];
    const masks = new SecretMasks((v) => registered.push(v));
    masks.mask('s3cr3t');
    masks.mask('key\nlines');
    masks.mask('   ');
    expect(registered).toEqual(['s3cr3t', 'key\nlines']);
  });
});
