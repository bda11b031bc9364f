/** Builders for report-layer tests: realistic engine results with only the fields a test cares about. */
import { reportedSource, type RunResult, type TargetReport } from '../../src/result.js';
import type { Diagnosis } from '../../src/status/types.js';

/** A target defined at `line` of the workspace manifest file `file`. */
export function fromFile(file: string, line: number): Pick<TargetReport, 'source' | 'file' | 'line'> {
  return reportedSource({ kind: 'file', file, line });
}

/** A target defined at `line` of Helm release `name`'s manifest, revision `revision`. */
export function fromRelease(name: string, revision: number, line: number): Pick<TargetReport, 'source' | 'file' | 'line'> {
  return reportedSource({ kind: 'release', name, revision, line });
}

export function target(overrides: Partial<TargetReport> = {}): TargetReport {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    namespace: 'shop',
    name: 'web',
    status: 'Current',
    message: 'Deployment is available. Replicas: 3',
    rule: 'kstatus',
    done: true,
    seconds: 12.4,
    history: [],
    conditions: [],
    ...overrides,
  };
}

export function ready(name: string, overrides: Partial<TargetReport> = {}): TargetReport {
  return target({ name, ...overrides });
}

export function failed(name: string, overrides: Partial<TargetReport> = {}): TargetReport {
  return target({ name, status: 'Failed', message: 'Progress deadline exceeded', done: false, seconds: 30, ...overrides });
}

export function pending(name: string, overrides: Partial<TargetReport> = {}): TargetReport {
  return target({ name, status: 'InProgress', message: 'Ready: 1/3', done: false, seconds: 0, ...overrides });
}

export function imagePullDiagnosis(container = 'web', image = 'web:v2'): Diagnosis {
  return {
    problems: [
      {
        pod: `${container}-7d9c-abcde`,
        container,
        init: false,
        reason: 'ImagePullBackOff',
        message: `Back-off pulling image "${image}"`,
        restartCount: 0,
        unrecoverable: true,
      },
    ],
    events: [
      {
        object: `Pod/${container}-7d9c-abcde`,
        reason: 'Failed',
        message: `Failed to pull image "${image}": not found`,
        count: 4,
        lastSeen: '2026-01-01T10:00:00Z',
      },
    ],
    summary: `container ${container}: ImagePullBackOff: Back-off pulling image "${image}"`,
    unrecoverable: true,
  };
}

export function result(targets: TargetReport[], overrides: Partial<RunResult> = {}): RunResult {
  const outcome = targets.every((t) => t.done) ? 'ready' : targets.some((t) => t.status === 'Failed') ? 'failed' : 'timeout';
  return { outcome, cancelled: false, durationSeconds: 42.37, targets, warnings: [], ...overrides };
}

/** A target's explanation with one failing container whose log was read (as engine/explain.ts leaves it). */
export function withLog(pod: string, container: string, text: string): Pick<TargetReport, 'explanation'> {
  const request = { namespace: 'shop', pod, container, init: false, reason: 'CrashLoopBackOff', message: '', restartCount: 3, previous: true };
  return { explanation: { pods: [], logs: [{ request, outcome: { kind: 'text', text, previous: true, truncated: false } }] } };
}
