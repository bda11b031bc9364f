import { describe, expect, it } from '@jest/globals';
import type { TargetReport } from '../../src/result.js';
import {
  bufferedSink,
  createLiveLog,
  finalLogLines,
  heartbeatLines,
  resolvedHeading,
  resolvedLine,
  transitionLine,
  type LogSink,
} from '../../src/report/live-log.js';
import type { Status } from '../../src/status/types.js';
import { firstListMessage } from '../../src/result.js';
import { failed, fromFile, imagePullDiagnosis, pending, ready, result, target } from './fixtures.js';

/** A sink that records what the action would write, in order. */
function recordingSink(): LogSink & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    info: (m) => lines.push(m),
    warning: (m) => lines.push(`::warning::${m}`),
    startGroup: (n) => lines.push(`::group::${n}`),
    endGroup: () => lines.push('::endgroup::'),
  };
}

describe('transitionLine', () => {
  const cases: Array<{ what: string; t: TargetReport; previous: Status | undefined; line: string }> = [
    {
      what: 'a target becoming ready',
      t: ready('web', { history: [{ status: 'Current', message: 'Deployment is available. Replicas: 3', atSeconds: 12.4 }] }),
      previous: 'InProgress',
      line: 'deployment/web (shop): InProgress -> Current after 12.4s: Deployment is available. Replicas: 3',
    },
    {
      what: 'the first status of a target',
      t: pending('web', { message: 'Replicas: 0/3', history: [{ status: 'InProgress', message: 'Replicas: 0/3', atSeconds: 0.3 }] }),
      previous: undefined,
      line: 'deployment/web (shop): InProgress after 0.3s: Replicas: 0/3',
    },
    {
      what: 'a message change without a status change',
      t: pending('web', { message: 'Ready: 2/3', history: [{ status: 'InProgress', message: 'Ready: 2/3', atSeconds: 8 }] }),
      previous: 'InProgress',
      line: 'deployment/web (shop): InProgress after 8.0s: Ready: 2/3',
    },
    {
      what: 'a failure, with the failing container',
      t: failed('web', { diagnosis: imagePullDiagnosis(), seconds: 21, history: [{ status: 'Failed', message: 'x', atSeconds: 21 }] }),
      previous: 'InProgress',
      line: 'deployment/web (shop): InProgress -> Failed after 21.0s: Progress deadline exceeded; container web of pod web-7d9c-abcde: ImagePullBackOff: Back-off pulling image "web:v2"',
    },
    {
      what: "a canary's step, weight and analysis, before its message",
      t: pending('web', {
        kind: 'Rollout',
        apiVersion: 'argoproj.io/v1alpha1',
        message: 'paused at step 2 (step:2)',
        progress: { step: '2/5', weight: 20, analysis: 'Running' },
        history: [{ status: 'InProgress', message: 'paused at step 2 (step:2)', atSeconds: 9 }],
      }),
      previous: 'InProgress',
      line: 'rollout/web (shop): InProgress after 9.0s: canary step 2/5, weight 20 %, analysis Running — paused at step 2 (step:2)',
    },
    {
      what: 'a multi-line message, without history (falls back to seconds)',
      t: target({ kind: 'Namespace', apiVersion: 'v1', namespace: '', name: 'gone', status: 'NotFound', message: 'not\nfound', done: true, seconds: 3 }),
      previous: 'Terminating',
      line: 'namespace/gone: Terminating -> NotFound after 3.0s: not found',
    },
  ];
  it.each(cases)('$what', ({ t, previous, line }) => {
    expect(transitionLine(t, previous)).toBe(line);
  });
});

describe('transitionLine for other goals', () => {
  it('says when the goal is reached, since the status may stay the same', () => {
    const met = ready('web', { history: [{ status: 'Current', message: 'm', atSeconds: 5 }] });
    expect(transitionLine(met, 'Current', { kind: 'condition', type: 'Available', value: 'True' })).toBe(
      'deployment/web (shop): Current, Available=True after 5.0s: Deployment is available. Replicas: 3',
    );
    const gone = target({ status: 'NotFound', message: 'Resource not found', done: true, seconds: 9 });
    expect(transitionLine(gone, 'Terminating', { kind: 'deleted' })).toBe(
      'deployment/web (shop): Terminating -> NotFound, deleted after 9.0s: Resource not found',
    );
    expect(transitionLine(ready('web', { seconds: 1 }), 'InProgress', { kind: 'ready' })).toBe(
      'deployment/web (shop): InProgress -> Current after 1.0s: Deployment is available. Replicas: 3',
    );
  });
});

describe('heartbeatLines', () => {
  it('names every pending target with its reason when there are few, and a failed one apart from them', () => {
    const lines = heartbeatLines([pending('a'), failed('b', { diagnosis: imagePullDiagnosis('b') })], 30, 5);
    expect(lines).toEqual([
      'Still waiting after 30.0s for 1 of 5 targets:',
      '  deployment/a (shop): InProgress: Ready: 1/3',
      'Failed after 30.0s, 1 of 5 targets (fail-fast is off: the wait goes on):',
      '  deployment/b (shop): Failed: Progress deadline exceeded; container b of pod b-7d9c-abcde: ImagePullBackOff: Back-off pulling image "web:v2"',
    ]);
  });
  it('says nothing is waited for but failed targets, when that is so', () => {
    expect(heartbeatLines([failed('b')], 30, 5)).toEqual([
      'Failed after 30.0s, 1 of 5 targets (fail-fast is off: the wait goes on):',
      '  deployment/b (shop): Failed: Progress deadline exceeded',
    ]);
  });
  it('names at most 10 and counts the rest', () => {
    const many = Array.from({ length: 25 }, (_, i) => pending(`w${i}`));
    const lines = heartbeatLines(many, 90, 40);
    expect(lines[0]).toBe('Still waiting after 1m30s for 25 of 40 targets:');
    expect(lines.slice(1, -1)).toHaveLength(10);
    expect(lines.at(-1)).toBe('  and 15 more');
  });
  it('works before targets were resolved (total unknown)', () => {
    expect(heartbeatLines([pending('a')], 30, 0)[0]).toBe('Still waiting after 30.0s for 1 target:');
  });
});

describe('resolved targets', () => {
  it('has a heading saying what is waited for', () => {
    expect(resolvedHeading(3, { kind: 'ready' })).toBe('Waiting for 3 targets to be ready');
    expect(resolvedHeading(1, { kind: 'deleted' })).toBe('Waiting for 1 target to be deleted');
    expect(resolvedHeading(2, { kind: 'condition', type: 'Available', value: 'True' })).toBe('Waiting for 2 targets to have Available=True');
  });
  it('shows apiVersion, source file and current status', () => {
    expect(resolvedLine(pending('web', { ...fromFile('k8s/web.yaml', 12) }))).toBe(
      'deployment/web (shop)  apps/v1  from k8s/web.yaml:12  InProgress: Ready: 1/3',
    );
  });
});

describe('createLiveLog', () => {
  it('writes the resolved targets in a group, transitions, warnings and heartbeats through the sink', () => {
    const sink = recordingSink();
    const log = createLiveLog(sink, { waitFor: { kind: 'ready' }, heartbeatNames: 1 });
    log.transition?.(pending('a'), undefined); // before resolution: the group lists it
    log.resolved?.([pending('a'), pending('b')], { kind: 'ready' });
    log.transition?.(ready('a', { seconds: 4 }), 'InProgress');
    log.warning?.('watch on pods forbidden; polling every 2s');
    log.heartbeat?.([pending('b'), pending('c')], 30);
    expect(sink.lines).toEqual([
      '::group::Waiting for 2 targets to be ready',
      'deployment/a (shop)  apps/v1  InProgress: Ready: 1/3',
      'deployment/b (shop)  apps/v1  InProgress: Ready: 1/3',
      '::endgroup::',
      'deployment/a (shop): InProgress -> Current after 4.0s: Deployment is available. Replicas: 3',
      '::warning::watch on pods forbidden; polling every 2s',
      'Still waiting after 30.0s for 2 of 2 targets:\n  deployment/b (shop): InProgress: Ready: 1/3\n  and 1 more',
    ]);
  });

  it('lists a target not read yet without a state, and says its first status once, as it is', () => {
    const sink = recordingSink();
    const log = createLiveLog(sink, { waitFor: { kind: 'ready' } });
    // The engine's report objects change in place: the same object is resolved, then transitions.
    const web = pending('web', { status: 'Unknown', message: firstListMessage('deployments.apps in namespace "shop"') });
    log.resolved?.([web], { kind: 'ready' });
    Object.assign(web, ready('web', { history: [{ status: 'Current', message: 'Deployment is available. Replicas: 3', atSeconds: 0.6 }] }));
    log.transition?.(web, 'Unknown');
    expect(sink.lines).toEqual([
      '::group::Waiting for 1 target to be ready',
      'deployment/web (shop)  apps/v1',
      '::endgroup::',
      'deployment/web (shop): Current after 0.6s: Deployment is available. Replicas: 3',
    ]);
  });

  it('phrases the goal the engine waits for, which an uninstalling Helm release makes deleted', () => {
    const sink = recordingSink();
    const log = createLiveLog(sink, { waitFor: { kind: 'ready' } });
    log.resolved?.([pending('a')], { kind: 'deleted' });
    expect(sink.lines[0]).toBe('::group::Waiting for 1 target to be deleted');
  });

  it('leaves changes before resolution to the resolved group, and shows targets that appear later', () => {
    const sink = recordingSink();
    const log = createLiveLog(sink, { waitFor: { kind: 'ready' } });
    log.transition?.(pending('a', { seconds: 0.1 }), 'Unknown');
    log.resolved?.([pending('a')], { kind: 'ready' });
    log.transition?.(pending('new', { seconds: 5 }), undefined);
    expect(sink.lines).toEqual([
      '::group::Waiting for 1 target to be ready',
      'deployment/a (shop)  apps/v1  InProgress: Ready: 1/3',
      '::endgroup::',
      'deployment/new (shop): InProgress after 5.0s: Ready: 1/3',
    ]);
  });
});

describe('finalLogLines', () => {
  it("gives a canary's step and weight before its message", () => {
    const canary = pending('web', { kind: 'Rollout', apiVersion: 'argoproj.io/v1alpha1', message: 'waiting', progress: { step: '1/5', weight: 10 } });
    expect(finalLogLines(result([canary]), { kind: 'ready' })).toContain('  rollout/web (shop): InProgress: canary step 1/5, weight 10 % — waiting');
    expect(heartbeatLines([canary], 30, 1)).toContain('  rollout/web (shop): InProgress: canary step 1/5, weight 10 % — waiting');
  });

  it('states the outcome and explains every target that is not done, failures first', () => {
    const r = result([ready('ok'), pending('slow'), failed('bad', { diagnosis: imagePullDiagnosis('bad') })]);
    expect(finalLogLines(r, { kind: 'ready' })).toEqual([
      'kubewait: failed after 42.4s: 1 of 3 targets ready',
      '  deployment/bad (shop): Failed: Progress deadline exceeded',
      '    container bad of pod bad-7d9c-abcde: ImagePullBackOff: Back-off pulling image "web:v2"',
      '    event Failed on Pod/bad-7d9c-abcde (x4): Failed to pull image "web:v2": not found',
      '  deployment/slow (shop): InProgress: Ready: 1/3',
    ]);
  });
  it("gives the Helm release's own words first when the release decided the result", () => {
    const release = { name: 'shop', namespace: 'store', title: 'shop', message: 'Helm release shop revision 3 failed: boom', verdict: 'failed' as const };
    const r = { ...result([ready('ok')], { outcome: 'failed' }), release };
    expect(finalLogLines(r, { kind: 'ready' })).toEqual(['kubewait: failed after 42.4s: 1 of 1 target ready', '  Helm release shop revision 3 failed: boom']);
  });
  it('says cancelled, and caps the list', () => {
    const r = result([pending('a'), pending('b'), pending('c')], { cancelled: true, outcome: 'timeout' });
    expect(finalLogLines(r, { kind: 'deleted' }, 2)).toEqual([
      'kubewait: cancelled after 42.4s: 0 of 3 targets deleted',
      '  deployment/a (shop): InProgress: Ready: 1/3',
      '  deployment/b (shop): InProgress: Ready: 1/3',
      '  and 1 more (see the job summary and the outputs)',
    ]);
  });
});

describe('bufferedSink', () => {
  const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

  it('writes the info lines of one event-loop turn in a single write', async () => {
    const sink = recordingSink();
    const buffered = bufferedSink(sink);
    buffered.info('a');
    buffered.info('b');
    await Promise.resolve(); // a microtask is not the turn's end: a chunk read later in the turn joins the write
    expect(sink.lines).toEqual([]);
    await nextTurn();
    expect(sink.lines).toEqual(['a\nb']);
    buffered.info('c');
    await nextTurn();
    expect(sink.lines).toEqual(['a\nb', 'c']);
  });

  it("the live log writes what it holds as soon as the wait is decided, not at the turn's end", () => {
    const sink = recordingSink();
    const buffered = bufferedSink(sink);
    const log = createLiveLog(buffered, { waitFor: { kind: 'ready' } });
    buffered.info('the last target is ready');

    log.decided?.();

    expect(sink.lines).toEqual(['the last target is ready']);
  });

  it('keeps the order of lines: a warning or group flushes the buffered lines first', () => {
    const sink = recordingSink();
    const buffered = bufferedSink(sink);
    buffered.info('before');
    buffered.warning('careful');
    buffered.info('inside');
    buffered.startGroup('group');
    buffered.endGroup();
    buffered.info('after');
    buffered.flush();
    expect(sink.lines).toEqual(['before', '::warning::careful', 'inside', '::group::group', '::endgroup::', 'after']);
  });
});
