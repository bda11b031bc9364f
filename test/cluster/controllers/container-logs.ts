/** What the simulated containers write to stdout, kept per container ID as a node's container runtime keeps
 *  one log file per container (a restart is a new container with a new ID and a new log).
 *
 *  The text comes from annotations, so a test can script it: `kubewait.test/log.<container>` for one
 *  container, `kubewait.test/log` for the pod's scripted container (its first one; the one that fails), on the
 *  pod, its template, or the workload that owns it (each line ends with `\n`, as `echo` writes them).
 *  Without one, each outcome writes what such a program typically prints. */
import type { Store, KubeObject } from '../store.js';
import { annotation } from './runtime.js';

export const LOG_ANNOTATION = 'kubewait.test/log';

/** How the container's run ends, which decides its default text. */
export type RunOutcome = 'running' | 'crashed' | 'oomkilled' | 'failed' | 'succeeded';

export interface LogLine {
  time: Date;
  text: string;
}

const DEFAULT_TEXT: Record<RunOutcome, (container: string) => string[]> = {
  running: (c) => [`level=info msg="starting ${c}"`, 'level=info msg="listening" addr=:8080'],
  // A Go program that exits on a missing setting: log lines, then the panic and its goroutine dump.
  crashed: (c) => [
    `level=info msg="starting ${c}" version=1.4.2`,
    'level=info msg="loading configuration"',
    'panic: missing DATABASE_URL',
    '',
    'goroutine 1 [running]:',
    'main.mustEnv(...)',
    '\t/app/main.go:17',
    'main.main()',
    '\t/app/main.go:42 +0x1d',
  ],
  // The OOM killer gives a program no chance to say anything.
  oomkilled: (c) => [`level=info msg="starting ${c}"`, 'level=info msg="warming cache" entries=2000000'],
  // A Node.js batch job whose database is not there.
  failed: () => [
    'migrating schema to version 42',
    'Error: connect ECONNREFUSED 10.96.0.15:5432',
    '    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1637:16)',
  ],
  succeeded: () => ['migrating schema to version 42', 'done'],
};

/** The text a container of a pod writes for an outcome: its annotation (pod, then `owner`), else the default. */
export function logTextFor(pod: KubeObject, owner: KubeObject | undefined, container: string, outcome: RunOutcome): string[] {
  const first = (pod.spec?.containers as Array<{ name?: string }> | undefined)?.[0]?.name;
  const keys = [`${LOG_ANNOTATION}.${container}`, ...(container === first ? [LOG_ANNOTATION] : [])];
  for (const key of keys) {
    const text = annotation(pod, key) ?? annotation(owner, key);
    if (text !== undefined) return text.replace(/\n$/, '').split('\n');
  }
  return DEFAULT_TEXT[outcome](container);
}

/** Per-store log files: the kubelet writes them, the pods/log endpoint reads them. */
export class ContainerLogs {
  private readonly files = new Map<string, { outcome: RunOutcome; lines: LogLine[] }>();

  outcomeOf(containerID: string): RunOutcome | undefined {
    return this.files.get(containerID)?.outcome;
  }

  /** Sets a container's log to what its run printed by the time of `outcome`, lines a millisecond apart from
   *  the run's start (a run that ends rewrites the text it had while running: the program's whole output). */
  write(containerID: string, outcome: RunOutcome, lines: string[], start = new Date()): void {
    const first = this.files.get(containerID)?.lines[0]?.time ?? start;
    this.files.set(containerID, { outcome, lines: lines.map((text, i) => ({ time: new Date(first.getTime() + i), text })) });
  }

  read(containerID: string): LogLine[] | undefined {
    return this.files.get(containerID)?.lines;
  }

  forget(containerIDs: string[]): void {
    for (const id of containerIDs) this.files.delete(id);
  }
}

const byStore = new WeakMap<Store, ContainerLogs>();

/** The log files of one cluster (keyed by its store, so the kubelet and the HTTP layer share them without
 *  another dependency to thread through). */
export function containerLogs(store: Store): ContainerLogs {
  let logs = byStore.get(store);
  if (!logs) byStore.set(store, (logs = new ContainerLogs()));
  return logs;
}
