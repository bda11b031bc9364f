/** Result constructors, as kstatus util.go builds them. */
import type { Condition, StatusResult } from './types.js';

export const reconciling = (reason: string, message: string): Condition => ({
  type: 'Reconciling',
  status: 'True',
  reason,
  message,
});

export const stalled = (reason: string, message: string): Condition => ({
  type: 'Stalled',
  status: 'True',
  reason,
  message,
});

export const inProgress = (reason: string, message: string): StatusResult => ({
  status: 'InProgress',
  message,
  conditions: [reconciling(reason, message)],
});

export const failed = (reason: string, message: string): StatusResult => ({
  status: 'Failed',
  message,
  conditions: [stalled(reason, message)],
});

export const current = (message: string): StatusResult => ({ status: 'Current', message, conditions: [] });

export const unknown = (message: string): StatusResult => ({ status: 'Unknown', message, conditions: [] });
