/** Runs the real helm v4.1.4 against a stand-in cluster, with its own kubeconfig and helm home dirs. */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestCluster } from '../cluster/index.js';
import { helmPath } from '../cluster/kubectl.js';

export interface HelmResult {
  code: number;
  stdout: string;
  stderr: string;
}

export class HelmSession {
  private readonly dir = mkdtempSync(join(tmpdir(), 'kubewait-helm-'));
  private readonly kubeconfig = join(this.dir, 'kubeconfig');

  private constructor(
    private readonly binary: string,
    cluster: TestCluster,
    namespace: string,
  ) {
    cluster.writeKubeconfig(this.kubeconfig, { token: 'admin', namespace });
  }

  static async open(cluster: TestCluster, namespace = 'default'): Promise<HelmSession> {
    return new HelmSession(await helmPath(), cluster, namespace);
  }

  run(args: string[]): Promise<HelmResult> {
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: this.dir,
      HELM_CACHE_HOME: join(this.dir, 'cache'),
      HELM_CONFIG_HOME: join(this.dir, 'config'),
      HELM_DATA_HOME: join(this.dir, 'data'),
    };
    return new Promise((resolve) => {
      execFile(this.binary, ['--kubeconfig', this.kubeconfig, ...args], { env, timeout: 120_000 }, (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      });
    });
  }

  close(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
