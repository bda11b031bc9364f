/** withFailureGrace: a rule's Failed holds the grace before it counts; kstatus's Failed never waits. */
import { describe, expect, it } from '@jest/globals';
import { withFailureGrace } from '../../src/status/failure-grace.js';
import type { Evaluation } from '../../src/status/goal.js';

const now = new Date('2026-12-02T10:00:00Z');
const failed = (rule: string): Evaluation => ({ status: 'Failed', message: 'Degraded: PDB blocks eviction', conditions: [], done: false, rule });

describe('withFailureGrace', () => {
  it.each(['health-checks[0]', 'builtin:argo-rollouts', 'gitops:argocd-application'])('holds a Failed from %s for the grace, then lets it count', (rule) => {
    const first = withFailureGrace(failed(rule), { graceMs: 30_000, now });
    expect(first).toEqual({
      evaluation: { ...failed(rule), status: 'InProgress', message: 'Degraded: PDB blocks eviction (Failed for 0s; failure-grace 30s)' },
      failingSinceMs: now.getTime(),
      recheckAtMs: now.getTime() + 30_001,
    });
    const later = new Date(now.getTime() + 12_000);
    expect(withFailureGrace(failed(rule), { graceMs: 30_000, now: later, failingSinceMs: now.getTime() }).evaluation.message).toContain('Failed for 12s');
    const after = new Date(now.getTime() + 30_000);
    expect(withFailureGrace(failed(rule), { graceMs: 30_000, now: after, failingSinceMs: now.getTime() })).toEqual({
      evaluation: failed(rule),
      failingSinceMs: now.getTime(),
    });
  });

  it('never delays kstatus (a failed Job, a progress deadline)', () => {
    expect(withFailureGrace(failed('kstatus'), { graceMs: 30_000, now })).toEqual({ evaluation: failed('kstatus') });
  });

  it('forgets the failure once the rule says anything else', () => {
    const healthy: Evaluation = { status: 'Current', message: 'Healthy', conditions: [], done: true, rule: 'health-checks[0]' };
    expect(withFailureGrace(healthy, { graceMs: 30_000, now, failingSinceMs: now.getTime() - 5000 })).toEqual({ evaluation: healthy });
  });

  it('with no grace, counts at once', () => {
    expect(withFailureGrace(failed('health-checks[0]'), { graceMs: 0, now }).evaluation.status).toBe('Failed');
  });
});
