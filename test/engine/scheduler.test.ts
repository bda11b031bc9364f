/** The clock-and-timers seam (src/time.ts) and the Scheduler on it: virtual time fires what falls due, in order,
 *  each at its own time; a closed Scheduler leaves no timer behind; real time splits delays Node cannot hold. */
import { describe, expect, it } from '@jest/globals';
import { Scheduler } from '../../src/engine/scheduler.js';
import { ManualTime, MAX_TIMER_MS, realTime, timeoutSignal } from '../../src/time.js';

describe('ManualTime', () => {
  it('stands still until advanced, then fires due timers in order of due time, each at its own time', async () => {
    const time = new ManualTime(1_000);
    const fired: string[] = [];
    time.setTimer(300, () => fired.push(`c@${time.now()}`));
    time.setTimer(100, () => fired.push(`a@${time.now()}`));
    time.setTimer(100, () => fired.push(`b@${time.now()}`)); // same due time: in the order set
    time.setTimer(301, () => fired.push(`late@${time.now()}`));
    expect(time.now()).toBe(1_000);
    await time.advance(300);
    expect(fired).toEqual(['a@1100', 'b@1100', 'c@1300']);
    expect(time.now()).toBe(1_300);
    expect(time.pending).toBe(1);
    await time.advance(1);
    expect(fired).toContain('late@1301');
  });

  it('runs promise callbacks between timers, so a timer set by an async step within the step fires too', async () => {
    const time = new ManualTime(0);
    const fired: number[] = [];
    const sleep = (ms: number) => new Promise<void>((resolve) => time.setTimer(ms, resolve));
    const loop = (async () => {
      for (let i = 0; i < 3; i++) {
        await sleep(100);
        fired.push(time.now());
      }
    })();
    await time.advance(250);
    expect(fired).toEqual([100, 200]);
    await time.advance(50);
    await loop;
    expect(fired).toEqual([100, 200, 300]);
  });

  it('a cleared timer never fires; advanceToNext jumps to the next one', async () => {
    const time = new ManualTime(0);
    const fired: string[] = [];
    const handle = time.setTimer(10, () => fired.push('cleared'));
    time.setTimer(5_000, () => fired.push('next'));
    time.clearTimer(handle);
    expect(time.nextAt()).toBe(5_000);
    expect(await time.advanceToNext()).toBe(true);
    expect(fired).toEqual(['next']);
    expect(time.now()).toBe(5_000);
    expect(await time.advanceToNext()).toBe(false);
  });

  it('a budget signal aborts with a TimeoutError when its time has passed, not before', async () => {
    const time = new ManualTime(0);
    const budget = timeoutSignal(time, 5_000);
    await time.advance(4_999);
    expect(budget.signal.aborted).toBe(false);
    await time.advance(1);
    expect(budget.signal.aborted).toBe(true);
    expect((budget.signal.reason as Error).name).toBe('TimeoutError');
    const cleared = timeoutSignal(time, 10);
    cleared.clear();
    await time.advance(20);
    expect(cleared.signal.aborted).toBe(false);
  });
});

describe('Scheduler', () => {
  it('reads and schedules on its Time: at(), every() and sleep() on virtual time', async () => {
    const time = new ManualTime(10_000);
    const timers = new Scheduler(time);
    const seen: string[] = [];
    timers.at(12_000, () => seen.push(`at@${timers.now()}`));
    timers.every(700, () => seen.push(`every@${timers.now()}`));
    const slept = timers.sleep(1_000).then(() => seen.push(`slept@${timers.now()}`));
    await time.advance(2_100);
    await slept;
    expect(seen).toEqual(['every@10700', 'slept@11000', 'every@11400', 'at@12000', 'every@12100']);
    timers.close();
  });

  it('close() cancels every timer, ends every sleep and schedules nothing after', async () => {
    const time = new ManualTime(0);
    const timers = new Scheduler(time);
    let fired = 0;
    timers.after(100, () => fired++);
    timers.every(50, () => fired++);
    const sleeping = timers.sleep(60_000);
    timers.close();
    await sleeping;
    expect(time.pending).toBe(0);
    timers.after(1, () => fired++);
    expect(time.pending).toBe(0);
    await time.advance(1_000);
    expect(fired).toBe(0);
  });

  it('a cancelled timer is gone from its Time', async () => {
    const time = new ManualTime(0);
    const timers = new Scheduler(time);
    let fired = false;
    const cancel = timers.after(100, () => (fired = true));
    cancel();
    expect(time.pending).toBe(0);
    await time.advance(200);
    expect(fired).toBe(false);
  });
});

describe('realTime', () => {
  it('holds a delay longer than one Node timer can (a timeout of days does not fire at once)', async () => {
    let fired = false;
    const handle = realTime.setTimer(MAX_TIMER_MS + 1_000, () => (fired = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(fired).toBe(false);
    realTime.clearTimer(handle);
  });

  it('fires a short timer, and a cleared one never', async () => {
    const fired: string[] = [];
    realTime.setTimer(5, () => fired.push('kept'));
    realTime.clearTimer(realTime.setTimer(5, () => fired.push('cleared')));
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(fired).toEqual(['kept']);
  });
});
