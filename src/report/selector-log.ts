/**
 * What a selector stands for, in the live log: at the start, what it expands to (a lone `selector` covers
 * several workload types; none of its objects are known before the first lists), then each object that joins,
 * with the count of targets so far. Without this the log said "Waiting for 1 target" and later reported 4.
 * Pure.
 */
import type { TargetReport } from '../result.js';
import { LONE_SELECTOR_TYPES } from '../status/workloads.js';
import { logRef, targetCount } from './text.js';

/** `Deployments, StatefulSets, DaemonSets, Jobs, Pods without an owner, PersistentVolumeClaims and Services` */
const LONE_SELECTOR_KINDS = LONE_SELECTOR_TYPES.map(({ type, ownerless }) => {
  const plural = type.split('.')[0] ?? type;
  const names: Record<string, string> = {
    deployments: 'Deployments',
    statefulsets: 'StatefulSets',
    daemonsets: 'DaemonSets',
    jobs: 'Jobs',
    pods: 'Pods',
    persistentvolumeclaims: 'PersistentVolumeClaims',
    services: 'Services',
  };
  return `${names[plural] ?? plural}${ownerless ? ' without an owner' : ''}`;
});

function joinAnd(parts: readonly string[]): string {
  return parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}

/** `Selector tier=frontend expands to the Deployments, ... in namespace shop that match it: each is a target as it is listed`
 *  `lone`: the selector alone selects workloads of several types; otherwise it narrows the bare type it came with.
 *  A bare type without a selector: `Every Deployment object in namespace shop is a target as it is listed`. */
export function selectorExpansionLine(placeholder: Pick<TargetReport, 'kind' | 'namespace' | 'selector'>, lone: boolean): string {
  const what = lone ? joinAnd(LONE_SELECTOR_KINDS) : `${placeholder.kind} objects`;
  const where = placeholder.namespace ? ` in namespace ${placeholder.namespace}` : '';
  if (!placeholder.selector) return `Every ${placeholder.kind} object${where} is a target as it is listed`;
  return `Selector ${placeholder.selector} expands to the ${what}${where} that match it: each is a target as it is listed`;
}

/** `tier=frontend matches deployment/web (shop): 2 targets now` */
export function memberJoinedLine(member: Pick<TargetReport, 'kind' | 'namespace' | 'name' | 'selector'>, total: number): string {
  return `${member.selector ?? ''} matches ${logRef(member)}: ${targetCount(total)} now`;
}
