/**
 * Which clusters stop when one decides the verdict, and why each says it stopped: the first to decide
 * is named, a wait already over is never cut short, and only a decided verdict stops anything.
 */
import { describe, expect, it } from '@jest/globals';
import { ClusterStops } from '../../src/fleet/stops.js';

const ready = { outcome: 'ready', cancelled: false } as const;
const failed = { outcome: 'failed', cancelled: false } as const;
const names = ['eu-west', 'us-east', 'ap-south'];
const aborted = (stops: ClusterStops) => names.map((_, at) => stops.signal(at).aborted);

describe('ClusterStops', () => {
  it('with policy any, stops every cluster still waiting once one is ready, naming it', () => {
    const stops = new ClusterStops(names, 'any', true);
    stops.waited(1, ready);
    expect(aborted(stops)).toEqual([true, false, true]);
    expect(stops.stopped(0, { cancelled: true })).toBe('cluster us-east was ready (cluster-policy: any)');
    expect(stops.stopped(1, { cancelled: false })).toBeUndefined();
  });

  it('never stops a cluster whose wait is over: two ready at nearly the same moment keep their own verdict', () => {
    const stops = new ClusterStops(names, 'any', true);
    stops.waited(0, ready);
    stops.waited(1, ready); // had ended before the stop reached it: its engine did not see the abort
    expect(aborted(stops)).toEqual([false, true, true]);
    expect(stops.stopped(0, { cancelled: false })).toBeUndefined();
    // The stop came first, but its wait ended by itself: not stopped.
    expect(stops.stopped(1, { cancelled: false })).toBeUndefined();
    expect(stops.stopped(2, { cancelled: true })).toBe('cluster eu-west was ready (cluster-policy: any)');
  });

  it('with policy any, a failed or unusable cluster decides nothing', () => {
    const stops = new ClusterStops(names, 'any', true);
    stops.waited(0, failed);
    stops.waited(1, { outcome: 'failed', cancelled: false, error: { input: 'kubeconfig', message: 'rejected' } });
    stops.waited(2, { outcome: 'timeout', cancelled: false });
    expect(aborted(stops)).toEqual([false, false, false]);
  });

  it('with policy all, a Failed target stops the others only with fail-fast, and a ready cluster never does', () => {
    const failFast = new ClusterStops(names, 'all', true);
    failFast.waited(2, ready);
    expect(aborted(failFast)).toEqual([false, false, false]);
    failFast.waited(0, failed);
    expect(aborted(failFast)).toEqual([false, true, false]); // ap-south's wait was over
    expect(failFast.stopped(1, { cancelled: true })).toBe('a target failed in cluster eu-west (fail-fast)');

    const patient = new ClusterStops(names, 'all', false);
    patient.waited(0, failed);
    expect(aborted(patient)).toEqual([false, false, false]);
  });

  it('a wait that was itself cut short (stopped, or the job cancelled) decides nothing', () => {
    const stops = new ClusterStops(names, 'any', true);
    stops.waited(0, { outcome: 'ready', cancelled: true });
    expect(aborted(stops)).toEqual([false, false, false]);
  });
});
