/**
 * The kit of the hostile-conditions suites (hostile-*.e2e.test.ts, issues 12, 24 and 34; hostile answers: intercept.ts): one API server stand-in
 * per test file, a scratch directory, and the helpers that bend a kubeconfig or write an exec plugin. The
 * suites are split by theme so jest runs them side by side; each file calls `hostileKit()` once.
 *
 * Few assertions are timed: a run that waited for its deadline shows it in `result`, and a hang is killed by
 * runAction (killAfterMs) and fails. Where the time is the point (a hung exec plugin, a huge Retry-After),
 * the bound is generous: seconds of slack on the order of magnitude at stake.
 */
import { afterAll, beforeAll, expect } from '@jest/globals';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import type { ResourceOutput } from '../../src/report/outputs.js';
import { startCluster, type TestCluster } from '../cluster/index.js';
import { ensureDist } from './dist.js';
import { deployment } from './objects.js';
import type { ActionRun } from './runAction.js';

export type Kubeconfig = {
  clusters: Array<{ cluster: Record<string, unknown> }>;
  users: Array<{ user: Record<string, unknown> }>;
};

export interface HostileKit {
  /** The stand-in: a Deployment `web` in namespaces `hostile` and `misconf`; token `list-only` may get and list. */
  readonly cluster: TestCluster;
  /** A directory removed after the file's tests. */
  readonly scratch: string;
  /** The stand-in's kubeconfig, changed by `edit`. */
  kubeconfigWith(edit: (config: Kubeconfig) => void, namespace?: string): string;
  /** A shell script as an exec credential plugin. */
  plugin(name: string, body: string): string;
}

/** Starts the stand-in before the file's tests and closes it after them. */
export function hostileKit(): HostileKit {
  let cluster: TestCluster | undefined;
  let scratch = '';
  beforeAll(async () => {
    await ensureDist();
    cluster = await startCluster({ speed: 0.2, tokens: { 'list-only': [{ verbs: ['get', 'list'], resources: ['*'] }] } });
    scratch = mkdtempSync(path.join(tmpdir(), 'kubewait-hostile-'));
    for (const namespace of ['hostile', 'misconf']) cluster.create(deployment('web', { namespace }));
  }, 300_000);
  afterAll(async () => {
    await cluster?.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });
  return {
    get cluster() {
      if (!cluster) throw new Error('the stand-in starts in beforeAll');
      return cluster;
    },
    get scratch() {
      return scratch;
    },
    kubeconfigWith(edit, namespace = 'hostile') {
      const config = parse(this.cluster.kubeconfig({ namespace })) as Kubeconfig;
      edit(config);
      return stringify(config);
    },
    plugin(name, body) {
      const file = path.join(scratch, name);
      writeFileSync(file, `#!/bin/sh\n${body}\n`);
      chmodSync(file, 0o755);
      return file;
    },
  };
}

/** A kubeconfig edit: the user authenticates through exec plugin `command`. */
export const execUser = (command: string) => (config: Kubeconfig) => {
  config.users[0]!.user = { exec: { apiVersion: 'client.authentication.k8s.io/v1', command, interactiveMode: 'Never' } };
};

/** A loopback port nothing listens on. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** What a reader of the run can see (masks excepted). */
export function visible(run: ActionRun): string {
  const log = run.stdout
    .split('\n')
    .filter((line) => !line.startsWith('::add-mask::'))
    .join('\n');
  return [log, run.stderr, JSON.stringify(run.outputs), run.summary].join('\n');
}

export function expectCannotUseKubeconfig(run: ActionRun, cause: RegExp): void {
  expect(run.outputs.result).toBe('error');
  expect(run.exitCode).toBe(1);
  expect(run.errors).toHaveLength(1);
  expect(run.errors[0]!.properties.title).toBe('kubewait: input "kubeconfig"');
  expect(run.errors[0]!.message).toMatch(/^Input "kubeconfig" \(context "test"\) cannot be used: /);
  expect(run.errors[0]!.message).toMatch(cause);
  // Every target is still reported.
  expect((JSON.parse(run.outputs.resources!) as ResourceOutput[]).map((r) => r.name)).toEqual(['web']);
}
