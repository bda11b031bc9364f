/** The field accessors; the first two tables port kstatus util_test.go. */
import { describe, expect, it } from '@jest/globals';
import { getBoolField, getIntField, getStringField, groupKindKey, nestedInt64 } from '../../src/status/fields.js';
import { goValue } from '../../src/status/go-format.js';

const testObj = {
  f1: { f2: { i32: 32, i64: 64, float: 64.02, ms: [{ f1f2ms0f1: 22 }, { f1f2ms1f1: 'index1' }] } },
  ride: 'dragon',
  status: { conditions: [{ f1f2ms0f1: 22 }, { f1f2ms1f1: 'index1' }] },
};

describe('GetIntField (util_test.go)', () => {
  it.each([
    ['.f1.f2.i32', 32],
    ['.f1.f2.wrongname', -1],
    ['.f1.f2.i64', 64],
    ['.f1.f2.float', -1],
    ['f1.f2.i32', 32],
    ['.ride', -1],
    ['.ride.deeper', -1],
  ])('%s', (path, expected) => expect(getIntField(testObj, path, -1)).toBe(expected));
});

describe('GetStringField (util_test.go)', () => {
  it.each([
    ['.ride', 'horse', 'dragon'],
    ['.destination', 'north', 'north'],
    ['.f1.f2.i32', 'none', 'none'],
  ])('%s', (path, fallback, expected) => expect(getStringField(testObj, path, fallback)).toBe(expected));
});

describe('GetBoolField', () => {
  it.each([
    [{ a: true }, true],
    [{ a: false }, false],
    [{ a: 'true' }, 'default'],
    [{}, 'default'],
  ])('%j', (obj, expected) => expect(getBoolField(obj, '.a', true)).toBe(expected === 'default' ? true : expected));
});

describe('nestedInt64', () => {
  it('is undefined through a null parent and when absent', () => {
    expect(nestedInt64({ status: null }, 'status', 'observedGeneration')).toBeUndefined();
    expect(nestedInt64({ status: {} }, 'status', 'observedGeneration')).toBeUndefined();
  });
  it('throws on a value beyond int64 (Go decodes it as float64)', () => {
    expect(() => nestedInt64({ g: 2 ** 64 }, 'g')).toThrow('1.8446744073709552e+19 is of the type float64, expected int64');
  });
});

describe('groupKindKey', () => {
  it.each([
    ['v1', 'Pod', 'Pod'],
    ['apps/v1', 'Deployment', 'apps/Deployment'],
    ['apiextensions.k8s.io/v1', 'CustomResourceDefinition', 'apiextensions.k8s.io/CustomResourceDefinition'],
    ['', 'Pod', 'Pod'],
    ['a/b/c', 'Pod', ''],
  ])('%s %s', (apiVersion, kind, key) => expect(groupKindKey({ apiVersion, kind })).toBe(key));
});

describe("Go's %v", () => {
  it.each<[unknown, string]>([
    [null, '<nil>'],
    ['x', 'x'],
    [3, '3'],
    [3.5, '3.5'],
    [0.00001, '1e-05'],
    [1234567.5, '1.2345675e+06'],
    [true, 'true'],
    [[1, 'a'], '[1 a]'],
    [{ b: 1, a: [2] }, 'map[a:[2] b:1]'],
  ])('%j', (value, text) => expect(goValue(value)).toBe(text));
});
