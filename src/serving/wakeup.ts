/**
 * Where the endpoints check's loop waits (index.ts): until `now()` (a mirror saw a change), the time given
 * to `at` (a settle window's end, the deadline), or the signal. A change that comes while the loop is
 * judging is not lost: `at` returns at once until `reset`.
 */
import type { Time, TimerHandle } from '../time.js';

export class Wakeup {
  private pending = false;
  private resolve?: () => void;
  private timer?: TimerHandle;
  private readonly onAbort = () => this.now();

  constructor(
    private readonly time: Time,
    private readonly signal: AbortSignal,
  ) {
    signal.addEventListener('abort', this.onAbort, { once: true });
  }

  reset(): void {
    this.pending = false;
  }

  now(): void {
    this.pending = true;
    const resolve = this.resolve;
    this.resolve = undefined;
    if (this.timer !== undefined) this.time.clearTimer(this.timer);
    this.timer = undefined;
    resolve?.();
  }

  at(epochMs: number): Promise<void> {
    if (this.pending || this.signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      this.resolve = resolve;
      this.timer = this.time.setTimer(epochMs - this.time.now(), () => this.now());
    });
  }

  close(): void {
    this.signal.removeEventListener('abort', this.onAbort);
    if (this.timer !== undefined) this.time.clearTimer(this.timer);
  }
}
