/**
 * `npx tsx test/real/fidelity.ts [--json FILE]`: the same scenarios, through `dist/index.js`, against the
 * API server stand-in (test/cluster) and the real control plane (test/real/cluster.ts), side by side:
 * exit code, result, each target's status and message, warnings, and the requests the action made
 * (the stand-in's request counters; the real kube-apiserver's audit log). What differs is written up in
 * test/cluster/README.md, "Differences from a real API server". Needs the real binaries built.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { ResourceOutput } from '../../src/report/outputs.js';
import { startCluster, type TestCluster } from '../cluster/index.js';
import { ensureDist } from '../e2e/dist.js';
import { runAction } from '../e2e/runAction.js';
import { auditEvents, startRealCluster, TOKEN_USER, type RealCluster } from './cluster.js';
import { configMap, daemonSet, deployment, failingDeployment, failingJob, job, namespace, roleFor, statefulSet, WIDGET_CRD } from './objects.js';

type KubeObj = { apiVersion: string; kind: string; metadata: { name: string; namespace?: string; labels?: Record<string, string> } };

/** What a scenario needs of a server: objects in, the action's kubeconfig, and its request counts. */
interface Server {
  name: 'stand-in' | 'real';
  kubeconfig(ns: string, user?: string): string;
  apply(...objects: object[]): Promise<void>;
  /** Starts counting the action's requests; the returned function gives verb -> count since. */
  count(user?: string): () => Record<string, number>;
  removeLabel(obj: KubeObj, label: string): Promise<void>;
  deleteHeld(obj: KubeObj): Promise<void>;
  release(obj: KubeObj): Promise<void>;
  createCrdThenResource(cr: object): Promise<void>;
}

interface Scenario {
  name: string;
  ns: string;
  objects: (ns: string) => object[];
  inputs: Record<string, string>;
  user?: 'no-watch' | 'no-list';
  /** Runs once the action's log shows `trigger`. */
  during?: { trigger: string; act: (server: Server, ns: string) => Promise<void> };
  before?: (server: Server, ns: string) => Promise<void>;
}

const widget = (ns: string) => ({
  apiVersion: 'example.com/v1',
  kind: 'Widget',
  metadata: { name: 'w1', namespace: ns },
  spec: {},
  status: { observedGeneration: 1, conditions: [{ type: 'Ready', status: 'True', reason: 'Up', message: 'up' }] },
});
/** Unschedulable both ways: the stand-in's annotation, the real scheduler's unsatisfiable nodeSelector. */
const unschedulable = (name: string, ns: string) => {
  const d = failingDeployment(name, ns, 'Unschedulable');
  return {
    ...d,
    spec: {
      ...d.spec,
      template: {
        ...d.spec.template,
        metadata: { ...d.spec.template.metadata, annotations: { ...d.spec.template.metadata.annotations, 'kubewait.test/pod-failure': 'Unschedulable' } },
      },
    },
  };
};
const held = (ns: string) => configMap('held', { namespace: ns, finalizers: ['kubewait.test/hold'] }) as KubeObj;
const stuckFrontend = (ns: string) => {
  const d = unschedulable('stuck', ns);
  return { ...d, metadata: { ...d.metadata, labels: { ...d.metadata.labels, tier: 'frontend' } } };
};

const SCENARIOS: Scenario[] = [
  {
    name: 'Deployment, StatefulSet, DaemonSet roll out',
    ns: 'f-rollout',
    objects: (ns) => [deployment('web', { namespace: ns, readyAfterMs: 300 }), statefulSet('db', ns), daemonSet('agent', ns)],
    inputs: { resources: 'deployment/web\nstatefulset/db\ndaemonset/agent', timeout: '120s' },
  },
  {
    name: 'Job completes',
    ns: 'f-job-ok',
    objects: (ns) => [job('migrate', { namespace: ns, readyAfterMs: 300 })],
    inputs: { resources: 'job/migrate', timeout: '120s' },
  },
  { name: 'Job fails', ns: 'f-job-failed', objects: (ns) => [failingJob('broken', ns)], inputs: { resources: 'job/broken', timeout: '120s' } },
  ...(['ImagePullBackOff', 'CrashLoopBackOff', 'CreateContainerConfigError'] as const).map((failure) => ({
    name: `pod ${failure}`,
    ns: `f-${failure.toLowerCase()}`,
    objects: (ns: string) => [failingDeployment('api', ns, failure, 'registry.example.com/api:v2')],
    inputs: { resources: 'deployment/api', timeout: '120s' },
  })),
  { name: 'pod Unschedulable', ns: 'f-unschedulable', objects: (ns) => [unschedulable('api', ns)], inputs: { resources: 'deployment/api', timeout: '20s' } },
  {
    name: 'CRD and CR created mid-wait',
    ns: 'f-crd',
    objects: () => [],
    inputs: { resources: 'widgets.example.com/w1', timeout: '90s' },
    during: { trigger: 'Waiting for 1 target', act: (s, ns) => s.createCrdThenResource(widget(ns)) },
  },
  {
    name: 'deletion held by a finalizer',
    ns: 'f-finalizer',
    objects: (ns) => [held(ns)],
    inputs: { resources: 'configmap/held', 'wait-for': 'deleted', timeout: '60s' },
    before: (s, ns) => s.deleteHeld(held(ns)),
    during: { trigger: 'Terminating', act: (s, ns) => s.release(held(ns)) },
  },
  {
    name: 'Role without watch',
    ns: 'f-nowatch',
    user: 'no-watch',
    objects: (ns) => roleFor('no-watch', ns, ['get', 'list']),
    inputs: { resources: 'deployment/web', timeout: '90s', 'poll-interval': '500ms' },
    // Created once the action waits, so that it must follow the type (by watch, or here by polling).
    during: { trigger: 'Waiting for 1 target', act: (s, ns) => s.apply(deployment('web', { namespace: ns, readyAfterMs: 300 })) },
  },
  {
    name: 'Role without list',
    ns: 'f-nolist',
    user: 'no-list',
    objects: (ns) => [...roleFor('no-list', ns, ['get', 'watch']), deployment('web', { namespace: ns, readyAfterMs: 300 })],
    inputs: { resources: 'deployment/web', timeout: '90s' },
  },
  {
    name: 'selector membership changes',
    ns: 'f-selector',
    objects: (ns) => [deployment('web', { namespace: ns, labels: { tier: 'frontend' }, readyAfterMs: 300 }), stuckFrontend(ns)],
    inputs: { selector: 'tier=frontend', timeout: '90s' },
    during: { trigger: 'Waiting for', act: (s, ns) => s.removeLabel(stuckFrontend(ns), 'tier') },
  },
];

const countBy = (verbs: string[]) => verbs.reduce<Record<string, number>>((acc, v) => ({ ...acc, [v]: (acc[v] ?? 0) + 1 }), {});

function standIn(cluster: TestCluster): Server {
  return {
    name: 'stand-in',
    kubeconfig: (ns, user) => cluster.kubeconfig({ namespace: ns, ...(user && { token: user }) }),
    apply: async (...objects) => {
      for (const o of objects) if ((o as KubeObj).kind !== 'Role' && (o as KubeObj).kind !== 'RoleBinding') cluster.apply(o);
    },
    count: () => {
      cluster.counters.reset();
      return () => countBy(cluster.counters.requests().map((r) => r.verb));
    },
    removeLabel: async (obj, label) => {
      const current = cluster.get(obj.apiVersion, obj.kind, obj.metadata.namespace, obj.metadata.name);
      if (!current) throw new Error(`${obj.kind} ${obj.metadata.name} not found`);
      const labels = { ...current.metadata.labels };
      delete labels[label];
      cluster.apply({ ...current, metadata: { ...current.metadata, labels } });
    },
    deleteHeld: async (obj) => cluster.delete(obj.apiVersion, obj.kind, obj.metadata.namespace, obj.metadata.name),
    release: async (obj) => {
      const current = cluster.get(obj.apiVersion, obj.kind, obj.metadata.namespace, obj.metadata.name);
      if (current) cluster.apply({ ...current, metadata: { ...current.metadata, finalizers: [] } });
    },
    createCrdThenResource: async (cr) => {
      cluster.create(WIDGET_CRD);
      await cluster.waitFor(() =>
        (cluster.get('apiextensions.k8s.io/v1', 'CustomResourceDefinition', undefined, 'widgets.example.com')?.status?.conditions ?? []).some(
          (c: { type: string; status: string }) => c.type === 'Established' && c.status === 'True',
        ),
      );
      cluster.create(cr);
    },
  };
}

function real(cluster: RealCluster): Server {
  return {
    name: 'real',
    kubeconfig: (ns, user) => cluster.kubeconfig({ namespace: ns, user: user ?? 'token' }),
    apply: async (...objects) => {
      if (objects.length > 0) await cluster.apply(...objects);
    },
    count: (user = TOKEN_USER) => {
      const before = auditEvents(cluster, user).length;
      return () =>
        countBy(
          auditEvents(cluster, user)
            .slice(before)
            .map((e) => e.verb),
        );
    },
    removeLabel: async (obj, label) => {
      await cluster.kubectl('label', obj.kind.toLowerCase(), obj.metadata.name, '-n', obj.metadata.namespace ?? 'default', `${label}-`);
    },
    deleteHeld: async (obj) => {
      await cluster.kubectl('delete', obj.kind.toLowerCase(), obj.metadata.name, '-n', obj.metadata.namespace ?? 'default', '--wait=false');
    },
    release: async (obj) => {
      await cluster.kubectl(
        'patch',
        obj.kind.toLowerCase(),
        obj.metadata.name,
        '-n',
        obj.metadata.namespace ?? 'default',
        '--type=merge',
        '-p',
        '{"metadata":{"finalizers":null}}',
      );
    },
    createCrdThenResource: async (cr) => {
      await cluster.apply(WIDGET_CRD);
      await cluster.crdsEstablished('widgets.example.com');
      await cluster.apply(cr);
    },
  };
}

export interface Observation {
  scenario: string;
  server: string;
  exitCode: number | null;
  result: string;
  targets: Array<{ target: string; status: string; message: string }>;
  warnings: string[];
  errors: string[];
  requests: Record<string, number>;
}

async function observe(server: Server, scenario: Scenario): Promise<Observation> {
  const ns = `${scenario.ns}-${server.name === 'real' ? 'r' : 's'}`;
  await server.apply(namespace(ns), ...scenario.objects(ns));
  await scenario.before?.(server, ns);
  let acted: Promise<void> | undefined;
  const counted = server.count(scenario.user);
  const run = await runAction(
    { kubeconfig: server.kubeconfig(ns, scenario.user), ...scenario.inputs },
    {
      onStdout: (stdout) => {
        if (!scenario.during || acted || !stdout.includes(scenario.during.trigger)) return;
        acted = scenario.during.act(server, ns);
        acted.catch(() => undefined); // awaited after the run; until then a rejection must not count as unhandled
      },
      killAfterMs: 180_000,
    },
  );
  await acted;
  const requests = counted();
  const resources = JSON.parse(run.outputs.resources ?? '[]') as ResourceOutput[];
  const strip = (text: string) => text.replaceAll(ns, 'NS');
  return {
    scenario: scenario.name,
    server: server.name,
    exitCode: run.exitCode,
    result: run.outputs.result ?? '',
    targets: resources.map((r) => ({ target: `${r.kind}/${r.name}`, status: r.status, message: strip(r.message) })),
    warnings: run.warnings.map((w) => strip(w.message)),
    errors: run.errors.map((e) => strip(e.message)),
    requests,
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { json: { type: 'string' } } });
  await ensureDist();
  const stand = await startCluster({
    speed: 0.2,
    tokens: { 'no-watch': [{ verbs: ['get', 'list'], resources: ['*'] }], 'no-list': [{ verbs: ['get', 'watch'], resources: ['*'] }] },
  });
  const realCluster = await startRealCluster({ users: ['no-watch', 'no-list'], log: (line) => process.stderr.write(`real cluster: ${line}\n`) });
  const observations: Observation[] = [];
  try {
    for (const scenario of SCENARIOS) {
      for (const server of [standIn(stand), real(realCluster)]) {
        process.stderr.write(`${scenario.name} on ${server.name} ...\n`);
        observations.push(await observe(server, scenario));
      }
    }
  } finally {
    await stand.close();
    await realCluster.close();
  }
  if (values.json) writeFileSync(values.json, JSON.stringify(observations, null, 2));
  for (const scenario of SCENARIOS) {
    process.stdout.write(`\n### ${scenario.name}\n`);
    for (const o of observations.filter((x) => x.scenario === scenario.name)) {
      const requests = Object.entries(o.requests)
        .sort()
        .map(([verb, n]) => `${verb} ${n}`)
        .join(', ');
      process.stdout.write(`- ${o.server}: exit ${o.exitCode}, ${o.result}; requests: ${requests}\n`);
      for (const t of o.targets) process.stdout.write(`  - ${t.target} ${t.status}: ${t.message}\n`);
      for (const w of o.warnings) process.stdout.write(`  - warning: ${w}\n`);
      for (const e of o.errors) process.stdout.write(`  - error: ${e}\n`);
    }
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
