/**
 * The report's rehearsal (src/rehearsal.ts): once a wait has waited REHEARSAL_AFTER_MS, the shell renders the
 * report of a sample, once; a wait decided sooner rehearses nothing. On virtual time, with the live log's calls
 * recorded to show the observer it wraps still hears everything.
 */
import { describe, expect, it } from '@jest/globals';
import { rehearsing, REHEARSAL_AFTER_MS } from '../src/rehearsal.js';
import type { EngineObserver, RunResult } from '../src/result.js';
import { ManualTime } from '../src/time.js';
import { pending } from './report/fixtures.js';

const goal = { kind: 'ready' } as const;

function setUp(rehearse: (sample: RunResult) => void = () => {}) {
  const heard: string[] = [];
  const inner: EngineObserver = {
    resolved: (targets) => heard.push(`resolved ${targets.length}`),
    transition: (target) => heard.push(`transition ${target.name}`),
    decided: () => heard.push('decided'),
  };
  const samples: RunResult[] = [];
  const time = new ManualTime(0);
  const observer = rehearsing(
    inner,
    (sample) => {
      samples.push(sample);
      rehearse(sample);
    },
    time,
  );
  return { heard, samples, time, observer };
}

describe('rehearsing', () => {
  it('rehearses once, REHEARSAL_AFTER_MS after the targets are known, with a few of them at their goal', async () => {
    const { samples, time, observer } = setUp();
    observer.resolved?.([pending('web'), pending('api'), pending('worker')], goal);
    await time.advance(REHEARSAL_AFTER_MS - 1);
    expect(samples).toHaveLength(0);
    await time.advance(1);
    expect(samples).toHaveLength(1);
    const [sample] = samples;
    expect(sample).toMatchObject({ outcome: 'ready', cancelled: false, waitFor: goal });
    expect(sample!.targets.map((t) => [t.name, t.status, t.done])).toEqual([
      ['web', 'Current', true],
      ['api', 'Current', true],
    ]);
    // A second batch of targets (a feed's) does not rehearse again.
    observer.resolved?.([pending('late')], goal);
    await time.advance(10 * REHEARSAL_AFTER_MS);
    expect(samples).toHaveLength(1);
  });

  it('rehearses nothing for a wait decided before REHEARSAL_AFTER_MS', async () => {
    const { heard, samples, time, observer } = setUp();
    observer.resolved?.([pending('web')], goal);
    await time.advance(REHEARSAL_AFTER_MS / 2);
    observer.decided?.();
    await time.advance(10 * REHEARSAL_AFTER_MS);
    expect(samples).toHaveLength(0);
    expect(time.pending).toBe(0);
    expect(heard).toEqual(['resolved 1', 'decided']);
  });

  it('rehearses nothing when there is no target', async () => {
    const { samples, time, observer } = setUp();
    observer.resolved?.([], goal);
    await time.advance(10 * REHEARSAL_AFTER_MS);
    expect(samples).toHaveLength(0);
  });

  it('passes every call on to the observer it wraps, and a rehearsal that throws goes no further', async () => {
    const { heard, samples, time, observer } = setUp(() => {
      throw new Error('a bug in the report');
    });
    const web = pending('web');
    observer.resolved?.([web], goal);
    observer.transition?.(web, 'Unknown');
    await time.advance(REHEARSAL_AFTER_MS);
    expect(samples).toHaveLength(1);
    observer.decided?.();
    expect(heard).toEqual(['resolved 1', 'transition web', 'decided']);
  });

  it('is the observer itself when the shell has nothing to rehearse', () => {
    const observer: EngineObserver = { decided: () => {} };
    expect(rehearsing(observer, undefined, new ManualTime(0))).toBe(observer);
  });
});
