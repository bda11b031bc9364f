/**
 * A controller for any custom resource whose status should move through states the test chooses
 * (cert-manager re-issuing, a Rollout going Degraded, a CR that gets a status only later):
 * `kubewait.test/status-script` holds a JSON list of steps, each `{"afterMs": N, "status": {...}}`,
 * written through the status subresource in order, N ms (scaled by the cluster's speed) after the
 * controller first sees each generation. A step's status replaces the whole status. Before the first
 * step the object keeps whatever status it has (none, for a new object: "waiting for its controller").
 * In a step, the string "$generation" becomes the object's metadata.generation as an integer and
 * "$generation:string" as a string (Argo Rollouts writes observedGeneration as a string). A spec change
 * (new generation) starts the script again. An unparseable script is logged and ignored, as a
 * controller would ignore a bad annotation.
 */
import type { KubeObject } from '../store.js';
import { annotation, ANNOTATION, type Runtime } from './runtime.js';

export interface ScriptStep {
  afterMs: number;
  status: Record<string, unknown>;
}

/** The steps of a script annotation, or an error text. */
export function parseScript(text: string): ScriptStep[] | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return `not JSON: ${(error as Error).message}`;
  }
  if (!Array.isArray(value)) return 'not a JSON list of steps';
  const steps: ScriptStep[] = [];
  for (const [i, step] of value.entries()) {
    const s = step as { afterMs?: unknown; status?: unknown };
    if (typeof s !== 'object' || s === null || typeof s.afterMs !== 'number' || typeof s.status !== 'object' || s.status === null || Array.isArray(s.status)) {
      return `step ${i} is not {"afterMs": <number>, "status": {...}}`;
    }
    steps.push({ afterMs: s.afterMs, status: s.status as Record<string, unknown> });
  }
  return steps;
}

/** `status` with the generation placeholders filled in. */
export function fillGeneration(value: unknown, generation: number): unknown {
  if (value === '$generation') return generation;
  if (value === '$generation:string') return String(generation);
  if (Array.isArray(value)) return value.map((v) => fillGeneration(v, generation));
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillGeneration(v, generation)]));
  return value;
}

export class ScriptedStatusController {
  private readonly seen = new Map<string, number>(); // uid -> generation scripted

  constructor(private readonly rt: Runtime) {}

  onChange(cr: KubeObject): void {
    const text = annotation(cr, ANNOTATION.statusScript);
    if (text === undefined || cr.metadata.deletionTimestamp) return;
    const uid = cr.metadata.uid;
    const generation = Number(cr.metadata.generation ?? 1);
    if (this.seen.get(uid) === generation) return;
    this.seen.set(uid, generation);
    const steps = parseScript(text);
    if (typeof steps === 'string') {
      console.error(`test cluster: ${cr.kind} ${cr.metadata.namespace ?? ''}/${cr.metadata.name}: ignoring ${ANNOTATION.statusScript}: ${steps}`);
      return;
    }
    for (const step of steps) {
      this.rt.after(
        step.afterMs,
        () => {
          const current = this.rt.store.byUID(uid)?.object;
          if (!current || Number(current.metadata.generation ?? 1) !== generation) return;
          this.rt.writeStatus(current, fillGeneration(step.status, generation) as object);
        },
        uid,
      );
    }
  }

  forget(uid: string): void {
    this.seen.delete(uid);
  }
}

/** A namespaced (or cluster-scoped) CRD with a status subresource, for e2e fixtures of real operators' kinds. */
export function crdFor(opts: {
  group: string;
  kind: string;
  plural: string;
  versions?: string[];
  scope?: 'Namespaced' | 'Cluster';
  statusSubresource?: boolean;
}): object {
  const versions = opts.versions ?? ['v1'];
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${opts.plural}.${opts.group}` },
    spec: {
      group: opts.group,
      scope: opts.scope ?? 'Namespaced',
      names: { plural: opts.plural, singular: opts.kind.toLowerCase(), kind: opts.kind },
      versions: versions.map((name, i) => ({
        name,
        served: true,
        storage: i === versions.length - 1,
        schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
        ...(opts.statusSubresource === false ? {} : { subresources: { status: {} } }),
      })),
    },
  };
}
