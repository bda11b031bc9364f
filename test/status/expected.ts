/** Expected results written out by hand (not via src/status/results.ts), so a wrong constructor cannot hide. */
import type { StatusResult } from '../../src/status/index.js';

export const ip = (reason: string, message: string): StatusResult => ({
  status: 'InProgress',
  message,
  conditions: [{ type: 'Reconciling', status: 'True', reason, message }],
});
export const fail = (reason: string, message: string): StatusResult => ({
  status: 'Failed',
  message,
  conditions: [{ type: 'Stalled', status: 'True', reason, message }],
});
export const cur = (message: string): StatusResult => ({ status: 'Current', message, conditions: [] });
export const unknown = (message: string): StatusResult => ({ status: 'Unknown', message, conditions: [] });
