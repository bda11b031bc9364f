/**
 * One measured run: Deployments not ready, start the waiter, wait until it is armed (listed and
 * watching), let it settle, make every Deployment ready in-process, and time the waiter's exit from the
 * instant the last ready status was written. API load is everything the server counted for the run.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { now, type Fixture, type Scenario, type StampedRequest } from './fixture.js';
import type { Waiter } from './waiters.js';

/** After arming, before the flip: the waiter is idle, waiting, as in a real rollout. */
export const SETTLE_MS = 200;
const ARM_TIMEOUT_MS = 180_000;

export interface StartupSplit {
  /** spawn() to the first API request arriving. */
  toFirstRequestMs: number;
  /** Node processes: spawn() to the process's own time origin (fork + exec + V8 start). */
  execMs?: number;
  /** Node processes: time origin to the preload (Node's bootstrap). */
  nodeBootMs?: number;
  /** Node processes: preload to the first request (bundle evaluation, inputs, kubeconfig, targets). */
  preloadToFirstRequestMs?: number;
  /** First request to the first non-discovery request. */
  discoveryMs: number;
  discoveryRequests: number;
}

export interface RunRecord {
  waiter: string;
  scenario: Scenario;
  ok: boolean;
  problem?: string;
  /** Last ready status written -> the waiter's (last) process exit, ms. */
  latencyMs: number;
  /** How long writing every ready status took, ms. */
  flipMs: number;
  /** spawn -> armed, ms. */
  armedMs: number;
  /** Requests by kind (see requestKind). */
  requests: Record<string, number>;
  requestsTotal: number;
  bytesSent: number;
  peakRssKiB: number;
  /** Diagnostic runs only: heap used after a full GC at exit. */
  heapAfterGcKiB?: number;
  /** Node waiters: user + system CPU of the (first) process up to its exit event, ms. */
  cpuMs?: number;
  totalRssKiB: number;
  processes: number;
  /** Where the latency goes: flip -> last ready line printed -> JS exit event -> exit seen (ms). */
  phases: { detectMs: number; reportMs: number; teardownMs: number };
  startup: StartupSplit;
}

export interface MeasureOptions {
  /** Extra wait after settling before the flip (spreads the flip over a poll interval). */
  phaseMs?: number;
}

export async function measure(fixture: Fixture, waiter: Waiter, options: MeasureOptions = {}): Promise<RunRecord> {
  fixture.reset();
  const running = waiter.start(fixture);
  let exited = false;
  void running.done.then(
    () => (exited = true),
    () => (exited = true),
  );

  const armStart = now();
  while (!running.armed() && !exited && now() - armStart < ARM_TIMEOUT_MS) await sleep(2);
  const armedAt = now();
  if (!exited) await sleep(SETTLE_MS + (options.phaseMs ?? 0));
  const flip = exited ? { startedAt: now(), lastWrittenAt: now() } : fixture.flipReady();
  const exit = await running.done;
  const requests = fixture.requests();

  const byVerb: Record<string, number> = {};
  for (const r of requests) {
    const key = requestKind(r);
    byVerb[key] = (byVerb[key] ?? 0) + 1;
  }
  const premature = exited && exit.exitAt < flip.startedAt;
  const ok = exit.ok && !premature;
  return {
    waiter: waiter.id,
    scenario: fixture.scenario,
    ok,
    ...(!ok && { problem: premature ? `exited before it was armed: ${exit.problem ?? 'exit 0'}` : exit.problem }),
    latencyMs: exit.exitAt - flip.lastWrittenAt,
    flipMs: flip.lastWrittenAt - flip.startedAt,
    armedMs: armedAt - exit.spawnAt,
    requests: byVerb,
    requestsTotal: requests.length,
    bytesSent: fixture.cluster.counters.bytesSent(),
    peakRssKiB: exit.peakRssKiB,
    ...(exit.heapAfterGcKiB !== undefined && { heapAfterGcKiB: exit.heapAfterGcKiB }),
    ...(exit.first.probe?.cpuSeconds !== undefined && { cpuMs: exit.first.probe.cpuSeconds * 1000 }),
    totalRssKiB: exit.totalRssKiB,
    processes: exit.processes,
    phases: {
      detectMs: (exit.detectedAt ?? Number.NaN) - flip.lastWrittenAt,
      reportMs: (exit.jsExitAt ?? exit.exitAt) - (exit.detectedAt ?? Number.NaN),
      teardownMs: exit.jsExitAt === undefined ? Number.NaN : exit.exitAt - exit.jsExitAt,
    },
    startup: startupSplit(exit.first.spawnAt, exit.first.probe, requests),
  };
}

/** `discovery`, `list`/`watch`/`get` of Deployments, or `VERB RESOURCE` for anything else (pods, events). */
function requestKind(r: { verb: string; resource: string }): string {
  return r.verb === 'discovery' || r.resource === 'deployments' ? r.verb : `${r.verb} ${r.resource}`;
}

function startupSplit(spawnAt: number, probe: { startAt: number; preloadAt: number } | undefined, requests: StampedRequest[]): StartupSplit {
  const ordered = [...requests].sort((a, b) => a.at - b.at);
  const first = ordered[0];
  const firstApi = ordered.find((r) => r.verb !== 'discovery');
  const firstAt = first?.at ?? Number.NaN;
  return {
    toFirstRequestMs: firstAt - spawnAt,
    ...(probe && {
      execMs: probe.startAt - spawnAt,
      nodeBootMs: probe.preloadAt - probe.startAt,
      preloadToFirstRequestMs: firstAt - probe.preloadAt,
    }),
    discoveryMs: (firstApi?.at ?? Number.NaN) - firstAt,
    discoveryRequests: firstApi ? ordered.indexOf(firstApi) : ordered.length,
  };
}
