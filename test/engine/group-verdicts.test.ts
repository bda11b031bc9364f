/**
 * `GroupState` applying the judge's verdicts (the verdicts themselves are table-tested in
 * test/status/judge.test.ts): the CRD fact is asked for only when a verdict needs it, its answer judges the
 * kept objects again, a re-check time becomes a timer, and a warning with a key is given once.
 */
import { describe, expect, it } from '@jest/globals';
import { GroupState, type GroupContext } from '../../src/engine/group.js';
import { Tracker } from '../../src/engine/tracker.js';
import type { ResourceType } from '../../src/kube/index.js';
import { parseRuleText } from '../../src/status/health/parse.js';

const WIDGETS: ResourceType = {
  group: 'example.com',
  version: 'v1',
  resource: 'widgets',
  kind: 'Widget',
  namespaced: true,
  singular: 'widget',
  shortNames: [],
  verbs: [],
};
const START = Date.parse('2026-11-30T08:00:00Z');
const WAITING = 'waiting for its controller to report status (status-grace 30s)';

const widget = (name: string, status?: unknown, spec: unknown = {}, resourceVersion = '1') => ({
  apiVersion: 'example.com/v1',
  kind: 'Widget',
  metadata: { name, namespace: 'shop', uid: `uid-${name}`, resourceVersion, generation: 1, creationTimestamp: new Date(START).toISOString() },
  spec,
  ...(status === undefined ? {} : { status }),
});

/** A group of Widgets with a hand-driven clock, timers and CRD answer. */
function setup(opts: { statusGraceMs?: number; crd?: boolean; healthRules?: GroupContext['healthRules'] } = {}) {
  let now = START;
  const tracker = new Tracker(undefined, () => now);
  const timers: Array<{ at: number; run: () => void }> = [];
  const warnings: string[] = [];
  const crd = { asked: 0, answer: opts.crd, whenKnown: [] as Array<() => void> };
  const ctx: GroupContext = {
    tracker,
    waitFor: { kind: 'ready' },
    jobCompletion: true,
    now: () => new Date(now),
    schedule: (at, run) => timers.push({ at, run }),
    workloadPending: () => undefined,
    healthRules: opts.healthRules,
    statusGraceMs: opts.statusGraceMs ?? 30_000,
    statusSubresource: (_type, known) => {
      crd.asked++;
      if (crd.answer === undefined) crd.whenKnown.push(known);
      return crd.answer;
    },
    watchPodsWhenDone: false,
    warn: (message) => warnings.push(message),
  };
  const group = new GroupState(WIDGETS, 'shop', ctx);
  const named = (name: string) => {
    const state = tracker.add({ apiVersion: 'example.com/v1', kind: 'Widget', namespace: 'shop', name }, { status: 'Unknown', message: '', done: false });
    group.addNamed(name, state);
    return state;
  };
  /** Runs the timers due by `at` (epoch ms), in order, with the clock there. */
  const advanceTo = (at: number) => {
    for (;;) {
      timers.sort((a, b) => a.at - b.at);
      const next = timers[0];
      if (!next || next.at > at) break;
      timers.shift();
      now = Math.max(now, next.at);
      next.run();
    }
    now = at;
  };
  const answerCrd = (answer: boolean) => {
    crd.answer = answer;
    for (const known of crd.whenKnown.splice(0)) known();
  };
  return { group, named, timers, warnings, crd, advanceTo, answerCrd };
}

describe('GroupState applies the verdicts', () => {
  it('status-grace: reads the CRD fact once, waits while it is read, then until the grace ends, then warns', () => {
    const { group, named, timers, warnings, crd, advanceTo, answerCrd } = setup();
    const a = named('a');
    const b = named('b');
    group.beginList();
    group.upsert(widget('a'));
    group.upsert(widget('b', { observedGeneration: 1 }));
    group.endList();

    expect(crd.asked).toBe(1); // only a, the one without status, needs it
    expect([a.report.status, a.report.message]).toEqual(['InProgress', WAITING]);
    expect(b.report.status).toBe('Current');
    expect(timers).toEqual([]); // the CRD's answer, not the clock, judges it again

    answerCrd(true);
    expect(timers.map((t) => t.at)).toEqual([0]); // judged again at once (through the scheduler)
    advanceTo(START + 1_000);
    expect(a.report.message).toBe(WAITING);
    expect(timers.map((t) => t.at)).toEqual([START + 30_000 + 1]);

    group.upsert(widget('a')); // an unchanged resend does not end the wait early nor ask again
    expect(a.report.message).toBe(WAITING);
    expect(crd.asked).toBe(2); // once while it was read, once for the answer; the group keeps it since

    advanceTo(START + 31_000);
    expect(a.report).toMatchObject({ status: 'Current', done: true, rule: 'kstatus' });
    expect(warnings).toEqual([expect.stringMatching(/^shop\/Widget\/a has no status after status-grace 30s/)]);
    expect(timers.filter((t) => t.at <= START + 31_000)).toEqual([]);
  });

  it('status-grace: a CRD known to have no status subresource is kstatus at once', () => {
    const { group, named, timers, warnings } = setup({ crd: false });
    const a = named('a');
    group.beginList();
    group.upsert(widget('a'));
    group.endList();
    expect(a.report).toMatchObject({ status: 'Current', done: true });
    expect(timers).toEqual([]);
    expect(warnings).toEqual([]);
  });

  it('gives an evaluation warning once per target and rule, even when the missing field changes', () => {
    const [rule] = parseRuleText('- apiVersion: example.com/v1\n  kind: Widget\n  current: spec.size == status.size\n', { firstIndex: 0 }).rules;
    const { group, named, warnings } = setup({ healthRules: { ruleFor: () => rule } });
    const a = named('a');
    const b = named('b');
    group.beginList();
    group.upsert(widget('a', { phase: 'Running' }));
    group.upsert(widget('b', { phase: 'Running' }));
    group.endList();
    group.upsert(widget('a', { phase: 'Running' }, { size: 3 }, '2'));

    expect(a.report).toMatchObject({ status: 'InProgress', rule: 'health-checks[0]' });
    expect(a.report.message).toMatch(/missing field status\.size/);
    expect(b.report.status).toBe('InProgress');
    expect(warnings).toEqual([
      expect.stringMatching(/^Widget shop\/a: .*missing field spec\.size/),
      expect.stringMatching(/^Widget shop\/b: .*missing field spec\.size/),
    ]);
  });
});

describe('GroupState: what the judge keeps of an object’s first sighting (a Flagger Canary)', () => {
  const CANARIES: ResourceType = { ...WIDGETS, group: 'flagger.app', version: 'v1beta1', resource: 'canaries', kind: 'Canary', singular: 'canary' };
  const status = (phase: string, lastAppliedSpec: string) => ({ phase, lastAppliedSpec, lastPromotedSpec: 'aaa', canaryWeight: 0, failedChecks: 0 });
  const canary = (uid: string, resourceVersion: string, phase: string, spec: string) => ({
    apiVersion: 'flagger.app/v1beta1',
    kind: 'Canary',
    metadata: { name: 'web', namespace: 'shop', uid, resourceVersion },
    spec: {},
    status: status(phase, spec),
  });

  function canaryGroup() {
    const tracker = new Tracker(undefined, () => START);
    const ctx: GroupContext = {
      tracker,
      waitFor: { kind: 'ready' },
      jobCompletion: true,
      now: () => new Date(START),
      schedule: () => undefined,
      workloadPending: () => undefined,
      statusGraceMs: 0,
      statusSubresource: () => true,
      watchPodsWhenDone: false,
      warn: () => undefined,
    };
    const group = new GroupState(CANARIES, 'shop', ctx);
    const state = tracker.add(
      { apiVersion: 'flagger.app/v1beta1', kind: 'Canary', namespace: 'shop', name: 'web' },
      { status: 'Unknown', message: '', done: false },
    );
    group.addNamed('web', state);
    return { group, state };
  }

  it('keeps it per uid across events: the previous deploy’s Succeeded waits, this one’s is ready', () => {
    const { group, state } = canaryGroup();
    group.upsert(canary('uid-1', '1', 'Succeeded', 'aaa'));
    expect(state.report).toMatchObject({
      status: 'InProgress',
      rule: 'builtin:flagger-canary',
      message: expect.stringMatching(/^Flagger has not picked up this revision yet/),
    });
    group.upsert(canary('uid-1', '2', 'Succeeded', 'aaa'));
    expect(state.report.done).toBe(false);
    group.upsert(canary('uid-1', '3', 'Succeeded', 'bbb'));
    expect(state.report).toMatchObject({ status: 'Current', done: true });
  });

  it('a new object of the same name (a new uid) is first seen anew', () => {
    const { group, state } = canaryGroup();
    group.upsert(canary('uid-1', '1', 'Succeeded', 'aaa'));
    group.remove('web');
    // Judged against uid-1's first sighting, bbb would be a new spec; the new object's own first sighting is bbb.
    group.upsert(canary('uid-2', '5', 'Succeeded', 'bbb'));
    expect(state.report).toMatchObject({ status: 'InProgress', done: false });
    group.upsert(canary('uid-2', '6', 'Succeeded', 'ccc'));
    expect(state.report).toMatchObject({ status: 'Current', done: true });
  });
});
