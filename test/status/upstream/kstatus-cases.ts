/**
 * Upstream kstatus test cases, ported verbatim from kubernetes-sigs/cli-utils@5895ad6c17dd06b99c1e5c8af17e2b12a3504fad
 * pkg/kstatus/status/status_compute_test.go (every case: manifest, expected status, expected and absent condition
 * types) and pkg/kstatus/watcher/default_status_watcher_test.go (manifests with the exact messages the watcher
 * reports for them). Generated from the Go source; `needsNow` cases had their creationTimestamp filled by
 * fmt.Sprintf with time.Now() upstream.
 */

export interface UpstreamComputeCase {
  test: string;
  name: string;
  manifest: string;
  needsNow: boolean;
  expectedStatus: string;
  expectedConditions: { type: string; status: string; reason: string }[];
  absentConditionTypes: string[];
}

export const computeCases: UpstreamComputeCase[] = [
  {
    test: 'TestPodStatus',
    name: 'podNoStatus',
    manifest: `
apiVersion: v1
kind: Pod
metadata:
   generation: 1
   name: test
`,
    needsNow: false,
    expectedStatus: 'InProgress',
    expectedConditions: [{ type: 'Reconciling', status: 'True', reason: 'PodNotObserved' }],
    absentConditionTypes: ['Stalled'],
  },
  {
    test: 'TestPodStatus',
    name: 'podReady',
    manifest: `
apiVersion: v1
kind: Pod
metadata:
   generation: 1
   name: test
   namespace: qual
status:
   conditions:
    - type: Ready 
      status: "True"
   phase: Running
`,
    needsNow: false,
    expectedStatus: 'Current',
    expectedConditions: [],
    absentConditionTypes: ['Reconciling', 'Stalled'],
  },
  {
    test: 'TestPodStatus',
    name: 'podCompletedSuccessfully',
    manifest: `
apiVersion: v1
kind: Pod
metadata:
   generation: 1
   name: test
   namespace: qual
status:
   phase: Succeeded
   conditions:
    - type: Ready 
      status: "False"
      reason: PodCompleted

`,
    needsNow: false,
    expectedStatus: 'Current',
    expectedConditions: [],
    absentConditionTypes: ['Reconciling', 'Stalled'],
  },
  {
    test: 'TestPodStatus',
    name: 'podCompletedFailed',
    manifest: `
apiVersion: v1
kind: Pod
metadata:
   generation: 1
   name: test
   namespace: qual
status:
   phase: Failed
   conditions:
    - type: Ready 
      status: "False"
      reason: PodCompleted
`,
    needsNow: false,
    expectedStatus: 'Current',
    expectedConditions: [],
    absentConditionTypes: ['Reconciling', 'Stalled'],
  },
  {
    test: 'TestPodStatus',
    name: 'podBeingScheduled',
    manifest: `
apiVersion: v1
kind: Pod
metadata:
   creationTimestamp: %s
   generation: 1
   name: test
   namespace: qual
status:
   phase: Pending
   conditions:
    - type: PodScheduled 
      status: "False"
      reason: Unschedulable
`,
    needsNow: true,
    expectedStatus: 'InProgress',
    expectedConditions: [{ type: 'Reconciling', status: 'True', reason: 'PodNotScheduled' }],
    absentConditionTypes: ['Stalled'],
  },
  {
    test: 'TestPodStatus',
    name: 'podUnschedulable',
    manifest: `
apiVersion: v1
kind: Pod
metadata:
   generation: 1
   name: test
   namespace: qual
status:
   phase: Pending
   conditions:
    - type: PodScheduled 
      status: "False"
      reason: Unschedulable
`,
    needsNow: false,
    expectedStatus: 'Failed',
    expectedConditions: [{ type: 'Stalled', status: 'True', reason: 'PodUnschedulable' }],
    absentConditionTypes: ['Reconciling'],
  },
  {
    test: 'TestPodStatus',
    name: 'podCrashLooping',
    manifest: `
apiVersion: v1
kind: Pod
metadata:
   generation: 1
   name: test
   namespace: qual
status:
   phase: Running
   conditions:
    - type: PodScheduled 
      status: "False"
      reason: Unschedulable
   containerStatuses:
    - name: nginx
      state:
         waiting:
            reason: CrashLoopBackOff
`,
    needsNow: false,
    expectedStatus: 'Failed',
    expectedConditions: [{ type: 'Stalled', status: 'True', reason: 'ContainerCrashLooping' }],
    absentConditionTypes: ['Reconciling'],
  },
  {
    test: 'TestPVCStatus',
    name: 'pvcNoStatus',
    manifest: `
apiVersion: v1
kind: PersistentVolumeClaim
metadata:
   generation: 1
   name: test
`,
    needsNow: false,
    expectedStatus: 'InProgress',
    expectedConditions: [{ type: 'Reconciling', status: 'True', reason: 'NotBound' }],
    absentConditionTypes: ['Stalled'],
  },
  {
    test: 'TestPVCStatus',
    name: 'pvcBound',
    manifest: `
apiVersion: v1
kind: PersistentVolumeClaim
metadata:
   generation: 1
   name: test
   namespace: qual
status:
   phase: Bound
`,
    needsNow: false,
    expectedStatus: 'Current',
    expectedConditions: [],
    absentConditionTypes: ['Stalled', 'Reconciling'],
  },
  {
    test: 'TestStsStatus',
    name: 'stsNoStatus',
    manifest: `
apiVersion: apps/v1
kind: StatefulSet
metadata:
   generation: 1
   name: test
`,
    needsNow: false,
    expectedStatus: 'InProgress',
    expectedConditions: [{ type: 'Reconciling', status: 'True', reason: 'LessReplicas' }],
    absentConditionTypes: ['Stalled'],
  },
  {
    test: 'TestStsStatus',
    name: 'stsBadStatus',
    manifest: `
apiVersion: apps/v1
kind: StatefulSet
metadata:
   generation: 1
   name: test
   namespace: qual
status:
   observedGeneration: 1
   currentReplicas: 1
`,
    needsNow: false,
    expectedStatus: 'InProgress',
    expectedConditions: [{ type: 'Reconciling', status: 'True', reason: 'LessReplicas' }],
    absentConditionTypes: ['Stalled'],
  },
  {
    test: 'TestStsStatus',
    name: 'stsOK',
    manifest: `
apiVersion: apps/v1
kind: StatefulSet
metadata:
   generation: 1
   name: test
   namespace: qual
spec:
   replicas: 4
status:
   observedGeneration: 1
   currentReplicas: 4
   readyReplicas: 4
   replicas: 4
`,
    needsNow: false,
    expectedStatus: 'Current',
    expectedConditions: [],
    absentConditionTypes: ['Stalled', 'Reconciling'],
  },
  {
    test: 'TestStsStatus',
    name: 'stsLessReady',
    manifest: `
apiVersion: apps/v1
kind: StatefulSet
metadata:
   generation: 1
   name: test
   namespace: qual
spec:
   replicas: 4
status:
   observedGeneration: 1
   currentReplicas: 4
   readyReplicas: 2
   replicas: 4
`,
    needsNow: false,
    expectedStatus: 'InProgress',
    expectedConditions: [{ type: 'Reconciling', status: 'True', reason: 'LessReady' }],
    absentConditionTypes: ['Stalled'],
  },
  {
    test: 'TestStsStatus',
    name: 'stsLessCurrent',
    manifest: `
apiVersion: apps/v1
kind: StatefulSet
metadata:
   generation: 1
   name: test
   namespace: qual
spec:
   replicas: 4
status:
   observedGeneration: 1
   currentReplicas: 2
   readyReplicas: 4
   replicas: 4
`,
    needsNow: false,
    expectedStatus: 'InProgress',
    expectedConditions: [{ type: 'Reconciling', status: 'True', reason: 'LessCurrent' }],
    absentConditionTypes: ['Stalled'],
  },
  {
    test: 'TestStsStatus',
    name: 'stsExtraPods',
    manifest: `
apiVersion: apps/v1
kind: StatefulSet
metadata:
   generation: 1
   name: test
   namespace: qual
spec:
   replicas: 4
status:
   observedGeneration: 1
   currentReplicas: 4
   readyReplicas: 4
   replicas: 8
`,
    needsNow: false,
    expectedStatus: 'InProgress',
    expectedConditions: [{ type: 'Reconciling', status: 'True', reason: 'ExtraPods' }],
    absentConditionTypes: ['Stalled'],
  },
  {
    test: 'TestDaemonsetStatus',
    name: 'dsNoStatus',
    manifest: `
apiVersion: apps/v1
kind: DaemonSet
metadata:
   name: test
   generation: 1
`,
    needsNow: false,
    expectedStatus: 'InProgress',
    expectedConditions: [{ type: 'Reconciling', status: 'True', reason: 'NoObservedGeneration' }],
    absentConditionTypes: ['Stalled'],
  },
  {
    test: 'TestDaemonsetStatus',
    name: 'dsBadStatus',
    manifest: `
apiVersion: apps/v1
kind: DaemonSet
metadata:
   name: test
   namespace: qual
   generation: 1
status:
   observedGeneration: 1
   currentReplicas: 1
`,
    needsNow: false,
    expectedStatus: 'InProgress',
    expectedConditions: [{ type: 'Reconciling', status: 'True', reason: 'NoDesiredNumber' }],
    absentConditionTypes: ['Stalled'],
  },
  {
    test: 'TestDaemonsetStatus',
    name: 'dsOK',
    manifest: `
apiVersion: apps/v1
kind: DaemonSet
metadata:
   name: test
   namespace: qual
   generation: 1
status:
   desiredNumberScheduled: 4
   currentNumberScheduled: 4
   updatedNumberScheduled: 4
   numberAvailable: 4
   numberReady: 4
   observedGeneration: 1
`,
    needsNow: false,
    expectedStatus: 'Current',
    expectedConditions: [],
    absentConditionTypes: ['Stalled', 'Reconciling'],
  },
  {
    test: 'TestDaemonsetStatus',
    name: 'dsLessReady',
    manifest: `
apiVersion: apps/v1
kind: DaemonSet
metadata:
   name: test
   namespace: qual
   generation: 1
status:
   observedGeneration: 1
   desiredNumberScheduled: 4
   currentNumberScheduled: 4
   updatedNumberScheduled: 4
   numberAvailable: 4
   numberReady: 2
`,
    needsNow: false,
    expectedStatus: 'InProgress',
    expectedConditions: [{ type: 'Reconciling', status: 'True', reason: 'LessReady' }],
    absentConditionTypes: ['Stalled'],
  },
  {
    test: 'TestDaemonsetStatus',
    name: 'dsDifferentGeneration',
    manifest: `
apiVersion: apps/v1
kind: DaemonSet
metadata:
   name: test
   namespace: qual
   generation: 2
status:
   desiredNumberScheduled: 4
   currentNumberScheduled: 4
   updatedNumberScheduled: 4
   numberAvailable: 4
   numberReady: 4
   observedGeneration: 1
`,
    needsNow: false,
    expectedStatus: 'InProgress',
    expectedConditions: [{ type: 'Reconciling', status: 'True', reason: 'LatestGenerationNotObserved' }],
    absentConditionTypes: ['Stalled'],
  },
  {
    test: 'TestDaemonsetStatus',
    name: 'dsLessAvailable',
    manifest: `
apiVersion: apps/v1
kind: DaemonSet
metadata:
   name: test
   namespace: qual
   generation: 1
status:
   observedGeneration: 1
   desiredNumberScheduled: 4
   currentNumberScheduled: 4
   updatedNumberScheduled: 4
   numberAvailable: 2
   numberReady: 4
`,
    needsNow: false,
    expectedStatus: 'InProgress',
    expectedConditions: [{ type: 'Reconciling', status: 'True', reason: 'LessAvailable' }],
    absentConditionTypes: ['Stalled'],
  },
  {
    test: 'TestDeploymentStatus',
    name: 'depNoStatus',
    manifest: `
apiVersion: apps/v1
kind: Deployment
metadata:
   name: test
   generation: 1
`,
    needsNow: false,
    expectedStatus: 'InProgress',
    expectedConditions: [{ type: 'Reconciling', status: 'True', reason: 'LessReplicas' }],
    absentConditionTypes: ['Stalled'],
  },
  {
    test: 'TestDeploymentStatus',
    name: 'depOK',
    manifest: `
apiVersion: apps/v1
kind: Deployment
metadata:
   name: test
   generation: 1
   namespace: qual
status:
   observedGeneration: 1
   updatedReplicas: 1
   readyReplicas: 1
   availableReplicas: 1
   replicas: 1
   conditions:
    - type: Progressing 
      status: "True"
      reason: NewReplicaSetAvailable
    - type: Available 
      status: "True"
`,
    needsNow: false,
    expectedStatus: 'Current',
    expectedConditions: [],
    absentConditionTypes: ['Stalled', 'Reconciling'],
  },
  {
    test: 'TestDeploymentStatus',
    name: 'depNotProgressing',
    manifest: `
apiVersion: apps/v1
kind: Deployment
metadata:
   name: test
   generation: 1
   namespace: qual
spec:
   progressDeadlineSeconds: 45
status:
   observedGeneration: 1
   updatedReplicas: 1
   readyReplicas: 1
   availableReplicas: 1
   replicas: 1
   observedGeneration: 1
   conditions:
    - type: Progressing 
      status: "False"
      reason: Some reason
    - type: Available 
      status: "True"
`,
    needsNow: false,
    expectedStatus: 'InProgress',
    expectedConditions: [{ type: 'Reconciling', status: 'True', reason: 'ReplicaSetNotAvailable' }],
    absentConditionTypes: ['Stalled'],
  },
  {
    test: 'TestDeploymentStatus',
    name: 'depNoProgressDeadlineSeconds',
    manifest: `
apiVersion: apps/v1
kind: Deployment
metadata:
   name: test
   generation: 1
   namespace: qual
status:
   observedGeneration: 1
   updatedReplicas: 1
   readyReplicas: 1
   availableReplicas: 1
   replicas: 1
   observedGeneration: 1
   conditions:
    - type: Available
      status: "True"
`,
    needsNow: false,
    expectedStatus: 'Current',
    expectedConditions: [],
    absentConditionTypes: ['Stalled', 'Reconciling'],
  },
  {
    test: 'TestDeploymentStatus',
    name: 'depNotAvailable',
    manifest: `
apiVersion: apps/v1
kind: Deployment
metadata:
   name: test
   generation: 1
   namespace: qual
status:
   observedGeneration: 1
   updatedReplicas: 1
   readyReplicas: 1
   availableReplicas: 1
   replicas: 1
   observedGeneration: 1
   conditions:
    - type: Progressing 
      status: "True"
      reason: NewReplicaSetAvailable
    - type: Available 
      status: "False"
`,
    needsNow: false,
    expectedStatus: 'InProgress',
    expectedConditions: [{ type: 'Reconciling', status: 'True', reason: 'DeploymentNotAvailable' }],
    absentConditionTypes: ['Stalled'],
  },
  {
    test: 'TestReplicasetStatus',
    name: 'rsNoStatus',
    manifest: `
apiVersion: apps/v1
kind: ReplicaSet
metadata:
   name: test
   generation: 1
`,
    needsNow: false,
    expectedStatus: 'InProgress',
    expectedConditions: [{ type: 'Reconciling', status: 'True', reason: 'LessLabelled' }],
    absentConditionTypes: ['Stalled'],
  },
  {
    test: 'TestReplicasetStatus',
    name: 'rsOK1',
    manifest: `
apiVersion: apps/v1
kind: ReplicaSet
metadata:
   name: test
   namespace: qual
   generation: 1
spec:
   replicas: 2
status:
   observedGeneration: 1
   replicas: 2
   readyReplicas: 2
   availableReplicas: 2
   fullyLabeledReplicas: 2
   conditions:
    - type: ReplicaFailure 
      status: "False"
`,
    needsNow: false,
    expectedStatus: 'Current',
    expectedConditions: [],
    absentConditionTypes: ['Stalled', 'Reconciling'],
  },
  {
    test: 'TestReplicasetStatus',
    name: 'rsOK2',
    manifest: `
apiVersion: apps/v1
kind: ReplicaSet
metadata:
   name: test
   namespace: qual
   generation: 1
spec:
   replicas: 2
status:
   observedGeneration: 1
   fullyLabeledReplicas: 2
   replicas: 2
   readyReplicas: 2
   availableReplicas: 2
`,
    needsNow: false,
    expectedStatus: 'Current',
    expectedConditions: [],
    absentConditionTypes: ['Stalled', 'Reconciling'],
  },
  {
    test: 'TestReplicasetStatus',
    name: 'rsLessAvailable',
    manifest: `
apiVersion: apps/v1
kind: ReplicaSet
metadata:
   name: test
   namespace: qual
   generation: 1
spec:
   replicas: 4
status:
   observedGeneration: 1
   replicas: 4
   readyReplicas: 4
   availableReplicas: 2
   fullyLabeledReplicas: 4
`,
    needsNow: false,
    expectedStatus: 'InProgress',
    expectedConditions: [{ type: 'Reconciling', status: 'True', reason: 'LessAvailable' }],
    absentConditionTypes: ['Stalled'],
  },
  {
    test: 'TestReplicasetStatus',
    name: 'rsLessReady',
    manifest: `
apiVersion: apps/v1
kind: ReplicaSet
metadata:
   name: test
   namespace: qual
   generation: 1
spec:
   replicas: 4
status:
   observedGeneration: 1
   replicas: 4
   readyReplicas: 2
   availableReplicas: 4
   fullyLabeledReplicas: 4
`,
    needsNow: false,
    expectedStatus: 'InProgress',
    expectedConditions: [{ type: 'Reconciling', status: 'True', reason: 'LessReady' }],
    absentConditionTypes: ['Stalled'],
  },
  {
    test: 'TestReplicasetStatus',
    name: 'rsReplicaFailure',
    manifest: `
apiVersion: apps/v1
kind: ReplicaSet
metadata:
   name: test
   namespace: qual
   generation: 1
spec:
   replicas: 4
status:
   observedGeneration: 1
   replicas: 4
   readyReplicas: 4
   fullyLabeledReplicas: 4
   availableReplicas: 4
   conditions:
    - type: ReplicaFailure 
      status: "True"
`,
    needsNow: false,
    expectedStatus: 'InProgress',
    expectedConditions: [{ type: 'Reconciling', status: 'True', reason: 'ReplicaFailure' }],
    absentConditionTypes: ['Stalled'],
  },
  {
    test: 'TestPDBStatus',
    name: 'pdbNotObserved',
    manifest: `
apiVersion: policy/v1beta1
kind: PodDisruptionBudget
metadata:
   generation: 2
   name: test
   namespace: qual
status:
   observedGeneration: 1
`,
    needsNow: false,
    expectedStatus: 'InProgress',
    expectedConditions: [{ type: 'Reconciling', status: 'True', reason: 'LatestGenerationNotObserved' }],
    absentConditionTypes: ['Stalled'],
  },
  {
    test: 'TestPDBStatus',
    name: 'pdbObserved',
    manifest: `
apiVersion: policy/v1beta1
kind: PodDisruptionBudget
metadata:
   generation: 1
   name: test
   namespace: qual
status:
   observedGeneration: 1
`,
    needsNow: false,
    expectedStatus: 'Current',
    expectedConditions: [],
    absentConditionTypes: ['Stalled', 'Reconciling'],
  },
  {
    test: 'TestCRDGenericStatus',
    name: 'crdNoStatus',
    manifest: `
apiVersion: something/v1
kind: MyCR
metadata:
   generation: 1
   name: test
   namespace: qual
`,
    needsNow: false,
    expectedStatus: 'Current',
    expectedConditions: [],
    absentConditionTypes: ['Stalled', 'Reconciling'],
  },
  {
    test: 'TestCRDGenericStatus',
    name: 'crdReady',
    manifest: `
apiVersion: something/v1
kind: MyCR
metadata:
   name: test
   namespace: qual
   generation: 1
status:
   conditions:
    - type: Ready 
      status: "True"
      message: All looks ok
      reason: AllOk
`,
    needsNow: false,
    expectedStatus: 'Current',
    expectedConditions: [],
    absentConditionTypes: ['Stalled', 'Reconciling'],
  },
  {
    test: 'TestCRDGenericStatus',
    name: 'crdNotReady',
    manifest: `
apiVersion: something/v1
kind: MyCR
metadata:
   generation: 1
   name: test
   namespace: qual
status:
   observedGeneration: 1
   conditions:
    - type: Ready 
      status: "False"
      reason: NotReadyYet
`,
    needsNow: false,
    expectedStatus: 'InProgress',
    expectedConditions: [{ type: 'Reconciling', status: 'True', reason: 'NotReadyYet' }],
    absentConditionTypes: ['Stalled'],
  },
  {
    test: 'TestCRDGenericStatus',
    name: 'crdNoCondition',
    manifest: `
apiVersion: something/v1
kind: MyCR
metadata:
   name: test
   namespace: qual
   generation: 1
status:
   conditions:
    - type: SomeCondition 
      status: "False"
`,
    needsNow: false,
    expectedStatus: 'Current',
    expectedConditions: [],
    absentConditionTypes: ['Stalled', 'Reconciling'],
  },
  {
    test: 'TestCRDGenericStatus',
    name: 'crdMismatchStatusGeneration',
    manifest: `
apiVersion: something/v1
kind: MyCR
metadata:
   name: test
   namespace: qual
   generation: 2
status:
   observedGeneration: 1
`,
    needsNow: false,
    expectedStatus: 'InProgress',
    expectedConditions: [{ type: 'Reconciling', status: 'True', reason: 'LatestGenerationNotObserved' }],
    absentConditionTypes: ['Stalled'],
  },
  {
    test: 'TestJobStatus',
    name: 'jobNoStatus',
    manifest: `
apiVersion: batch/v1
kind: Job
metadata:
   name: test
   namespace: qual
   generation: 1
`,
    needsNow: false,
    expectedStatus: 'InProgress',
    expectedConditions: [{ type: 'Reconciling', status: 'True', reason: 'JobNotStarted' }],
    absentConditionTypes: ['Stalled'],
  },
  {
    test: 'TestJobStatus',
    name: 'jobComplete',
    manifest: `
apiVersion: batch/v1
kind: Job
metadata:
   name: test
   namespace: qual
   generation: 1
status:
   succeeded: 1
   active: 0
   conditions:
    - type: Complete 
      status: "True"
`,
    needsNow: false,
    expectedStatus: 'Current',
    expectedConditions: [],
    absentConditionTypes: ['Stalled', 'Reconciling'],
  },
  {
    test: 'TestJobStatus',
    name: 'jobFailed',
    manifest: `
apiVersion: batch/v1
kind: Job
metadata:
   name: test
   namespace: qual
   generation: 1
spec:
   completions: 4
status:
   succeeded: 3
   failed: 1
   conditions:
    - type: Failed 
      status: "True"
      reason: JobFailed
`,
    needsNow: false,
    expectedStatus: 'Failed',
    expectedConditions: [{ type: 'Stalled', status: 'True', reason: 'JobFailed' }],
    absentConditionTypes: ['Reconciling'],
  },
  {
    test: 'TestJobStatus',
    name: 'jobInProgress',
    manifest: `
apiVersion: batch/v1
kind: Job
metadata:
   name: test
   namespace: qual
   generation: 1
spec:
   completions: 10
   parallelism: 2
status:
   startTime: "2019-06-04T01:17:13Z"
   succeeded: 3
   failed: 1
   active: 2
   conditions:
    - type: Failed 
      status: "False"
    - type: Complete 
      status: "False"
`,
    needsNow: false,
    expectedStatus: 'Current',
    expectedConditions: [],
    absentConditionTypes: ['Reconciling', 'Stalled'],
  },
  {
    test: 'TestCronJobStatus',
    name: 'cronjobNoStatus',
    manifest: `
apiVersion: batch/v1
kind: CronJob
metadata:
   name: test
   namespace: qual
   generation: 1
`,
    needsNow: false,
    expectedStatus: 'Current',
    expectedConditions: [],
    absentConditionTypes: ['Stalled', 'Reconciling'],
  },
  {
    test: 'TestCronJobStatus',
    name: 'cronjobWithStatus',
    manifest: `
apiVersion: batch/v1
kind: CronJob
metadata:
   name: test
   namespace: qual
   generation: 1
status:
`,
    needsNow: false,
    expectedStatus: 'Current',
    expectedConditions: [],
    absentConditionTypes: ['Stalled', 'Reconciling'],
  },
  {
    test: 'TestServiceStatus',
    name: 'serviceDefault',
    manifest: `
apiVersion: v1
kind: Service
metadata:
   name: test
   namespace: qual
   generation: 1
`,
    needsNow: false,
    expectedStatus: 'Current',
    expectedConditions: [],
    absentConditionTypes: ['Stalled', 'Reconciling'],
  },
  {
    test: 'TestServiceStatus',
    name: 'serviceNodePort',
    manifest: `
apiVersion: v1
kind: Service
metadata:
   name: test
   namespace: qual
   generation: 1
spec:
  type: NodePort
`,
    needsNow: false,
    expectedStatus: 'Current',
    expectedConditions: [],
    absentConditionTypes: ['Stalled', 'Reconciling'],
  },
  {
    test: 'TestServiceStatus',
    name: 'serviceLBnok',
    manifest: `
apiVersion: v1
kind: Service
metadata:
   name: test
   namespace: qual
   generation: 1
spec:
  type: LoadBalancer
`,
    needsNow: false,
    expectedStatus: 'InProgress',
    expectedConditions: [{ type: 'Reconciling', status: 'True', reason: 'NoIPAssigned' }],
    absentConditionTypes: ['Stalled'],
  },
  {
    test: 'TestServiceStatus',
    name: 'serviceLBok',
    manifest: `
apiVersion: v1
kind: Service
metadata:
   name: test
   namespace: qual
   generation: 1
spec:
  type: LoadBalancer
  clusterIP: "1.2.3.4"
`,
    needsNow: false,
    expectedStatus: 'Current',
    expectedConditions: [],
    absentConditionTypes: ['Stalled', 'Reconciling'],
  },
  {
    test: 'TestCRDStatus',
    name: 'crdNoConditions',
    manifest: `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
   generation: 1
`,
    needsNow: false,
    expectedStatus: 'InProgress',
    expectedConditions: [{ type: 'Reconciling', status: 'True', reason: 'Installing' }],
    absentConditionTypes: ['Stalled'],
  },
  {
    test: 'TestCRDStatus',
    name: 'crdInstalling',
    manifest: `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
   generation: 1
status:
   conditions:
    - type: NamesAccepted
      status: "True"
      reason: NoConflicts
    - type: Established
      status: "False"
      reason: Installing
`,
    needsNow: false,
    expectedStatus: 'InProgress',
    expectedConditions: [{ type: 'Reconciling', status: 'True', reason: 'Installing' }],
    absentConditionTypes: ['Stalled'],
  },
  {
    test: 'TestCRDStatus',
    name: 'crdNamesNotAccepted',
    manifest: `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
   generation: 1
status:
   conditions:
    - type: NamesAccepted
      status: "False"
      reason: SomeReason
`,
    needsNow: false,
    expectedStatus: 'Failed',
    expectedConditions: [{ type: 'Stalled', status: 'True', reason: 'SomeReason' }],
    absentConditionTypes: ['Reconciling'],
  },
  {
    test: 'TestCRDStatus',
    name: 'crdEstablished',
    manifest: `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
   generation: 1
status:
   conditions:
    - type: NamesAccepted
      status: "True"
      reason: NoConflicts
    - type: Established
      status: "True"
      reason: InitialNamesAccepted
`,
    needsNow: false,
    expectedStatus: 'Current',
    expectedConditions: [],
    absentConditionTypes: ['Reconciling', 'Stalled'],
  },
];

/** Watcher manifests (default_status_watcher_test.go) and the status and message the watcher reports. */
export const watcherCases: { name: string; manifest: string; status: string; message: string }[] = [
  {
    name: 'deployment1Yaml',
    status: 'InProgress',
    message: 'Replicas: 0/1',
    manifest: `
apiVersion: apps/v1
kind: Deployment
metadata:
  name: nginx
  namespace: ns-1
  generation: 1
spec:
  replicas: 1
  selector:
    matchLabels:
      app: nginx
  template:
    metadata:
      labels:
        app: nginx
    spec:
      containers:
      - name: nginx
        image: nginx:1.19.6
        ports:
        - containerPort: 80
`,
  },
  {
    name: 'deployment1InProgress1Yaml',
    status: 'InProgress',
    message: 'Replicas: 0/1',
    manifest: `
apiVersion: apps/v1
kind: Deployment
metadata:
  name: nginx
  namespace: ns-1
  generation: 1
spec:
  replicas: 1
  selector:
    matchLabels:
      app: nginx
  template:
    metadata:
      labels:
        app: nginx
    spec:
      containers:
      - name: nginx
        image: nginx:1.19.6
        ports:
        - containerPort: 80
status:
  observedGeneration: 1
  updatedReplicas: 0
  readyReplicas: 0
  availableReplicas: 0
  replicas: 0
  conditions:
  - reason: NewReplicaSetAvailable
    status: "True"
    type: Progressing
    message: ReplicaSet "nginx-1" is progressing.
  - reason: MinimumReplicasUnavailable
    type: Available
    status: "False"
    message: Deployment does not have minimum availability.
`,
  },
  {
    name: 'deployment1InProgress2Yaml',
    status: 'InProgress',
    message: 'Available: 0/1',
    manifest: `
apiVersion: apps/v1
kind: Deployment
metadata:
  name: nginx
  namespace: ns-1
  generation: 1
spec:
  replicas: 1
  selector:
    matchLabels:
      app: nginx
  template:
    metadata:
      labels:
        app: nginx
    spec:
      containers:
      - name: nginx
        image: nginx:1.19.6
        ports:
        - containerPort: 80
status:
  observedGeneration: 1
  updatedReplicas: 1
  readyReplicas: 0
  availableReplicas: 0
  replicas: 1
  conditions:
  - reason: NewReplicaSetAvailable
    status: "True"
    type: Progressing
    message: ReplicaSet "nginx-1" is progressing.
  - reason: MinimumReplicasUnavailable
    type: Available
    status: "False"
    message: Deployment does not have minimum availability.
`,
  },
  {
    name: 'deployment1CurrentYaml',
    status: 'Current',
    message: 'Deployment is available. Replicas: 1',
    manifest: `
apiVersion: apps/v1
kind: Deployment
metadata:
  name: nginx
  namespace: ns-1
  generation: 1
spec:
  replicas: 1
  selector:
    matchLabels:
      app: nginx
  template:
    metadata:
      labels:
        app: nginx
    spec:
      containers:
      - name: nginx
        image: nginx:1.19.6
        ports:
        - containerPort: 80
status:
  observedGeneration: 1
  updatedReplicas: 1
  readyReplicas: 1
  availableReplicas: 1
  replicas: 1
  conditions:
  - reason: NewReplicaSetAvailable
    status: "True"
    type: Progressing
    message: ReplicaSet "nginx-1" has successfully progressed.
  - reason: MinimumReplicasAvailable
    type: Available
    status: "True"
    message: Deployment has minimum availability.
`,
  },
  {
    name: 'replicaset1Yaml',
    status: 'InProgress',
    message: 'Labelled: 0/1',
    manifest: `
apiVersion: apps/v1
kind: ReplicaSet
metadata:
  name: nginx-1
  namespace: ns-1
  generation: 1
  labels:
    app: nginx
spec:
  replicas: 1
  selector:
    matchLabels:
      app: nginx
`,
  },
  {
    name: 'replicaset1InProgress1Yaml',
    status: 'InProgress',
    message: 'Labelled: 0/1',
    manifest: `
apiVersion: apps/v1
kind: ReplicaSet
metadata:
  name: nginx-1
  namespace: ns-1
  generation: 1
  labels:
    app: nginx
spec:
  replicas: 1
  selector:
    matchLabels:
      app: nginx
status:
  observedGeneration: 1
  replicas: 0
  readyReplicas: 0
  availableReplicas: 0
  fullyLabeledReplicas: 0
`,
  },
  {
    name: 'replicaset1InProgress2Yaml',
    status: 'InProgress',
    message: 'Available: 0/1',
    manifest: `
apiVersion: apps/v1
kind: ReplicaSet
metadata:
  name: nginx-1
  namespace: ns-1
  generation: 1
  labels:
    app: nginx
spec:
  replicas: 1
  selector:
    matchLabels:
      app: nginx
status:
  observedGeneration: 1
  replicas: 1
  readyReplicas: 0
  availableReplicas: 0
  fullyLabeledReplicas: 1
`,
  },
  {
    name: 'replicaset1CurrentYaml',
    status: 'Current',
    message: 'ReplicaSet is available. Replicas: 1',
    manifest: `
apiVersion: apps/v1
kind: ReplicaSet
metadata:
  name: nginx-1
  namespace: ns-1
  generation: 1
  labels:
    app: nginx
spec:
  replicas: 1
  selector:
    matchLabels:
      app: nginx
status:
  observedGeneration: 1
  replicas: 1
  readyReplicas: 1
  availableReplicas: 1
  fullyLabeledReplicas: 1
`,
  },
  {
    name: 'pod1Yaml',
    status: 'InProgress',
    message: 'Pod phase not available',
    manifest: `
apiVersion: v1
kind: Pod
metadata:
  generation: 1
  name: test
  namespace: ns-1
  labels:
    app: nginx
`,
  },
  {
    name: 'pod1CurrentYaml',
    status: 'Current',
    message: 'Pod is Ready',
    manifest: `
apiVersion: v1
kind: Pod
metadata:
  generation: 1
  name: test
  namespace: ns-1
  labels:
    app: nginx
status:
  conditions:
  - type: Ready 
    status: "True"
  phase: Running
`,
  },
];
