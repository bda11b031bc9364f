/** standing: has a failure stood for its grace, and if not, when will it have; the earliest of such times. */
import { describe, expect, it } from '@jest/globals';
import { earliestFinalAt, standing } from '../../src/status/standing.js';

describe('standing', () => {
  it.each<[string, number, { final: boolean; finalAtMs?: number }]>([
    ['within the grace: not final, and when it will be', 1_014_999, { final: false, finalAtMs: 1_015_000 }],
    ['exactly at the end of the grace: final', 1_015_000, { final: true }],
    ['after the grace: final', 1_600_000, { final: true }],
  ])('%s', (_name, nowMs, expected) => {
    expect(standing(1_000_000, 15_000, nowMs)).toEqual(expected);
  });

  it('a zero grace is final at once', () => {
    expect(standing(1_000_000, 0, 1_000_000)).toEqual({ final: true });
  });
});

describe('earliestFinalAt', () => {
  it('is the earliest time given, undefined ones ignored', () => {
    expect(earliestFinalAt([undefined, 30, 10, undefined, 20])).toBe(10);
  });
  it('is undefined when no time is given', () => {
    expect(earliestFinalAt([])).toBeUndefined();
    expect(earliestFinalAt([undefined])).toBeUndefined();
  });
});
