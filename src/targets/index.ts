/**
 * The target set: every object the action waits for, from the `resources`, `selector` and `manifests`
 * inputs, each listed once.
 */
import { selectorStandsAlone, type Settings } from '../settings.js';
import { targetsFromManifests, tooManyTargets } from './manifests.js';
import { targetsFromRefs } from './refs.js';
import { MAX_TARGETS, type TargetSpec } from './types.js';
import { workloadTargets } from './workloads.js';

export type { TargetSpec } from './types.js';

/** `cwd` is where relative manifest paths start (the workspace in a workflow run); `signal` stops expanding
 *  their globs (the step's deadline, or a cancel). */
export async function targetsFromInputs(
  settings: Pick<Settings, 'resources' | 'selector' | 'manifests'>,
  options: { cwd?: string; signal?: AbortSignal } = {},
): Promise<TargetSpec[]> {
  const targets = [
    ...targetsFromRefs(settings.resources, settings.selector),
    ...(selectorStandsAlone(settings) && settings.selector !== '' ? workloadTargets(settings.selector) : []),
    ...(await targetsFromManifests(settings.manifests, options.cwd ?? process.cwd(), options.signal)),
  ];
  const unique = dedupe(targets);
  if (unique.length > MAX_TARGETS) throw tooManyTargets(`the inputs name ${unique.length} targets`);
  return unique;
}

/** Identical targets (the same ref twice, an object in two globs) count once; the first keeps its source. */
export function dedupe(targets: TargetSpec[]): TargetSpec[] {
  const seen = new Set<string>();
  return targets.filter((target) => {
    const key = JSON.stringify([target.type.toLowerCase(), target.apiVersion, target.namespace, target.name, target.selector, target.ownerless]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
