/** kstatus's rules for kinds that need at most one field: Secret, ConfigMap, CronJob, PDB, Service, PVC, CRD. */
import { getStringField } from '../fields.js';
import { current, failed, inProgress } from '../results.js';
import type { RuleInput } from './rule.js';
import type { StatusResult } from '../types.js';

export const alwaysReady = (): StatusResult => current('Resource is always ready');

/** The generic generation check has already run, so the disruption controller has seen the latest spec. */
export const podDisruptionBudgetStatus = (): StatusResult => current('AllowedDisruptions has been computed.');

/** Only the cluster IP is checked; a LoadBalancer's external address is not (kstatus behaviour). */
export function serviceStatus({ obj }: RuleInput): StatusResult {
  const type = getStringField(obj, '.spec.type', 'ClusterIP');
  const clusterIP = getStringField(obj, '.spec.clusterIP', '');
  if (type === 'LoadBalancer' && clusterIP === '') {
    return inProgress('NoIPAssigned', 'ClusterIP not set. Service type: LoadBalancer');
  }
  return current('Service is ready');
}

export function persistentVolumeClaimStatus({ obj }: RuleInput): StatusResult {
  const phase = getStringField(obj, '.status.phase', 'unknown');
  if (phase !== 'Bound') return inProgress('NotBound', `PVC is not Bound. phase: ${phase}`);
  return current('PVC is Bound');
}

export function customResourceDefinitionStatus({ conditions }: RuleInput): StatusResult {
  for (const c of conditions) {
    if (c.type === 'NamesAccepted' && c.status === 'False') return failed(c.reason, c.message);
    if (c.type === 'Established') {
      if (c.status === 'False' && c.reason !== 'Installing') return failed(c.reason, c.message);
      if (c.status === 'True') return current('CRD is established');
    }
  }
  return inProgress('Installing', 'Install in progress');
}
