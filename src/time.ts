/**
 * The clock and the timers every decision reads: the deadline, poll intervals, status-grace, stable-for,
 * the image-pull and unschedulable windows, re-discovery, the log budget. One seam, passed down from the
 * pipeline, so a test can run a wait of minutes on virtual time in milliseconds and judge exactly what the
 * wait judges. A leaf module: it imports nothing of kubewait's.
 *
 * `realTime` is the process clock and Node's timers. `ManualTime` moves only when told (`advance`), firing
 * due timers in order, each at its own time. Transport guards that bound real I/O (a request's own timeout,
 * an idle watch, an exec plugin's timeout) and the exit grace of the shells stay on real timers: they are
 * about the machine, not about what the wait decides.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';

/** Cancels one timer (see `Time.setTimer`). */
export interface TimerHandle {
  readonly __timerHandle: never;
}

export interface Time {
  /** Epoch milliseconds. */
  now(): number;
  /** Calls `fire` once after `ms` (as soon as possible when 0 or less), unless cleared first. */
  setTimer(ms: number, fire: () => void): TimerHandle;
  /** Clears a timer; clearing one that fired or was cleared does nothing. */
  clearTimer(handle: TimerHandle): void;
}

/** The longest delay one Node timer holds (about 24.8 days); a longer one would fire at once. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

interface RealTimer {
  timeout?: NodeJS.Timeout;
}

/** The process clock and Node's timers. A delay beyond Node's limit is split into steps below it, so no
 *  input (a `timeout: 720h`) can turn a sleep into a busy loop. */
export const realTime: Time = {
  now: () => Date.now(),
  setTimer(ms, fire) {
    const timer: RealTimer = {};
    const arm = (remaining: number): void => {
      const step = Math.min(Math.max(0, remaining), MAX_TIMER_MS);
      timer.timeout = setTimeout(() => {
        if (remaining > step) arm(remaining - step);
        else {
          timer.timeout = undefined;
          fire();
        }
      }, step);
    };
    arm(ms);
    return timer as unknown as TimerHandle;
  },
  clearTimer(handle) {
    const timer = handle as unknown as RealTimer;
    if (timer.timeout !== undefined) clearTimeout(timer.timeout);
    timer.timeout = undefined;
  },
};

interface ManualTimer {
  at: number;
  /** Creation order: timers due at the same time fire in the order they were set, as Node's do. */
  order: number;
  fire: () => void;
}

/**
 * Virtual time for tests: the clock stands still until `advance` moves it. Timers fire in order of their
 * due time, each with the clock set to it; after each one, pending promise callbacks (and whatever I/O is
 * ready) run before the next, so a timer that an async step sets and that falls due within the same
 * `advance` fires too.
 */
export class ManualTime implements Time {
  private current: number;
  private readonly timers = new Set<ManualTimer>();
  private created = 0;

  constructor(startMs = Date.now()) {
    this.current = startMs;
  }

  now(): number {
    return this.current;
  }

  setTimer(ms: number, fire: () => void): TimerHandle {
    const timer: ManualTimer = { at: this.current + Math.max(0, ms), order: this.created++, fire };
    this.timers.add(timer);
    return timer as unknown as TimerHandle;
  }

  clearTimer(handle: TimerHandle): void {
    this.timers.delete(handle as unknown as ManualTimer);
  }

  /** Timers set and not yet fired or cleared. */
  get pending(): number {
    return this.timers.size;
  }

  /** When the next timer falls due; undefined when none is set. */
  nextAt(): number | undefined {
    return this.next()?.at;
  }

  /** Moves the clock `ms` forward, firing every timer that falls due on the way (see the class comment). */
  async advance(ms: number): Promise<void> {
    const until = this.current + Math.max(0, ms);
    await settle();
    for (let timer = this.next(); timer && timer.at <= until; timer = this.next()) {
      this.timers.delete(timer);
      this.current = Math.max(this.current, timer.at);
      timer.fire();
      await settle();
    }
    this.current = until;
  }

  /** Moves the clock to the next timer and fires it (with every other timer due then). False when none is set. */
  async advanceToNext(): Promise<boolean> {
    const at = this.nextAt();
    if (at === undefined) return false;
    await this.advance(at - this.current);
    return true;
  }

  private next(): ManualTimer | undefined {
    let first: ManualTimer | undefined;
    for (const timer of this.timers) if (!first || timer.at < first.at || (timer.at === first.at && timer.order < first.order)) first = timer;
    return first;
  }
}

/** Lets pending promise callbacks run: one turn of the event loop drains every microtask queued before it. */
async function settle(): Promise<void> {
  await nextTurn();
  await nextTurn();
}

/** A budget on `time`: its signal aborts with a `TimeoutError` (as `AbortSignal.timeout`'s does) after `ms`.
 *  Call `clear` when the work is done, so no timer outlives it. */
export function timeoutSignal(time: Time, ms: number): { signal: AbortSignal; clear(): void } {
  const controller = new AbortController();
  const timer = time.setTimer(ms, () => controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')));
  return { signal: controller.signal, clear: () => time.clearTimer(timer) };
}

/** Resolves after `ms` on `time`, or at once when `signal` aborts (never rejects). */
export function sleep(time: Time, ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      time.clearTimer(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = time.setTimer(ms, done);
    signal.addEventListener('abort', done, { once: true });
  });
}

/** A window or grace setting as its input is written: `30s`, `1.5s`. */
export function formatWindow(ms: number): string {
  const seconds = ms / 1000;
  return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)}s`;
}

/**
 * The step's one deadline (`timeout`), created once per run on the run's `Time` and handed down: the input
 * files, the wait and its target feeds all end at the same instant, and none keeps its own clock of what is
 * left. The fleet creates one for all its clusters.
 */
export class Deadline {
  /** Epoch milliseconds on `time`'s clock. */
  readonly at: number;
  /** When the run started (the deadline was set): every `seconds` of the result counts from here. */
  readonly startedAt: number;

  constructor(
    readonly time: Time,
    timeoutMs: number,
  ) {
    this.startedAt = time.now();
    this.at = this.startedAt + timeoutMs;
  }

  /** What is left of it, never below 0. */
  remainingMs(): number {
    return Math.max(0, this.at - this.time.now());
  }

  /** A signal that aborts at the deadline, or sooner after `withinMs`; `clear` when it no longer matters. */
  signal(withinMs = Number.POSITIVE_INFINITY): { signal: AbortSignal; clear(): void } {
    return timeoutSignal(this.time, Math.min(withinMs, this.remainingMs()));
  }
}
