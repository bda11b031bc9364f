/**
 * What to do with a Helm release as last read (pure). follow.ts asks it after every read of the
 * release, and feed.ts acts on the settled answer:
 *
 * | latest revision's status | decision |
 * |---|---|
 * | `deployed` | `wait`: wait for the objects (the `wait-for` input applies) |
 * | `pending-install`, `pending-upgrade`, `pending-rollback` | `poll-again`: helm is still at work; read the release again (it leaves pending, or a newer revision appears) |
 * | no record at all | `poll-again`: users start kubewait beside `helm upgrade --install`; wait for it to appear until the deadline |
 * | `failed` | `fail`: the result is Failed at once with Helm's description, and the objects are still judged so the summary shows which one broke |
 * | `uninstalling` | `wait-deleted`: a deletion wait for the objects |
 * | `superseded`, `uninstalled`, `unknown`, anything else | `error`: nothing sensible to wait for; the message says why and what to run |
 *
 * One row comes before them all: a latest revision older than the one asked for (`release-min-revision`) is
 * `poll-again` whatever its status, since it is the release as it stood before the `helm upgrade` the step was
 * started beside: its objects say nothing about the upgrade.
 */
import type { TargetSpec } from '../targets/types.js';
import type { Release } from './decode.js';

export type ReleaseDecision =
  | { action: 'wait'; targets: TargetSpec[]; message: string }
  | { action: 'poll-again'; message: string }
  | { action: 'fail'; targets: TargetSpec[]; message: string }
  | { action: 'wait-deleted'; targets: TargetSpec[]; message: string }
  | { action: 'error'; message: string };

/** The oldest revision to wait for, and the input that asked for it in words (`release-min-revision: next`). */
export interface WantedRevision {
  revision: number;
  asked: string;
}

/**
 * `release` is what read.ts `readRelease` returned for `name` in `namespace`; `wanted`, the oldest revision
 * that counts (none: whichever is latest). Each message is one line for the log; none of them holds anything of
 * the release's values or manifest.
 */
export function decideRelease(release: Release | 'not-found', name: string, namespace: string, wanted?: WantedRevision): ReleaseDecision {
  if (release !== 'not-found' && wanted && release.revision < wanted.revision) {
    return {
      action: 'poll-again',
      message: `Helm release ${release.name} revision ${release.revision} is ${release.status}, but revision ${wanted.revision} or newer is waited for (${wanted.asked}): reading the release again until helm records it`,
    };
  }
  if (release === 'not-found') {
    return {
      action: 'poll-again',
      message: `Helm release ${name} does not exist in namespace ${namespace} (yet): waiting for it to appear (e.g. helm upgrade --install running beside this step) until the deadline`,
    };
  }
  const what = `Helm release ${release.name} revision ${release.revision}`;
  const said = release.description ? ` (${release.description})` : '';
  const { targets } = release;
  switch (release.status) {
    case 'deployed':
      return { action: 'wait', targets, message: `${what} is deployed${said}: waiting for its ${targets.length} object${targets.length === 1 ? '' : 's'}` };
    case 'pending-install':
    case 'pending-upgrade':
    case 'pending-rollback':
      return { action: 'poll-again', message: `${what} is ${release.status}${said}: helm is still at work; reading the release again until it settles` };
    case 'failed':
      return { action: 'fail', targets, message: `${what} failed: ${release.description || 'Helm recorded no reason'}` };
    case 'uninstalling':
      return { action: 'wait-deleted', targets, message: `${what} is being uninstalled${said}: waiting for its objects to be deleted` };
    case 'superseded':
      return {
        action: 'error',
        message: `${what} is the latest but marked superseded, so its newer revision was removed from the history: nothing is deployed to wait for. Check "helm history ${release.name} -n ${release.namespace}"`,
      };
    case 'uninstalled':
      return {
        action: 'error',
        message: `${what} was uninstalled (helm uninstall --keep-history): nothing is deployed to wait for. Install it again, or wait for its objects with wait-for: deleted and resources or manifests`,
      };
    default:
      return {
        action: 'error',
        message: `${what} has status "${release.status}", which says nothing about its objects. Check "helm status ${release.name} -n ${release.namespace}"`,
      };
  }
}
