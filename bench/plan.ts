/**
 * Which scenarios run, with which waiters, how many times. Pure.
 * The full plan keeps a 2-core machine under ~15 minutes: kubectl wait handles the Deployments of one
 * invocation one after another at ≈100 ms each (client-go's cache-sync poll), so its large single-namespace
 * cells run once or are skipped, and say so.
 */
import type { Scenario } from './fixture.js';

export const WAITER_IDS = ['kubewait-watch', 'kubewait-poll', 'kubewait-esbuild', 'kubectl-wait', 'kubectl-rollout', 'kubewait-gc', 'kubewait-young'] as const;
/** Diagnostic variants (Node flags an action cannot set): they explain memory, they are not contenders. */
export const DIAGNOSTIC_IDS: readonly WaiterId[] = ['kubewait-gc', 'kubewait-young'];
export type WaiterId = (typeof WAITER_IDS)[number];

export interface ScenarioPlan extends Scenario {
  /** Repetitions per waiter; a waiter missing here does not run. */
  runs: Partial<Record<WaiterId, number>>;
  /** Why a waiter does not run here. */
  skipped: Partial<Record<WaiterId, string>>;
}

const all = (reps: number, poll = Math.min(reps, 3)): Partial<Record<WaiterId, number>> => ({
  'kubewait-watch': reps,
  'kubewait-poll': poll,
  'kubectl-wait': reps,
  'kubectl-rollout': reps,
});

const KUBECTL_SERIAL = (n: number) =>
  `one kubectl process would handle ${n.toLocaleString('en-US')} Deployments one after another (≈100 ms each): ≈${Math.round((n * 0.1) / 60)} min per run`;

export function plan(quick: boolean): ScenarioPlan[] {
  if (quick) {
    return [
      { deployments: 1, namespaces: 1, runs: { ...all(1), 'kubewait-esbuild': 1 }, skipped: {} },
      { deployments: 100, namespaces: 10, runs: { ...all(1), 'kubewait-gc': 1, 'kubewait-young': 1 }, skipped: {} },
    ];
  }
  return [
    { deployments: 1, namespaces: 1, runs: { ...all(5), 'kubewait-esbuild': 5 }, skipped: {} },
    { deployments: 100, namespaces: 1, runs: { ...all(5), 'kubectl-wait': 3 }, skipped: {} },
    { deployments: 100, namespaces: 10, runs: all(5), skipped: {} },
    { deployments: 1000, namespaces: 1, runs: { ...all(5), 'kubewait-esbuild': 3, 'kubectl-wait': 1, 'kubectl-rollout': 3 }, skipped: {} },
    { deployments: 1000, namespaces: 10, runs: { ...all(5), 'kubectl-wait': 3, 'kubectl-rollout': 3 }, skipped: {} },
    { deployments: 1000, namespaces: 50, runs: { ...all(5), 'kubectl-wait': 3, 'kubectl-rollout': 3 }, skipped: {} },
    {
      deployments: 5000,
      namespaces: 1,
      runs: { 'kubewait-watch': 3, 'kubewait-poll': 2, 'kubewait-esbuild': 3, 'kubectl-rollout': 1, 'kubewait-gc': 1, 'kubewait-young': 1 },
      skipped: { 'kubectl-wait': KUBECTL_SERIAL(5000) },
    },
    { deployments: 5000, namespaces: 50, runs: { ...all(3, 2), 'kubectl-wait': 2, 'kubectl-rollout': 2 }, skipped: {} },
  ];
}

/** `1000x10` -> scenario filter; an empty filter keeps all. */
export function selectScenarios(plans: ScenarioPlan[], filter: string[]): ScenarioPlan[] {
  if (filter.length === 0) return plans;
  return plans.filter((p) => filter.includes(`${p.deployments}x${p.namespaces}`));
}

/** Runs interleaved by repetition (rep 1 of every waiter, then rep 2, ...) so machine noise spreads evenly. */
export function schedule(p: ScenarioPlan): Array<{ waiter: WaiterId; rep: number; of: number }> {
  const out: Array<{ waiter: WaiterId; rep: number; of: number }> = [];
  const most = Math.max(0, ...Object.values(p.runs).map((n) => n ?? 0));
  for (let rep = 0; rep < most; rep++) {
    for (const waiter of WAITER_IDS) {
      const of = p.runs[waiter] ?? 0;
      if (rep < of) out.push({ waiter, rep, of });
    }
  }
  return out;
}
