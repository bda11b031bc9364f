import { describe, expect, it } from '@jest/globals';
import { ConditionTable, keptEvaluation } from '../../src/engine/kept.js';
import { StringTable } from '../../src/string-table.js';
import type { Evaluation } from '../../src/status/goal.js';

const available = (message = 'Deployment has minimum availability.') => ({ type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable', message });

function evaluation(overrides: Partial<Evaluation> = {}): Evaluation {
  return { status: 'Current', message: 'Deployment is available. Replicas: 1', conditions: [available()], done: true, rule: 'kstatus', ...overrides };
}

describe('keptEvaluation', () => {
  it('keeps the evaluation already kept when the new one says the same', () => {
    const kept = evaluation();
    expect(keptEvaluation(evaluation(), kept)).toBe(kept);
  });

  it.each<[string, Partial<Evaluation> & { optedOut?: true }]>([
    ['status', { status: 'InProgress' }],
    ['message', { message: 'Available: 0/1' }],
    ['done', { done: false }],
    ['rule', { rule: 'builtin:deployment' }],
    ['a condition message', { conditions: [available('ReplicaSet "web-1" has timed out progressing.')] }],
    ['one condition more', { conditions: [available(), { type: 'Progressing', status: 'True', reason: 'NewReplicaSetAvailable', message: '' }] }],
    ['a synthesized condition', { conditions: [{ ...available(), synthesized: true }] }],
    ['the opt-out', { optedOut: true }],
    ['the canary weight', { progress: { step: '1/5', weight: 20 } }],
  ])('takes the new evaluation when its %s differs, with the same values', (_what, change) => {
    const next = evaluation(change);
    const copy = structuredClone(next);
    const kept = keptEvaluation(next, evaluation());
    expect(kept).toBe(next);
    expect(kept).toEqual(copy);
  });
});

describe('StringTable', () => {
  it('gives back an equal string, and holds at most its bound of short strings', () => {
    const table = new StringTable(3, 10);
    expect(table.intern('Available')).toBe('Available');
    table.intern(`${'Avail'}able`);
    expect(table.size).toBe(1);
    table.intern('a string longer than ten');
    expect(table.size).toBe(1);
    for (const text of ['a', 'b', 'c', 'd']) expect(table.intern(text)).toBe(text);
    expect(table.size).toBe(3);
  });
});

describe('ConditionTable', () => {
  it('gives back the first of equal conditions, and never one that differs in any field', () => {
    const table = new ConditionTable();
    const first = available();
    expect(table.share(first)).toBe(first);
    expect(table.share(available())).toBe(first);
    for (const other of [
      available('ReplicaSet "web-1" has successfully progressed.'),
      { ...available(), status: 'False' },
      { ...available(), reason: 'Other' },
      { ...available(), type: 'Progressing' },
      { ...available(), synthesized: true },
    ])
      expect(table.share(other)).toBe(other);
  });

  it('shares no condition with fields of its own, nor one whose message names its object at length', () => {
    const table = new ConditionTable();
    const extra = { ...available(), lastTransitionTime: '2026-01-01T00:00:00Z' };
    table.share(extra);
    expect(table.share({ ...extra })).not.toBe(extra);
    const long = available('x'.repeat(201));
    table.share(long);
    expect(table.share({ ...long })).not.toBe(long);
    expect(table.size).toBe(0);
  });

  it('keeps evaluations of different targets with the same conditions apart, sharing the conditions', () => {
    const tables = { strings: new StringTable(), conditions: new ConditionTable() };
    const a = keptEvaluation(evaluation(), undefined, tables);
    const b = keptEvaluation(evaluation(), undefined, tables);
    expect(b).not.toBe(a);
    expect(b.conditions[0]).toBe(a.conditions[0]);
    expect(b).toEqual(evaluation());
  });
});
