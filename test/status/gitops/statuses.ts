/**
 * The statuses Flux and Argo CD write, step by step, for the table tests and the end-to-end tests that play
 * the controllers. Each follows its controller's code (the messages are the format strings there):
 * - kustomize-controller internal/controller/kustomization_controller.go (reconcile, checkHealth,
 *   finalizeStatus), with fluxcd/pkg runtime/conditions stamping each condition with the generation;
 * - helm-controller internal/reconcile/atomic_release.go, release.go (summarize), api/v2 (Snapshot);
 * - argo-cd pkg/apis/application/v1alpha1/types.go (ApplicationStatus, OperationState), controller/appcontroller.go.
 */
export const OLD_SHA = '9f8e7d6c5b4a39281706f5e4d3c2b1a098765432';
export const NEW_SHA = 'abc1234def5678901234567890abcdef01234567';
export const OLD = `main@sha1:${OLD_SHA}`;
export const NEW = `main@sha1:${NEW_SHA}`;
const AT = '2026-12-03T08:00:00Z';
const TIMEOUT = '4m30s';

const condition = (type: string, status: string, reason: string, message: string, generation = 1) => ({
  type,
  status,
  reason,
  message,
  observedGeneration: generation,
  lastTransitionTime: AT,
});

/** kustomize-controller's progress message before the step each reason comes from. */
const STEP_OF: Record<string, string> = { BuildFailed: 'Building manifests', HealthCheckFailed: 'Running health checks', ArtifactFailed: 'Fetching manifests' };

const inventory = {
  entries: [
    { id: 'shop_api_apps_Deployment', v: 'v1' },
    { id: 'shop_api__Service', v: 'v1' },
  ],
};

/** fluxcd/pkg apis/meta Snapshot, as History.Upsert writes it (newest first), for the digest of a build of `revision`. */
const fluxSnapshot = (revision: string, lastReconciledStatus: string) => ({
  digest: `sha256:${revision.slice(-40).padEnd(64, '0')}`,
  firstReconciled: AT,
  lastReconciled: AT,
  lastReconciledDuration: '1.234s',
  lastReconciledStatus,
  totalReconciliations: 1,
  metadata: { revision },
});

/** The inventory after a commit that added a Deployment `web` and removed the Service (pruned). */
const nextInventory = {
  entries: [
    { id: 'shop_api_apps_Deployment', v: 'v1' },
    { id: 'shop_web_apps_Deployment', v: 'v1' },
  ],
};

/** A Kustomization `apps` in flux-system (generation 1), its status at each step of a reconciliation. */
export const kustomization = {
  object: (status?: object, generation = 1) => ({
    apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
    kind: 'Kustomization',
    metadata: { name: 'apps', namespace: 'flux-system', generation },
    spec: { interval: '5m', path: './apps', prune: true, wait: true, timeout: '5m', sourceRef: { kind: 'GitRepository', name: 'flux-system' } },
    ...(status ? { status } : {}),
  }),
  /** Applied and healthy at `revision` (finalizeStatus removed Reconciling and set observedGeneration). */
  ready: (revision: string) => ({
    observedGeneration: 1,
    lastAppliedRevision: revision,
    lastAttemptedRevision: revision,
    inventory,
    conditions: [
      condition('Ready', 'True', 'ReconciliationSucceeded', `Applied revision: ${revision}`),
      condition('Healthy', 'True', 'Succeeded', 'Health check passed in 2.01s'),
    ],
  }),
  /** A new source revision arrived: fetching it (lastAttemptedRevision is still the old one). */
  fetching: (applied: string, revision: string) => ({
    observedGeneration: 1,
    lastAppliedRevision: applied,
    lastAttemptedRevision: applied,
    inventory,
    conditions: [
      condition('Reconciling', 'True', 'Progressing', `Fetching manifests for revision ${revision} with a timeout of ${TIMEOUT}`),
      condition('Ready', 'Unknown', 'Progressing', 'Reconciliation in progress'),
      condition('Healthy', 'True', 'Succeeded', 'Health check passed in 2.01s'),
    ],
  }),
  /** Applied, running the health checks of `revision`. */
  checkingHealth: (applied: string, revision: string) => ({
    observedGeneration: 1,
    lastAppliedRevision: applied,
    lastAttemptedRevision: revision,
    inventory,
    conditions: [
      condition('Reconciling', 'True', 'Progressing', `Running health checks for revision ${revision} with a timeout of ${TIMEOUT}`),
      condition('Ready', 'Unknown', 'Progressing', 'Reconciliation in progress'),
      condition('Healthy', 'Unknown', 'Progressing', `Running health checks for revision ${revision} with a timeout of ${TIMEOUT}`),
    ],
  }),
  /**
   * The steps of kustomize-controller v1.9.6 from `applied` to `revision` as the real controller writes them, each
   * status patch two writes, the conditions first (fluxcd/pkg runtime/patch): lastAttemptedRevision at "Building
   * manifests", before anything is applied; the new inventory only in the write after the "Running health checks"
   * conditions; Ready=True "Applied revision" a write before lastAppliedRevision, observedGeneration, the
   * inventory (without health checks) and the history. `first`: a first deploy (no inventory before).
   */
  real: (applied: string, revision: string, first = false) => {
    const before = first
      ? {}
      : { lastAppliedRevision: applied, lastAttemptedRevision: applied, inventory, history: [fluxSnapshot(applied, 'ReconciliationSucceeded')] };
    const reconciling = (step: string, healthy = condition('Healthy', 'True', 'Succeeded', 'Health check passed in 2.01s')) => [
      condition('Reconciling', 'True', 'Progressing', `${step} for revision ${revision} with a timeout of ${TIMEOUT}`),
      condition('Ready', 'Unknown', 'Progressing', 'Reconciliation in progress'),
      ...(first ? [] : [healthy]),
    ];
    const checking = `Running health checks for revision ${revision} with a timeout of ${TIMEOUT}`;
    const healthConditions = [
      condition('Reconciling', 'True', 'Progressing', checking),
      condition('Ready', 'Unknown', 'Progressing', 'Reconciliation in progress'),
      condition('Healthy', 'Unknown', 'Progressing', checking),
    ];
    const appliedConditions = [
      condition('Ready', 'True', 'ReconciliationSucceeded', `Applied revision: ${revision}`),
      condition('Healthy', 'True', 'Succeeded', 'Health check passed in 40.12ms'),
    ];
    return {
      fetching: { ...before, observedGeneration: 1, conditions: reconciling('Fetching manifests') },
      building: { ...before, observedGeneration: 1, lastAttemptedRevision: revision, conditions: reconciling('Building manifests') },
      drift: { ...before, observedGeneration: 1, lastAttemptedRevision: revision, conditions: reconciling('Detecting drift') },
      /** The health-check conditions written, the inventory not yet (about 40 ms). */
      healthConditions: { ...before, observedGeneration: 1, lastAttemptedRevision: revision, conditions: healthConditions },
      /** The write after: the new inventory. */
      healthInventory: { ...before, observedGeneration: 1, lastAttemptedRevision: revision, inventory: nextInventory, conditions: healthConditions },
      /** Ready=True for `revision` written, lastAppliedRevision and the rest not yet. */
      appliedConditions: { ...before, observedGeneration: 1, lastAttemptedRevision: revision, inventory: nextInventory, conditions: appliedConditions },
      applied: {
        observedGeneration: 1,
        lastAppliedRevision: revision,
        lastAttemptedRevision: revision,
        inventory: nextInventory,
        history: [fluxSnapshot(revision, 'ReconciliationSucceeded'), ...(first ? [] : [fluxSnapshot(applied, 'ReconciliationSucceeded')])],
        conditions: appliedConditions,
      },
      /** Without `wait` and health checks, the conditions of the final write come with the previous inventory (or none). */
      appliedConditionsNoWait: { ...before, observedGeneration: 1, lastAttemptedRevision: revision, conditions: appliedConditions },
      /** The health checks of `revision` failed: the new inventory kept, the history says so, Healthy of the last success is gone. */
      healthFailed: {
        ...before,
        observedGeneration: 1,
        lastAttemptedRevision: revision,
        inventory: nextInventory,
        history: [fluxSnapshot(revision, 'HealthCheckFailed'), ...(first ? [] : [fluxSnapshot(applied, 'ReconciliationSucceeded')])],
        conditions: [
          condition('Reconciling', 'True', 'ProgressingWithRetry', checking),
          condition('Ready', 'False', 'HealthCheckFailed', HEALTH_CHECK_FAILED),
          condition('Healthy', 'False', 'HealthCheckFailed', HEALTH_CHECK_FAILED),
        ],
      },
      /** The build of `revision` failed (after lastAttemptedRevision): the previous inventory stays. */
      buildFailed: {
        ...before,
        observedGeneration: 1,
        lastAttemptedRevision: revision,
        conditions: [
          condition('Reconciling', 'True', 'ProgressingWithRetry', `Building manifests for revision ${revision} with a timeout of ${TIMEOUT}`),
          condition('Ready', 'False', 'BuildFailed', BUILD_FAILED),
          ...(first ? [] : [condition('Healthy', 'True', 'Succeeded', 'Health check passed in 2.01s')]),
        ],
      },
      /** spec.path is not in `revision`: ArtifactFailed before lastAttemptedRevision is written. */
      pathNotFound: {
        ...before,
        observedGeneration: 1,
        conditions: [
          condition('Reconciling', 'True', 'ProgressingWithRetry', `Fetching manifests for revision ${revision} with a timeout of ${TIMEOUT}`),
          condition('Ready', 'False', 'ArtifactFailed', PATH_NOT_FOUND),
          ...(first ? [] : [condition('Healthy', 'True', 'Succeeded', 'Health check passed in 2.01s')]),
        ],
      },
    };
  },
  /** A dependency (spec.dependsOn) is not ready: checked before any step, nothing attempted. */
  dependencyNotReady: (applied: string) => ({
    observedGeneration: 1,
    lastAppliedRevision: applied,
    lastAttemptedRevision: applied,
    inventory,
    conditions: [condition('Ready', 'False', 'DependencyNotReady', DEPENDENCY_NOT_READY)],
  }),
  /** `reason` failed for `revision`; finalizeStatus turned Reconciling into ProgressingWithRetry. */
  failed: (applied: string, revision: string, reason: string, message: string) => ({
    observedGeneration: 1,
    lastAppliedRevision: applied,
    lastAttemptedRevision: revision,
    inventory,
    // A failed health check (or apply, prune) is recorded with the revision's build; a build failure is not.
    history: [
      ...(['HealthCheckFailed', 'ReconciliationFailed', 'PruneFailed'].includes(reason) ? [fluxSnapshot(revision, reason)] : []),
      fluxSnapshot(applied, 'ReconciliationSucceeded'),
    ],
    conditions: [
      // The last progress message of the step that failed: building, applying (drift detection) or health checks.
      condition('Reconciling', 'True', 'ProgressingWithRetry', `${STEP_OF[reason] ?? 'Detecting drift'} for revision ${revision} with a timeout of ${TIMEOUT}`),
      condition('Ready', 'False', reason, message),
      ...(reason === 'HealthCheckFailed' ? [condition('Healthy', 'False', reason, message)] : []),
    ],
  }),
};

export const PATH_NOT_FOUND = 'kustomization path not found: stat /tmp/kustomization-1838513395/apps: no such file or directory';
export const DEPENDENCY_NOT_READY = "dependency 'flux-system/infra' is not ready";
export const HEALTH_CHECK_FAILED = "health check failed after 4m30.01s: timeout waiting for: [Deployment/shop/api status: 'InProgress']";
export const BUILD_FAILED =
  "kustomize build failed: accumulating resources: accumulation err='accumulating resources from 'deployment.yaml': missing Resource metadata': must build at directory: not a valid directory";

const snapshot = (version: number, chartVersion: string, status: string) => ({
  apiVersion: 'helm.toolkit.fluxcd.io/v2',
  digest: `sha256:${String(version).repeat(64).slice(0, 64)}`,
  name: 'shop',
  namespace: 'shop',
  version,
  status,
  chartName: 'shop',
  chartVersion,
  appVersion: '1.0.0',
  configDigest: 'sha256:0d3e3a1b2c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7',
  firstDeployed: AT,
  lastDeployed: AT,
});

/** A HelmRelease `shop` in flux-system whose chart comes from Git with reconcileStrategy Revision. */
export const helmRelease = {
  object: (status?: object) => ({
    apiVersion: 'helm.toolkit.fluxcd.io/v2',
    kind: 'HelmRelease',
    metadata: { name: 'shop', namespace: 'flux-system', generation: 1 },
    spec: {
      interval: '5m',
      releaseName: 'shop',
      targetNamespace: 'shop',
      chart: { spec: { chart: './charts/shop', reconcileStrategy: 'Revision', sourceRef: { kind: 'GitRepository', name: 'flux-system' } } },
    },
    ...(status ? { status } : {}),
  }),
  /** Released chart version `version` (release summarize: Ready mirrors Released). */
  ready: (chartVersion: string, releaseVersion = 1) => ({
    observedGeneration: 1,
    lastAttemptedGeneration: 1,
    lastAttemptedRevision: chartVersion,
    lastAttemptedConfigDigest: 'sha256:0d3e3a1b2c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7',
    lastAttemptedReleaseAction: releaseVersion === 1 ? 'install' : 'upgrade',
    helmChart: 'flux-system/flux-system-shop',
    storageNamespace: 'shop',
    history: [snapshot(releaseVersion, chartVersion, 'deployed'), ...(releaseVersion > 1 ? [snapshot(releaseVersion - 1, 'x', 'superseded')] : [])],
    conditions: [
      condition(
        'Ready',
        'True',
        releaseVersion === 1 ? 'InstallSucceeded' : 'UpgradeSucceeded',
        `Helm ${releaseVersion === 1 ? 'install' : 'upgrade'} succeeded for release shop/shop.v${releaseVersion} with chart shop@${chartVersion}`,
      ),
      condition(
        'Released',
        'True',
        releaseVersion === 1 ? 'InstallSucceeded' : 'UpgradeSucceeded',
        `Helm ${releaseVersion === 1 ? 'install' : 'upgrade'} succeeded for release shop/shop.v${releaseVersion} with chart shop@${chartVersion}`,
      ),
    ],
  }),
  /** Upgrading from `released` to `chartVersion` (atomic release: Reconciling and Ready=Unknown). */
  upgrading: (released: string, chartVersion: string) => ({
    ...helmRelease.ready(released),
    lastAttemptedRevision: chartVersion,
    lastAttemptedReleaseAction: 'upgrade',
    conditions: [
      condition('Reconciling', 'True', 'Progressing', "Running 'upgrade' action with timeout of 5m0s"),
      condition('Ready', 'Unknown', 'Progressing', "Running 'upgrade' action with timeout of 5m0s"),
      condition('Released', 'True', 'InstallSucceeded', `Helm install succeeded for release shop/shop.v1 with chart shop@${released}`),
    ],
  }),
  /** The upgrade to `chartVersion` failed, no remediation (Ready mirrors Released=False). */
  upgradeFailed: (released: string, chartVersion: string) => ({
    ...helmRelease.ready(released),
    lastAttemptedRevision: chartVersion,
    lastAttemptedReleaseAction: 'upgrade',
    failures: 1,
    upgradeFailures: 1,
    history: [snapshot(2, chartVersion, 'failed'), snapshot(1, released, 'superseded')],
    conditions: [
      condition('Stalled', 'True', 'RetriesExceeded', 'Failed to upgrade after 1 attempt(s)'),
      condition('Ready', 'False', 'UpgradeFailed', `Helm upgrade failed for release shop/shop with chart shop@${chartVersion}: context deadline exceeded`),
      condition('Released', 'False', 'UpgradeFailed', `Helm upgrade failed for release shop/shop with chart shop@${chartVersion}: context deadline exceeded`),
    ],
  }),
};

/** An Argo CD Application `shop` in argocd, its workloads in shop. */
export const application = {
  object: (status?: object) => ({
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Application',
    metadata: { name: 'shop', namespace: 'argocd', generation: 7 },
    spec: {
      project: 'default',
      source: { repoURL: 'https://github.com/example/shop.git', path: 'deploy', targetRevision: 'main' },
      destination: { server: 'https://kubernetes.default.svc', namespace: 'shop' },
      syncPolicy: { automated: { prune: true, selfHeal: true } },
    },
    ...(status ? { status } : {}),
  }),
  status: (opts: { sync: string; revision: string; health: string; resourceHealth?: { status: string; message?: string }; operation?: object | null }) => ({
    sync: {
      status: opts.sync,
      revision: opts.revision,
      comparedTo: {
        source: { repoURL: 'https://github.com/example/shop.git', path: 'deploy', targetRevision: 'main' },
        destination: { server: 'https://kubernetes.default.svc', namespace: 'shop' },
      },
    },
    health: { status: opts.health, lastTransitionTime: AT },
    resources: [
      { version: 'v1', kind: 'Service', namespace: 'shop', name: 'api', status: opts.sync, health: { status: 'Healthy' } },
      {
        group: 'apps',
        version: 'v1',
        kind: 'Deployment',
        namespace: 'shop',
        name: 'api',
        status: opts.sync,
        health: opts.resourceHealth ?? { status: opts.health },
      },
    ],
    reconciledAt: AT,
    sourceType: 'Directory',
    summary: { images: ['ghcr.io/example/shop:1.4.0'] },
    ...(opts.operation === undefined ? {} : { operationState: opts.operation }),
  }),
  operation: (phase: string, revision: string, message: string, resources: object[] = []) => ({
    operation: { sync: { revision, syncStrategy: { hook: {} } }, initiatedBy: { automated: true }, retry: { limit: 5 } },
    phase,
    message,
    startedAt: AT,
    ...(phase === 'Running' ? {} : { finishedAt: AT }),
    ...(phase === 'Running'
      ? {}
      : { syncResult: { revision, resources, source: { repoURL: 'https://github.com/example/shop.git', path: 'deploy', targetRevision: 'main' } } }),
  }),
};

/** What Argo CD v3.6.2's repo server says of a file that is not YAML, as the controller writes it (captured). */
export const ARGO_UNMARSHAL_ERROR =
  'Failed to load target state: failed to generate manifest for source 1 of 1: rpc error: code = FailedPrecondition desc = ' +
  "Failed to unmarshal \"web.yaml\": failed to unmarshal manifest: error converting YAML to JSON: yaml: line 3: did not find expected ',' or '}'";

/**
 * Argo CD v3.6.2's own status writes, as test/real/argocd.test.ts captured them from the real application
 * controller, the names made the fixtures' (Application shop, workloads in shop). What they add to `application`:
 * - no health in `status.resources` (`resourceHealthSource: appTree`, the v3 default): `health.message` names
 *   the resource that decided it, "Caused by apps/Deployment:shop/web";
 * - an automated sync starts by clearing `operationState` (a write at the previous revision without it), and
 *   `Synced` at the new revision lands while the operation still runs, health Progressing;
 * - the very first write has empty `sync` and `health`;
 * - when the repo server cannot render the revision: `sync.status` Unknown at the revision *as the spec names
 *   it* (the branch `main`, or the sha when pinned), a ComparisonError, the last health kept, and every resource
 *   `requiresPruning` (nothing is wanted any more).
 */
const argoSource = { repoURL: 'https://github.com/example/shop.git', path: 'deploy', targetRevision: 'main' };
const argoDestination = { namespace: 'shop', server: 'https://kubernetes.default.svc' };
const argoOperation = (phase: 'Running' | 'Succeeded', revision: string) => ({
  operation: { initiatedBy: { automated: true }, retry: { limit: 5 }, sync: { prune: true, revision, source: argoSource } },
  phase,
  startedAt: AT,
  ...(phase === 'Succeeded'
    ? {
        finishedAt: AT,
        message: 'successfully synced (all tasks run)',
        syncResult: {
          resources: [
            {
              group: 'apps',
              hookPhase: 'Running',
              images: ['registry.example.com/web:1.0'],
              kind: 'Deployment',
              message: 'deployment.apps/web created',
              name: 'web',
              namespace: 'shop',
              status: 'Synced',
              syncPhase: 'Sync',
              version: 'v1',
            },
          ],
          revision,
          source: argoSource,
        },
      }
    : {}),
});
export const argoV3 = {
  /** The first write, before any comparison. */
  first: () => ({ health: {}, sourceHydrator: {}, summary: {}, sync: { comparedTo: { destination: {}, source: { repoURL: '' } }, status: '' } }),
  status: (opts: {
    sync: 'Synced' | 'OutOfSync' | 'Unknown';
    /** `sync.revision`: a sha, or the spec's `targetRevision` when the repo server could not render it. */
    revision: string;
    health: 'Healthy' | 'Progressing' | 'Degraded' | 'Missing';
    /** `Running`/`Succeeded` for that revision; null: cleared, as an automated sync does first. */
    operation?: { phase: 'Running' | 'Succeeded'; revision: string } | null;
    comparisonError?: string;
  }) => ({
    ...(opts.comparisonError ? { conditions: [{ lastTransitionTime: AT, message: opts.comparisonError, type: 'ComparisonError' }] } : {}),
    controllerNamespace: 'argocd',
    health: {
      lastTransitionTime: AT,
      ...(opts.health === 'Healthy' || opts.health === 'Missing' ? {} : { message: 'Caused by apps/Deployment:shop/web' }),
      status: opts.health,
    },
    ...(opts.operation ? { operationState: argoOperation(opts.operation.phase, opts.operation.revision) } : {}),
    reconciledAt: AT,
    resourceHealthSource: 'appTree',
    resources: [
      {
        group: 'apps',
        kind: 'Deployment',
        name: 'web',
        namespace: 'shop',
        ...(opts.comparisonError ? { requiresPruning: true } : {}),
        status: opts.sync,
        version: 'v1',
      },
    ],
    sourceHydrator: {},
    ...(opts.comparisonError ? {} : { sourceType: 'Directory' }),
    summary: { images: ['registry.example.com/web:1.0'] },
    sync: { comparedTo: { destination: argoDestination, source: argoSource }, revision: opts.revision, status: opts.sync },
  }),
};

export const PROGRESS_DEADLINE = 'Deployment "api" exceeded its progress deadline';
