/**
 * The `endpoints` check, a stage after the wait: once every target is ready, each Service among them must
 * have a ready endpoint (and a LoadBalancer its external address), settled for `settleMs` after its last
 * change, and each Ingress its address, within what is left of the deadline (judge.ts says what serving
 * is). Each resource type it needs is read once per namespace and then followed (mirror.ts: a LIST, then a
 * WATCH): EndpointSlices (by the Services' names), and Services and Ingresses when there are such targets
 * (their addresses); nothing when no target is one. However long a Service takes to settle, that is one
 * LIST and one watch per type and namespace (more only when a watch ends or fails), not one per poll.
 * A target that is not serving by the deadline is reported InProgress with what is missing, and the wait
 * is a timeout.
 */
import { describeFailure, type Cluster } from '../kube/index.js';
import type { RunResult, TargetReport } from '../result.js';
import type { Time } from '../time.js';
import { ingressServing, serviceServing, SERVICE_NAME_LABEL, type ServingVerdict } from './judge.js';
import { Mirror, type MirroredType } from './mirror.js';
import { Wakeup } from './wakeup.js';

export interface ServingOptions {
  time: Time;
  signal: AbortSignal;
  /** Epoch ms: the step's deadline. */
  deadlineAtMs: number;
  /** How often to LIST a type whose watch is forbidden. */
  pollIntervalMs: number;
  /** How long a Service's ready addresses must stay the same (Pulumi: 10 s). */
  settleMs?: number;
  warning(message: string): void;
}

export const DEFAULT_SETTLE_MS = 5_000;

const SERVICES: MirroredType = { group: '', version: 'v1', resource: 'services' };
const SLICES: MirroredType = { group: 'discovery.k8s.io', version: 'v1', resource: 'endpointslices' };
const INGRESSES: MirroredType = { group: 'networking.k8s.io', version: 'v1', resource: 'ingresses' };

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
  const wake = new Wakeup(options.time, options.signal);
  const mirrors = startMirrors(client, checked, options, wake);
  try {
    for (;;) {
      wake.reset();
      const fatal = mirrors.all.find((mirror) => mirror.state === 'fatal');
      if (fatal) throw fatal.lastError;
      const verdicts = readVerdicts(checked, mirrors, client.server);
      const now = options.time.now();
      const waiting = checked.filter(({ index }) => {
        const verdict = verdicts.get(index)!;
        const signature = verdict.addresses.join(',');
        const known = settled.get(index);
        if (!known || known.addresses !== signature) settled.set(index, { addresses: signature, sinceMs: now });
        return !verdict.serving || now - settled.get(index)!.sinceMs < settleMs;
      });
      if (waiting.length === 0) return finish(result, checked, verdicts, settled, { now, startedMs, settleMs, served: true });
      if (now >= options.deadlineAtMs || options.signal.aborted) {
        const unserved = finish(result, checked, verdicts, settled, { now, startedMs, settleMs, served: false });
        return options.signal.aborted ? { ...unserved, cancelled: true } : unserved;
      }
      // Looked at again on any change, when a Service's settle window ends, or at the deadline.
      const settlingEnds = waiting.filter(({ index }) => verdicts.get(index)!.serving).map(({ index }) => settled.get(index)!.sinceMs + settleMs);
      await wake.at(Math.min(...settlingEnds, options.deadlineAtMs));
    }
  } finally {
    mirrors.stop();
    wake.close();
  }
}

/** The mirrors of one namespace: EndpointSlices and Services when it has Service targets, Ingresses when Ingress targets. */
interface NamespaceMirrors {
  services?: Mirror;
  slices?: Mirror;
  ingresses?: Mirror;
}

function startMirrors(
  client: KubeClient,
  checked: Checked[],
  options: ServingOptions,
  wake: Wakeup,
): { byNamespace: Map<string, NamespaceMirrors>; all: Mirror[]; stop(): void } {
  const stage = new AbortController();
  const stopStage = () => stage.abort();
  options.signal.addEventListener('abort', stopStage, { once: true });
  const byNamespace = new Map<string, NamespaceMirrors>();
  const mirror = (type: MirroredType, namespace: string, names: string[], labelSelector?: string) =>
    new Mirror({
      client,
      type,
      namespace,
      ...(labelSelector ? { labelSelector } : {}),
      keep: (object) => names.includes(labelSelector ? serviceNameOf(object) : nameOf(object)),
      time: options.time,
      signal: stage.signal,
      pollIntervalMs: options.pollIntervalMs,
      warning: (message) => options.warning(message),
      changed: () => wake.now(),
    });
  for (const namespace of new Set(checked.map(({ target }) => target.namespace))) {
    const here = checked.filter(({ target }) => target.namespace === namespace);
    const services = here.filter(({ target }) => isService(target)).map(({ target }) => target.name);
    const ingresses = here.filter(({ target }) => isIngress(target)).map(({ target }) => target.name);
    byNamespace.set(namespace, {
      ...(services.length > 0 && {
        services: mirror(SERVICES, namespace, services),
        slices: mirror(SLICES, namespace, services, `${SERVICE_NAME_LABEL} in (${services.join(',')})`),
      }),
      ...(ingresses.length > 0 && { ingresses: mirror(INGRESSES, namespace, ingresses) }),
    });
  }
  const all = [...byNamespace.values()].flatMap((m) => [m.services, m.slices, m.ingresses].filter((x): x is Mirror => x !== undefined));
  for (const m of all) m.start();
  return {
    byNamespace,
    all,
    stop: () => {
      options.signal.removeEventListener('abort', stopStage);
      stage.abort();
    },
  };
}

const nameOf = (object: unknown): string => (object as { metadata?: { name?: string } }).metadata?.name ?? '';
const serviceNameOf = (object: unknown): string => (object as { metadata?: { labels?: Record<string, string> } }).metadata?.labels?.[SERVICE_NAME_LABEL] ?? '';

/** Each checked target's verdict from what the mirrors hold now. */
function readVerdicts(checked: Checked[], mirrors: { byNamespace: Map<string, NamespaceMirrors> }, server: string): Map<number, ServingVerdict> {
  const verdicts = new Map<number, ServingVerdict>();
  for (const { index, target } of checked) {
    const here = mirrors.byNamespace.get(target.namespace)!;
    const needed = isService(target) ? [here.services!, here.slices!] : [here.ingresses!];
    // Not readable (RBAC): not judged here, as the wait judged it.
    if (needed.some((m) => m.state === 'unreadable')) verdicts.set(index, { serving: true, message: '', addresses: [] });
    else if (needed.some((m) => m.state !== 'synced')) verdicts.set(index, notRead(needed, server));
    else if (isService(target)) {
      const service = here.services!.objects.get(target.name);
      const slices = [...here.slices!.objects.values()].filter((slice) => serviceNameOf(slice) === target.name);
      verdicts.set(index, service ? serviceServing(service, slices) : { serving: true, message: '', addresses: [] });
    } else {
      const ingress = here.ingresses!.objects.get(target.name);
      verdicts.set(index, ingress ? ingressServing(ingress) : { serving: true, message: '', addresses: [] });
    }
  }
  return verdicts;
}

/** A target whose objects were not read yet: what failed, if anything did. */
function notRead(needed: Mirror[], server: string): ServingVerdict {
  const failing = needed.find((m) => m.state === 'syncing' && m.lastError !== undefined);
  const message = failing
    ? `cannot read ${failing.description}: ${describeFailure(failing.lastError, server)}`
    : `${needed.map((m) => m.description).join(' and ')} not read yet`;
  return { serving: false, message, addresses: [] };
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
