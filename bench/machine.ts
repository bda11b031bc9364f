/** The machine the figures were taken on. */
import { readFileSync } from 'node:fs';
import os from 'node:os';

export interface Machine {
  cpus: number;
  cpuModel: string;
  memoryGiB: number;
  node: string;
  kernel: string;
  /** 1-minute load average when the bench started and ended: a busy machine makes noisy figures. */
  loadAtStart: number;
  loadAtEnd?: number;
  clientNode: string;
}

export function describeMachine(): Machine {
  const clientNode = JSON.parse(readFileSync(new URL('../node_modules/@kubernetes/client-node/package.json', import.meta.url), 'utf8')) as { version: string };
  return {
    cpus: os.availableParallelism(),
    cpuModel: os.cpus()[0]?.model.trim() ?? 'unknown',
    memoryGiB: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    kernel: `${os.type()} ${os.release()}`,
    loadAtStart: os.loadavg()[0] ?? Number.NaN,
    clientNode: clientNode.version,
  };
}
