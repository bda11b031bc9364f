/**
 * The engine on virtual time against the API server stand-in: the decision tests (deadlines, heartbeats,
 * grace windows, re-discovery, the unschedulable window) run in milliseconds instead of sleeping through them.
 *
 * The engine's clock is a ManualTime; the stand-in and the HTTPS between them stay real. The clock moves
 * only when both are at rest: no request being served, nothing sent or accepted over a few real pauses (each
 * across an I/O poll of the event loop), so every answer the engine is waiting for has arrived and been
 * handled before the next timer fires. Then it jumps to the next timer and fires it. A test that changes the
 * cluster itself does so while the clock stands still, then lets it run with `driveUntil`.
 */
import { setImmediate as nextTurn, setTimeout as pause } from 'node:timers/promises';
import type { EngineResult } from '../../src/engine/types.js';
import type { TargetSpec } from '../../src/targets/types.js';
import { ManualTime } from '../../src/time.js';
import type { TestCluster } from '../cluster/index.js';
import { runEngine, type RunOptions } from './helpers.js';

/** Real pauses in a row without a sign of life before the stand-in counts as at rest. */
const CALM_PAUSES = 3;
const PAUSE_MS = 5;

/** Runs the engine on a fresh virtual clock (starting at the real now) until it returns. */
export async function runVirtual(server: TestCluster, targets: TargetSpec[], options: RunOptions = {}, time = new ManualTime()): Promise<EngineResult> {
  const running = runEngine(server, targets, { ...options, time });
  return driveUntilSettled(time, server, running);
}

/** Moves `time` from rest to rest until `work` settles; returns (or throws) what it does. */
export async function driveUntilSettled<T>(time: ManualTime, server: TestCluster, work: Promise<T>): Promise<T> {
  let settled = false;
  const observed = work.then(
    () => (settled = true),
    () => (settled = true),
  );
  await driveUntil(time, server, () => settled);
  await observed;
  return work;
}

/** Moves `time` from rest to rest (firing one due time's timers at each) until `done()` holds. */
export async function driveUntil(time: ManualTime, server: TestCluster, done: () => boolean, what = 'the condition', maxRealMs = 20_000): Promise<void> {
  const giveUpAt = Date.now() + maxRealMs;
  for (;;) {
    await atRest(server);
    if (done()) return;
    if (Date.now() > giveUpAt)
      throw new Error(`virtual time: ${what} did not come about within ${maxRealMs} ms of real time (virtual ${new Date(time.now()).toISOString()})`);
    // Nothing scheduled: only the cluster can change anything; wait for it in real time.
    if (!(await time.advanceToNext())) await pause(PAUSE_MS);
  }
}

/** Resolves once the stand-in has served every request and nothing moved over a few real pauses. */
export async function atRest(server: TestCluster): Promise<void> {
  for (let calm = 0; calm < CALM_PAUSES;) {
    const before = server.counters.activity();
    await pause(PAUSE_MS);
    await nextTurn(); // after the poll phase: I/O that became ready during the pause has been read
    const after = server.counters.activity();
    calm = after.changes === before.changes && after.serving === 0 ? calm + 1 : 0;
  }
}
