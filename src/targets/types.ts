/**
 * A target as the user named it, before discovery resolves its type.
 * Produced by src/targets from the `resources`, `selector` and `manifests` inputs; consumed by the engine.
 */
import type { DefinedType } from '../kube/crd-names.js';
import type { TargetSource } from '../settings.js';

/** The most targets one run waits for, however they are named (resources, manifests, a selector's matches):
 *  beyond it the outputs, the summary and the memory of a runner stop making sense; split the wait into
 *  several steps. Documented in action.yml (`manifests`, `selector`). */
export const MAX_TARGETS = 20_000;

export interface TargetSpec {
  /** The type as written: kind, plural, singular or short name, optionally with `.group`
   *  (`deploy`, `deployments.apps`, `Certificate.cert-manager.io`). For manifest objects: the kind. */
  type: string;
  /** Exact `group/version` or `v1`, known for manifest objects; resolution then needs no guessing. */
  apiVersion?: string;
  /** Explicit namespace. Undefined: the default namespace for namespaced types, none for cluster-scoped. */
  namespace?: string;
  /** Object name. Undefined: every object of the type in the namespace that matches `selector`. */
  name?: string;
  /** Label selector (kubectl syntax) for name-less targets. Empty/undefined: every object of the type. */
  selector?: string;
  /** Only objects without a controller ownerReference (used for bare Pods when `selector` stands alone). */
  ownerless?: boolean;
  /** Where the target was defined (a manifest file's line, a Helm release's manifest), for annotations and links. */
  source?: TargetSource;
  /** A CustomResourceDefinition from a manifest: the type it defines. The same deploy installs it, so a target
   *  of that type waits for it to be served until the deadline, not only `status-grace` (engine/resolver.ts). */
  defines?: DefinedType;
}

/** The input that named a target, for a problem found with it later (an ambiguous type). */
export function inputOf(spec: Pick<TargetSpec, 'source'>): 'manifests' | 'resources' | 'release' {
  if (!spec.source) return 'resources';
  return spec.source.kind === 'release' ? 'release' : 'manifests';
}
