/**
 * The built-in rule library (rules/builtin.yaml): every rule judged on realistic objects in every state
 * (ready, progressing, failed, no status). The states follow the controllers' real status shapes and
 * the cases of Argo CD's resource_customizations/<group>/<Kind>/health_test.yaml where there are some
 * (Argo CD, Apache-2.0); the objects here are written for these tests.
 */
import { describe, expect, test } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { embeddedSource, RULES_FILE } from '../../../scripts/rules.js';
import { BUILTIN_RULES_YAML } from '../../../src/status/health/builtin-text.js';
import { builtinRules } from '../../../src/status/health/builtin.js';
import { evaluateHealth, WAITING_FOR_CONTROLLER } from '../../../src/status/health/evaluate.js';
import { resolveRules } from '../../../src/status/health/resolve.js';
import type { Status } from '../../../src/status/types.js';

const cond = (type: string, status: string, reason = '', message = '', extra: Record<string, unknown> = {}) => ({
  type,
  status,
  reason,
  message,
  lastTransitionTime: '2026-11-30T08:13:10Z',
  ...extra,
});

function object(apiVersion: string, kind: string, status?: unknown, extra: { spec?: unknown; metadata?: Record<string, unknown> } = {}) {
  return {
    apiVersion,
    kind,
    metadata: { name: `my-${kind.toLowerCase()}`, namespace: 'prod', generation: 2, uid: 'a1b2', creationTimestamp: '2026-11-30T08:12:45Z', ...extra.metadata },
    spec: extra.spec ?? {},
    ...(status === undefined ? {} : { status }),
  };
}

interface Case {
  state: string;
  obj: ReturnType<typeof object>;
  status: Status;
  message?: string | RegExp;
}

const rules = resolveRules({ user: [], builtin: true });

/** rule id -> cases. */
const TABLE: Record<string, Case[]> = {
  // cert-manager's certificates controllers, each writing one condition with the Certificate's generation
  // (pkg/controller/certificates/): readiness/readiness_controller.go writes Ready from the policy chain
  // (policies/checks.go: DoesNotExist, MissingData, SecretMismatch, ...), trigger/trigger_controller.go
  // writes Issuing=True, issuing/issuing_controller.go removes Issuing on success (False/Issued with
  // server-side apply) or writes Issuing=False with the CertificateRequest's reason (failIssueCertificate).
  'builtin:cert-manager-certificate': (() => {
    const cert = (status?: unknown) =>
      object('cert-manager.io/v1', 'Certificate', status, {
        spec: { secretName: 'web-tls', dnsNames: ['web.example.com'], issuerRef: { name: 'letsencrypt', kind: 'ClusterIssuer' } },
      });
    const gen = (generation: number) => ({ observedGeneration: generation });
    const upToDate = cond('Ready', 'True', 'Ready', 'Certificate is up to date and has not expired', gen(2));
    const doesNotExist = cond('Ready', 'False', 'DoesNotExist', 'Issuing certificate as Secret does not exist', gen(2));
    const acmeError =
      'The certificate request has failed to complete and will be retried: Failed to wait for order resource "web-tls-1-2937" to become ready: order is in "invalid" state: 403 urn:ietf:params:acme:error:unauthorized: Invalid response from http://web.example.com/.well-known/acme-challenge/x: 404';
    return [
      { state: 'ready', obj: cert({ notAfter: '2027-02-28T07:12:44Z', conditions: [upToDate] }), status: 'Current' },
      {
        state: 'new: the readiness controller wrote Ready=False DoesNotExist before the trigger wrote Issuing=True',
        obj: cert({ conditions: [doesNotExist] }),
        status: 'InProgress',
        message: 'Issuing certificate as Secret does not exist',
      },
      ...(['MissingData', 'Pending'] as const).map((reason) => ({
        state: `new: Ready=False ${reason} alone`,
        obj: cert({ conditions: [cond('Ready', 'False', reason, `Issuing certificate as Secret ${reason}`, gen(2))] }),
        status: 'InProgress' as const,
      })),
      {
        state: 'first issuance (Ready=False, Issuing=True)',
        obj: cert({ conditions: [doesNotExist, cond('Issuing', 'True', 'DoesNotExist', 'Issuing certificate as Secret does not exist', gen(2))] }),
        status: 'InProgress',
        message: 'Issuing certificate as Secret does not exist',
      },
      {
        state: 're-issuing while the old Ready=True is still there',
        obj: cert({ conditions: [upToDate, cond('Issuing', 'True', 'Renewing', 'Renewing certificate as renewal was scheduled at 2026-11-30', gen(2))] }),
        status: 'InProgress',
      },
      {
        state: 'issued (server-side apply leaves Issuing=False Issued)',
        obj: cert({ conditions: [upToDate, cond('Issuing', 'False', 'Issued', 'The certificate has been successfully issued', gen(2))] }),
        status: 'Current',
      },
      {
        state: 'failed: Issuing=False Failed carries the ACME error, not Ready’s DoesNotExist',
        obj: cert({
          lastFailureTime: '2026-11-30T08:14:02Z',
          failedIssuanceAttempts: 1,
          conditions: [doesNotExist, cond('Issuing', 'False', 'Failed', acmeError, gen(2))],
        }),
        status: 'Failed',
        message: acmeError,
      },
      {
        state: 'failed: the CertificateRequest was denied (Issuing=False with the Denied condition’s reason)',
        obj: cert({
          lastFailureTime: '2026-11-30T08:14:02Z',
          conditions: [
            doesNotExist,
            cond(
              'Issuing',
              'False',
              'policy.cert-manager.io',
              'The certificate request has failed to complete and will be retried: no policy approved this request',
              gen(2),
            ),
          ],
        }),
        status: 'Failed',
        message: /no policy approved this request/,
      },
      {
        state: 'failed: the issuer returned an invalid certificate (InvalidCertificate)',
        obj: cert({
          lastFailureTime: '2026-11-30T08:14:02Z',
          conditions: [
            cond('Ready', 'False', 'SecretMismatch', 'Issuing certificate as Secret was previously issued by a different issuer', gen(2)),
            cond(
              'Issuing',
              'False',
              'InvalidCertificate',
              'The certificate request has failed to complete and will be retried: Issuer returned an already expired certificate',
              gen(2),
            ),
          ],
        }),
        status: 'Failed',
        message: /already expired certificate/,
      },
      {
        state: 'a renewal failed but the certificate in the Secret is still valid (Ready=True)',
        obj: cert({ lastFailureTime: '2026-11-30T08:14:02Z', conditions: [upToDate, cond('Issuing', 'False', 'Failed', acmeError, gen(2))] }),
        status: 'Current',
      },
      {
        state: 'a failure of the previous generation while the trigger has not yet written the new one',
        obj: cert({
          conditions: [
            cond('Ready', 'False', 'SecretMismatch', 'Secret was issued for "web.example.com"', gen(2)),
            cond('Issuing', 'False', 'Failed', acmeError, gen(1)),
          ],
        }),
        status: 'InProgress',
      },
      { state: 'no status', obj: cert(), status: 'InProgress', message: WAITING_FOR_CONTROLLER },
      {
        state: 'spec change: Ready=True of the previous generation waits',
        obj: cert({ notAfter: '2027-02-28T07:12:44Z', conditions: [cond('Ready', 'True', 'Ready', 'Certificate is up to date and has not expired', gen(1))] }),
        status: 'InProgress',
      },
    ];
  })(),
  // pkg/controller/issuers/sync.go (and clusterissuers/) run each issuer's Setup, which writes Ready with
  // the issuer's generation: pkg/issuer/ca/setup.go (ErrGetKeyPair, retried; ErrInvalidKeyPair, "nothing
  // more we can do"), pkg/issuer/acme/setup.go (ErrRegisterACMEAccount retried; InvalidConfig, InvalidURL,
  // InvalidSolver not requeued).
  ...Object.fromEntries(
    (['Issuer', 'ClusterIssuer'] as const).map((kind) => {
      const issuer = (status?: unknown) =>
        object('cert-manager.io/v1', kind, status, { spec: { acme: { server: 'https://acme-v02.api.letsencrypt.org/directory' } } });
      return [
        `builtin:cert-manager-${kind.toLowerCase()}`,
        [
          {
            state: 'ready',
            obj: issuer({
              acme: { uri: 'https://acme-v02.api.letsencrypt.org/acme/acct/1' },
              conditions: [cond('Ready', 'True', 'ACMEAccountRegistered', 'The ACME account was registered with the ACME server', { observedGeneration: 2 })],
            }),
            status: 'Current',
          },
          {
            state: 'progressing (Ready=Unknown)',
            obj: issuer({ conditions: [cond('Ready', 'Unknown', 'Pending', 'Verifying ACME account')] }),
            status: 'InProgress',
            message: 'Verifying ACME account',
          },
          {
            state: 'CA bootstrap: the CA Secret does not exist yet (ErrGetKeyPair) waits, with its message',
            obj: issuer({
              conditions: [
                cond('Ready', 'False', 'ErrGetKeyPair', 'Error getting keypair for CA issuer: secrets "root-ca" not found', { observedGeneration: 2 }),
              ],
            }),
            status: 'InProgress',
            message: 'Error getting keypair for CA issuer: secrets "root-ca" not found',
          },
          {
            state: 'ACME registration failing (ErrRegisterACMEAccount, retried) waits',
            obj: issuer({
              conditions: [
                cond('Ready', 'False', 'ErrRegisterACMEAccount', 'Failed to register ACME account: 400 urn:ietf:params:acme:error:invalidEmail', {
                  observedGeneration: 2,
                }),
              ],
            }),
            status: 'InProgress',
            message: /invalidEmail/,
          },
          {
            state: 'failed: ACME v1 server URL (InvalidConfig, not requeued)',
            obj: issuer({
              conditions: [
                cond(
                  'Ready',
                  'False',
                  'InvalidConfig',
                  'Your ACME server URL is set to a v1 endpoint (https://acme-v01.api.letsencrypt.org/directory). You should update the spec.acme.server field to "https://acme-v02.api.letsencrypt.org/directory"',
                  { observedGeneration: 2 },
                ),
              ],
            }),
            status: 'Failed',
            message: /v1 endpoint/,
          },
          {
            state: 'failed: the CA Secret holds no CA (ErrInvalidKeyPair)',
            obj: issuer({
              conditions: [
                cond('Ready', 'False', 'ErrInvalidKeyPair', 'Error getting keypair for CA issuer: certificate is not a CA', { observedGeneration: 2 }),
              ],
            }),
            status: 'Failed',
            message: 'Error getting keypair for CA issuer: certificate is not a CA',
          },
          {
            state: 'spec change: Ready=True of the previous generation waits',
            obj: issuer({ conditions: [cond('Ready', 'True', 'KeyPairVerified', 'Signing CA verified', { observedGeneration: 1 })] }),
            status: 'InProgress',
          },
          { state: 'no status', obj: issuer(), status: 'InProgress', message: WAITING_FOR_CONTROLLER },
        ] satisfies Case[],
      ];
    }),
  ),
  'builtin:argo-rollouts-rollout': (() => {
    const rollout = (status?: unknown, spec: unknown = { replicas: 3, strategy: { canary: { steps: [{ setWeight: 20 }, { pause: {} }] } } }) =>
      object('argoproj.io/v1alpha1', 'Rollout', status, { spec });
    const healthy = {
      observedGeneration: '2',
      phase: 'Healthy',
      replicas: 3,
      updatedReplicas: 3,
      readyReplicas: 3,
      availableReplicas: 3,
      currentPodHash: '6d8f7c9b5',
      stableRS: '6d8f7c9b5',
      conditions: [
        cond('Available', 'True', 'AvailableReason', 'Rollout has minimum availability'),
        cond('Progressing', 'True', 'NewReplicaSetAvailable', 'ReplicaSet "web-6d8f7c9b5" has successfully progressed.'),
        cond('Healthy', 'True', 'RolloutHealthy', 'Rollout is healthy'),
      ],
    };
    return [
      { state: 'healthy', obj: rollout(healthy), status: 'Current' },
      {
        state: 'progressing',
        obj: rollout({
          ...healthy,
          phase: 'Progressing',
          message: 'more replicas need to be updated',
          updatedReplicas: 1,
          conditions: [cond('Progressing', 'True', 'ReplicaSetUpdated', 'ReplicaSet "web-7f9c" is progressing.')],
        }),
        status: 'InProgress',
        message: 'phase Progressing: more replicas need to be updated',
      },
      {
        state: 'paused at a canary step',
        obj: rollout({
          ...healthy,
          phase: 'Paused',
          message: 'CanaryPauseStep',
          pauseConditions: [{ reason: 'CanaryPauseStep', startTime: '2026-11-30T08:20:00Z' }],
          conditions: [cond('Paused', 'True', 'RolloutPaused', 'Rollout is paused'), cond('Progressing', 'Unknown', 'RolloutPaused', 'Rollout is paused')],
        }),
        status: 'InProgress',
        message: 'phase Paused: CanaryPauseStep',
      },
      { state: 'spec change not observed (string observedGeneration)', obj: rollout({ ...healthy, observedGeneration: '1' }), status: 'InProgress' },
      {
        // GetRolloutPhase (utils/rollout/rolloututil.go) IsUnpausing: promoted, the controller has not acted yet
        state: 'unpausing: pause conditions cleared, controllerPause still set',
        obj: rollout({ ...healthy, controllerPause: true, pauseConditions: null }),
        status: 'InProgress',
      },
      {
        // rollout/templateref.go sets the annotation when the referenced Deployment changes; rollout/sync.go
        // persistRolloutStatus copies it to status.workloadObservedGeneration once it has acted on it
        state: 'workloadRef: the referenced Deployment changed, not yet observed',
        obj: {
          ...rollout({ ...healthy, workloadObservedGeneration: '4' }, { replicas: 3, workloadRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' } }),
          metadata: { ...rollout().metadata, annotations: { 'rollout.argoproj.io/workload-generation': '5' } },
        },
        status: 'InProgress',
      },
      {
        state: 'workloadRef: the referenced Deployment’s generation observed',
        obj: {
          ...rollout({ ...healthy, workloadObservedGeneration: '5' }, { replicas: 3, workloadRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' } }),
          metadata: { ...rollout().metadata, annotations: { 'rollout.argoproj.io/workload-generation': '5' } },
        },
        status: 'Current',
      },
      {
        state: 'degraded: aborted',
        obj: rollout({
          ...healthy,
          phase: 'Degraded',
          message: 'RolloutAborted: Rollout aborted update to revision 3: Metric "success-rate" assessed Failed',
          abort: true,
          conditions: [cond('Progressing', 'False', 'RolloutAborted', 'Rollout aborted update to revision 3')],
        }),
        status: 'Failed',
        message: /RolloutAborted/,
      },
      {
        state: 'degraded: progress deadline exceeded',
        obj: rollout({
          ...healthy,
          phase: 'Degraded',
          message: 'ProgressDeadlineExceeded: ReplicaSet "web-7f9c" has timed out progressing.',
          conditions: [cond('Progressing', 'False', 'ProgressDeadlineExceeded', 'ReplicaSet "web-7f9c" has timed out progressing.')],
        }),
        status: 'Failed',
        message: /timed out progressing/,
      },
      {
        state: 'invalid spec',
        obj: rollout({
          observedGeneration: '2',
          phase: 'Degraded',
          message: 'InvalidSpec: The Rollout "web" is invalid',
          conditions: [cond('InvalidSpec', 'True', 'InvalidSpec', 'The Rollout "web" is invalid: spec.strategy.canary.steps[1].pause.duration: Invalid value')],
        }),
        status: 'Failed',
      },
      { state: 'no status', obj: rollout(), status: 'InProgress', message: WAITING_FOR_CONTROLLER },
    ];
  })(),
  // Argo CD's application controller (pkg/apis/application/v1alpha1/types.go, controller/appcontroller.go):
  // no Ready condition; sync, health and the last operation, each in its own field.
  'builtin:argocd-application': (() => {
    const SHA = 'abc1234def5678901234567890abcdef01234567';
    const OLD = '9f8e7d6c5b4a39281706f5e4d3c2b1a098765432';
    const app = (status?: unknown) =>
      object('argoproj.io/v1alpha1', 'Application', status, {
        spec: { project: 'default', source: { repoURL: 'https://github.com/example/shop.git', path: 'deploy', targetRevision: 'main' } },
      });
    const operation = (phase: string, revision: string) => ({
      operation: { sync: { revision } },
      phase,
      message: phase === 'Failed' ? 'one or more objects failed to apply' : 'successfully synced (all tasks run)',
      startedAt: '2026-11-30T08:20:00Z',
      ...(phase === 'Running' ? {} : { syncResult: { revision } }),
    });
    const at = (sync: string, health: string, operationState?: object) => ({
      sync: { status: sync, revision: SHA },
      health: { status: health },
      ...(operationState ? { operationState } : {}),
    });
    return [
      { state: 'synced and healthy', obj: app(at('Synced', 'Healthy', operation('Succeeded', SHA))), status: 'Current' },
      { state: 'degraded', obj: app(at('Synced', 'Degraded')), status: 'Failed' },
      { state: 'out of sync', obj: app(at('OutOfSync', 'Healthy')), status: 'InProgress' },
      { state: 'progressing', obj: app(at('Synced', 'Progressing')), status: 'InProgress' },
      { state: 'suspended', obj: app(at('Synced', 'Suspended')), status: 'InProgress' },
      { state: 'syncing', obj: app(at('OutOfSync', 'Healthy', operation('Running', SHA))), status: 'InProgress' },
      { state: 'sync failed', obj: app(at('OutOfSync', 'Healthy', operation('Failed', SHA))), status: 'Failed' },
      { state: 'an older sync failed', obj: app(at('OutOfSync', 'Healthy', operation('Failed', OLD))), status: 'InProgress' },
      {
        state: 'multi-source sync failed',
        obj: app({
          sync: { status: 'OutOfSync', revisions: ['7.3.0', SHA] },
          health: { status: 'Healthy' },
          operationState: { phase: 'Failed', message: 'x', syncResult: { revisions: ['7.3.0', SHA] } },
        }),
        status: 'Failed',
      },
      { state: 'no status', obj: app(), status: 'InProgress', message: WAITING_FOR_CONTROLLER },
    ];
  })(),
  'builtin:argo-rollouts-analysisrun': (() => {
    const run = (status?: unknown) =>
      object('argoproj.io/v1alpha1', 'AnalysisRun', status, {
        spec: { metrics: [{ name: 'success-rate', provider: { prometheus: { query: 'sum(rate(x[5m]))' } } }] },
      });
    return [
      {
        state: 'successful',
        obj: run({
          phase: 'Successful',
          startedAt: '2026-11-30T08:20:00Z',
          metricResults: [{ name: 'success-rate', phase: 'Successful', count: 3, successful: 3 }],
        }),
        status: 'Current',
      },
      {
        state: 'running',
        obj: run({ phase: 'Running', startedAt: '2026-11-30T08:20:00Z', metricResults: [{ name: 'success-rate', phase: 'Running', count: 1, successful: 1 }] }),
        status: 'InProgress',
        message: 'phase Running',
      },
      {
        state: 'failed',
        obj: run({ phase: 'Failed', message: 'Metric "success-rate" assessed Failed due to failed (3) > failureLimit (0)' }),
        status: 'Failed',
        message: /assessed Failed/,
      },
      {
        state: 'error',
        obj: run({
          phase: 'Error',
          message:
            'Metric "success-rate" assessed Error due to consecutiveErrors (5) > consecutiveErrorLimit (4): "Error Message: Post \\"http://prometheus:9090/api/v1/query\\": dial tcp: lookup prometheus: no such host"',
        }),
        status: 'Failed',
      },
      { state: 'inconclusive', obj: run({ phase: 'Inconclusive', message: 'Metric "success-rate" assessed Inconclusive' }), status: 'Failed' },
      { state: 'no status', obj: run(), status: 'InProgress', message: WAITING_FOR_CONTROLLER },
    ];
  })(),
  'builtin:crossplane': (() => {
    const bucket = (status?: unknown) =>
      object('s3.aws.crossplane.io/v1beta1', 'Bucket', status, {
        spec: { forProvider: { locationConstraint: 'eu-west-1' }, providerConfigRef: { name: 'default' } },
      });
    return [
      {
        state: 'ready and synced',
        obj: bucket({
          atProvider: { arn: 'arn:aws:s3:::my-bucket' },
          conditions: [cond('Ready', 'True', 'Available'), cond('Synced', 'True', 'ReconcileSuccess')],
        }),
        status: 'Current',
      },
      {
        state: 'creating',
        obj: bucket({ conditions: [cond('Ready', 'False', 'Creating'), cond('Synced', 'True', 'ReconcileSuccess')] }),
        status: 'InProgress',
      },
      {
        // pkg/reconciler/managed/reconciler.go: ReconcileError for every error, requeued with backoff
        state: 'references not resolved yet (the VPC is created in the same deploy): waits',
        obj: object(
          'ec2.aws.crossplane.io/v1beta1',
          'Subnet',
          {
            conditions: [
              cond(
                'Synced',
                'False',
                'ReconcileError',
                'cannot resolve references: mg.Spec.ForProvider.VPCID: referenced field was empty (referenced resource may not yet be ready)',
                {
                  observedGeneration: 2,
                },
              ),
            ],
          },
          { spec: { forProvider: { vpcIdRef: { name: 'prod' } } } },
        ),
        status: 'InProgress',
        message: /referenced resource may not yet be ready/,
      },
      {
        state: 'the ProviderConfig is not there yet: waits',
        obj: bucket({
          conditions: [
            cond('Synced', 'False', 'ReconcileError', 'connect failed: cannot get ProviderConfig: ProviderConfig.aws.crossplane.io "default" not found'),
          ],
        }),
        status: 'InProgress',
        message: /cannot get ProviderConfig/,
      },
      {
        state: 'the cloud API rejected the request: waits with its message (retried with backoff)',
        obj: bucket({
          conditions: [
            cond('Ready', 'False', 'Creating'),
            cond('Synced', 'False', 'ReconcileError', 'create failed: cannot create Bucket in AWS: InvalidBucketName: The specified bucket is not valid.'),
          ],
        }),
        status: 'InProgress',
        message: /InvalidBucketName/,
      },
      {
        state: 'Ready and Synced written for an older generation (spec changed)',
        obj: bucket({
          conditions: [
            cond('Ready', 'True', 'Available', '', { observedGeneration: 1 }),
            cond('Synced', 'True', 'ReconcileSuccess', '', { observedGeneration: 1 }),
          ],
        }),
        status: 'InProgress',
      },
      { state: 'no status (new managed resource)', obj: bucket(), status: 'InProgress', message: WAITING_FOR_CONTROLLER },
      {
        state: 'a kind that never has status (Composition)',
        obj: object('apiextensions.crossplane.io/v1', 'Composition', undefined, {
          spec: { compositeTypeRef: { apiVersion: 'example.org/v1', kind: 'XDatabase' } },
        }),
        status: 'Current',
      },
      {
        state: 'Provider installed and healthy',
        obj: object('pkg.crossplane.io/v1', 'Provider', {
          currentRevision: 'provider-aws-s3-1',
          conditions: [cond('Installed', 'True', 'ActivePackageRevision'), cond('Healthy', 'True', 'HealthyPackageRevision')],
        }),
        status: 'Current',
      },
      {
        state: 'Provider unhealthy',
        obj: object('pkg.crossplane.io/v1', 'Provider', {
          conditions: [
            cond('Installed', 'True', 'ActivePackageRevision'),
            cond('Healthy', 'False', 'UnhealthyPackageRevision', 'cannot resolve package dependencies'),
          ],
        }),
        status: 'InProgress',
        message: 'cannot resolve package dependencies',
      },
    ];
  })(),
  'builtin:upbound': (() => {
    const instance = (status?: unknown) =>
      object('rds.aws.upbound.io/v1beta1', 'Instance', status, { spec: { forProvider: { region: 'eu-west-1', engine: 'postgres' } } });
    return [
      {
        state: 'ready and synced',
        obj: instance({ conditions: [cond('Ready', 'True', 'Available'), cond('Synced', 'True', 'ReconcileSuccess')] }),
        status: 'Current',
      },
      {
        state: 'creating',
        obj: instance({ conditions: [cond('Ready', 'False', 'Creating'), cond('Synced', 'True', 'ReconcileSuccess')] }),
        status: 'InProgress',
      },
      {
        // Upjet's async apply; the next reconcile applies again
        state: 'last async operation failed: waits with the error',
        obj: instance({
          conditions: [
            cond('Ready', 'False', 'Creating'),
            cond('Synced', 'True', 'ReconcileSuccess'),
            cond('LastAsyncOperation', 'False', 'ApplyFailure', 'apply failed: InvalidParameterCombination: Cannot find version 9.6 for postgres'),
          ],
        }),
        status: 'InProgress',
        message: /Cannot find version/,
      },
      { state: 'no status', obj: instance(), status: 'InProgress', message: WAITING_FOR_CONTROLLER },
      {
        state: 'ProviderConfig (never has status)',
        obj: object('aws.upbound.io/v1beta1', 'ProviderConfig', undefined, { spec: { credentials: { source: 'IRSA' } } }),
        status: 'Current',
      },
    ];
  })(),
  // External Secrets: pkg/controllers/externalsecret/externalsecret_controller.go (markAsDone with
  // syncedResourceVersion "<generation>-<hash>", markAsFailed then the error is returned and retried) and
  // pkg/controllers/secretstore/common.go (validateStore, retried).
  'builtin:external-secrets-externalsecret': (() => {
    const es = (status?: unknown) =>
      object('external-secrets.io/v1', 'ExternalSecret', status, {
        spec: { secretStoreRef: { name: 'vault', kind: 'SecretStore' }, data: [{ secretKey: 'password', remoteRef: { key: 'db/password' } }] },
      });
    const synced = cond('Ready', 'True', 'SecretSynced', 'secret synced');
    return [
      {
        state: 'synced for this generation',
        obj: es({ refreshTime: '2026-11-30T08:13:10Z', syncedResourceVersion: '2-8d5a1c0e', conditions: [synced] }),
        status: 'Current',
      },
      {
        state: 'spec changed: Ready=True was synced for generation 1',
        obj: es({ refreshTime: '2026-11-30T08:13:10Z', syncedResourceVersion: '1-8d5a1c0e', conditions: [synced] }),
        status: 'InProgress',
      },
      ...[{ refreshPolicy: 'CreatedOnce' }, { refreshInterval: '0s' }, { refreshPolicy: 'Periodic', refreshInterval: '0' }].map((refresh) => ({
        // shouldRefresh: ESO will not sync the change, so the Ready it has stands
        state: `spec changed, ESO does not resync it (${JSON.stringify(refresh)})`,
        obj: {
          ...es({ refreshTime: '2026-11-30T08:13:10Z', syncedResourceVersion: '1-8d5a1c0e', conditions: [synced] }),
          spec: { ...refresh, secretStoreRef: { name: 'vault', kind: 'SecretStore' }, data: [] },
        },
        status: 'Current' as const,
      })),
      {
        state: 'spec changed, OnChange with refreshInterval 0 still syncs a change',
        obj: {
          ...es({ refreshTime: '2026-11-30T08:13:10Z', syncedResourceVersion: '1-8d5a1c0e', conditions: [synced] }),
          spec: { refreshPolicy: 'OnChange', refreshInterval: '0s', secretStoreRef: { name: 'vault', kind: 'SecretStore' }, data: [] },
        },
        status: 'InProgress',
      },
      { state: 'progressing (no Ready yet)', obj: es({ conditions: [] }), status: 'InProgress' },
      {
        state: 'the SecretStore is not usable yet (created in the same deploy): waits',
        obj: es({ conditions: [cond('Ready', 'False', 'SecretSyncedError', 'could not get secret data from provider')] }),
        status: 'InProgress',
        message: 'could not get secret data from provider',
      },
      {
        state: 'the target Secret is owned by another ExternalSecret',
        obj: es({ conditions: [cond('Ready', 'False', 'SecretSyncedError', 'target is owned by another ExternalSecret')] }),
        status: 'Failed',
        message: 'target is owned by another ExternalSecret',
      },
      {
        state: 'the target Secret is immutable',
        obj: es({
          syncedResourceVersion: '1-8d5a1c0e',
          conditions: [cond('Ready', 'False', 'SecretSyncedError', 'could not update secret, target is immutable')],
        }),
        status: 'Failed',
      },
      { state: 'no status', obj: es(), status: 'InProgress', message: WAITING_FOR_CONTROLLER },
    ];
  })(),
  ...Object.fromEntries(
    (['SecretStore', 'ClusterSecretStore'] as const).map((kind) => {
      const store = (status?: unknown) => object('external-secrets.io/v1', kind, status, { spec: { provider: { vault: { server: 'https://vault:8200' } } } });
      return [
        `builtin:external-secrets-${kind.toLowerCase()}`,
        [
          {
            state: 'valid',
            obj: store({ capabilities: 'ReadWrite', conditions: [cond('Ready', 'True', 'Valid', 'store validated')] }),
            status: 'Current',
          },
          {
            state: 'validation unknown (Ready=True ValidationUnknown)',
            obj: store({ conditions: [cond('Ready', 'True', 'ValidationUnknown', 'could not determine validation status')] }),
            status: 'Current',
          },
          {
            state: 'the credentials Secret is not there yet: waits (retried)',
            obj: store({ conditions: [cond('Ready', 'False', 'InvalidProviderConfig', 'unable to create client')] }),
            status: 'InProgress',
            message: 'unable to create client',
          },
          {
            state: 'the provider cannot be validated yet: waits (retried)',
            obj: store({ conditions: [cond('Ready', 'False', 'InvalidProviderConfig', 'unable to validate store')] }),
            status: 'InProgress',
            message: 'unable to validate store',
          },
          { state: 'no status', obj: store(), status: 'InProgress', message: WAITING_FOR_CONTROLLER },
        ] satisfies Case[],
      ];
    }),
  ),
  'builtin:sealed-secrets': (() => {
    const sealed = (status?: unknown) =>
      object('bitnami.com/v1alpha1', 'SealedSecret', status, { spec: { encryptedData: { password: 'AgBy3i4OJSWK+PiTySYZZA==' } } });
    return [
      {
        state: 'synced',
        obj: sealed({ observedGeneration: 2, conditions: [cond('Synced', 'True', '', '', { lastUpdateTime: '2026-11-30T08:13:10Z' })] }),
        status: 'Current',
      },
      { state: 'progressing (older generation)', obj: sealed({ observedGeneration: 1, conditions: [cond('Synced', 'True')] }), status: 'InProgress' },
      {
        state: 'cannot decrypt',
        obj: sealed({ observedGeneration: 2, conditions: [cond('Synced', 'False', 'ErrUnsealFailed', 'no key could decrypt secret (password)')] }),
        status: 'Failed',
        message: 'no key could decrypt secret (password)',
      },
      { state: 'no status', obj: sealed(), status: 'InProgress', message: WAITING_FOR_CONTROLLER },
    ];
  })(),
  'builtin:gateway-api-gateway': (() => {
    const gw = (status?: unknown) =>
      object('gateway.networking.k8s.io/v1', 'Gateway', status, {
        spec: { gatewayClassName: 'istio', listeners: [{ name: 'http', port: 80, protocol: 'HTTP' }] },
      });
    const defaulted = {
      conditions: [cond('Accepted', 'Unknown', 'Pending', 'Waiting for controller'), cond('Programmed', 'Unknown', 'Pending', 'Waiting for controller')],
    };
    return [
      {
        state: 'accepted and programmed',
        obj: gw({
          addresses: [{ type: 'IPAddress', value: '192.0.2.10' }],
          conditions: [
            cond('Accepted', 'True', 'Accepted', 'Resource accepted', { observedGeneration: 2 }),
            cond('Programmed', 'True', 'Programmed', 'Resource programmed', { observedGeneration: 2 }),
          ],
        }),
        status: 'Current',
      },
      {
        state: 'as the API server defaults it (Pending, waiting for controller)',
        obj: gw(defaulted),
        status: 'InProgress',
        message: /Waiting for controller|no health expression/,
      },
      {
        state: 'accepted, address not assigned yet',
        obj: gw({
          conditions: [
            cond('Accepted', 'True', 'Accepted', 'ok', { observedGeneration: 2 }),
            cond('Programmed', 'False', 'AddressNotAssigned', 'Assigned to service(s) web-istio.prod, but failed to assign to all requested addresses', {
              observedGeneration: 2,
            }),
          ],
        }),
        status: 'InProgress',
        message: /failed to assign/,
      },
      {
        state: 'conditions for an older generation',
        obj: gw({
          conditions: [
            cond('Accepted', 'True', 'Accepted', 'ok', { observedGeneration: 1 }),
            cond('Programmed', 'True', 'Programmed', 'ok', { observedGeneration: 1 }),
          ],
        }),
        status: 'InProgress',
      },
      {
        state: 'not accepted',
        obj: gw({
          conditions: [
            cond('Accepted', 'False', 'InvalidParameters', 'GatewayClass "istio" parametersRef not found', { observedGeneration: 2 }),
            cond('Programmed', 'False', 'Invalid', 'Not programmed', { observedGeneration: 2 }),
          ],
        }),
        status: 'Failed',
        message: /parametersRef not found/,
      },
      {
        state: 'a deprecated condition nobody updates any more (Scheduled, generation 1) does not hold it',
        obj: gw({
          conditions: [
            cond('Accepted', 'True', 'Accepted', 'ok', { observedGeneration: 2 }),
            cond('Programmed', 'True', 'Programmed', 'ok', { observedGeneration: 2 }),
            cond('Scheduled', 'True', 'Scheduled', 'ok', { observedGeneration: 1 }),
          ],
        }),
        status: 'Current',
      },
      {
        state: 'Accepted=False with the deprecated NotReconciled (not reconciled yet): waits',
        obj: gw({ conditions: [cond('Accepted', 'False', 'NotReconciled', 'Waiting for controller', { observedGeneration: 2 })] }),
        status: 'InProgress',
      },
      {
        state: 'Accepted=False Pending: waits',
        obj: gw({ conditions: [cond('Accepted', 'False', 'Pending', 'Waiting for controller', { observedGeneration: 2 })] }),
        status: 'InProgress',
      },
      { state: 'no status', obj: gw(), status: 'InProgress', message: WAITING_FOR_CONTROLLER },
    ];
  })(),
  'builtin:gateway-api-httproute': (() => {
    const route = (status?: unknown) =>
      object('gateway.networking.k8s.io/v1', 'HTTPRoute', status, {
        spec: { parentRefs: [{ name: 'public' }, { name: 'internal' }], rules: [{ backendRefs: [{ name: 'web', port: 80 }] }] },
      });
    const parent = (name: string, ...conditions: unknown[]) => ({
      parentRef: { group: 'gateway.networking.k8s.io', kind: 'Gateway', name },
      controllerName: 'istio.io/gateway-controller',
      conditions,
    });
    const ok = (name: string) =>
      parent(
        name,
        cond('Accepted', 'True', 'Accepted', 'Route was valid', { observedGeneration: 2 }),
        cond('ResolvedRefs', 'True', 'ResolvedRefs', 'All references resolved', { observedGeneration: 2 }),
      );
    return [
      { state: 'accepted by every parent', obj: route({ parents: [ok('public'), ok('internal')] }), status: 'Current' },
      {
        state: 'one parent has not resolved the backend yet',
        obj: route({
          parents: [
            ok('public'),
            parent(
              'internal',
              cond('Accepted', 'True', 'Accepted', 'ok', { observedGeneration: 2 }),
              cond('ResolvedRefs', 'False', 'BackendNotFound', 'backend(web.prod.svc.cluster.local) not found', { observedGeneration: 2 }),
            ),
          ],
        }),
        status: 'InProgress',
        message: /backend\(web\.prod\.svc\.cluster\.local\) not found/,
      },
      { state: 'no parent has reported yet', obj: route({ parents: [] }), status: 'InProgress' },
      {
        state: 'one of two parentRefs has an entry (the other Gateway’s controller has not acted)',
        obj: route({ parents: [ok('public')] }),
        status: 'InProgress',
      },
      {
        state: 'parentRef with a sectionName: the entry must name the same listener',
        obj: object(
          'gateway.networking.k8s.io/v1',
          'HTTPRoute',
          {
            parents: [
              { ...ok('public'), parentRef: { group: 'gateway.networking.k8s.io', kind: 'Gateway', name: 'public', namespace: 'prod', sectionName: 'https' } },
            ],
          },
          { spec: { parentRefs: [{ name: 'public', sectionName: 'https' }] } },
        ),
        status: 'Current',
      },
      {
        state: 'Accepted=False Pending (not reconciled yet): waits',
        obj: route({ parents: [ok('public'), parent('internal', cond('Accepted', 'False', 'Pending', 'Waiting for controller', { observedGeneration: 2 }))] }),
        status: 'InProgress',
      },
      {
        state: 'a parent reported an older generation',
        obj: route({
          parents: [
            ok('public'),
            parent(
              'internal',
              cond('Accepted', 'True', 'Accepted', 'ok', { observedGeneration: 1 }),
              cond('ResolvedRefs', 'True', 'ResolvedRefs', 'ok', { observedGeneration: 1 }),
            ),
          ],
        }),
        status: 'InProgress',
      },
      {
        state: 'rejected by a parent',
        obj: route({
          parents: [
            ok('public'),
            parent('internal', cond('Accepted', 'False', 'NotAllowedByListeners', 'No listener allows routes from namespace prod', { observedGeneration: 2 })),
          ],
        }),
        status: 'Failed',
        message: /No listener allows routes/,
      },
      { state: 'no status', obj: route(), status: 'InProgress', message: WAITING_FOR_CONTROLLER },
    ];
  })(),
  'builtin:keda-scaledobject': (() => {
    const so = (status?: unknown) =>
      object('keda.sh/v1alpha1', 'ScaledObject', status, {
        spec: { scaleTargetRef: { name: 'worker' }, triggers: [{ type: 'prometheus', metadata: { threshold: '100' } }] },
      });
    return [
      {
        state: 'ready',
        obj: so({
          scaleTargetKind: 'apps/v1.Deployment',
          originalReplicaCount: 1,
          conditions: [
            cond('Ready', 'True', 'ScaledObjectReady', 'ScaledObject is defined correctly and is ready for scaling'),
            cond('Active', 'False', 'ScalerNotActive', 'Scaling is not performed because triggers are not active'),
            cond('Fallback', 'False', 'NoFallbackFound', 'No fallbacks are active on this scaled object'),
          ],
        }),
        status: 'Current',
      },
      {
        state: 'paused (ready and reported)',
        obj: so({ conditions: [cond('Ready', 'True', 'ScaledObjectReady', 'ok'), cond('Paused', 'True', 'ScaledObjectPaused', 'ScaledObject is paused')] }),
        status: 'Current',
      },
      {
        state: 'progressing (Ready=Unknown)',
        obj: so({ conditions: [cond('Ready', 'Unknown', '', 'ScaledObject check in progress'), cond('Active', 'Unknown'), cond('Fallback', 'Unknown')] }),
        status: 'InProgress',
      },
      {
        // controllers/keda/scaledobject_controller.go: the check fails, the error is returned and retried
        state: 'the scale target does not exist yet (created in the same deploy): waits',
        obj: so({
          conditions: [
            cond(
              'Ready',
              'False',
              'ScaledObjectCheckFailed',
              'ScaledObject doesn\'t have correct scaleTargetRef specification: deployments.apps "worker" not found',
            ),
            cond('Active', 'Unknown', 'UnknownState', 'ScaledObject check failed'),
          ],
        }),
        status: 'InProgress',
        message: /"worker" not found/,
      },
      {
        // pkg/scaling/executor/scale_scaledobjects.go, every polling interval
        state: 'every trigger fails (the metrics source is not up yet): waits',
        obj: so({ conditions: [cond('Ready', 'False', 'TriggerError', 'Triggers defined in ScaledObject are not working correctly')] }),
        status: 'InProgress',
      },
      {
        state: 'invalid replica counts',
        obj: so({
          conditions: [
            cond(
              'Ready',
              'False',
              'ScaledObjectCheckFailed',
              "ScaledObject doesn't have correct Idle/Min/Max Replica Counts specification: MinReplicaCount=5 must be less than MaxReplicaCount=2",
            ),
          ],
        }),
        status: 'Failed',
        message: /MinReplicaCount=5/,
      },
      {
        state: 'invalid triggers',
        obj: so({
          conditions: [
            cond('Ready', 'False', 'ScaledObjectCheckFailed', "ScaledObject doesn't have correct triggers specification: triggers: no triggers defined"),
          ],
        }),
        status: 'Failed',
      },
      {
        // pkg/fallback/fallback.go
        state: 'fallback active (the scaler’s source fails, KEDA uses the fallback count): waits',
        obj: so({
          conditions: [
            cond('Ready', 'True', 'ScaledObjectReady', 'ok'),
            cond('Active', 'False', 'ScalerNotActive', 'Scaling is not performed because triggers are not active'),
            cond('Fallback', 'True', 'FallbackExists', 'At least one trigger is falling back on this scaled object'),
          ],
        }),
        status: 'InProgress',
        message: 'At least one trigger is falling back on this scaled object',
      },
      { state: 'no status', obj: so(), status: 'InProgress', message: WAITING_FOR_CONTROLLER },
    ];
  })(),
  'builtin:knative-service': (() => {
    const ksvc = (status?: unknown) =>
      object('serving.knative.dev/v1', 'Service', status, { spec: { template: { spec: { containers: [{ image: 'ghcr.io/example/hello:1.0' }] } } } });
    const all = (s: string, reason = '', message = '') => [
      cond('ConfigurationsReady', s, reason, message),
      cond('Ready', s, reason, message),
      cond('RoutesReady', s, reason, message),
    ];
    return [
      {
        state: 'ready',
        obj: ksvc({ observedGeneration: 2, url: 'https://hello.prod.example.com', latestReadyRevisionName: 'hello-00002', conditions: all('True') }),
        status: 'Current',
      },
      {
        state: 'Ready=True but routes lag',
        obj: ksvc({
          observedGeneration: 2,
          conditions: [
            cond('ConfigurationsReady', 'True'),
            cond('Ready', 'True'),
            cond('RoutesReady', 'Unknown', 'IngressNotConfigured', 'Ingress has not yet been reconciled.'),
          ],
        }),
        status: 'InProgress',
      },
      {
        state: 'progressing',
        obj: ksvc({ observedGeneration: 2, conditions: all('Unknown', 'RevisionMissing', 'Configuration "hello" is waiting for a Revision to become ready.') }),
        status: 'InProgress',
      },
      {
        state: 'failed revision',
        obj: ksvc({
          observedGeneration: 2,
          conditions: all(
            'False',
            'RevisionFailed',
            'Revision "hello-00002" failed with message: Unable to fetch image "ghcr.io/example/hello:1.0": failed to resolve image to digest.',
          ),
        }),
        status: 'Failed',
        message: /Unable to fetch image/,
      },
      {
        // pkg/reconciler/revision/reconcile_resources.go marks ContainerHealthy=False at once and back to True
        // when a pod becomes ready; configuration.go passes it on as RevisionFailed
        state: 'a container exited before its first ready pod: waits',
        obj: ksvc({
          observedGeneration: 2,
          conditions: all(
            'False',
            'RevisionFailed',
            'Revision "hello-00002" failed with message: Container failed with: dial tcp 10.0.0.7:5432: connect: connection refused.',
          ),
        }),
        status: 'InProgress',
        message: /connection refused/,
      },
      {
        state: 'a pod the scheduler cannot place yet (a node is being added): waits',
        obj: ksvc({
          observedGeneration: 2,
          conditions: all('False', 'RevisionFailed', 'Revision "hello-00002" failed with message: 0/3 nodes are available: 3 Insufficient cpu.'),
        }),
        status: 'InProgress',
      },
      {
        state: 'the progress deadline passed',
        obj: ksvc({
          observedGeneration: 2,
          conditions: all('False', 'RevisionFailed', 'Revision "hello-00002" failed with message: Initial scale was never achieved.'),
        }),
        status: 'Failed',
      },
      { state: 'no status', obj: ksvc(), status: 'InProgress', message: WAITING_FOR_CONTROLLER },
    ];
  })(),
  ...Object.fromEntries(
    (['Prometheus', 'Alertmanager'] as const).map((kind) => {
      const p = (status?: unknown) => object('monitoring.coreos.com/v1', kind, status, { spec: { replicas: 2 } });
      return [
        `builtin:prometheus-operator-${kind.toLowerCase()}`,
        [
          {
            state: 'available and reconciled',
            obj: p({
              availableReplicas: 2,
              replicas: 2,
              updatedReplicas: 2,
              conditions: [cond('Available', 'True', '', '', { observedGeneration: 2 }), cond('Reconciled', 'True', '', '', { observedGeneration: 2 })],
            }),
            status: 'Current',
          },
          {
            // the status worker stamps the generation it read; the sync has not rolled the StatefulSet yet
            state: 'new generation stamped, pods not yet on the StatefulSet’s update revision',
            obj: p({
              availableReplicas: 2,
              replicas: 2,
              updatedReplicas: 0,
              conditions: [cond('Available', 'True', '', '', { observedGeneration: 2 }), cond('Reconciled', 'True', '', '', { observedGeneration: 2 })],
            }),
            status: 'InProgress',
          },
          {
            state: 'paused (no action taken)',
            obj: {
              ...p({
                paused: true,
                availableReplicas: 2,
                replicas: 2,
                updatedReplicas: 2,
                conditions: [cond('Available', 'True', '', '', { observedGeneration: 2 }), cond('Reconciled', 'True', '', '', { observedGeneration: 2 })],
              }),
              spec: { replicas: 2, paused: true },
            },
            status: 'InProgress',
          },
          {
            state: 'pods starting (Available=False)',
            obj: p({
              availableReplicas: 0,
              conditions: [
                cond('Available', 'False', 'NoPodReady', 'shard 0: pod prometheus-main-0: containers with incomplete status: [init-config-reloader]', {
                  observedGeneration: 2,
                }),
                cond('Reconciled', 'True', '', '', { observedGeneration: 2 }),
              ],
            }),
            status: 'InProgress',
            message: /incomplete status/,
          },
          {
            state: 'degraded (some pods not ready)',
            obj: p({
              conditions: [
                cond('Available', 'Degraded', 'SomePodsNotReady', 'shard 0: pod prometheus-main-1: not ready', { observedGeneration: 2 }),
                cond('Reconciled', 'True', '', '', { observedGeneration: 2 }),
              ],
            }),
            status: 'InProgress',
          },
          {
            state: 'older generation',
            obj: p({
              conditions: [cond('Available', 'True', '', '', { observedGeneration: 1 }), cond('Reconciled', 'True', '', '', { observedGeneration: 1 })],
            }),
            status: 'InProgress',
          },
          {
            // pkg/operator/resource_reconciler.go requeues every sync error (AddRateLimited)
            state: 'a sync error (a Secret the new spec references, created in the same deploy): waits with the error',
            obj: p({
              replicas: 2,
              updatedReplicas: 2,
              availableReplicas: 2,
              conditions: [
                cond('Available', 'True', '', '', { observedGeneration: 2 }),
                cond('Reconciled', 'False', 'ReconciliationFailed', 'failed to get basic auth credentials: secrets "remote-write-auth" not found', {
                  observedGeneration: 2,
                }),
              ],
            }),
            status: 'InProgress',
            message: /remote-write-auth/,
          },
          {
            // Both at once (pods not ready after the failed sync): the message is the error, not the plain state
            state: 'a sync error while no pod is available: waits with the error, not with Available’s message',
            obj: p({
              replicas: 2,
              updatedReplicas: 2,
              conditions: [
                cond('Available', 'False', 'NoPodReady', '2/2 pods are not ready', { observedGeneration: 2 }),
                cond('Reconciled', 'False', 'ReconciliationFailed', 'failed to get basic auth credentials: secrets "remote-write-auth" not found', {
                  observedGeneration: 2,
                }),
              ],
            }),
            status: 'InProgress',
            message: 'failed to get basic auth credentials: secrets "remote-write-auth" not found',
          },
          { state: 'no status', obj: p(), status: 'InProgress', message: WAITING_FOR_CONTROLLER },
        ] satisfies Case[],
      ];
    }),
  ),
  'builtin:cluster-api-cluster': (() => {
    const cluster = (status?: unknown, paused = false) =>
      object('cluster.x-k8s.io/v1beta1', 'Cluster', status, {
        spec: { paused, controlPlaneRef: { kind: 'KubeadmControlPlane', name: 'prod-cp' }, infrastructureRef: { kind: 'AWSCluster', name: 'prod' } },
      });
    return [
      {
        state: 'provisioned and ready',
        obj: cluster({
          phase: 'Provisioned',
          observedGeneration: 2,
          controlPlaneReady: true,
          infrastructureReady: true,
          conditions: [cond('Ready', 'True'), cond('ControlPlaneReady', 'True'), cond('InfrastructureReady', 'True')],
        }),
        status: 'Current',
      },
      {
        state: 'provisioning',
        obj: cluster({
          phase: 'Provisioning',
          observedGeneration: 2,
          conditions: [
            cond('Ready', 'False', 'WaitingForControlPlane', 'Waiting for control plane provider to indicate the control plane has been initialized', {
              severity: 'Info',
            }),
          ],
        }),
        status: 'InProgress',
        message: /phase Provisioning: Waiting for control plane/,
      },
      { state: 'paused', obj: cluster({ phase: 'Provisioned', observedGeneration: 2, conditions: [cond('Ready', 'True')] }, true), status: 'InProgress' },
      {
        // core/reconcilers/topology/cluster/status.go writes severity Error for a topology it retries
        state: 'Ready=False of severity Error that Cluster API retries: waits',
        obj: cluster({
          phase: 'Provisioned',
          observedGeneration: 2,
          conditions: [
            cond('Ready', 'False', 'TopologyReconcileFailed', 'error reconciling the Cluster topology: admission webhook denied', { severity: 'Error' }),
          ],
        }),
        status: 'InProgress',
      },
      {
        state: 'v1beta2: available, machines being replaced (RollingOut=True)',
        obj: object(
          'cluster.x-k8s.io/v1beta2',
          'Cluster',
          {
            phase: 'Provisioned',
            observedGeneration: 2,
            conditions: [
              cond('Available', 'True', 'Available', '', { observedGeneration: 2 }),
              cond('RollingOut', 'True', 'RollingOut', '* MachineDeployment prod-md-0: Rolling out 1 not up-to-date replicas', { observedGeneration: 2 }),
            ],
          },
          { spec: { paused: false } },
        ),
        status: 'InProgress',
      },
      {
        state: 'failed phase',
        obj: cluster({
          phase: 'Failed',
          observedGeneration: 2,
          failureReason: 'InvalidConfiguration',
          failureMessage: 'VPC not found',
          conditions: [cond('Ready', 'False', 'InfrastructureProvisionFailed', 'VPC vpc-0a1b not found', { severity: 'Error' })],
        }),
        status: 'Failed',
        message: /VPC vpc-0a1b not found/,
      },
      { state: 'no status', obj: cluster(), status: 'InProgress', message: WAITING_FOR_CONTROLLER },
    ];
  })(),
  'builtin:cluster-api-machinedeployment': (() => {
    const md = (status?: unknown) => object('cluster.x-k8s.io/v1beta1', 'MachineDeployment', status, { spec: { clusterName: 'prod', replicas: 3 } });
    return [
      {
        state: 'running',
        obj: md({
          phase: 'Running',
          observedGeneration: 2,
          replicas: 3,
          readyReplicas: 3,
          updatedReplicas: 3,
          availableReplicas: 3,
          conditions: [cond('Ready', 'True'), cond('Available', 'True')],
        }),
        status: 'Current',
      },
      {
        // setPhase (core/reconcilers/machinedeployment/machinedeployment_status.go) counts machines only
        state: 'v1beta1: template changed, phase Running on the old machines (updatedReplicas 1 of 3)',
        obj: md({
          phase: 'Running',
          observedGeneration: 2,
          replicas: 3,
          readyReplicas: 3,
          updatedReplicas: 1,
          availableReplicas: 3,
          conditions: [cond('Ready', 'True'), cond('Available', 'True')],
        }),
        status: 'InProgress',
      },
      {
        state: 'v1beta2: template changed, rolling out',
        obj: object(
          'cluster.x-k8s.io/v1beta2',
          'MachineDeployment',
          {
            phase: 'Running',
            observedGeneration: 2,
            replicas: 3,
            readyReplicas: 3,
            availableReplicas: 3,
            upToDateReplicas: 1,
            conditions: [
              cond('Available', 'True', 'Available', '', { observedGeneration: 2 }),
              cond('RollingOut', 'True', 'RollingOut', 'Rolling out 2 not up-to-date replicas', { observedGeneration: 2 }),
            ],
          },
          { spec: { clusterName: 'prod', replicas: 3 } },
        ),
        status: 'InProgress',
      },
      {
        // machineset_controller.go: preflight checks wait for the control plane upgrade, severity Error
        state: 'MachineSet preflight checks failed (severity Error, retried): waits',
        obj: md({
          phase: 'Running',
          observedGeneration: 2,
          replicas: 3,
          updatedReplicas: 3,
          conditions: [
            cond(
              'Ready',
              'False',
              'PreflightCheckFailed',
              'MachineSet prod-md-0-x: KubeadmControlPlane prod-cp is upgrading (ControlPlaneIsStable preflight check failed)',
              {
                severity: 'Error',
              },
            ),
          ],
        }),
        status: 'InProgress',
      },
      {
        state: 'scaling up',
        obj: md({
          phase: 'ScalingUp',
          observedGeneration: 2,
          replicas: 3,
          readyReplicas: 1,
          conditions: [
            cond('Ready', 'False', 'WaitingForAvailableMachines', 'Minimum availability requires 2 replicas, current 1 available', { severity: 'Warning' }),
          ],
        }),
        status: 'InProgress',
      },
      {
        state: 'failed',
        obj: md({
          phase: 'Failed',
          observedGeneration: 2,
          conditions: [cond('Ready', 'False', 'MachineSetFailed', 'machine bootstrap failed', { severity: 'Error' })],
        }),
        status: 'Failed',
      },
      { state: 'no status', obj: md(), status: 'InProgress', message: WAITING_FOR_CONTROLLER },
    ];
  })(),
  // CloudNativePG: the phases of api/v1/cluster_types.go, written with their phaseReason by RegisterPhase
  // (internal/controller/cluster_status.go); Ready follows the phase (pkg/resources/status/transactions.go,
  // no observedGeneration); instances and readyInstances are counted in
  // pkg/reconciler/persistentvolumeclaim/status.go.
  'builtin:cloudnative-pg-cluster': (() => {
    const pg = (status?: unknown, instances = 3) => object('postgresql.cnpg.io/v1', 'Cluster', status, { spec: { instances, storage: { size: '10Gi' } } });
    const ready = cond('Ready', 'True', 'ClusterIsReady', 'Cluster is Ready');
    const notReady = cond('Ready', 'False', 'ClusterIsNotReady', 'Cluster Is Not Ready');
    const healthy = (count: number) => ({
      phase: 'Cluster in healthy state',
      instances: count,
      readyInstances: count,
      currentPrimary: 'pg-1',
      conditions: [ready, cond('ContinuousArchiving', 'True', 'ContinuousArchivingSuccess', 'Continuous archiving is working')],
    });
    return [
      { state: 'healthy', obj: pg(healthy(3)), status: 'Current' },
      { state: 'spec.instances 3 -> 4: the old healthy phase with 3 instances waits', obj: pg(healthy(3), 4), status: 'InProgress' },
      {
        state: 'spec.instances 3 -> 4: creating the replica',
        obj: pg({ ...healthy(3), instances: 4, phase: 'Creating a new replica', phaseReason: 'Creating replica pg-4-join', conditions: [notReady] }, 4),
        status: 'InProgress',
        message: 'phase Creating a new replica: Creating replica pg-4-join',
      },
      { state: 'spec.instances 3 -> 4: the replica is up, not yet ready', obj: pg({ ...healthy(4), readyInstances: 3 }, 4), status: 'InProgress' },
      { state: 'spec.instances 3 -> 4: done', obj: pg(healthy(4), 4), status: 'Current' },
      {
        state: 'setting up primary',
        obj: pg({ phase: 'Setting up primary', phaseReason: 'Creating primary instance pg-1', instances: 1, conditions: [notReady] }),
        status: 'InProgress',
        message: 'phase Setting up primary: Creating primary instance pg-1',
      },
      {
        state: 'switchover in progress',
        obj: pg({ phase: 'Switchover in progress', phaseReason: 'Switching over to pg-2', conditions: [notReady] }),
        status: 'InProgress',
        message: 'phase Switchover in progress: Switching over to pg-2',
      },
      {
        state: 'a plugin error (retried every 15 s) waits',
        obj: pg({
          phase: 'Cluster cannot proceed to reconciliation due to an error while interacting with plugins',
          phaseReason: 'Error while discovering plugins: context deadline exceeded',
          conditions: [notReady],
        }),
        status: 'InProgress',
      },
      {
        state: 'invalid cluster definition (SetAdmissionError)',
        obj: pg({
          phase: 'Invalid cluster definition',
          phaseReason: 'spec.postgresql.parameters.wal_level: Invalid value: "minimal": wal_level minimal is not supported with more than one instance',
          conditions: [notReady],
        }),
        status: 'Failed',
        message:
          'phase Invalid cluster definition: spec.postgresql.parameters.wal_level: Invalid value: "minimal": wal_level minimal is not supported with more than one instance',
      },
      {
        state: 'unknown plugin',
        obj: pg({
          phase: 'Cluster cannot proceed to reconciliation due to an unknown plugin being required',
          phaseReason:
            "Unknown plugin: 'barman-cloud.cloudnative-pg.io'. This may be caused by the plugin not being loaded correctly by the operator. Check the operator and plugin logs for errors",
          conditions: [notReady],
        }),
        status: 'Failed',
        message: /Unknown plugin: 'barman-cloud\.cloudnative-pg\.io'/,
      },
      {
        state: 'unable to create required cluster objects',
        obj: pg({ phase: 'Unable to create required cluster objects', phaseReason: 'secrets "pg-app" is forbidden: exceeded quota', conditions: [notReady] }),
        status: 'Failed',
        message: 'phase Unable to create required cluster objects: secrets "pg-app" is forbidden: exceeded quota',
      },
      {
        state: 'supervised rolling update waits for a person',
        obj: pg({ phase: 'Waiting for user action', phaseReason: 'User must issue a supervised switchover', conditions: [notReady] }),
        status: 'Failed',
        message: 'phase Waiting for user action: User must issue a supervised switchover',
      },
      {
        state: 'not enough disk space',
        obj: pg({
          phase: 'Not enough disk space',
          phaseReason: 'Insufficient disk space detected in one or more pods is preventing PostgreSQL from running.',
          conditions: [notReady],
        }),
        status: 'Failed',
      },
      {
        state: 'hibernated (no pods)',
        obj: pg({
          phase: 'Cluster in healthy state',
          conditions: [ready, cond('cnpg.io/hibernation', 'True', 'Hibernated', 'Cluster has been hibernated')],
        }),
        status: 'Current',
      },
      { state: 'no status', obj: pg(), status: 'InProgress', message: WAITING_FOR_CONTROLLER },
    ];
  })(),
  ...Object.fromEntries(
    (['NodePool', 'NodeClaim'] as const).map((kind) => {
      const k = (status?: unknown) =>
        object('karpenter.sh/v1', kind, status, {
          spec:
            kind === 'NodePool'
              ? { template: { spec: { nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' } } } }
              : { nodeClassRef: { name: 'default' } },
        });
      return [
        `builtin:karpenter-${kind.toLowerCase()}`,
        [
          { state: 'ready', obj: k({ conditions: [cond('Ready', 'True', 'Ready', '', { observedGeneration: 2 })] }), status: 'Current' },
          {
            state: 'progressing',
            obj: k({ conditions: [cond('Ready', 'Unknown', 'AwaitingReconciliation', 'object is awaiting reconciliation', { observedGeneration: 2 })] }),
            status: 'InProgress',
          },
          ...(kind === 'NodePool'
            ? [
                {
                  // pkg/controllers/nodepool/readiness/controller.go, re-evaluated when the NodeClass changes
                  state: 'the NodeClass is not there yet (created in the same deploy): waits',
                  obj: k({
                    conditions: [
                      cond('ValidationSucceeded', 'True', 'ValidationSucceeded', '', { observedGeneration: 2 }),
                      cond('NodeClassReady', 'False', 'NodeClassNotFound', 'NodeClass not found on cluster', { observedGeneration: 2 }),
                      // operatorpkg status/condition_set.go recomputeRootCondition
                      cond('Ready', 'False', 'UnhealthyDependents', 'NodeClassReady=False', { observedGeneration: 2 }),
                    ],
                  }),
                  status: 'InProgress' as const,
                  message: 'NodeClassReady=False',
                },
                {
                  state: 'Ready=True written for an older generation',
                  obj: k({ conditions: [cond('Ready', 'True', 'Ready', '', { observedGeneration: 1 })] }),
                  status: 'InProgress' as const,
                },
                {
                  // pkg/controllers/nodepool/validation/controller.go
                  state: 'validation failed',
                  obj: k({
                    conditions: [
                      cond(
                        'ValidationSucceeded',
                        'False',
                        'NodePoolValidationFailed',
                        'invalid value: requirements with operator In must have a value defined',
                        {
                          observedGeneration: 2,
                        },
                      ),
                      cond('Ready', 'False', 'UnhealthyDependents', 'ValidationSucceeded=False', { observedGeneration: 2 }),
                    ],
                  }),
                  status: 'Failed' as const,
                  message: /requirements with operator In/,
                },
              ]
            : [
                {
                  // pkg/controllers/nodeclaim/lifecycle/registration.go
                  state: 'invariant violated (Registered=False MultipleNodesFound)',
                  obj: k({
                    conditions: [
                      cond('Registered', 'False', 'MultipleNodesFound', 'Invariant violated, matched multiple nodes', { observedGeneration: 2 }),
                      cond('Ready', 'False', 'UnhealthyDependents', 'Registered=False', { observedGeneration: 2 }),
                    ],
                  }),
                  status: 'Failed' as const,
                  message: 'Invariant violated, matched multiple nodes',
                },
                {
                  // launch.go keeps a failed launch Unknown and retries
                  state: 'launch failed, retried (Launched=Unknown LaunchFailed)',
                  obj: k({
                    conditions: [
                      cond('Launched', 'Unknown', 'LaunchFailed', 'creating instance, insufficient capacity', { observedGeneration: 2 }),
                      cond('Ready', 'Unknown', 'ReconcilingDependents', 'Launched=Unknown', { observedGeneration: 2 }),
                    ],
                  }),
                  status: 'InProgress' as const,
                },
              ]),
          { state: 'no status', obj: k(), status: 'InProgress', message: WAITING_FOR_CONTROLLER },
        ] satisfies Case[],
      ];
    }),
  ),
  'builtin:strimzi-kafka': (() => {
    const kafka = (status?: unknown) => object('kafka.strimzi.io/v1beta2', 'Kafka', status, { spec: { kafka: { version: '3.8.0', replicas: 3 } } });
    return [
      { state: 'ready', obj: kafka({ observedGeneration: 2, clusterId: 'x', conditions: [cond('Ready', 'True')] }), status: 'Current' },
      {
        state: 'creating',
        obj: kafka({ observedGeneration: 2, conditions: [cond('NotReady', 'True', 'Creating', 'Kafka cluster is being deployed')] }),
        status: 'InProgress',
      },
      {
        state: 'failed',
        obj: kafka({ observedGeneration: 2, conditions: [cond('NotReady', 'True', 'InvalidResourceException', 'Kafka version 9.9.9 is not supported')] }),
        status: 'Failed',
        message: /not supported/,
      },
      {
        state: 'unsupported Kafka version (a subclass of InvalidResourceException)',
        obj: kafka({
          observedGeneration: 2,
          conditions: [cond('NotReady', 'True', 'UnsupportedKafkaVersionException', 'Unsupported Kafka.spec.kafka.version: 2.0.0')],
        }),
        status: 'Failed',
      },
      {
        // retried at the next periodic reconciliation (AbstractOperator); pods may still come up
        state: 'a timeout waiting for pods: waits',
        obj: kafka({
          observedGeneration: 2,
          conditions: [
            cond(
              'NotReady',
              'True',
              'StrimziTimeoutException',
              'Exceeded timeout of 300000ms while waiting for Pods resource my-cluster-broker-0 in namespace prod to be ready',
            ),
          ],
        }),
        status: 'InProgress',
        message: /Exceeded timeout/,
      },
      {
        state: 'the lock is held by another reconciliation: waits',
        obj: kafka({
          observedGeneration: 2,
          conditions: [cond('NotReady', 'True', 'UnableToAcquireLockException', 'Failed to acquire lock lock::prod::Kafka::my-cluster within 10000ms.')],
        }),
        status: 'InProgress',
      },
      { state: 'no status', obj: kafka(), status: 'InProgress', message: WAITING_FOR_CONTROLLER },
    ];
  })(),
};

describe.each(Object.entries(TABLE))('%s', (id, cases) => {
  test.each(cases)('$state: $status', ({ obj, status, message }) => {
    const rule = rules.ruleFor(obj.apiVersion, obj.kind);
    expect(rule?.id).toBe(id);
    if (!rule) return;
    const result = evaluateHealth(rule, obj);
    expect(result.status).toBe(status);
    expect(result.evaluationWarning).toBeUndefined(); // built-in rules never trip over a missing field
    if (message instanceof RegExp) expect(result.message).toMatch(message);
    else if (message !== undefined) expect(result.message).toBe(message);
  });
});

describe('the library', () => {
  test('every built-in rule has table cases in every state, including no status', () => {
    for (const rule of builtinRules()) {
      const cases = TABLE[rule.id] ?? [];
      expect({
        id: rule.id,
        // A rule whose controller writes nothing final (every failure retried) has no failed expression.
        states: new Set(cases.map((c) => c.status)).size >= 2 && (rule.failed === undefined || cases.some((c) => c.status === 'Failed')),
        noStatus: cases.some((c) => c.message === WAITING_FOR_CONTROLLER),
      }).toEqual({ id: rule.id, states: true, noStatus: true });
    }
  });

  test('the embedded copy in src/ matches rules/builtin.yaml (run `npm run rules` after editing it)', () => {
    expect(embeddedSource(readFileSync(RULES_FILE, 'utf8'))).toBe(embeddedSource(BUILTIN_RULES_YAML));
  });

  test('names are unique and every rule is reported as builtin:<name>', () => {
    const ids = builtinRules().map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^builtin:[a-z0-9-]+$/);
  });
});
