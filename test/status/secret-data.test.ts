/**
 * The expected value of a jsonpath wait is shown only when the expression cannot reach a Secret's data
 * (src/status/jsonpath/secret-data.ts): once such a wait is met on a Secret, the value is that data.
 */
import { describe, expect, it } from '@jest/globals';
import { mayReadSecretData, shownJsonPathValue } from '../../src/status/jsonpath/secret-data.js';

describe('mayReadSecretData', () => {
  it.each(['{.data.password}', '{.stringData.token}', '{.data}', '{..password}', '{.*}', '{$.data.x}', '{[*]}', '{.status.phase}{.data.x}', 'data'])(
    '%s may read it',
    (expression) => expect(mayReadSecretData(expression)).toBe(true),
  );

  it.each(['{.status.phase}', '{.metadata.annotations.x}', '{.type}', '{.status.conditions[?(@.type=="Ready")].status}', '{.spec.dataSource}'])(
    '%s cannot',
    (expression) => expect(mayReadSecretData(expression)).toBe(false),
  );
});

describe('shownJsonPathValue', () => {
  it('is *** for a value that may be Secret data, the value otherwise', () => {
    expect(shownJsonPathValue('{.data.password}', 's3cr3t')).toBe('***');
    expect(shownJsonPathValue('{.status.phase}', 'Running')).toBe('Running');
  });
});
