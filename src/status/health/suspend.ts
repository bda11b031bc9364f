/**
 * Flux's own kinds follow kstatus (Ready, Reconciling, Stalled, observedGeneration), so they need no
 * rule; but a suspended one is not reconciled, and its Ready condition may describe an older revision.
 */
const FLUX_GROUP = /(^|\.)toolkit\.fluxcd\.io$/;

/** A warning for a Flux object with `spec.suspend: true`, else undefined. */
export function suspendWarning(obj: Record<string, unknown>): string | undefined {
  const apiVersion = typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
  if (!FLUX_GROUP.test(group)) return undefined;
  const spec = obj.spec;
  if (typeof spec !== 'object' || spec === null || (spec as Record<string, unknown>).suspend !== true) return undefined;
  const kind = typeof obj.kind === 'string' ? obj.kind : 'object';
  const metadata = (typeof obj.metadata === 'object' && obj.metadata !== null ? obj.metadata : {}) as Record<string, unknown>;
  const name = typeof metadata.name === 'string' ? metadata.name : '';
  const namespace = typeof metadata.namespace === 'string' ? `${metadata.namespace}/` : '';
  return `${kind} ${namespace}${name} is suspended (spec.suspend: true): Flux does not reconcile it, so its readiness may be stale`;
}
