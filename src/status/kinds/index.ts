/** kstatus legacyTypes: the per-kind rule for each `group/kind` key (the version is ignored). */
import { daemonSetStatus } from './daemonset.js';
import { deploymentStatus } from './deployment.js';
import { jobStatus } from './job.js';
import { podStatus } from './pod.js';
import { replicaSetStatus } from './replicaset.js';
import type { KindRule } from './rule.js';
import { alwaysReady, customResourceDefinitionStatus, persistentVolumeClaimStatus, podDisruptionBudgetStatus, serviceStatus } from './simple.js';
import { statefulSetStatus } from './statefulset.js';

export type { KindRule, RuleInput } from './rule.js';

const rules: ReadonlyMap<string, KindRule> = new Map<string, KindRule>([
  ['Service', serviceStatus],
  ['Pod', podStatus],
  ['Secret', alwaysReady],
  ['ConfigMap', alwaysReady],
  ['PersistentVolumeClaim', persistentVolumeClaimStatus],
  ['apps/StatefulSet', statefulSetStatus],
  ['apps/DaemonSet', daemonSetStatus],
  ['extensions/DaemonSet', daemonSetStatus],
  ['apps/Deployment', deploymentStatus],
  ['extensions/Deployment', deploymentStatus],
  ['apps/ReplicaSet', replicaSetStatus],
  ['extensions/ReplicaSet', replicaSetStatus],
  ['policy/PodDisruptionBudget', podDisruptionBudgetStatus],
  ['batch/Job', jobStatus],
  ['batch/CronJob', alwaysReady],
  ['apiextensions.k8s.io/CustomResourceDefinition', customResourceDefinitionStatus],
]);

export const ruleFor = (groupKindKey: string): KindRule | undefined => rules.get(groupKindKey);
