// Preloaded by bench/gc-cost.ts: the garbage collector's pauses of this process (perf_hooks `gc` entries:
// main-thread pause time by kind) and its CPU, written to KUBEWAIT_BENCH_GC at exit.
import { PerformanceObserver, constants } from 'node:perf_hooks';
import { writeFileSync } from 'node:fs';
const byKind = {};
const KINDS = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'scavenge',
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'mark-compact',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak callbacks',
};
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const kind = KINDS[entry.detail?.kind] ?? 'other';
    const k = (byKind[kind] ??= { count: 0, ms: 0 });
    k.count++;
    k.ms += entry.duration;
  }
}).observe({ entryTypes: ['gc'] });
process.on('exit', () => {
  const { user, system } = process.cpuUsage();
  writeFileSync(process.env.KUBEWAIT_BENCH_GC, JSON.stringify({ cpuMs: (user + system) / 1000, byKind }));
});
