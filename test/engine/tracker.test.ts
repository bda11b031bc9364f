import { describe, expect, it } from '@jest/globals';
import { Tracker } from '../../src/engine/tracker.js';
import type { Status } from '../../src/status/types.js';

const identity = { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name: 'web' };

function target() {
  const state = new Tracker(undefined).add(identity, { status: 'Unknown', message: 'resolving the resource type', done: false });
  const update = (status: Status, message: string) => state.update({ status, message, done: status === 'Current' });
  const rows = () => state.report.history.map((h) => `${h.status}: ${h.message}`);
  return { state, update, rows };
}

describe('a target history', () => {
  it("keeps the engine's Unknown rows while nothing else is known, and starts at the first real status once one comes", () => {
    const { update, rows } = target();
    update('Unknown', 'waiting for the first list of deployments.apps in namespace "shop"');
    expect(rows()).toEqual(['Unknown: resolving the resource type', 'Unknown: waiting for the first list of deployments.apps in namespace "shop"']);
    update('InProgress', 'Available: 0/1');
    update('Unknown', 'cannot list deployments.apps in namespace "shop": connection refused');
    update('Current', 'Deployment is available. Replicas: 1');
    expect(rows()).toEqual([
      'InProgress: Available: 0/1',
      'Unknown: cannot list deployments.apps in namespace "shop": connection refused',
      'Current: Deployment is available. Replicas: 1',
    ]);
  });

  it('keeps the first real status and the latest ones, 50 rows at most', () => {
    const { update, rows } = target();
    update('NotFound', 'not found; waiting for it to be created');
    for (let i = 1; i <= 60; i++) update('InProgress', `Available: ${i}/100`);
    expect(rows()).toHaveLength(50);
    expect(rows()[0]).toBe('NotFound: not found; waiting for it to be created');
    expect(rows()[1]).toBe('InProgress: Available: 12/100');
    expect(rows().at(-1)).toBe('InProgress: Available: 60/100');
  });
});
