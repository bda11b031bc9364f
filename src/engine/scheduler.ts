/**
 * Timers for the engine and its parts (follower, diagnoser), in one idiom: everything scheduled through a
 * `Scheduler` ends when it is closed, so a finished wait leaves no timer behind, and every time read comes
 * from one injected clock.
 *
 * Node's timers hold at most 2^31-1 ms (about 24.8 days); a longer delay fires at once. Delays here are
 * split into steps below that limit, so no input can turn a sleep into a busy loop.
 */

/** Epoch milliseconds. */
export type Clock = () => number;

/** The longest delay one Node timer holds. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

export class Scheduler {
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly sleepers = new Set<() => void>();
  private closed = false;

  constructor(readonly now: Clock = Date.now) {}

  get isClosed(): boolean {
    return this.closed;
  }

  /** Runs `run` after `ms` (at once when negative) unless the scheduler is closed or the returned
   *  function is called first. */
  after(ms: number, run: () => void): () => void {
    let timer: NodeJS.Timeout | undefined;
    const arm = (remaining: number): void => {
      if (this.closed) return;
      const step = Math.min(Math.max(0, remaining), MAX_TIMER_MS);
      timer = setTimeout(() => {
        this.timers.delete(timer!);
        timer = undefined;
        if (this.closed) return;
        if (remaining > step) arm(remaining - step);
        else run();
      }, step);
      this.timers.add(timer);
    };
    arm(ms);
    return () => {
      if (timer === undefined) return;
      clearTimeout(timer);
      this.timers.delete(timer);
      timer = undefined;
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
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.wakeAll();
  }
}
