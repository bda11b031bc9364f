/** Runs the real kubectl against a stand-in cluster: one-shot commands and long-running ones (get -w,
 *  wait, rollout status) whose output lines are observed as they come. */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestCluster } from '../cluster/index.js';
import { kubectlPath } from '../cluster/kubectl.js';

export interface KubectlResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export class KubectlSession {
  private readonly dir = mkdtempSync(join(tmpdir(), 'kubewait-kubectl-'));
  private readonly running = new Set<ChildProcess>();

  private constructor(
    private readonly binary: string,
    private readonly cluster: TestCluster,
  ) {}

  static async open(cluster: TestCluster): Promise<KubectlSession> {
    return new KubectlSession(await kubectlPath(), cluster);
  }

  /** Writes a kubeconfig for `token` and returns kubectl's leading flags (own discovery cache per session). */
  private flags(token: string): string[] {
    const path = join(this.dir, `kubeconfig-${token}`);
    this.cluster.writeKubeconfig(path, { token });
    return ['--kubeconfig', path, '--cache-dir', join(this.dir, 'cache'), '--request-timeout', '30s'];
  }

  start(args: string[], opts: { token?: string } = {}): RunningKubectl {
    const child = spawn(this.binary, [...this.flags(opts.token ?? 'admin'), ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH ?? '', HOME: this.dir },
    });
    this.running.add(child);
    child.on('exit', () => this.running.delete(child));
    return new RunningKubectl(child);
  }

  run(args: string[], opts: { token?: string } = {}): Promise<KubectlResult> {
    return this.start(args, opts).result;
  }

  close(): void {
    for (const child of this.running) child.kill('SIGKILL');
    rmSync(this.dir, { recursive: true, force: true });
  }
}

export class RunningKubectl {
  stdout = '';
  stderr = '';
  exitCode: number | null = null;
  readonly result: Promise<KubectlResult>;

  constructor(private readonly child: ChildProcess) {
    child.stdout!.on('data', (c: Buffer) => (this.stdout += c.toString('utf8')));
    child.stderr!.on('data', (c: Buffer) => (this.stderr += c.toString('utf8')));
    this.result = new Promise((resolve) => {
      child.on('close', (code) => {
        this.exitCode = code;
        resolve({ code, stdout: this.stdout, stderr: this.stderr });
      });
    });
  }

  get exited(): boolean {
    return this.child.exitCode !== null || this.child.signalCode !== null;
  }

  lines(): string[] {
    return this.stdout.split('\n').filter((l) => l.trim() !== '');
  }

  kill(): Promise<KubectlResult> {
    this.child.kill('SIGTERM');
    return this.result;
  }
}

/** Splits a `kubectl get` output line into its columns. */
export function columns(line: string): string[] {
  return line.trim().split(/\s+/);
}
