/** Scheduler + kubelet: binds new Pods to nodes and moves them through the phases, container states,
 *  conditions and events a real node reports, including the scripted failures. */
import { randomBytes } from 'node:crypto';
import { timestamp, type KubeObject } from '../store.js';
import { annotation, ANNOTATION, controllerOf, stepMs, type Runtime } from './runtime.js';
import { containerLogs, logTextFor, type ContainerLogs, type RunOutcome } from './container-logs.js';

type Failure = 'ImagePullBackOff' | 'CrashLoopBackOff' | 'CreateContainerConfigError' | 'Unschedulable' | undefined;

const MAX_REPEATS = 8;

interface PodPlan {
  step: number;
  failure: Failure;
  exitReason: string;
  /** The exit code of a failing run: `kubewait.test/exit-code`, else 1 (137 for OOMKilled, as SIGKILL gives). */
  exitCode: number;
  /** restartPolicy Never/OnFailure: the pod runs to completion. */
  runsToCompletion: boolean;
  outcome: 'Succeeded' | 'Failed';
}

interface ContainerState {
  state: object;
  lastState?: object;
  ready: boolean;
  started: boolean;
  restartCount: number;
}

function normalizedImage(image: string): string {
  const withTag = /[:@]/.test(image.split('/').pop() ?? '') ? image : `${image}:latest`;
  const first = withTag.split('/')[0] ?? '';
  if (withTag.includes('/') && (first.includes('.') || first.includes(':') || first === 'localhost')) return withTag;
  return withTag.includes('/') ? `docker.io/${withTag}` : `docker.io/library/${withTag}`;
}

const containerId = () => `containerd://${randomBytes(32).toString('hex')}`;

export class Kubelet {
  private nextNode = 0;
  private readonly logs: ContainerLogs;

  constructor(
    private readonly rt: Runtime,
    private readonly nodes: string[],
  ) {
    this.logs = containerLogs(rt.store);
  }

  /** Pods created already carrying container statuses (test fixtures) are left alone. */
  manages(pod: KubeObject): boolean {
    return !pod.status?.containerStatuses && (pod.status?.phase ?? 'Pending') === 'Pending' && !pod.metadata.deletionTimestamp;
  }

  onAdded(pod: KubeObject): void {
    if (!this.manages(pod)) return;
    const plan = this.plan(pod);
    this.rt.after(0, () => this.schedule(pod.metadata.uid, plan), pod.metadata.uid);
  }

  onDeleted(pod: KubeObject): void {
    this.rt.cancel(pod.metadata.uid);
    // A node drops a pod's container logs with the pod.
    this.logs.forget(containerIDs(pod));
  }

  private plan(pod: KubeObject): PodPlan {
    const ref = controllerOf(pod);
    const owner = ref ? this.rt.store.byUID(ref.uid)?.object : undefined;
    const failure = (annotation(pod, ANNOTATION.podFailure) ?? annotation(owner, ANNOTATION.podFailure)) as Failure;
    const restartPolicy = pod.spec?.restartPolicy ?? 'Always';
    const exitReason = annotation(pod, ANNOTATION.exitReason) ?? annotation(owner, ANNOTATION.exitReason) ?? 'Error';
    const exitCode = Number(annotation(pod, ANNOTATION.exitCode) ?? annotation(owner, ANNOTATION.exitCode) ?? (exitReason === 'OOMKilled' ? 137 : 1));
    return {
      step: stepMs(pod, owner),
      failure: failure === ('ErrImagePull' as Failure) ? 'ImagePullBackOff' : failure,
      exitReason,
      exitCode: Number.isInteger(exitCode) && exitCode > 0 ? exitCode : 1,
      runsToCompletion: restartPolicy !== 'Always',
      outcome: (annotation(pod, ANNOTATION.podOutcome) ?? annotation(owner, ANNOTATION.podOutcome)) === 'Failed' ? 'Failed' : 'Succeeded',
    };
  }

  private current(uid: string): KubeObject | undefined {
    const found = this.rt.store.byUID(uid);
    return found && !found.object.metadata.deletionTimestamp ? found.object : undefined;
  }

  /** A status write, and the log files of the containers it shows (the runtime writes them as containers run). */
  private writeStatus(pod: KubeObject, status: object): KubeObject {
    const written = this.rt.writeStatus(pod, status);
    const owner = controllerOf(written);
    const ownerObject = owner ? this.rt.store.byUID(owner.uid)?.object : undefined;
    for (const c of (written.status?.containerStatuses ?? []) as ContainerStatus[]) {
      for (const [id, outcome] of runsOf(c)) {
        if (this.logs.outcomeOf(id) !== outcome) this.logs.write(id, outcome, logTextFor(written, ownerObject, c.name, outcome));
      }
    }
    return written;
  }

  private later(uid: string, ms: number, fn: (pod: KubeObject) => void): void {
    this.rt.after(
      ms,
      () => {
        const pod = this.current(uid);
        if (pod) fn(pod);
      },
      uid,
    );
  }

  private schedule(uid: string, plan: PodPlan): void {
    let pod = this.current(uid);
    if (!pod) return;
    if (plan.failure === 'Unschedulable') return this.unschedulable(uid, plan, 0);
    const node = pod.spec?.nodeName ?? this.nodes[this.nextNode++ % this.nodes.length];
    if (!pod.spec?.nodeName) pod = this.rt.writeObject(pod, (p) => ({ ...p, spec: { ...p.spec, nodeName: node } }));
    const startTime = timestamp();
    this.writeStatus(pod, this.status(pod, { phase: 'Pending', node, startTime, containers: this.containers(pod, () => waiting('ContainerCreating')) }));
    this.later(uid, plan.step, (p) => this.start(p, plan, startTime));
  }

  private unschedulable(uid: string, plan: PodPlan, repeat: number): void {
    const pod = this.current(uid);
    if (!pod) return;
    const n = this.nodes.length;
    const message = `0/${n} nodes are available: ${n} Insufficient cpu. preemption: 0/${n} nodes are available: ${n} No preemption victims found for incoming pod.`;
    if (repeat === 0) {
      this.writeStatus(pod, {
        phase: 'Pending',
        conditions: [{ type: 'PodScheduled', status: 'False', lastProbeTime: null, lastTransitionTime: timestamp(), reason: 'Unschedulable', message }],
        qosClass: 'BestEffort',
        observedGeneration: pod.metadata.generation,
      });
    }
    this.rt.event(pod, 'Warning', 'FailedScheduling', message, { component: 'default-scheduler' });
    if (repeat < MAX_REPEATS) this.later(uid, plan.step * 5, () => this.unschedulable(uid, plan, repeat + 1));
  }

  private start(pod: KubeObject, plan: PodPlan, startTime: string): void {
    switch (plan.failure) {
      case 'ImagePullBackOff':
        return this.pullFailure(pod, plan, startTime, 0);
      case 'CrashLoopBackOff':
        return this.crash(pod, plan, startTime, 1);
      case 'CreateContainerConfigError':
        return this.configError(pod, plan, startTime, 0);
      default:
        break;
    }
    const started = timestamp();
    this.writeStatus(pod, this.status(pod, { phase: 'Running', startTime, containers: this.containers(pod, () => running(started)) }));
    if (plan.runsToCompletion) this.later(pod.metadata.uid, plan.step, (p) => this.complete(p, plan, startTime, started));
  }

  private complete(pod: KubeObject, plan: PodPlan, startTime: string, started: string): void {
    const failed = plan.outcome === 'Failed';
    const finishedAt = timestamp();
    // The container that ran is the one that terminated: same ID. The scripted (first) container fails.
    const terminated = (i: number) => {
      const name = (pod.spec?.containers?.[i] as { name?: string } | undefined)?.name ?? '';
      const fails = failed && i === 0;
      return {
        terminated: {
          exitCode: fails ? plan.exitCode : 0,
          reason: fails ? plan.exitReason : 'Completed',
          startedAt: started,
          finishedAt,
          containerID: runningID(pod, name) ?? containerId(),
        },
      };
    };
    this.writeStatus(
      pod,
      this.status(pod, {
        phase: plan.outcome,
        startTime,
        notReadyReason: failed ? 'PodFailed' : 'PodCompleted',
        containers: this.containers(pod, (i) => ({ state: terminated(i), ready: false, started: false, restartCount: 0 })),
      }),
    );
  }

  private pullFailure(pod: KubeObject, plan: PodPlan, startTime: string, cycle: number): void {
    const container = pod.spec?.containers?.[0] ?? { name: 'app', image: 'unknown' };
    const ref = normalizedImage(container.image ?? '');
    const cause = `rpc error: code = NotFound desc = failed to pull and unpack image "${ref}": failed to resolve reference "${ref}": ${ref}: not found`;
    const source = { component: 'kubelet', host: pod.spec?.nodeName, fieldPath: `spec.containers{${container.name}}` };
    const uid = pod.metadata.uid;
    this.writeStatus(
      pod,
      this.status(pod, {
        phase: 'Pending',
        startTime,
        containers: this.containers(pod, (i) => (i === 0 ? waiting('ErrImagePull', cause) : running(startTime)), 0),
      }),
    );
    this.rt.event(pod, 'Normal', 'Pulling', `Pulling image "${container.image}"`, source);
    this.rt.event(pod, 'Warning', 'Failed', `Failed to pull image "${container.image}": ${cause}`, source);
    this.rt.event(pod, 'Warning', 'Failed', 'Error: ErrImagePull', source);
    this.later(uid, plan.step, (p) => {
      this.writeStatus(
        p,
        this.status(p, {
          phase: 'Pending',
          startTime,
          containers: this.containers(
            p,
            (i) => (i === 0 ? waiting('ImagePullBackOff', `Back-off pulling image "${container.image}": ErrImagePull: ${cause}`) : running(startTime)),
            0,
          ),
        }),
      );
      this.rt.event(p, 'Normal', 'BackOff', `Back-off pulling image "${container.image}"`, source);
      this.rt.event(p, 'Warning', 'Failed', 'Error: ImagePullBackOff', source);
      if (cycle < MAX_REPEATS) this.later(uid, plan.step * 2 ** Math.min(cycle + 1, 3), (again) => this.pullFailure(again, plan, startTime, cycle + 1));
    });
  }

  private crash(pod: KubeObject, plan: PodPlan, startTime: string, restarts: number): void {
    const container = pod.spec?.containers?.[0] ?? { name: 'app' };
    const backoff = Math.min(10 * 2 ** (restarts - 1), 300);
    const lastState = {
      terminated: {
        exitCode: plan.exitCode,
        reason: plan.exitReason,
        startedAt: timestamp(new Date(Date.now() - 1000)),
        finishedAt: timestamp(),
        containerID: containerId(),
      },
    };
    const crashing: ContainerState = {
      state: {
        waiting: {
          reason: 'CrashLoopBackOff',
          message: `back-off ${backoff}s restarting failed container=${container.name} pod=${pod.metadata.name}_${pod.metadata.namespace}(${pod.metadata.uid})`,
        },
      },
      lastState,
      ready: false,
      started: false,
      restartCount: restarts,
    };
    this.writeStatus(
      pod,
      this.status(pod, { phase: 'Running', startTime, containers: this.containers(pod, (i) => (i === 0 ? crashing : running(startTime)), 0) }),
    );
    this.rt.event(
      pod,
      'Warning',
      'BackOff',
      `Back-off restarting failed container ${container.name} in pod ${pod.metadata.name}_${pod.metadata.namespace}(${pod.metadata.uid})`,
      { component: 'kubelet', host: pod.spec?.nodeName, fieldPath: `spec.containers{${container.name}}` },
    );
    if (restarts < MAX_REPEATS) this.later(pod.metadata.uid, plan.step * 2 ** Math.min(restarts, 3), (p) => this.crash(p, plan, startTime, restarts + 1));
  }

  private configError(pod: KubeObject, plan: PodPlan, startTime: string, repeat: number): void {
    const container = pod.spec?.containers?.[0] ?? { name: 'app' };
    this.writeStatus(
      pod,
      this.status(pod, {
        phase: 'Pending',
        startTime,
        containers: this.containers(pod, (i) => (i === 0 ? waiting('CreateContainerConfigError', 'secret "x" not found') : running(startTime)), 0),
      }),
    );
    this.rt.event(pod, 'Warning', 'Failed', 'Error: secret "x" not found', {
      component: 'kubelet',
      host: pod.spec?.nodeName,
      fieldPath: `spec.containers{${container.name}}`,
    });
    if (repeat < MAX_REPEATS) this.later(pod.metadata.uid, plan.step * 4, (p) => this.configError(p, plan, startTime, repeat + 1));
  }

  /** Container statuses for every container; `failing` marks the index whose state is scripted. */
  private containers(pod: KubeObject, stateOf: (index: number) => ContainerState, failing?: number): Array<Record<string, unknown>> {
    return (pod.spec?.containers ?? []).map((c: { name: string; image: string }, i: number) => {
      const s = stateOf(failing === undefined || i === failing ? i : -1);
      const running = 'running' in s.state || 'terminated' in s.state;
      // A status rewrite keeps the ID of a container that keeps running; a terminated one carries its own.
      const id = (s.state as { terminated?: { containerID?: string } }).terminated?.containerID ?? runningID(pod, c.name) ?? containerId();
      return {
        name: c.name,
        state: s.state,
        lastState: s.lastState ?? {},
        ready: s.ready,
        restartCount: s.restartCount,
        image: c.image,
        imageID: running ? `${normalizedImage(c.image ?? '').replace(/:[^:/]+$/, '')}@sha256:${'ab'.repeat(32)}` : '',
        ...(running ? { containerID: id } : {}),
        started: s.started,
      };
    });
  }

  private status(
    pod: KubeObject,
    o: { phase: string; startTime: string; node?: string; containers: Array<Record<string, unknown>>; notReadyReason?: string },
  ): object {
    const previous = pod.status?.conditions;
    const allReady = o.containers.length > 0 && o.containers.every((c) => c.ready);
    const unready = o.containers.filter((c) => !c.ready).map((c) => c.name);
    const cond = (type: string, ok: boolean, reason?: string, message?: string) => {
      const old = previous?.find((c: { type: string }) => c.type === type);
      const status = ok ? 'True' : 'False';
      return {
        type,
        status,
        lastProbeTime: null,
        lastTransitionTime: old && old.status === status ? old.lastTransitionTime : timestamp(),
        ...(reason ? { reason } : {}),
        ...(message ? { message } : {}),
      };
    };
    const started = o.phase !== 'Pending' || o.containers.some((c) => 'running' in (c.state as object));
    const notReady = o.notReadyReason ?? 'ContainersNotReady';
    const notReadyMessage = o.notReadyReason ? undefined : `containers with unready status: [${unready.join(' ')}]`;
    const hostIP = `192.168.0.${this.nodes.indexOf(pod.spec?.nodeName ?? o.node ?? '') + 1 || 1}`;
    const podIP = pod.status?.podIP ?? (started ? this.rt.podIP() : undefined);
    return {
      observedGeneration: pod.metadata.generation,
      phase: o.phase,
      conditions: [
        cond('PodReadyToStartContainers', o.phase === 'Running' || (o.phase === 'Pending' && started)),
        cond('Initialized', true),
        allReady ? cond('Ready', true) : cond('Ready', false, notReady, notReadyMessage),
        allReady ? cond('ContainersReady', true) : cond('ContainersReady', false, notReady, notReadyMessage),
        cond('PodScheduled', true),
      ],
      hostIP,
      hostIPs: [{ ip: hostIP }],
      ...(podIP ? { podIP, podIPs: [{ ip: podIP }] } : {}),
      startTime: o.startTime,
      containerStatuses: o.containers,
      qosClass: 'BestEffort',
    };
  }
}

function waiting(reason: string, message?: string): ContainerState {
  return { state: { waiting: { reason, ...(message ? { message } : {}) } }, ready: false, started: false, restartCount: 0 };
}

function running(startedAt: string): ContainerState {
  return { state: { running: { startedAt } }, ready: true, started: true, restartCount: 0 };
}

interface ContainerStatus {
  name: string;
  containerID?: string;
  state?: { running?: object; terminated?: { containerID?: string; exitCode?: number; reason?: string } };
  lastState?: { terminated?: { containerID?: string; exitCode?: number; reason?: string } };
}

/** The ID of the container running under `name` in the pod's current status, if any. */
function runningID(pod: KubeObject, name: string): string | undefined {
  const status = ((pod.status?.containerStatuses ?? []) as ContainerStatus[]).find((c) => c.name === name);
  return status?.state?.running ? status.containerID : undefined;
}

/** The container runs a status shows (the current one, the last terminated one) and how each went so far. */
function runsOf(c: ContainerStatus): Array<[string, RunOutcome]> {
  const ended = (t: { exitCode?: number; reason?: string }, restarted: boolean): RunOutcome =>
    t.reason === 'OOMKilled' ? 'oomkilled' : t.exitCode === 0 ? 'succeeded' : restarted ? 'crashed' : 'failed';
  const runs: Array<[string, RunOutcome]> = [];
  const current = c.state?.terminated;
  if (current?.containerID) runs.push([current.containerID, ended(current, false)]);
  else if (c.state?.running && c.containerID) runs.push([c.containerID, 'running']);
  const last = c.lastState?.terminated;
  if (last?.containerID) runs.push([last.containerID, ended(last, true)]);
  return runs;
}

function containerIDs(pod: KubeObject): string[] {
  return ((pod.status?.containerStatuses ?? []) as ContainerStatus[]).flatMap((c) => runsOf(c).map(([id]) => id));
}
