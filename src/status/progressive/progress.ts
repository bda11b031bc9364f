/**
 * Where a progressive rollout stands (an Argo Rollout's canary, a Flagger Canary), as the `resources` output,
 * `-o json` and the summary row carry it. Pure.
 */

export interface Progress {
  /** `2/5`: the canary steps done of its steps, as `kubectl argo rollouts get rollout` shows `Step: 2/5`
   *  (`status.currentStepIndex`); for a Flagger Canary, its weight step of the steps to its maximum weight. */
  step?: string;
  /** The traffic weight of the canary, in percent. */
  weight?: number;
  /** The phase of its current analysis: `Pending`, `Running`, `Successful`, `Failed`, `Error`, `Inconclusive`. */
  analysis?: string;
}

/** `canary step 2/5, weight 20 %, analysis Successful`: what is known of it, in that order. */
export function progressText(progress: Progress): string {
  const parts = [
    progress.step === undefined ? undefined : `canary step ${progress.step}`,
    progress.weight === undefined ? undefined : `weight ${progress.weight} %`,
    progress.analysis === undefined ? undefined : `analysis ${progress.analysis}`,
  ].filter((part) => part !== undefined);
  return parts.join(', ');
}

/** `canary step 2/5, weight 20 %, analysis Successful — `: where a progressive rollout stands, put before its
 *  message on every channel that shows one line per target (the summary row, the step log); '' for others. */
export function progressPrefix(progress: Progress | undefined): string {
  const text = progress ? progressText(progress) : '';
  return text ? `${text} — ` : '';
}

/** Whether two progresses say the same. */
export function sameProgress(a: Progress | undefined, b: Progress | undefined): boolean {
  return a === b || (a !== undefined && b !== undefined && a.step === b.step && a.weight === b.weight && a.analysis === b.analysis);
}
