/**
 * The per-object opt-out: an object annotated `kubewait.io/wait: "false"` is judged and reported like
 * every target, but never holds the wait (an optional component allowed to be not ready). It applies
 * to every target source (resources, selector, manifests, release). Only the exact string `"false"`
 * opts out, so a typo waits rather than silently passing. Documented in docs/helm-release.md.
 */
export const WAIT_ANNOTATION = 'kubewait.io/wait';

/** Whether `object` (as read from the API) opted out of holding the wait. */
export function optedOut(object: unknown): boolean {
  if (typeof object !== 'object' || object === null) return false;
  const annotations = (object as { metadata?: { annotations?: unknown } }).metadata?.annotations;
  if (typeof annotations !== 'object' || annotations === null) return false;
  return (annotations as Record<string, unknown>)[WAIT_ANNOTATION] === 'false';
}
