// Preloaded into measured Node processes (`node --import <this file>`): writes, at exit, when the process
// started, when preloading happened (Node's own bootstrap done), when it exited, and its peak RSS (VmHWM,
// the kernel's high-water mark, exact at exit). Plain JS: it must cost nothing to load.
import { readFileSync, writeFileSync } from 'node:fs';

const out = process.env.KUBEWAIT_BENCH_PROBE;
const epoch = () => performance.timeOrigin + performance.now();
const preloadAt = epoch();

if (out) {
  process.on('exit', () => {
    const exitAt = epoch();
    const status = readFileSync('/proc/self/status', 'utf8');
    const kib = (field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    const peakRssKiB = kib('VmHWM');
    // Diagnostic runs (node --expose-gc): what the heap still holds once garbage is collected.
    let heapAfterGcKiB;
    if (typeof globalThis.gc === 'function') {
      globalThis.gc();
      heapAfterGcKiB = Math.round(process.memoryUsage().heapUsed / 1024);
    }
    writeFileSync(out, JSON.stringify({ startAt: performance.timeOrigin, preloadAt, exitAt, peakRssKiB, heapAfterGcKiB }));
  });
}
