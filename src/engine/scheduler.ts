/**
 * Timers for the engine and its parts (follower, diagnoser), in one idiom: everything scheduled through a
 * `Scheduler` ends when it is closed, so a finished wait leaves no timer behind, and every time read and
 * every timer comes from one injected `Time` (src/time.ts): the process's, or a test's virtual one.
 */
import { realTime, type Time, type TimerHandle } from '../time.js';

/** Epoch milliseconds. */
export type Clock = () => number;

export class Scheduler {
  private readonly timers = new Set<TimerHandle>();
  private readonly sleepers = new Set<() => void>();
  private closed = false;
  /** Epoch milliseconds now, by this scheduler's time (a bound function: it can be passed on as a `Clock`). */
  readonly now: Clock;

  constructor(readonly time: Time = realTime) {
    this.now = () => time.now();
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Runs `run` after `ms` (at once when negative) unless the scheduler is closed or the returned
   *  function is called first. */
  after(ms: number, run: () => void): () => void {
    if (this.closed) return () => {};
    const timer = this.time.setTimer(ms, () => {
      this.timers.delete(timer);
      if (!this.closed) run();
    });
    this.timers.add(timer);
    return () => {
      if (!this.timers.delete(timer)) return;
      this.time.clearTimer(timer);
    };
  }

  /** Runs `run` at epoch `atMs` (by this scheduler's clock). */
  at(atMs: number, run: () => void): () => void {
    return this.after(atMs - this.now(), run);
  }

  /** Runs `run` every `ms` until closed. */
  every(ms: number, run: () => void): void {
    this.after(ms, () => {
      run();
      this.every(ms, run);
    });
  }

  /** Resolves after `ms`, or earlier on `wakeAll()` or `close()`. Never rejects. */
  sleep(ms: number): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = (): void => {
        this.sleepers.delete(wake);
        cancel();
        resolve();
      };
      this.sleepers.add(wake);
      const cancel = this.after(ms, wake);
    });
  }

  /** Ends every pending sleep now (their loops look at what changed); timers keep running. */
  wakeAll(): void {
    for (const wake of [...this.sleepers]) wake();
  }

  /** Cancels every timer and ends every sleep; later calls schedule nothing. */
  close(): void {
    this.closed = true;
    for (const timer of this.timers) this.time.clearTimer(timer);
    this.timers.clear();
    this.wakeAll();
  }
}
