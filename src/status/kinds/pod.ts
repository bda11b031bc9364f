/** kstatus podConditions. */
import { findCondition } from '../conditions.js';
import { ComputeError, creationTimestampMs, getStringField, nestedSlice, type KubeObject } from '../fields.js';
import { goType, isPlainObject } from '../go-format.js';
import { current, failed, inProgress } from '../results.js';
import type { RuleInput } from './rule.js';
import type { StatusResult } from '../types.js';

/** How long a pod may stay unschedulable before kstatus calls it Failed. */
export const SCHEDULE_WINDOW_MS = 15_000;

export function podStatus({ obj, conditions, now }: RuleInput): StatusResult {
  const phase = getStringField(obj, '.status.phase', '');
  switch (phase) {
    case 'Succeeded':
      return current('Pod has completed successfully');
    case 'Failed':
      return current('Pod has completed, but not successfully');
    case 'Running': {
      if (findCondition(conditions, 'Ready', 'True')) return current('Pod is Ready');
      const crashLooping = crashLoopingContainers(obj);
      if (crashLooping.length > 0) {
        return failed('ContainerCrashLooping', `Containers in CrashLoop state: ${crashLooping.join(',')}`);
      }
      return inProgress('PodRunningNotReady', 'Pod is running but is not Ready');
    }
    case 'Pending': {
      const unscheduled = findCondition(conditions, 'PodScheduled', 'False');
      if (unscheduled?.reason === 'Unschedulable') {
        if (now.getTime() - SCHEDULE_WINDOW_MS < creationTimestampMs(obj)) {
          return inProgress('PodNotScheduled', 'Pod has not been scheduled');
        }
        return failed('PodUnschedulable', 'Pod could not be scheduled');
      }
      return inProgress('PodPending', 'Pod is in the Pending phase');
    }
    case '':
      return inProgress('PodNotObserved', 'Pod phase not available');
    default:
      throw new ComputeError(`unknown phase ${phase}`);
  }
}

/**
 * Names of containers (not init containers) waiting in CrashLoopBackOff, in status order. kstatus uses unchecked
 * type assertions here; where Go would panic, this reports the panic's text as a compute error.
 */
function crashLoopingContainers(obj: KubeObject): string[] {
  const statuses = nestedSlice(obj, 'status', 'containerStatuses') ?? [];
  const names: string[] = [];
  for (const item of statuses) {
    const containerStatus = assertMap(item);
    if (!Object.hasOwn(containerStatus, 'name')) continue;
    const name = assertString(containerStatus.name);
    if (!Object.hasOwn(containerStatus, 'state')) continue;
    const state = assertMap(containerStatus.state);
    if (!Object.hasOwn(state, 'waiting')) continue;
    const waiting = assertMap(state.waiting);
    if (!Object.hasOwn(waiting, 'reason')) continue;
    if (assertString(waiting.reason) === 'CrashLoopBackOff') names.push(name);
  }
  return names;
}

function conversionPanic(value: unknown, expected: string): ComputeError {
  const actual = value === null || value === undefined ? 'nil' : goType(value);
  return new ComputeError(`interface conversion: interface {} is ${actual}, not ${expected}`);
}

function assertMap(value: unknown): Record<string, unknown> {
  if (!isPlainObject(value)) throw conversionPanic(value, 'map[string]interface {}');
  return value;
}

function assertString(value: unknown): string {
  if (typeof value !== 'string') throw conversionPanic(value, 'string');
  return value;
}
