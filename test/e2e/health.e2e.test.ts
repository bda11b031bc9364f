/**
 * Health rules, status-grace and stable-for end to end: `dist/index.js` against the API server stand-in,
 * whose scripted controller (`kubewait.test/status-script`) writes the statuses real operators write.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ResourceOutput } from '../../src/report/outputs.js';
import { crdFor, fillGeneration } from '../cluster/controllers/scripted.js';
import { startCluster, type TestCluster } from '../cluster/index.js';
import { establishCrds, until } from '../cluster/testkit.js';
import { ensureDist } from './dist.js';
import { deployment } from './objects.js';
import { runAction } from './runAction.js';

/** Script times and workload steps are scaled by this. */
/** The deadline of a test that reads the state at its deadline: a first look has to come before it, which a
 *  loaded machine did not always give within 3 s (issue 28). */
const FIRST_LOOK_TIMEOUT = '10s';

const SPEED = 0.5;
let cluster: TestCluster;

const CRDS = [
  crdFor({ group: 'example.com', kind: 'Widget', plural: 'widgets' }),
  crdFor({ group: 'example.com', kind: 'Database', plural: 'databases' }),
  crdFor({ group: 'cert-manager.io', kind: 'Certificate', plural: 'certificates' }),
  crdFor({ group: 'argoproj.io', kind: 'Rollout', plural: 'rollouts', versions: ['v1alpha1'] }),
  crdFor({ group: 'postgresql.cnpg.io', kind: 'Cluster', plural: 'clusters' }),
  // The kinds of the audited built-in rules (rules/builtin.yaml), as their operators' CRDs serve them.
  crdFor({ group: 'ec2.aws.crossplane.io', kind: 'Subnet', plural: 'subnets', versions: ['v1beta1'] }),
  crdFor({ group: 'rds.aws.upbound.io', kind: 'Instance', plural: 'instances', versions: ['v1beta1'] }),
  crdFor({ group: 'external-secrets.io', kind: 'ExternalSecret', plural: 'externalsecrets' }),
  crdFor({ group: 'external-secrets.io', kind: 'SecretStore', plural: 'secretstores' }),
  crdFor({ group: 'gateway.networking.k8s.io', kind: 'Gateway', plural: 'gateways' }),
  crdFor({ group: 'gateway.networking.k8s.io', kind: 'HTTPRoute', plural: 'httproutes' }),
  crdFor({ group: 'keda.sh', kind: 'ScaledObject', plural: 'scaledobjects', versions: ['v1alpha1'] }),
  crdFor({ group: 'serving.knative.dev', kind: 'Service', plural: 'services' }),
  crdFor({ group: 'monitoring.coreos.com', kind: 'Prometheus', plural: 'prometheuses' }),
  crdFor({ group: 'cluster.x-k8s.io', kind: 'MachineDeployment', plural: 'machinedeployments', versions: ['v1beta1'] }),
  crdFor({ group: 'karpenter.sh', kind: 'NodePool', plural: 'nodepools', scope: 'Cluster' }),
  crdFor({ group: 'kafka.strimzi.io', kind: 'Kafka', plural: 'kafkas', versions: ['v1beta2'] }),
];

beforeAll(async () => {
  await ensureDist();
  cluster = await startCluster({ speed: SPEED, crdEstablishDelayMs: 20 });
  await establishCrds(cluster, CRDS as Array<{ metadata: { name: string } }>);
}, 300_000);

afterAll(async () => {
  await cluster?.close();
});

const resourcesOf = (outputs: Record<string, string>) => JSON.parse(outputs.resources!) as ResourceOutput[];

interface Step {
  afterMs: number;
  status: object;
}

/** A custom resource whose status follows `script` (no status before its first step). */
function scripted(apiVersion: string, kind: string, namespace: string, name: string, script: Step[] = []) {
  const annotations = script.length > 0 ? { 'kubewait.test/status-script': JSON.stringify(script) } : {};
  return { apiVersion, kind, metadata: { name, namespace, annotations }, spec: {} };
}

/**
 * Creates `object` once kubewait reports its target as not found (it is listing and watching by then), so
 * kubewait sees every state the script writes, however slowly a loaded machine starts the action.
 */
function createOnceWaiting(object: object, ref: string): (stdout: string) => void {
  let created = false;
  return (stdout) => {
    if (created || !stdout.includes(`${ref} (`) || !/NotFound/.test(stdout)) return;
    created = true;
    cluster.create(object);
  };
}

const condition = (type: string, status: string, reason: string, message: string) => ({ type, status, reason, message });

const DATABASE_RULE = `- apiVersion: example.com/v1
  kind: Database
  current: status.phase == 'Ready'
  failed: status.phase == 'Failed'
`;

describe('health rules end to end', () => {
  it('a custom resource without status waits for its controller, then is ready', async () => {
    const ready = { conditions: [condition('Ready', 'True', 'Ready', 'widget is serving')] };
    const widget = scripted('example.com/v1', 'Widget', 'grace', 'slow', [{ afterMs: 3000, status: ready }]);

    const run = await runAction(
      { kubeconfig: cluster.kubeconfig({ namespace: 'grace' }), resources: 'widgets.example.com/slow', timeout: '60s' },
      { onStdout: createOnceWaiting(widget, 'widget/slow') },
    );

    expect(run.errors).toEqual([]);
    expect(run.outputs.result).toBe('ready');
    expect(run.log.some((line) => line.startsWith('widget') && line.includes('waiting for its controller to report status (status-grace 30s)'))).toBe(true);
    expect(resourcesOf(run.outputs)).toMatchObject([{ kind: 'Widget', name: 'slow', status: 'Current', rule: 'kstatus' }]);
    expect(run.warnings).toEqual([]); // the controller answered within the grace
  }, 120_000);

  it('status-grace expires: kstatus judges it Current, with a warning that names it and suggests a rule', async () => {
    cluster.create(scripted('example.com/v1', 'Widget', 'expiry', 'silent'));

    const run = await runAction({
      kubeconfig: cluster.kubeconfig({ namespace: 'expiry' }),
      resources: 'widgets.example.com/silent',
      'status-grace': '1s',
      timeout: '60s',
    });

    expect(run.errors).toEqual([]);
    expect(run.outputs.result).toBe('ready');
    expect(run.warnings.map((w) => w.message)).toEqual([
      'expiry/Widget/silent has no status after status-grace 1s, so it is judged by kstatus alone (Current). If its controller reports readiness some other way, add a rule for it to the health-checks input (Flux healthCheckExprs format).',
    ]);
  }, 120_000);

  it('a user rule fails fast with the object’s own message', async () => {
    cluster.create(scripted('example.com/v1', 'Database', 'userrule', 'orders', [{ afterMs: 200, status: { phase: 'Failed', message: 'disk full' } }]));

    const run = await runAction({
      kubeconfig: cluster.kubeconfig({ namespace: 'userrule' }),
      resources: 'databases.example.com/orders',
      'health-checks': DATABASE_RULE,
      timeout: '60s',
    });

    expect(run.outputs.result).toBe('failed');
    expect(resourcesOf(run.outputs)).toMatchObject([{ name: 'orders', status: 'Failed', rule: 'health-checks[0]', message: 'phase Failed: disk full' }]);
    expect(run.summary).toContain('Judged by the health rule `health-checks\\[0\\]`.');
  }, 120_000);

  it('reads the same rule from a Flux Kustomization file', async () => {
    cluster.create(scripted('example.com/v1', 'Database', 'fluxfile', 'orders', [{ afterMs: 200, status: { phase: 'Failed', message: 'disk full' } }]));
    const workspace = mkdtempSync(path.join(tmpdir(), 'kubewait-health-'));
    mkdirSync(path.join(workspace, 'clusters'));
    const indented = DATABASE_RULE.split('\n')
      .map((line) => (line ? `    ${line}` : line))
      .join('\n');
    writeFileSync(
      path.join(workspace, 'clusters', 'apps.yaml'),
      `apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata:\n  name: apps\nspec:\n  path: ./apps\n  healthCheckExprs:\n${indented}`,
    );

    const run = await runAction(
      {
        kubeconfig: cluster.kubeconfig({ namespace: 'fluxfile' }),
        resources: 'databases.example.com/orders',
        'health-checks': 'clusters/*.yaml',
        timeout: '60s',
      },
      { workspace },
    );

    expect(run.outputs.result).toBe('failed');
    expect(resourcesOf(run.outputs)).toMatchObject([{ name: 'orders', status: 'Failed', rule: 'health-checks[0]' }]);
  }, 120_000);

  it('a Certificate that is re-issuing is in progress until the new certificate is issued (built-in rule)', async () => {
    const upToDate = condition('Ready', 'True', 'Ready', 'Certificate is up to date and has not expired');
    const script = [
      { afterMs: 0, status: { conditions: [upToDate, condition('Issuing', 'True', 'Renewing', 'Renewing certificate as renewal was scheduled')] } },
      { afterMs: 3000, status: { conditions: [upToDate, condition('Issuing', 'False', 'Issued', 'issued')] } },
    ];
    const certificate = scripted('cert-manager.io/v1', 'Certificate', 'certs', 'web-tls', script);

    const run = await runAction(
      { kubeconfig: cluster.kubeconfig({ namespace: 'certs' }), resources: 'certificates.cert-manager.io/web-tls', timeout: '60s' },
      { onStdout: createOnceWaiting(certificate, 'certificate/web-tls') },
    );

    expect(run.errors).toEqual([]);
    expect(run.outputs.result).toBe('ready');
    expect(run.log.some((line) => line.startsWith('certificate') && line.includes('InProgress') && line.includes('Renewing certificate'))).toBe(true);
    expect(resourcesOf(run.outputs)).toMatchObject([{ name: 'web-tls', status: 'Current', rule: 'builtin:cert-manager-certificate' }]);
  }, 120_000);

  // cert-manager's readiness controller (readiness_controller.go) and trigger controller
  // (trigger_controller.go) write Ready and Issuing separately; Ready=False DoesNotExist may land first.
  it('a new Certificate whose Ready=False DoesNotExist comes before Issuing=True is issued, not failed (built-in rule)', async () => {
    const doesNotExist = { ...condition('Ready', 'False', 'DoesNotExist', 'Issuing certificate as Secret does not exist'), observedGeneration: '$generation' };
    const issuing = { ...condition('Issuing', 'True', 'DoesNotExist', 'Issuing certificate as Secret does not exist'), observedGeneration: '$generation' };
    const upToDate = { ...condition('Ready', 'True', 'Ready', 'Certificate is up to date and has not expired'), observedGeneration: '$generation' };
    const script = [
      { afterMs: 0, status: { conditions: [doesNotExist] } },
      { afterMs: 1500, status: { conditions: [doesNotExist, issuing] } },
      { afterMs: 3000, status: { conditions: [upToDate], notAfter: '2027-02-28T07:12:44Z' } },
    ];
    const certificate = scripted('cert-manager.io/v1', 'Certificate', 'newcert', 'shop-tls', script);

    const run = await runAction(
      { kubeconfig: cluster.kubeconfig({ namespace: 'newcert' }), resources: 'certificates.cert-manager.io/shop-tls', timeout: '60s' },
      { onStdout: createOnceWaiting(certificate, 'certificate/shop-tls') },
    );

    expect(run.errors).toEqual([]);
    expect(run.outputs.result).toBe('ready');
    expect(resourcesOf(run.outputs)).toMatchObject([{ name: 'shop-tls', status: 'Current', rule: 'builtin:cert-manager-certificate' }]);
  }, 120_000);

  // issuing_controller.go's failIssueCertificate: Issuing=False with the CertificateRequest's reason and
  // "The certificate request has failed to complete and will be retried: <the issuer's error>".
  it('a new Certificate fails on Issuing=False Failed, with the ACME error rather than Ready’s message (built-in rule)', async () => {
    const doesNotExist = { ...condition('Ready', 'False', 'DoesNotExist', 'Issuing certificate as Secret does not exist'), observedGeneration: '$generation' };
    const issuing = { ...condition('Issuing', 'True', 'DoesNotExist', 'Issuing certificate as Secret does not exist'), observedGeneration: '$generation' };
    const acme =
      'The certificate request has failed to complete and will be retried: Failed to wait for order resource "shop-tls-1-2937" to become ready: order is in "invalid" state: 403 urn:ietf:params:acme:error:unauthorized';
    const failedIssuing = { ...condition('Issuing', 'False', 'Failed', acme), observedGeneration: '$generation' };
    const script = [
      { afterMs: 0, status: { conditions: [doesNotExist, issuing] } },
      { afterMs: 1000, status: { conditions: [doesNotExist, failedIssuing], lastFailureTime: '2026-11-30T08:14:02Z', failedIssuanceAttempts: 1 } },
    ];
    const certificate = scripted('cert-manager.io/v1', 'Certificate', 'acmefail', 'shop-tls', script);

    const run = await runAction(
      { kubeconfig: cluster.kubeconfig({ namespace: 'acmefail' }), resources: 'certificates.cert-manager.io/shop-tls', timeout: '60s' },
      { onStdout: createOnceWaiting(certificate, 'certificate/shop-tls') },
    );

    expect(run.outputs.result).toBe('failed');
    expect(resourcesOf(run.outputs)).toMatchObject([{ name: 'shop-tls', status: 'Failed', rule: 'builtin:cert-manager-certificate', message: acme }]);
  }, 120_000);

  // CloudNativePG writes no observedGeneration (pkg/resources/status/transactions.go); after a scale its
  // phase stays "Cluster in healthy state" until the reconciler registers "Creating a new replica"
  // (internal/controller/cluster_create.go), then healthy again once the instances it counts
  // (pkg/reconciler/persistentvolumeclaim/status.go) are all ready.
  it('a CloudNativePG Cluster scaled 3 -> 4 is not ready on its old healthy phase (built-in rule)', async () => {
    const ready = condition('Ready', 'True', 'ClusterIsReady', 'Cluster is Ready');
    const notReady = condition('Ready', 'False', 'ClusterIsNotReady', 'Cluster Is Not Ready');
    const healthy = (count: number) => ({ phase: 'Cluster in healthy state', phaseReason: '', instances: count, readyInstances: count, conditions: [ready] });
    const base = { apiVersion: 'postgresql.cnpg.io/v1', kind: 'Cluster', metadata: { name: 'pg', namespace: 'cnpgscale' } };
    cluster.create({ ...base, spec: { instances: 3 } });
    cluster.patchStatus('postgresql.cnpg.io/v1', 'Cluster', 'cnpgscale', 'pg', healthy(3));
    cluster.apply({ ...base, spec: { instances: 4 } }); // the upgrade; CNPG has not reacted yet
    let scaling = false;
    let scaled = false;
    const operator = (stdout: string) => {
      const write = (status: object) => cluster.patchStatus('postgresql.cnpg.io/v1', 'Cluster', 'cnpgscale', 'pg', status);
      // Once kubewait has judged the old healthy phase (the old rule passes it here), the operator reacts.
      if (!scaling && /cluster\/pg \(cnpgscale\).*(InProgress|Current)/.test(stdout)) {
        scaling = true;
        write({ ...healthy(3), instances: 4, phase: 'Creating a new replica', phaseReason: 'Creating replica pg-4-join', conditions: [notReady] });
      }
      // The new replica joins once kubewait has said it is being created (not after a fixed second, which a
      // loaded machine may spend before it reads the change).
      if (scaling && !scaled && stdout.split('\n').some((line) => line.startsWith('cluster/pg') && line.includes('Creating replica pg-4-join'))) {
        scaled = true;
        write(healthy(4));
      }
    };

    const run = await runAction(
      { kubeconfig: cluster.kubeconfig({ namespace: 'cnpgscale' }), resources: 'clusters.postgresql.cnpg.io/pg', timeout: '60s' },
      { onStdout: operator },
    );

    expect(run.errors).toEqual([]);
    expect(run.outputs.result).toBe('ready');
    expect(run.log.some((line) => line.startsWith('cluster/pg') && line.includes('Creating replica pg-4-join'))).toBe(true);
    expect(resourcesOf(run.outputs)).toMatchObject([{ name: 'pg', status: 'Current', rule: 'builtin:cloudnative-pg-cluster' }]);
  }, 120_000);

  describe('wait-for: condition=... waits for that condition, as kubectl wait does, whatever the rule says', () => {
    const doesNotExist = { ...condition('Ready', 'False', 'DoesNotExist', 'Issuing certificate as Secret does not exist'), observedGeneration: '$generation' };
    const failedIssuing = {
      ...condition(
        'Issuing',
        'False',
        'Failed',
        'The certificate request has failed to complete and will be retried: 429 urn:ietf:params:acme:error:rateLimited',
      ),
      observedGeneration: '$generation',
    };
    const failedStatus = { conditions: [doesNotExist, failedIssuing], lastFailureTime: '2026-11-30T08:14:02Z', failedIssuanceAttempts: 1 };

    it('a Certificate its rule judges Failed becomes Ready=True: ready', async () => {
      const upToDate = { ...condition('Ready', 'True', 'Ready', 'Certificate is up to date and has not expired'), observedGeneration: '$generation' };
      const script = [
        { afterMs: 0, status: failedStatus },
        { afterMs: 3000, status: { conditions: [upToDate] } },
      ];
      const certificate = scripted('cert-manager.io/v1', 'Certificate', 'condready', 'shop-tls', script);

      const run = await runAction(
        {
          kubeconfig: cluster.kubeconfig({ namespace: 'condready' }),
          resources: 'certificate/shop-tls',
          'wait-for': 'condition=Ready', // fail-fast is on (the default): a Failed verdict must not end this wait
          timeout: '60s',
        },
        { onStdout: createOnceWaiting(certificate, 'certificate/shop-tls') },
      );

      expect(run.errors).toEqual([]);
      expect(run.outputs.result).toBe('ready');
      // It saw the failed issuance and kept waiting, saying what the condition is.
      expect(
        run.log.some((line) => line.startsWith('certificate/shop-tls') && line.includes('waiting for condition Ready=True: it is False (DoesNotExist')),
      ).toBe(true);
      expect(resourcesOf(run.outputs)).toMatchObject([{ name: 'shop-tls', status: 'Current', message: 'condition Ready=True' }]);
    }, 120_000);

    it('a condition that never holds times out (not failed, even with fail-fast off), with the condition as it is now', async () => {
      cluster.create(scripted('cert-manager.io/v1', 'Certificate', 'condtimeout', 'shop-tls', [{ afterMs: 0, status: failedStatus }]));

      const run = await runAction({
        kubeconfig: cluster.kubeconfig({ namespace: 'condtimeout' }),
        resources: 'certificate/shop-tls',
        'wait-for': 'condition=Ready',
        'fail-fast': 'false',
        timeout: FIRST_LOOK_TIMEOUT,
      });

      expect(run.outputs.result).toBe('timeout');
      const [target] = resourcesOf(run.outputs);
      expect(target).toMatchObject({ name: 'shop-tls', status: 'InProgress', rule: 'builtin:cert-manager-certificate' });
      // The condition as it is now, then what the rule makes of the object (the failed issuance's own error).
      expect(target?.message).toBe(
        'waiting for condition Ready=True: it is False (DoesNotExist: Issuing certificate as Secret does not exist); builtin:cert-manager-certificate judges it Failed: The certificate request has failed to complete and will be retried: 429 urn:ietf:params:acme:error:rateLimited',
      );
    }, 120_000);
  });

  it('a Degraded Rollout fails (built-in rule)', async () => {
    const status = {
      observedGeneration: '$generation:string',
      phase: 'Degraded',
      message: 'ProgressDeadlineExceeded: ReplicaSet "web-5d8f" has timed out progressing.',
    };
    cluster.create(scripted('argoproj.io/v1alpha1', 'Rollout', 'rollouts', 'web', [{ afterMs: 200, status }]));

    const run = await runAction({ kubeconfig: cluster.kubeconfig({ namespace: 'rollouts' }), resources: 'rollouts.argoproj.io/web', timeout: '60s' });

    expect(run.outputs.result).toBe('failed');
    expect(resourcesOf(run.outputs)).toMatchObject([
      {
        name: 'web',
        status: 'Failed',
        rule: 'builtin:argo-rollouts-rollout',
        message: 'phase Degraded: ProgressDeadlineExceeded: ReplicaSet "web-5d8f" has timed out progressing.',
      },
    ]);
  }, 120_000);

  describe('paused: a Rollout at a canary pause step and a paused Deployment', () => {
    /** As argo-rollouts writes a canary that reached its indefinite `pause: {}` step (the second of three). */
    function pausedRollout(namespace: string) {
      const status = {
        observedGeneration: '$generation:string',
        phase: 'Paused',
        message: 'CanaryPauseStep',
        currentStepIndex: 1,
        replicas: 3,
        updatedReplicas: 1,
        availableReplicas: 3,
        pauseConditions: [{ reason: 'CanaryPauseStep', startTime: '2026-12-03T08:00:00Z' }],
      };
      const object = scripted('argoproj.io/v1alpha1', 'Rollout', namespace, 'web', [{ afterMs: 100, status }]);
      return { ...object, spec: { replicas: 3, strategy: { canary: { steps: [{ setWeight: 20 }, { pause: {} }, { setWeight: 100 }] } } } };
    }

    /** `kubectl rollout pause`, then a new image: the old pods keep serving, no new ReplicaSet. */
    async function pausedDeployment(namespace: string): Promise<void> {
      cluster.create(deployment('api', { namespace, readyAfterMs: 50 }));
      await until(() => cluster.get('apps/v1', 'Deployment', namespace, 'api')?.status?.availableReplicas === 2, 'api available', 20_000);
      const live = cluster.get('apps/v1', 'Deployment', namespace, 'api')!;
      const template = structuredClone(live.spec.template);
      template.spec.containers[0].image = 'registry.example.com/api:2.0';
      cluster.apply({ ...live, spec: { ...live.spec, paused: true, template } });
    }

    it('paused: wait (the default) times out saying where the Rollout paused and what continues it', async () => {
      cluster.create(pausedRollout('paused-wait'));

      const run = await runAction({
        kubeconfig: cluster.kubeconfig({ namespace: 'paused-wait' }),
        resources: 'rollouts.argoproj.io/web',
        timeout: FIRST_LOOK_TIMEOUT,
      });

      expect(run.outputs.result).toBe('timeout');
      expect(resourcesOf(run.outputs)[0]?.message).toBe(
        'Rollout paused at canary step 2 of 3 (CanaryPauseStep); kubectl argo rollouts promote web -n paused-wait continues it. Waiting (paused: wait; paused: ready would count it ready): phase Paused: CanaryPauseStep',
      );
    }, 120_000);

    it('paused: ready counts the paused Rollout ready where it paused', async () => {
      cluster.create(pausedRollout('paused-ready'));

      const run = await runAction({
        kubeconfig: cluster.kubeconfig({ namespace: 'paused-ready' }),
        resources: 'rollouts.argoproj.io/web',
        timeout: '60s',
        paused: 'ready',
      });

      expect(run.outputs.result).toBe('ready');
      expect(resourcesOf(run.outputs)[0]).toMatchObject({
        status: 'Current',
        message: expect.stringMatching(/^Rollout paused at canary step 2 of 3 \(CanaryPauseStep\), counted ready \(paused: ready\)/),
      });
    }, 120_000);

    it.each<[string, Record<string, string>, string, RegExp]>([
      [
        'wait',
        { timeout: FIRST_LOOK_TIMEOUT },
        'timeout',
        /^Deployment paused \(spec\.paused\); kubectl rollout resume deployment\/api -n paused-deploy-wait continues it\. Waiting .*: Updated: 0\/2$/,
      ],
      ['ready', { timeout: '60s', paused: 'ready' }, 'ready', /^Deployment paused \(spec\.paused\), counted ready \(paused: ready\)/],
    ])(
      'a Deployment paused with a new image, paused: %s',
      async (policy, inputs, result, message) => {
        const namespace = `paused-deploy-${policy}`;
        await pausedDeployment(namespace);

        const run = await runAction({ kubeconfig: cluster.kubeconfig({ namespace }), resources: 'deployment/api', ...inputs });

        expect(run.outputs.result).toBe(result);
        expect(resourcesOf(run.outputs)[0]?.message).toMatch(message);
      },
      120_000,
    );
  });

  it('a CEL syntax error is an input error at once, naming health-checks, the rule and the position', async () => {
    const run = await runAction({
      kubeconfig: cluster.kubeconfig({ namespace: 'celerror' }),
      resources: 'databases.example.com/orders',
      'health-checks': "- apiVersion: example.com/v1\n  kind: Database\n  current: status.phase == 'Ready' &&\n",
    });

    expect(run.exitCode).toBe(1);
    expect(run.outputs.result).toBe('error');
    expect(run.errors).toHaveLength(1);
    expect(run.errors[0]?.message).toMatch(/health-checks/);
    expect(run.errors[0]?.message).toMatch(/health-checks\[0\]/);
    expect(run.errors[0]?.message).toMatch(/example\.com\/Database|example\.com.*Database/);
    expect(run.stdout).not.toMatch(/at .*\.js:\d+/); // no stack trace
  }, 120_000);

  it('stable-for: a pod restart within the window is logged and starts the window again', async () => {
    cluster.create(deployment('web', { namespace: 'flap', readyAfterMs: 200 }));
    let patched = false;
    const run = await runAction(
      { kubeconfig: cluster.kubeconfig({ namespace: 'flap' }), resources: 'deployment/web', 'stable-for': '4s', 'poll-interval': '200ms', timeout: '60s' },
      {
        onStdout: (stdout) => {
          if (patched || !/deployment\/web \(flap\): .*Current/.test(stdout)) return;
          patched = true;
          // After the window's first look at the pods (a pod LIST after the target is Current): the
          // restart is then a change it must see.
          const podLists = () => cluster.counters.requests().filter((r) => r.verb === 'list' && r.resource === 'pods' && r.namespace === 'flap').length;
          const before = podLists();
          const restart = () => {
            if (podLists() < before + 2) return void setTimeout(restart, 50); // two: one may be the diagnoser's last
            for (const pod of cluster.list('v1', 'Pod', 'flap')) {
              const statuses = (pod.status?.containerStatuses ?? []) as Array<{ restartCount: number }>;
              cluster.patchStatus('v1', 'Pod', 'flap', pod.metadata.name, {
                containerStatuses: statuses.map((s) => ({ ...s, restartCount: s.restartCount + 1 })),
              });
            }
          };
          restart();
        },
      },
    );

    expect(run.errors).toEqual([]);
    expect(patched).toBe(true);
    expect(run.outputs.result).toBe('ready');
    const flaps = run.warnings.map((w) => w.message).filter((m) => m.startsWith('stable-for:'));
    expect(flaps).toHaveLength(1);
    expect(flaps[0]).toMatch(
      /^stable-for: pod flap\/web-[a-z0-9-]+ of Deployment web restarted \(restart count 0 -> 1\) [\d.]+s into the 4s window; the window starts again once every target is back$/,
    );
  }, 120_000);

  it('stable-for: a timeout during the window is a timeout that says the targets did not stay ready', async () => {
    cluster.create(deployment('web', { namespace: 'window', readyAfterMs: 200 }));

    const run = await runAction({
      kubeconfig: cluster.kubeconfig({ namespace: 'window' }),
      resources: 'deployment/web',
      'stable-for': '1h',
      timeout: FIRST_LOOK_TIMEOUT,
    });

    expect(run.outputs.result).toBe('timeout');
    expect(resourcesOf(run.outputs)).toMatchObject([{ name: 'web', status: 'Current' }]);
    expect(run.errors.map((e) => e.message).join('\n')).toMatch(/did not stay ready for 3600s/);
  }, 120_000);

  /**
   * A rule that would block the event loop (JavaScript's backtracking RegExp; 8e9 macro steps) cannot hold
   * the step past its deadline: RE2 answers at once, and the cost budget ends the loop. Before, the step was
   * still running, with no outputs and no summary, when the test killed it.
   */
  it('a backtracking pattern in matches() ends the step at its deadline with every output and the summary', async () => {
    const status = { message: `${'a'.repeat(40)}!`, items: Array.from({ length: 2000 }, () => ({ ready: true })) };
    cluster.create(scripted('example.com/v1', 'Widget', 'redos', 'stuck', [{ afterMs: 0, status }]));
    const run = await runAction(
      {
        kubeconfig: cluster.kubeconfig({ namespace: 'redos' }),
        resources: 'widgets.example.com/stuck',
        'health-checks': `- apiVersion: example.com/v1\n  kind: Widget\n  current: ${JSON.stringify("status.message.matches('^(a+)+$')")}\n`,
        timeout: '5s',
      },
      { killAfterMs: 60_000 },
    );

    expect(run.signal).toBeNull(); // it ended by itself
    expect(run.outputs.result).toBe('timeout');
    expect(resourcesOf(run.outputs)).toMatchObject([{ kind: 'Widget', name: 'stuck', status: 'InProgress', rule: 'health-checks[0]' }]);
    expect(run.summary).toContain('stuck');
    // The hang bound is killAfterMs: the old code ran for minutes, and a signal would end it (run.signal above).
    expect(run.warnings).toEqual([]);
  }, 120_000);

  // Issue 34: over its cost budget the rule can never judge the object (it spends the budget again on every
  // look), so the step waited out its deadline with a warning. It is that rule's error, named, at once.
  it('a rule over its cost budget (three nested all() over 2,000 elements) is an error of that rule at once, every target reported', async () => {
    const status = { items: Array.from({ length: 2000 }, () => ({ ready: true })) };
    cluster.create(scripted('example.com/v1', 'Widget', 'nestedall', 'stuck', [{ afterMs: 0, status }]));
    const expression = 'status.items.all(a, status.items.all(b, status.items.all(c, c.ready)))';
    const run = await runAction(
      {
        kubeconfig: cluster.kubeconfig({ namespace: 'nestedall' }),
        resources: 'widgets.example.com/stuck',
        'health-checks': `- apiVersion: example.com/v1\n  kind: Widget\n  current: ${JSON.stringify(expression)}\n`,
        // Far longer than the run: an error at once is not the deadline's.
        timeout: '10m',
      },
      { killAfterMs: 120_000 },
    );

    expect(run.signal).toBeNull();
    expect(run.outputs.result).toBe('error');
    expect(run.errors.map((e) => [e.properties.title, e.message])).toEqual([
      [
        'kubewait: input "health-checks"',
        expect.stringMatching(
          /^Health rule health-checks\[0\] cannot judge Widget nestedall\/stuck: the expression exceeded its cost budget of 1000000 units .*\(its current expression: status\.items\.all/,
        ),
      ],
    ]);
    expect(resourcesOf(run.outputs)).toMatchObject([{ kind: 'Widget', name: 'stuck', rule: 'health-checks[0]' }]);
    expect(run.summary).toContain('stuck');
  }, 180_000);

  /**
   * The audited built-in rules, each through the status sequence its operator writes (rules/builtin.yaml
   * names the upstream source of each step). A false red: the old rule failed on the first, retried
   * state. A false green: the old rule passed on the first, stale state, so it never saw the later step
   * whose message the log must show.
   */
  describe('built-in rules follow the operators’ own status sequences', () => {
    const gen = (c: object) => ({ ...c, observedGeneration: '$generation' });
    interface AuditCase {
      apiVersion: string;
      kind: string;
      plural: string;
      spec?: object;
      annotations?: Record<string, string>;
      clusterScoped?: boolean;
      steps: Step[];
      result: 'ready' | 'failed';
      /** Text of a later step that kubewait must have logged while waiting. */
      logs: string;
      /**
       * The stand-in's scripted controller leaves this kind alone (Knative's Service shares its kind with the
       * core Service), or the object is cluster-scoped: the test writes the steps itself.
       */
      byHand?: boolean;
    }
    /** Creates `object` once kubewait reports it not found, then writes each step's status at its time. */
    function operateByHand(object: { apiVersion: string; kind: string; metadata: { name: string; namespace?: string } }, ref: string, steps: Step[]) {
      let created = false;
      return (stdout: string) => {
        if (created || !stdout.split('\n').some((line) => line.startsWith(ref) && /NotFound/.test(line))) return;
        created = true;
        const { apiVersion, kind, metadata } = object;
        cluster.create({ ...object, metadata: { name: metadata.name, ...(metadata.namespace ? { namespace: metadata.namespace } : {}) } });
        for (const step of steps) {
          const write = () => cluster.patchStatus(apiVersion, kind, metadata.namespace, metadata.name, fillGeneration(step.status, 1) as object);
          if (step.afterMs === 0) write();
          else setTimeout(write, step.afterMs * SPEED);
        }
      };
    }
    const CASES: Record<string, AuditCase> = {
      // utils/rollout/rolloututil.go GetRolloutPhase: the referenced Deployment's generation not yet observed
      'argo-rollouts-rollout: a workloadRef Rollout whose Deployment changed is judged on the new template': {
        apiVersion: 'argoproj.io/v1alpha1',
        kind: 'Rollout',
        plural: 'rollouts',
        spec: { replicas: 3, workloadRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' } },
        annotations: { 'rollout.argoproj.io/workload-generation': '2' },
        steps: [
          { afterMs: 0, status: { observedGeneration: '$generation:string', workloadObservedGeneration: '1', phase: 'Healthy' } },
          {
            afterMs: 2500,
            status: {
              observedGeneration: '$generation:string',
              workloadObservedGeneration: '2',
              phase: 'Degraded',
              message: 'RolloutAborted: Rollout aborted update to revision 2: Metric "success-rate" assessed Failed',
              conditions: [condition('Progressing', 'False', 'RolloutAborted', 'Rollout aborted update to revision 2')],
            },
          },
        ],
        result: 'failed',
        logs: '', // the verdict itself is the later step
      },
      // crossplane-runtime pkg/reconciler/managed/reconciler.go: references not resolved, requeued
      'crossplane: a Subnet whose VPC is not ready yet waits, then is ready': {
        apiVersion: 'ec2.aws.crossplane.io/v1beta1',
        kind: 'Subnet',
        plural: 'subnets',
        spec: { forProvider: { vpcIdRef: { name: 'prod' } } },
        steps: [
          {
            afterMs: 0,
            status: {
              conditions: [
                gen(
                  condition(
                    'Synced',
                    'False',
                    'ReconcileError',
                    'cannot resolve references: mg.Spec.ForProvider.VPCID: referenced field was empty (referenced resource may not yet be ready)',
                  ),
                ),
              ],
            },
          },
          {
            afterMs: 2500,
            status: { conditions: [gen(condition('Ready', 'True', 'Available', '')), gen(condition('Synced', 'True', 'ReconcileSuccess', ''))] },
          },
        ],
        result: 'ready',
        logs: 'referenced resource may not yet be ready',
      },
      // Upjet: LastAsyncOperation=False, applied again by the next reconcile
      'upbound: a failed async apply waits, then the next apply succeeds': {
        apiVersion: 'rds.aws.upbound.io/v1beta1',
        kind: 'Instance',
        plural: 'instances',
        spec: { forProvider: { region: 'eu-west-1' } },
        steps: [
          {
            afterMs: 0,
            status: {
              conditions: [
                gen(condition('Ready', 'False', 'Creating', '')),
                gen(condition('Synced', 'True', 'ReconcileSuccess', '')),
                condition(
                  'LastAsyncOperation',
                  'False',
                  'ApplyFailure',
                  'apply failed: InvalidParameterValue: IAM role arn:aws:iam::1:role/rds-monitoring cannot be assumed',
                ),
              ],
            },
          },
          {
            afterMs: 2500,
            status: {
              conditions: [
                gen(condition('Ready', 'True', 'Available', '')),
                gen(condition('Synced', 'True', 'ReconcileSuccess', '')),
                condition('LastAsyncOperation', 'True', 'Success', ''),
              ],
            },
          },
        ],
        result: 'ready',
        logs: 'cannot be assumed',
      },
      // externalsecret_controller.go markAsFailed (retried), then markAsDone with syncedResourceVersion
      'external-secrets-externalsecret: a store not usable yet waits, then the secret syncs': {
        apiVersion: 'external-secrets.io/v1',
        kind: 'ExternalSecret',
        plural: 'externalsecrets',
        spec: { secretStoreRef: { name: 'vault', kind: 'SecretStore' }, data: [{ secretKey: 'password', remoteRef: { key: 'db/password' } }] },
        steps: [
          { afterMs: 0, status: { conditions: [condition('Ready', 'False', 'SecretSyncedError', 'could not get secret data from provider')] } },
          {
            afterMs: 2500,
            status: {
              refreshTime: '2026-11-30T08:13:10Z',
              syncedResourceVersion: '1-8d5a1c0e',
              conditions: [condition('Ready', 'True', 'SecretSynced', 'secret synced')],
            },
          },
        ],
        result: 'ready',
        logs: 'could not get secret data from provider',
      },
      // secretstore/common.go validateStore: Ready=False InvalidProviderConfig, the error returned and retried
      'external-secrets-secretstore: credentials not there yet wait, then the store is valid': {
        apiVersion: 'external-secrets.io/v1',
        kind: 'SecretStore',
        plural: 'secretstores',
        spec: { provider: { vault: { server: 'https://vault:8200' } } },
        steps: [
          { afterMs: 0, status: { conditions: [condition('Ready', 'False', 'InvalidProviderConfig', 'unable to create client')] } },
          { afterMs: 2500, status: { capabilities: 'ReadWrite', conditions: [condition('Ready', 'True', 'Valid', 'store validated')] } },
        ],
        result: 'ready',
        logs: 'unable to create client',
      },
      // apis/v1/gateway_types.go: NotReconciled (deprecated for Pending) means no controller has reconciled it
      'gateway-api-gateway: Accepted=False NotReconciled waits, then accepted and programmed': {
        apiVersion: 'gateway.networking.k8s.io/v1',
        kind: 'Gateway',
        plural: 'gateways',
        spec: { gatewayClassName: 'example', listeners: [{ name: 'http', port: 80, protocol: 'HTTP' }] },
        steps: [
          { afterMs: 0, status: { conditions: [gen(condition('Accepted', 'False', 'NotReconciled', 'Waiting for the gateway controller'))] } },
          {
            afterMs: 2500,
            status: { conditions: [gen(condition('Accepted', 'True', 'Accepted', 'ok')), gen(condition('Programmed', 'True', 'Programmed', 'ok'))] },
          },
        ],
        result: 'ready',
        logs: 'Waiting for the gateway controller',
      },
      // apis/v1/shared_types.go RouteStatus.Parents: each parent's controller adds its own entry
      'gateway-api-httproute: one of two parents accepted is not ready; the other rejects it': {
        apiVersion: 'gateway.networking.k8s.io/v1',
        kind: 'HTTPRoute',
        plural: 'httproutes',
        spec: { parentRefs: [{ name: 'public' }, { name: 'internal' }], rules: [{ backendRefs: [{ name: 'web', port: 80 }] }] },
        steps: (() => {
          const parent = (name: string, ...conditions: object[]) => ({ parentRef: { name }, controllerName: 'example.com/gateway-controller', conditions });
          const accepted = (name: string) =>
            parent(name, gen(condition('Accepted', 'True', 'Accepted', 'ok')), gen(condition('ResolvedRefs', 'True', 'ResolvedRefs', 'ok')));
          return [
            { afterMs: 0, status: { parents: [accepted('public')] } },
            {
              afterMs: 2500,
              status: {
                parents: [
                  accepted('public'),
                  parent('internal', gen(condition('Accepted', 'False', 'NotAllowedByListeners', 'No listener allows routes from namespace'))),
                ],
              },
            },
          ];
        })(),
        result: 'failed',
        logs: '',
      },
      // scaledobject_controller.go: ScaledObjectCheckFailed is returned as an error and retried
      'keda-scaledobject: a scale target created in the same deploy waits, then ready': {
        apiVersion: 'keda.sh/v1alpha1',
        kind: 'ScaledObject',
        plural: 'scaledobjects',
        spec: { scaleTargetRef: { name: 'worker' }, triggers: [{ type: 'cpu', metadata: { value: '80' } }] },
        steps: [
          {
            afterMs: 0,
            status: {
              conditions: [
                condition(
                  'Ready',
                  'False',
                  'ScaledObjectCheckFailed',
                  'ScaledObject doesn\'t have correct scaleTargetRef specification: deployments.apps "worker" not found',
                ),
                condition('Active', 'Unknown', 'UnknownState', 'ScaledObject check failed'),
              ],
            },
          },
          {
            afterMs: 2500,
            status: {
              conditions: [
                condition('Ready', 'True', 'ScaledObjectReady', 'ScaledObject is defined correctly and is ready for scaling'),
                condition('Fallback', 'False', 'NoFallbackFound', 'No fallbacks are active on this scaled object'),
              ],
            },
          },
        ],
        result: 'ready',
        logs: '"worker" not found',
      },
      // revision/reconcile_resources.go: ContainerHealthy=False at once, True again once a pod is ready
      'knative-service: a container that exited before its first ready pod waits, then ready': {
        apiVersion: 'serving.knative.dev/v1',
        kind: 'Service',
        plural: 'services',
        byHand: true,
        spec: { template: { spec: { containers: [{ image: 'ghcr.io/example/hello:1.0' }] } } },
        steps: (() => {
          const all = (s: string, reason: string, message: string) =>
            ['ConfigurationsReady', 'Ready', 'RoutesReady'].map((type) => condition(type, s, reason, message));
          return [
            {
              afterMs: 0,
              status: {
                observedGeneration: '$generation',
                conditions: all(
                  'False',
                  'RevisionFailed',
                  'Revision "hello-00001" failed with message: Container failed with: dial tcp 10.0.0.7:5432: connect: connection refused.',
                ),
              },
            },
            { afterMs: 2500, status: { observedGeneration: '$generation', url: 'https://hello.example.com', conditions: all('True', '', '') } },
          ];
        })(),
        result: 'ready',
        logs: 'connection refused',
      },
      // pkg/prometheus/operator.go StatusReporter.Process stamps the generation it read; the sync's error is
      // Reconciled=False and requeued (pkg/operator/resource_reconciler.go)
      'prometheus-operator-prometheus: pods not yet rolled, then a sync error, wait until reconciled': {
        apiVersion: 'monitoring.coreos.com/v1',
        kind: 'Prometheus',
        plural: 'prometheuses',
        spec: { replicas: 2 },
        steps: (() => {
          const available = condition('Available', 'True', '', '');
          const status = (updatedReplicas: number, reconciled: object, availability = available) => ({
            replicas: 2,
            updatedReplicas,
            availableReplicas: 2,
            conditions: [gen(availability), gen(reconciled)],
          });
          return [
            { afterMs: 0, status: status(0, condition('Reconciled', 'True', '', '')) },
            {
              // With no pod available at the same time, the message is still the sync's error.
              afterMs: 1500,
              status: status(
                0,
                condition('Reconciled', 'False', 'ReconciliationFailed', 'failed to get basic auth credentials: secrets "remote-write-auth" not found'),
                condition('Available', 'False', 'NoPodReady', '2/2 pods are not ready'),
              ),
            },
            { afterMs: 3000, status: status(2, condition('Reconciled', 'True', '', '')) },
          ];
        })(),
        result: 'ready',
        logs: 'remote-write-auth',
      },
      // machinedeployment_status.go setPhase counts machines only; machineset_controller.go preflight checks
      'cluster-api-machinedeployment: Running on old machines, then preflight checks (severity Error) wait': {
        apiVersion: 'cluster.x-k8s.io/v1beta1',
        kind: 'MachineDeployment',
        plural: 'machinedeployments',
        spec: { clusterName: 'prod', replicas: 3 },
        steps: [
          {
            afterMs: 0,
            status: { phase: 'Running', observedGeneration: '$generation', replicas: 3, updatedReplicas: 0, conditions: [condition('Ready', 'True', '', '')] },
          },
          {
            afterMs: 1500,
            status: {
              phase: 'Running',
              observedGeneration: '$generation',
              replicas: 3,
              updatedReplicas: 0,
              conditions: [
                {
                  ...condition(
                    'Ready',
                    'False',
                    'PreflightCheckFailed',
                    'KubeadmControlPlane prod-cp is upgrading (ControlPlaneIsStable preflight check failed)',
                  ),
                  severity: 'Error',
                },
              ],
            },
          },
          {
            afterMs: 3000,
            status: { phase: 'Running', observedGeneration: '$generation', replicas: 3, updatedReplicas: 3, conditions: [condition('Ready', 'True', '', '')] },
          },
        ],
        result: 'ready',
        logs: 'ControlPlaneIsStable preflight check failed',
      },
      // nodepool/readiness/controller.go: NodeClassReady=False until the NodeClass exists and is ready
      'karpenter-nodepool: a NodeClass created in the same deploy waits, then ready': {
        apiVersion: 'karpenter.sh/v1',
        kind: 'NodePool',
        plural: 'nodepools',
        byHand: true,
        clusterScoped: true,
        spec: { template: { spec: { nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' } } } },
        steps: [
          {
            afterMs: 0,
            status: {
              conditions: [
                gen(condition('NodeClassReady', 'False', 'NodeClassNotFound', 'NodeClass not found on cluster')),
                gen(condition('Ready', 'False', 'UnhealthyDependents', 'NodeClassReady=False')), // operatorpkg's root condition
              ],
            },
          },
          {
            afterMs: 2500,
            status: { conditions: [gen(condition('NodeClassReady', 'True', 'NodeClassReady', '')), gen(condition('Ready', 'True', 'Ready', ''))] },
          },
        ],
        result: 'ready',
        logs: 'NodeClassReady=False',
      },
      // Strimzi: NotReady with the exception's class name, retried at the next periodic reconciliation
      'strimzi-kafka: a timeout waiting for pods waits, then ready': {
        apiVersion: 'kafka.strimzi.io/v1beta2',
        kind: 'Kafka',
        plural: 'kafkas',
        spec: { kafka: { replicas: 3 } },
        steps: [
          {
            afterMs: 0,
            status: {
              observedGeneration: '$generation',
              conditions: [
                condition(
                  'NotReady',
                  'True',
                  'StrimziTimeoutException',
                  'Exceeded timeout of 300000ms while waiting for Pods resource my-cluster-broker-0 to be ready',
                ),
              ],
            },
          },
          { afterMs: 2500, status: { observedGeneration: '$generation', conditions: [condition('Ready', 'True', '', '')] } },
        ],
        result: 'ready',
        logs: 'Exceeded timeout of 300000ms',
      },
    };

    it.each(Object.entries(CASES))(
      '%s',
      async (title, c) => {
        const rule = title.slice(0, title.indexOf(':'));
        const namespace = `audit-${rule}`.slice(0, 60);
        const name = 'a1';
        const object = {
          apiVersion: c.apiVersion,
          kind: c.kind,
          metadata: {
            name,
            ...(c.clusterScoped ? {} : { namespace }),
            annotations: { ...c.annotations, 'kubewait.test/status-script': JSON.stringify(c.steps) },
          },
          spec: c.spec ?? {},
        };
        const group = c.apiVersion.slice(0, c.apiVersion.indexOf('/'));
        const ref = `${c.kind.toLowerCase()}/${name}`;

        const run = await runAction(
          { kubeconfig: cluster.kubeconfig({ namespace }), resources: `${c.plural}.${group}/${name}`, timeout: '60s' },
          { onStdout: c.byHand ? operateByHand(object, ref, c.steps) : createOnceWaiting(object, ref) },
        );

        expect(run.outputs.result).toBe(c.result);
        expect(resourcesOf(run.outputs)).toMatchObject([{ kind: c.kind, name, status: c.result === 'ready' ? 'Current' : 'Failed', rule: `builtin:${rule}` }]);
        if (c.logs) expect(run.log.filter((line) => line.startsWith(ref) && line.includes('InProgress') && line.includes(c.logs))).not.toEqual([]);
      },
      120_000,
    );

    // gateway_types.go: Accepted and Programmed carry the generation; a condition no controller updates any
    // more (the deprecated Scheduled, left from generation 1) must not hold the wait after a spec change.
    it('gateway-api-gateway: a stale deprecated condition does not hold a Gateway accepted and programmed for its generation', async () => {
      const base = { apiVersion: 'gateway.networking.k8s.io/v1', kind: 'Gateway', metadata: { name: 'web', namespace: 'gwstale' } };
      const spec = (port: number) => ({ gatewayClassName: 'example', listeners: [{ name: 'http', port, protocol: 'HTTP' }] });
      cluster.create({ ...base, spec: spec(80) });
      const script = [
        {
          afterMs: 0,
          status: {
            conditions: [
              gen(condition('Accepted', 'True', 'Accepted', 'ok')),
              gen(condition('Programmed', 'True', 'Programmed', 'ok')),
              { ...condition('Scheduled', 'True', 'Scheduled', 'ok'), observedGeneration: 1 },
            ],
          },
        },
      ];
      cluster.apply({ ...base, metadata: { ...base.metadata, annotations: { 'kubewait.test/status-script': JSON.stringify(script) } }, spec: spec(8080) });

      const run = await runAction({
        kubeconfig: cluster.kubeconfig({ namespace: 'gwstale' }),
        resources: 'gateways.gateway.networking.k8s.io/web',
        timeout: '20s',
      });

      expect(run.outputs.result).toBe('ready');
      expect(resourcesOf(run.outputs)).toMatchObject([{ name: 'web', status: 'Current', rule: 'builtin:gateway-api-gateway' }]);
    }, 120_000);

    // externalsecret_controller.go markAsDone: syncedResourceVersion "<generation>-<hash>"; after a spec
    // change Ready=True stays from the last sync until the controller syncs the new generation.
    it('external-secrets-externalsecret: after a spec change the old Ready=True waits for the new sync', async () => {
      const base = { apiVersion: 'external-secrets.io/v1', kind: 'ExternalSecret', metadata: { name: 'db', namespace: 'esospec' } };
      const spec = (key: string) => ({ secretStoreRef: { name: 'vault', kind: 'SecretStore' }, data: [{ secretKey: 'password', remoteRef: { key } }] });
      const synced = (version: string) => ({
        refreshTime: '2026-11-30T08:13:10Z',
        syncedResourceVersion: version,
        conditions: [condition('Ready', 'True', 'SecretSynced', 'secret synced')],
      });
      cluster.create({ ...base, spec: spec('db/password') });
      cluster.patchStatus('external-secrets.io/v1', 'ExternalSecret', 'esospec', 'db', synced('1-8d5a1c0e'));
      cluster.apply({ ...base, spec: spec('db/password-v2') }); // the change (generation 2); ESO has not synced it yet
      let reconciled = false;
      const operator = (stdout: string) => {
        // Once kubewait has judged the old Ready=True (the old rule passes it here), ESO's next reconcile finds
        // the target Secret owned by another ExternalSecret.
        if (reconciled || !/externalsecret\/db \(esospec\).*(InProgress|Current)/.test(stdout)) return;
        reconciled = true;
        const owned = { ...synced('1-8d5a1c0e'), conditions: [condition('Ready', 'False', 'SecretSyncedError', 'target is owned by another ExternalSecret')] };
        setTimeout(() => cluster.patchStatus('external-secrets.io/v1', 'ExternalSecret', 'esospec', 'db', owned), 1000);
      };

      const run = await runAction(
        { kubeconfig: cluster.kubeconfig({ namespace: 'esospec' }), resources: 'externalsecrets.external-secrets.io/db', timeout: '60s' },
        { onStdout: operator },
      );

      expect(run.outputs.result).toBe('failed');
      expect(resourcesOf(run.outputs)).toMatchObject([
        { name: 'db', status: 'Failed', rule: 'builtin:external-secrets-externalsecret', message: 'target is owned by another ExternalSecret' },
      ]);
    }, 120_000);
  });
});
