/** How long a group honours a server's Retry-After: what the server asks, within the wait's means. */
import { expect, it } from '@jest/globals';
import { honouredRetryAfterMs } from '../../src/engine/follower.js';

it.each([
  // [case, Retry-After, poll interval, time left, honoured]
  ['a short ask, plenty of time: honoured whole', 1000, 2000, 300_000, 1000],
  ['an hour, plenty of time: capped at 30 s', 3_600_000, 2000, 300_000, 30_000],
  ['an hour, a long poll interval: capped at the interval', 3_600_000, 60_000, 600_000, 60_000],
  ['an hour, 20 s left: a third of them', 3_600_000, 2000, 20_000, 20_000 / 3],
  ['a long poll interval does not lift the third', 3_600_000, 60_000, 30_000, 10_000],
  ['a short ask within the third: honoured whole', 2000, 2000, 20_000, 2000],
  ['near the deadline: not under 200 ms', 3_600_000, 2000, 300, 200],
  ['nearer: never past the deadline', 3_600_000, 2000, 120, 120],
  ['a server asking for less than 200 ms gets it', 100, 2000, 300, 100],
  ['past the deadline: no wait', 3_600_000, 2000, -5, 0],
])('%s', (_case, retryAfterMs, pollIntervalMs, timeLeftMs, honoured) => {
  expect(honouredRetryAfterMs(retryAfterMs, pollIntervalMs, timeLeftMs)).toBeCloseTo(honoured);
});
