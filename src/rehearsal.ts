/**
 * The report, rehearsed while the wait waits. V8 compiles a function when it first runs (Node's compile cache
 * holds only what ran while a module loaded), so the report's code (the outputs, the closing lines, the job
 * summary) was parsed, compiled and run cold after the decision, between the last target's ready line and the
 * exit: most of the 4-8 ms the action spent there at one Deployment (bench/RESULTS.md, issue 35).
 *
 * Once a wait has waited REHEARSAL_AFTER_MS without a decision, the shell renders its report of a sample (a
 * few of the targets, as if at their goal) and throws it away; the real report then runs compiled code. A wait
 * decided sooner (its targets were ready at the first look) rehearses nothing and pays nothing.
 */
import type { EngineObserver, RunResult, TargetReport } from './result.js';
import type { WaitFor } from './settings.js';
import type { Time, TimerHandle } from './time.js';

/** Idle for this long, the wait is not ending at its first look: rehearse now, long before a rollout ends. */
export const REHEARSAL_AFTER_MS = 100;
/** Enough to run every function of the report at least once; the report of 1,000 targets costs what their rows cost. */
const SAMPLE_TARGETS = 2;

/** Renders the report of `sample` and writes nothing. */
export type Rehearse = (sample: RunResult) => void;

/** `observer`, which also has `rehearse` run once the wait has waited REHEARSAL_AFTER_MS on `time`. */
export function rehearsing(observer: EngineObserver, rehearse: Rehearse | undefined, time: Time): EngineObserver {
  if (!rehearse) return observer;
  let timer: TimerHandle | undefined;
  let decided = false;
  return {
    ...observer,
    resolved(targets, waitFor) {
      observer.resolved?.(targets, waitFor);
      if (timer || decided || targets.length === 0) return;
      const sample = sampleResult(targets.slice(0, SAMPLE_TARGETS), waitFor);
      timer = time.setTimer(REHEARSAL_AFTER_MS, () => {
        try {
          rehearse(sample);
        } catch {
          // Only a rehearsal: the real report runs the same code and reports what it must.
        }
      });
    },
    decided() {
      decided = true;
      if (timer) time.clearTimer(timer);
      observer.decided?.();
    },
  };
}

/** A ready wait of `targets`, each at its goal: the shape of the report a successful rollout gets. */
function sampleResult(targets: TargetReport[], waitFor: WaitFor): RunResult {
  return {
    outcome: 'ready',
    cancelled: false,
    durationSeconds: 1,
    targets: targets.map((target) => ({ ...target, status: 'Current', message: 'Resource is current', done: true, seconds: 1, history: [] })),
    warnings: [],
    waitFor,
  };
}
