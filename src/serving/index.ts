/**
 * The `endpoints` check, a stage after the wait: once every target is ready, each Service among them must
 * have a ready endpoint (and a LoadBalancer its external address), settled for `settleMs` after its last
 * change, and each Ingress its address, within what is left of the deadline (judge.ts says what serving
 * is). Per poll and namespace: one LIST of EndpointSlices (by the Services' names), and one LIST of
 * Services and of Ingresses when there are such targets (their addresses); nothing when no target is one.
 * A target that is not serving by the deadline is reported InProgress with what is missing, and the wait
 * is a timeout.
 */
import { ApiError, listItems, resourcePath, type Cluster } from '../kube/index.js';
import type { RunResult, TargetReport } from '../result.js';
import { sleep, type Time } from '../time.js';
import { ingressServing, serviceServing, SERVICE_NAME_LABEL, type ServingVerdict } from './judge.js';

export interface ServingOptions {
  time: Time;
  signal: AbortSignal;
  /** Epoch ms: the step's deadline. */
  deadlineAtMs: number;
  pollIntervalMs: number;
  /** How long a Service's ready addresses must stay the same (Pulumi: 10 s). */
  settleMs?: number;
  warning(message: string): void;
}

export const DEFAULT_SETTLE_MS = 5_000;

const SERVICES = { group: '', version: 'v1', resource: 'services', namespaced: true };
const SLICES = { group: 'discovery.k8s.io', version: 'v1', resource: 'endpointslices', namespaced: true };
const INGRESSES = { group: 'networking.k8s.io', version: 'v1', resource: 'ingresses', namespaced: true };

type KubeClient = Cluster['client'];
type Checked = { index: number; target: TargetReport };

/** The targets to check: ready Services (core v1) and Ingresses (networking.k8s.io), not opted out. */
function checkedTargets(result: RunResult): Checked[] {
  return result.targets
    .map((target, index) => ({ index, target }))
    .filter(({ target }) => target.done && target.status === 'Current' && !target.optedOut && (isService(target) || isIngress(target)));
}

const isService = (t: Pick<TargetReport, 'kind' | 'apiVersion'>) => t.kind === 'Service' && t.apiVersion === 'v1';
const isIngress = (t: Pick<TargetReport, 'kind' | 'apiVersion'>) => t.kind === 'Ingress' && t.apiVersion.startsWith('networking.k8s.io/');

export async function checkServing(client: KubeClient, result: RunResult, options: ServingOptions): Promise<RunResult> {
  const checked = checkedTargets(result);
  if (result.outcome !== 'ready' || checked.length === 0) return result;
  const settleMs = options.settleMs ?? DEFAULT_SETTLE_MS;
  const startedMs = options.time.now();
  const settled = new Map<number, { addresses: string; sinceMs: number }>();
  const unreadable = new Set<string>();
  let verdicts = new Map<number, ServingVerdict>();
  for (;;) {
    verdicts = await readVerdicts(client, checked, options, unreadable);
    const now = options.time.now();
    const waiting = checked.filter(({ index }) => {
      const verdict = verdicts.get(index)!;
      const signature = verdict.addresses.join(',');
      const known = settled.get(index);
      if (!known || known.addresses !== signature) settled.set(index, { addresses: signature, sinceMs: now });
      return !verdict.serving || now - settled.get(index)!.sinceMs < settleMs;
    });
    if (waiting.length === 0) return finish(result, checked, verdicts, settled, { now, startedMs, settleMs, served: true });
    // A Service settling is looked at again when its window ends (or at the next poll, whichever is first).
    const settlingEnds = waiting.filter(({ index }) => verdicts.get(index)!.serving).map(({ index }) => settled.get(index)!.sinceMs + settleMs);
    const next = Math.min(...settlingEnds, now + options.pollIntervalMs);
    if (next >= options.deadlineAtMs || options.signal.aborted) {
      const unserved = finish(result, checked, verdicts, settled, { now, startedMs, settleMs, served: false });
      return options.signal.aborted ? { ...unserved, cancelled: true } : unserved;
    }
    await sleep(options.time, next - now, options.signal);
  }
}

/** Each checked target's verdict now: one LIST per resource type and namespace. */
async function readVerdicts(client: KubeClient, checked: Checked[], options: ServingOptions, unreadable: Set<string>): Promise<Map<number, ServingVerdict>> {
  const verdicts = new Map<number, ServingVerdict>();
  const namespaces = [...new Set(checked.map(({ target }) => target.namespace))];
  for (const namespace of namespaces) {
    const here = checked.filter(({ target }) => target.namespace === namespace);
    const services = here.filter(({ target }) => isService(target));
    const ingresses = here.filter(({ target }) => isIngress(target));
    const byName = async (type: typeof SERVICES, names: string[], labelSelector?: string) => {
      const found = new Map<string, unknown[]>();
      try {
        await listItems(
          client,
          resourcePath(type, namespace),
          (item) => {
            const metadata = (item as { metadata?: { name?: string; labels?: Record<string, string> } }).metadata;
            const key = labelSelector ? (metadata?.labels?.[SERVICE_NAME_LABEL] ?? '') : (metadata?.name ?? '');
            if (names.includes(key)) found.set(key, [...(found.get(key) ?? []), item]);
          },
          { signal: options.signal, ...(labelSelector ? { labelSelector } : {}) },
          () => found.clear(),
        );
        return found;
      } catch (error) {
        if (options.signal.aborted || !(error instanceof ApiError) || (error.status !== 403 && error.status !== 404)) throw error;
        const what = `${type.resource} in namespace "${namespace}"`;
        if (!unreadable.has(what)) {
          unreadable.add(what);
          options.warning(
            `cannot list ${what} (${error.status === 403 ? 'forbidden' : 'not served'}): endpoints are not checked there — grant the list verb on ${type.resource}${type.group ? ` (${type.group})` : ''}`,
          );
        }
        return undefined;
      }
    };
    if (services.length > 0) {
      const names = services.map(({ target }) => target.name);
      const objects = await byName(SERVICES, names);
      const slices = await byName(SLICES, names, `${SERVICE_NAME_LABEL} in (${names.join(',')})`);
      for (const { index, target } of services) {
        const service = objects?.get(target.name)?.[0];
        // Not readable (RBAC): not judged here, as the wait judged it.
        if (!objects || !slices || !service) verdicts.set(index, { serving: true, message: '', addresses: [] });
        else verdicts.set(index, serviceServing(service, slices.get(target.name) ?? []));
      }
    }
    if (ingresses.length > 0) {
      const objects = await byName(
        INGRESSES,
        ingresses.map(({ target }) => target.name),
      );
      for (const { index, target } of ingresses) {
        const ingress = objects?.get(target.name)?.[0];
        verdicts.set(index, ingress ? ingressServing(ingress) : { serving: true, message: '', addresses: [] });
      }
    }
  }
  return verdicts;
}

function finish(
  result: RunResult,
  checked: Checked[],
  verdicts: Map<number, ServingVerdict>,
  settled: Map<number, { sinceMs: number }>,
  at: { now: number; startedMs: number; settleMs: number; served: boolean },
): RunResult {
  const targets = [...result.targets];
  const seconds = result.durationSeconds + (at.now - at.startedMs) / 1000;
  for (const { index, target } of checked) {
    const verdict = verdicts.get(index)!;
    if (!verdict.message) continue;
    const settling = verdict.serving && at.now - settled.get(index)!.sinceMs < at.settleMs;
    if (verdict.serving && !settling) {
      targets[index] = { ...target, message: `${target.message}; serving: ${verdict.message}` };
      continue;
    }
    const message = settling ? `${verdict.message}, changed less than ${at.settleMs / 1000}s ago` : verdict.message;
    targets[index] = {
      ...target,
      status: 'InProgress',
      done: false,
      message: `not serving: ${message}`,
      history: [...target.history, { status: 'InProgress', message: `not serving: ${message}`, atSeconds: seconds }],
    };
  }
  return { ...result, targets, durationSeconds: seconds, outcome: at.served ? result.outcome : 'timeout' };
}
