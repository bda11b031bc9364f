/** `GET /api/v1/namespaces/NS/pods/NAME/log` as a real cluster answers it: the API server checks the options
 *  and the container name (pkg/registry/core/pod/strategy.go LogLocation, validateContainer), then the node's
 *  kubelet picks the container run from the pod's status (pkg/kubelet/kubelet_pods.go
 *  validateContainerLogStatus) and streams its log as text/plain. A kubelet error reaches the client as a
 *  400 BadRequest Status carrying the kubelet's text (apiserver GenericHttpResponseChecker). */
import type { ServerResponse } from 'node:http';
import type { Api } from './api.js';
import { controllerOf } from './controllers/runtime.js';
import { containerLogs, logTextFor, type LogLine, type RunOutcome } from './controllers/container-logs.js';
import { errors } from './errors.js';
import type { KubeObject } from './store.js';

interface Container {
  name: string;
}

interface ContainerStatus {
  name: string;
  containerID?: string;
  state?: { waiting?: { reason?: string }; running?: object; terminated?: Run };
  lastState?: { terminated?: Run };
}

interface Run {
  containerID?: string;
  exitCode?: number;
  reason?: string;
}

interface LogOptions {
  container: string;
  previous: boolean;
  timestamps: boolean;
  tailLines?: number;
  limitBytes?: number;
}

/** Answers one pods/log GET; throws the ApiError a real server would answer with. */
export function serveLog(api: Api, res: ServerResponse, rec: { status: number }, namespace: string, name: string, q: URLSearchParams): void {
  const podType = api.typeFor('v1', 'Pod');
  const pod = api.store.get(podType, namespace, name);
  if (!pod) throw errors.notFound(podType, name);
  const opts = parseOptions(name, q);
  const container = validateContainer(opts.container, pod);
  const headers = { 'Content-Type': 'text/plain', 'Cache-Control': 'no-cache, private' };
  if (!pod.spec?.nodeName) {
    // No node, no kubelet to ask: the API server streams nothing (LogLocation returns no location).
    rec.status = 204;
    res.writeHead(204, headers);
    return void res.end();
  }
  const lines = kubeletLog(api, pod, container, opts.previous);
  rec.status = 200;
  res.writeHead(200, headers);
  res.end(render(lines, opts));
}

function parseOptions(name: string, q: URLSearchParams): LogOptions {
  const flag = (key: string) => ['true', '1'].includes(q.get(key) ?? '');
  const integer = (key: string): number | undefined => {
    const raw = q.get(key);
    if (raw === null || raw === '') return undefined;
    if (!/^-?\d+$/.test(raw)) throw errors.badRequest(`strconv.ParseInt: parsing "${raw}": invalid syntax`);
    return Number(raw);
  };
  const opts: LogOptions = {
    container: q.get('container') ?? '',
    previous: flag('previous'),
    timestamps: flag('timestamps'),
    tailLines: integer('tailLines'),
    limitBytes: integer('limitBytes'),
  };
  // pkg/apis/core/validation ValidatePodLogOptions (follow and sinceSeconds are accepted and have no effect here).
  const causes: Array<{ field: string; message: string }> = [];
  if (opts.tailLines !== undefined && opts.tailLines < 0)
    causes.push({ field: 'tailLines', message: `Invalid value: ${opts.tailLines}: must be greater than or equal to 0` });
  if (opts.limitBytes !== undefined && opts.limitBytes < 1)
    causes.push({ field: 'limitBytes', message: `Invalid value: ${opts.limitBytes}: must be greater than 0` });
  if (causes.length > 0) throw errors.invalid('PodLogOptions', '', name, causes);
  return opts;
}

/** Every container name in the order podutil.VisitContainers walks them: init, regular, ephemeral. */
function containerNames(pod: KubeObject): string[] {
  const spec = pod.spec ?? {};
  return [spec.initContainers, spec.containers, spec.ephemeralContainers].flatMap((list: Container[] | undefined) => (list ?? []).map((c) => c.name));
}

/** strategy.go validateContainer: the one container when there is one, else the name must be given and exist. */
function validateContainer(container: string, pod: KubeObject): string {
  const name = pod.metadata.name;
  const regular = (pod.spec?.containers ?? []) as Container[];
  if (container === '') {
    if (regular.length === 1 && regular[0]) return regular[0].name;
    if (regular.length === 0) throw errors.badRequest(`a container name must be specified for pod ${name}`);
    // Go's %s of a []string: [a b c]
    throw errors.badRequest(`a container name must be specified for pod ${name}, choose one of: [${containerNames(pod).join(' ')}]`);
  }
  if (!containerNames(pod).includes(container)) throw errors.badRequest(`container ${container} is not valid for pod ${name}`);
  return container;
}

/** kubelet_pods.go validateContainerLogStatus: which run's log to read, or why there is none. */
function chooseRun(pod: KubeObject, container: string, previous: boolean): { id: string; run: 'running' | Run } {
  const podName = pod.metadata.name;
  const status = pod.status ?? {};
  const statuses = [status.containerStatuses, status.initContainerStatuses, status.ephemeralContainerStatuses] as Array<ContainerStatus[] | undefined>;
  const found = statuses.map((list) => (list ?? []).find((c) => c.name === container)).find((c) => c !== undefined);
  const q = (s: string) => JSON.stringify(s);
  if (!found) throw errors.badRequest(`container ${q(container)} in pod ${q(podName)} is not available`);
  const last = found.lastState?.terminated;
  const { waiting, running, terminated } = found.state ?? {};
  const isTerminated = `container ${q(container)} in pod ${q(podName)} is terminated`;
  if (previous) {
    if (!last?.containerID) throw errors.badRequest(`previous terminated container ${q(container)} in pod ${q(podName)} not found`);
    return { id: last.containerID, run: last };
  }
  if (running) return { id: found.containerID ?? '', run: 'running' };
  if (terminated) {
    if (terminated.containerID) return { id: terminated.containerID, run: terminated };
    if (last?.containerID) return { id: last.containerID, run: last };
    throw errors.badRequest(isTerminated);
  }
  if (last) {
    if (!last.containerID) throw errors.badRequest(isTerminated);
    return { id: last.containerID, run: last };
  }
  if (waiting) {
    const why =
      waiting.reason === 'ErrImagePull'
        ? "image can't be pulled"
        : waiting.reason === 'ImagePullBackOff'
          ? 'trying and failing to pull image'
          : (waiting.reason ?? '');
    throw errors.badRequest(`container ${q(container)} in pod ${q(podName)} is waiting to start: ${why}`);
  }
  throw errors.badRequest(`container ${q(container)} in pod ${q(podName)} is waiting to start - no logs yet`);
}

/** The run's log lines: what the simulated kubelet recorded, or for a fixture pod (created with its status, so
 *  no run was simulated) the text its annotations script for that run. */
function kubeletLog(api: Api, pod: KubeObject, container: string, previous: boolean): LogLine[] {
  const { id, run } = chooseRun(pod, container, previous);
  const recorded = id ? containerLogs(api.store).read(id) : undefined;
  if (recorded) return recorded;
  const owner = controllerOf(pod);
  const outcome: RunOutcome =
    run === 'running' ? 'running' : run.reason === 'OOMKilled' ? 'oomkilled' : run.exitCode === 0 ? 'succeeded' : previous ? 'crashed' : 'failed';
  const start = new Date(Date.parse(String(pod.status?.startTime ?? '')) || Date.now());
  return logTextFor(pod, owner ? api.store.byUID(owner.uid)?.object : undefined, container, outcome).map((text, i) => ({
    time: new Date(start.getTime() + i),
    text,
  }));
}

/** The kubelet's order: the last `tailLines` lines, optionally timestamped, then at most `limitBytes` bytes
 *  (which may end mid-line, as the real one does). */
function render(lines: LogLine[], opts: LogOptions): string {
  const tail = opts.tailLines === undefined ? lines : opts.tailLines === 0 ? [] : lines.slice(-opts.tailLines);
  const text = tail.map((l) => `${opts.timestamps ? `${rfc3339Nano(l.time)} ` : ''}${l.text}\n`).join('');
  if (opts.limitBytes === undefined) return text;
  const bytes = Buffer.from(text, 'utf8');
  return bytes.length <= opts.limitBytes ? text : bytes.subarray(0, opts.limitBytes).toString('utf8');
}

/** Go's time.RFC3339Nano as the container runtime writes it (trailing zeros of the fraction dropped). */
function rfc3339Nano(time: Date): string {
  const iso = time.toISOString(); // 2026-12-02T15:20:10.123Z
  const [whole, fraction = ''] = iso.slice(0, -1).split('.');
  const digits = fraction.replace(/0+$/, '');
  return `${whole}${digits ? `.${digits}` : ''}Z`;
}
