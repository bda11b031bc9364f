/**
 * The GitOps controllers' own kinds, one judging function per kind (as kstatus's per-kind rules): whether the
 * controller has applied the revision the step shipped (the `revision` input) and it is healthy. The judge
 * (status/judge.ts) asks here by group and kind; the version is ignored, as in health rules.
 */
import type { KubeObject } from '../fields.js';
import type { StatusResult } from '../types.js';
import { applicationStatus } from './argocd.js';
import { helmReleaseStatus, kustomizationStatus, type GitOpsJudgeOptions } from './flux.js';

export type { GitOpsJudgeOptions } from './flux.js';

/** A kind's rule: its status, or undefined to leave the object to the health rules and kstatus. */
export interface GitOpsRule {
  /** How it is reported in the `rule` field of the `resources` output. */
  id: string;
  status(obj: KubeObject, options: GitOpsJudgeOptions): StatusResult | undefined;
}

const RULES: ReadonlyMap<string, GitOpsRule> = new Map([
  ['kustomize.toolkit.fluxcd.io/Kustomization', { id: 'gitops:flux-kustomization', status: kustomizationStatus }],
  ['helm.toolkit.fluxcd.io/HelmRelease', { id: 'gitops:flux-helmrelease', status: helmReleaseStatus }],
  ['argoproj.io/Application', { id: 'gitops:argocd-application', status: applicationStatus }],
]);

export function gitOpsRuleFor(group: string, kind: string): GitOpsRule | undefined {
  return RULES.get(`${group}/${kind}`);
}
