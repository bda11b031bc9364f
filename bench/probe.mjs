// Preloaded into measured Node processes (`node --import <this file>`): writes, at exit, when the process
// started, when preloading happened (Node's own bootstrap done), when it exited, its peak RSS (VmHWM,
// the kernel's high-water mark, exact at exit) and the CPU seconds it used. Plain JS: it must cost nothing to load.
import { readFileSync, writeFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';

const out = process.env.KUBEWAIT_BENCH_PROBE;
// Diagnostic runs: V8 flags set at run time before the bundle is evaluated, as src/index.ts could do
// (a JavaScript action cannot pass Node flags; some heap flags only act when set this way).
if (process.env.KUBEWAIT_BENCH_V8_FLAGS) setFlagsFromString(process.env.KUBEWAIT_BENCH_V8_FLAGS);
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
    // User and system CPU of the process, in seconds (an exec keeps the count: the restart's too).
    const { user, system } = process.cpuUsage();
    const cpuSeconds = (user + system) / 1e6;
    writeFileSync(out, JSON.stringify({ startAt: performance.timeOrigin, preloadAt, exitAt, peakRssKiB, heapAfterGcKiB, cpuSeconds }));
  });
}
