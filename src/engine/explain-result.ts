/**
 * The step between the wait and the report: for the targets that did not get there, read why (their failing
 * pods, a failed Job's pods, the tails of their containers' logs) and attach it to the result the report renders.
 * Failed targets, and when the wait ran to its deadline every target not done. Skipped when the job was cancelled (the runner is about to kill the step: report what is known, now) and when
 * every target is done. Never fails the run: what cannot be read is a warning.
 */
import type { KubeClient } from '../kube/client.js';
import type { Settings } from '../settings.js';
import type { Time } from '../time.js';
import { explainTargets } from './explain.js';
import { withPodCause } from './pod-cause.js';
import type { RunResult } from '../result.js';

/** The part of the run's settings the explain step acts on. */
export type ExplainSettings = Pick<Settings, 'logs' | 'logLines' | 'failFast'>;

export interface ExplainStepOptions {
  /** The registered secret masks: every text read from the cluster goes through them. */
  mask: (text: string) => string;
  /** The run's cancellation: a cancel during the reads ends them at once. */
  signal?: AbortSignal;
  /** Each warning, as it is found (the log's `::warning::`). */
  warning?: (message: string) => void;
  /** Time for the reads after the wait (default 5 s for the logs, as long again for the GETs and LISTs). */
  budgetMs?: number;
  /** The run's clock and timers (default: real time). */
  time?: Time;
}

export async function explainResult(client: KubeClient, result: RunResult, settings: ExplainSettings, options: ExplainStepOptions): Promise<RunResult> {
  if (result.cancelled || options.signal?.aborted || result.targets.every((t) => t.done)) return result;
  // Failed targets always; the others only when the wait ran to its deadline. A wait that fail-fast stopped
  // early left them on their way: their pods starting up are no finding.
  const atDeadline = result.outcome === 'timeout' || (result.outcome === 'failed' && !settings.failFast && !result.error);
  const asked = result.targets.map((t) => (t.status === 'Failed' || atDeadline ? t : { ...t, done: true }));
  const { explanations, diagnoses, warnings } = await explainTargets(client, asked, {
    logLines: settings.logs ? settings.logLines : 0,
    mask: options.mask,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.budgetMs !== undefined ? { budgetMs: options.budgetMs } : {}),
    ...(options.time ? { time: options.time } : {}),
  });
  for (const warning of warnings) options.warning?.(warning);
  return {
    ...result,
    targets: result.targets.map((target, i) => {
      const explanation = explanations[i];
      if (!explanation) return target;
      // A target decided at its first look (fail-fast) was never diagnosed by the engine: its pods say why now.
      const diagnosis = target.diagnosis ?? diagnoses[i];
      return withPodCause({ ...target, explanation, ...(diagnosis ? { diagnosis } : {}) });
    }),
    warnings: [...result.warnings, ...warnings],
  };
}
