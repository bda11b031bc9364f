/**
 * `status-grace`: kstatus calls an object without conditions Current, so a custom resource created a
 * moment ago passes before its controller has looked at it. When its CRD declares a status subresource
 * (so a controller is expected to write one) and it has no status or an empty one, it is InProgress
 * "waiting for its controller to report status" until the grace has passed; then kstatus judges it
 * (Current) and the engine warns once, suggesting a health rule. Only for custom resources with no user
 * or built-in rule (the judge checks that, judge.ts). Pure: `now` and the first sighting are passed in.
 */
import { creationTimestampMs, type KubeObject } from '../fields.js';
import { isPlainObject } from '../go-format.js';
import { inProgress } from '../results.js';
import type { StatusResult } from '../types.js';
import { WAITING_FOR_CONTROLLER } from './evaluate.js';

export interface StatusGraceOptions {
  /** The `status-grace` input in milliseconds; 0 means plain kstatus. */
  graceMs: number;
  /** From the CRD (`spec.versions[].subresources.status`); true when the CRD cannot be read (RBAC). */
  hasStatusSubresource: boolean;
  /** When the engine first saw this object (ms since the epoch). */
  firstSeenMs: number;
  now: Date;
}

export type StatusGraceDecision =
  /** Not applicable (grace off, no status subresource, or the object has a status): use kstatus. */
  | { decision: 'kstatus' }
  /** Still within the grace: report this InProgress result instead of kstatus's, until `endsAtMs` (epoch
   *  ms, the later of creation and first sight plus the grace), when it is to be judged again. */
  | { decision: 'wait'; result: StatusResult; endsAtMs: number }
  /** The grace ran out with no status: use kstatus (Current), and warn once with this text. */
  | { decision: 'expired'; warning: string };

/**
 * Whether a CustomResourceDefinition declares a status subresource for `version` (for any served version
 * when `version` is not given): `spec.versions[].subresources.status`. The engine reads the CRD once per
 * type; when it cannot (RBAC), it passes `hasStatusSubresource: true` and says so once.
 */
export function declaresStatusSubresource(crd: unknown, version?: string): boolean {
  const spec = isPlainObject(crd) && isPlainObject(crd.spec) ? crd.spec : undefined;
  const versions = Array.isArray(spec?.versions) ? spec.versions.filter(isPlainObject) : [];
  return versions.some(
    (v) =>
      (version === undefined ? v.served !== false : v.name === version) &&
      isPlainObject(v.subresources) &&
      v.subresources.status !== undefined &&
      v.subresources.status !== null,
  );
}

/** An object without status, or with `status: {}` / `status: null`. */
export function hasNoStatus(obj: KubeObject): boolean {
  const status = obj.status;
  return status === undefined || status === null || (isPlainObject(status) && Object.keys(status).length === 0);
}

export function statusGrace(obj: KubeObject, opts: StatusGraceOptions): StatusGraceDecision {
  if (opts.graceMs <= 0 || !opts.hasStatusSubresource || !hasNoStatus(obj)) return { decision: 'kstatus' };
  // The later of creation and first sight: a cluster clock ahead of the runner's cannot shorten the grace.
  const since = Math.max(creationTimestampMs(obj), opts.firstSeenMs);
  const elapsed = opts.now.getTime() - since;
  const grace = formatSeconds(opts.graceMs);
  if (elapsed < opts.graceMs) {
    return {
      decision: 'wait',
      result: inProgress('WaitingForController', `${WAITING_FOR_CONTROLLER} (status-grace ${grace})`),
      endsAtMs: since + opts.graceMs,
    };
  }
  return {
    decision: 'expired',
    warning: `${describe(obj)} has no status after status-grace ${grace}, so it is judged by kstatus alone (Current). If its controller reports readiness some other way, add a rule for it to the health-checks input (Flux healthCheckExprs format).`,
  };
}

function formatSeconds(ms: number): string {
  const seconds = ms / 1000;
  return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)}s`;
}

function describe(obj: KubeObject): string {
  const kind = typeof obj.kind === 'string' ? obj.kind : 'object';
  const metadata = isPlainObject(obj.metadata) ? obj.metadata : {};
  const name = typeof metadata.name === 'string' ? metadata.name : '';
  const namespace = typeof metadata.namespace === 'string' && metadata.namespace !== '' ? `${metadata.namespace}/` : '';
  return `${namespace}${kind}/${name}`;
}
