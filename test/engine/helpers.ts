/** Running the engine against the API server stand-in over HTTPS. */
import { connect } from '../../src/kube/index.js';
import { waitForTargets } from '../../src/engine/index.js';
import type { EngineOptions, EngineResult } from '../../src/engine/types.js';
import { isSelectorPlaceholder, type TargetReport } from '../../src/result.js';
import type { TargetSpec } from '../../src/targets/types.js';
import type { TestCluster } from '../cluster/index.js';

export type RunOptions = Partial<Omit<EngineOptions, 'targets'>> & { token?: string };

/** Defaults suit tests: short poll interval, generous deadline (jest's own timeout catches hangs). */
export async function runEngine(server: TestCluster, targets: TargetSpec[], options: RunOptions = {}): Promise<EngineResult> {
  const { token, ...engine } = options;
  const cluster = await connect(
    { kubeconfig: server.kubeconfig({ token: token ?? 'admin' }), context: '' },
    { mask: () => {} },
    { env: {}, serviceAccountDir: '/nonexistent' },
    engine.time,
  );
  try {
    return await waitForTargets(cluster, {
      targets,
      defaultNamespace: 'default',
      waitFor: { kind: 'ready' },
      timeoutMs: 40_000,
      pollIntervalMs: 200,
      mode: 'auto',
      failFast: true,
      jobCompletion: true,
      ...engine,
    });
  } finally {
    await cluster.close();
  }
}

/** Resolves once the engine has an open watch (or a finished LIST) on `resource` in `namespace`. */
export async function following(server: TestCluster, resource: string, namespace: string, verb: 'watch' | 'list' = 'watch'): Promise<void> {
  await server.waitFor(() => listed(server, resource, namespace, verb), 20_000);
}

/** Whether the engine has had an answered WATCH (or LIST) on `resource` in `namespace`. */
export function listed(server: TestCluster, resource: string, namespace: string, verb: 'watch' | 'list' = 'list'): boolean {
  return server.counters.requests().some((r) => r.verb === verb && r.resource === resource && r.namespace === namespace && r.status === 200);
}

export function brief(report: TargetReport): string {
  return `${report.kind}/${report.namespace}/${isSelectorPlaceholder(report) ? `(${report.selector})` : report.name} ${report.status}${report.done ? ' done' : ''}: ${report.message}`;
}

export function namespace(server: TestCluster, name: string): string {
  server.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  return name;
}

export function requestsIn(server: TestCluster, ns: string): Array<{ verb: string; resource: string; status: number }> {
  return server.counters.requests().filter((r) => r.namespace === ns);
}
