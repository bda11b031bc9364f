/**
 * Reads a Helm release's latest revision the way Helm's storage does: one LIST of Secrets by
 * `owner=helm,name=NAME` in the release namespace (Helm's default driver), then, when that finds no
 * record or is forbidden, one LIST of ConfigMaps by the same labels (HELM_DRIVER=configmap).
 * Decoding is decode.ts's; nothing read here is logged.
 *
 * RBAC cannot limit `list` by label, so this needs `list` on Secrets in the release namespace
 * (docs/helm-release.md gives the least-privilege Role and the ConfigMap alternative).
 */
import type { KubeClient } from '../kube/client.js';
import { ApiError, listCoreByLabel } from '../kube/index.js';
import { InputError } from '../settings.js';
import { latestRelease, releaseNameProblem, type Release, type ReleaseDriver } from './decode.js';

const COLLECTION = { Secret: 'secrets', ConfigMap: 'configmaps' } as const;

/**
 * The latest revision of release `name` in `namespace`, or `'not-found'` when neither driver holds a
 * record of it. `warn` hears, once per call, why a driver was skipped (a 403). Throws an InputError (input `release`)
 * when the record cannot be decoded or neither driver may be listed; other API failures as ApiError.
 */
export async function readRelease(
  client: KubeClient,
  namespace: string,
  name: string,
  signal?: AbortSignal,
  warn: (message: string) => void = () => {},
): Promise<Release | 'not-found'> {
  // The name goes into a label selector: one that is not a release name must not widen it.
  const problem = releaseNameProblem(name);
  if (problem) throw new InputError('release', `Input "release" has "${name}", which is not a Helm release name: ${problem}.`);
  const secrets = await listRecords(client, 'Secret', namespace, name, signal);
  if (secrets !== 'forbidden') {
    const found = latestRelease(secrets, 'Secret', name);
    if (found) return found;
  }
  const configMaps = await listRecords(client, 'ConfigMap', namespace, name, signal);
  if (configMaps === 'forbidden') {
    if (secrets === 'forbidden') throw new InputError('release', forbiddenMessage(namespace, name));
    warn(`Cannot list configmaps in namespace ${namespace} (403 Forbidden): only Helm's default Secret driver was checked for release ${name}`);
    return 'not-found';
  }
  const found = latestRelease(configMaps, 'ConfigMap', name);
  if (secrets === 'forbidden') {
    if (!found) throw new InputError('release', forbiddenMessage(namespace, name));
    warn(`Cannot list secrets in namespace ${namespace} (403 Forbidden): read release ${name} from its ConfigMap records (HELM_DRIVER=configmap)`);
  }
  return found ?? 'not-found';
}

async function listRecords(client: KubeClient, driver: ReleaseDriver, namespace: string, name: string, signal?: AbortSignal): Promise<unknown[] | 'forbidden'> {
  try {
    return await listCoreByLabel(client, COLLECTION[driver], namespace, `owner=helm,name=${name}`, signal);
  } catch (error) {
    if (error instanceof ApiError && error.status === 403) return 'forbidden';
    throw error;
  }
}

function forbiddenMessage(namespace: string, name: string): string {
  return (
    `Cannot read Helm release ${name}: listing secrets and configmaps in namespace ${namespace} is forbidden (403). ` +
    `Grant the step's credentials a Role with verbs [list] on resources [secrets] in ${namespace} (Helm's default driver; [configmaps] for HELM_DRIVER=configmap), ` +
    'as docs/helm-release.md shows'
  );
}
