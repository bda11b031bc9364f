/**
 * The `release` input end to end: `dist/index.js` against the stand-in holding Helm release records
 * exactly as the real helm v4.1.4 wrote them (test/release/fixtures/records.json, recorded by
 * record.ts), and the objects of each record's manifest created as helm created them. The stand-in does
 * not decode protobuf request bodies, so helm cannot write to it directly: the records are pre-written.
 *
 * The command (`dist/cli.js --release NAME -o json`) is run in every outcome too: its stdout must be the
 * JSON document alone, with the release's revision and status in it.
 *
 * Every scenario also checks that the chart's values (SECRET_VALUE is in every record's `config` and in
 * the manifest's Secret) never reach stdout, stderr, the outputs or the job summary.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import type { ResourceOutput } from '../../src/report/outputs.js';
import { startCluster, type TestCluster } from '../cluster/index.js';
import { releaseManifest, releaseRecord, SECRET_VALUE, type RecordKey } from '../release/fixtures/index.js';
import { ensureDist } from './dist.js';
import { deployment } from './objects.js';
import { runAction, type ActionRun } from './runAction.js';
import { runCommand, type CommandOptions, type CommandRun } from './runCommand.js';

/** The namespace helm installed every golden release into. */
const NS = 'store';
const OPT_OUT = { 'kubewait.io/wait': 'false' };

let cluster: TestCluster;

beforeAll(async () => {
  await ensureDist();
}, 300_000);

beforeEach(async () => {
  // One cluster per scenario: every golden release is "shop" (or "broken") in namespace store.
  cluster = await startCluster({ speed: 0.2 });
});

afterEach(async () => {
  await cluster?.close();
});

/** The objects of a record's manifest, as helm creates them: namespaced ones in the release namespace. */
function manifestObjects(key: RecordKey): Array<Record<string, any>> {
  const objects = parseAllDocuments(releaseManifest(key))
    .map((d) => d.toJS() as Record<string, any> | null)
    .filter((o): o is Record<string, any> => o !== null);
  return objects
    .flatMap((o) => (o.kind === 'List' ? (o.items as Array<Record<string, any>>) : [o]))
    .map((o) => (o.kind === 'Namespace' || o.metadata.namespace ? o : { ...o, metadata: { ...o.metadata, namespace: NS } }));
}

/** What helm leaves behind: the records (as the API returns them) and the objects of the last one. */
function install(records: RecordKey[], objectsOf: RecordKey | undefined, change: (o: Record<string, any>) => Record<string, any> = (o) => o): void {
  for (const key of records) cluster.create(releaseRecord(key));
  if (objectsOf) for (const object of manifestObjects(objectsOf)) cluster.create(change(object));
}

function release(name: string, extra: Record<string, string> = {}, options: Parameters<typeof runAction>[1] = {}): Promise<ActionRun> {
  return runAction({ kubeconfig: cluster.kubeconfig({ namespace: NS }), release: name, timeout: '90s', 'poll-interval': '200ms', ...extra }, options);
}

const resourcesOf = (run: ActionRun) => JSON.parse(run.outputs.resources!) as ResourceOutput[];
const byRef = (run: ActionRun) => Object.fromEntries(resourcesOf(run).map((r) => [`${r.namespace}/${r.kind}/${r.name}`, r]));

function expectNoValues(run: ActionRun): void {
  for (const [where, text] of Object.entries({ stdout: run.stdout, stderr: run.stderr, summary: run.summary, outputs: JSON.stringify(run.outputs) })) {
    expect([where, text.includes(SECRET_VALUE)]).toEqual([where, false]);
  }
}

/** Every object of the shop chart's manifest (hooks and tests are not in it). */
const SHOP_OBJECTS = [
  'Namespace/shop-jobs',
  'store/Secret/shop-db',
  'store/ConfigMap/shop-settings',
  'store/Service/shop-web',
  'store/Deployment/shop-web',
  'store/ServiceAccount/shop-web',
  'shop-jobs/ServiceAccount/shop-runner',
];
const refOf = (r: ResourceOutput) => (r.namespace ? `${r.namespace}/${r.kind}/${r.name}` : `${r.kind}/${r.name}`);

describe('release: end to end', () => {
  it('a deployed release whose Deployment pulls a missing image fails, naming the image and the release', async () => {
    install(['broken-v1-deployed'], 'broken-v1-deployed');

    const run = await release('broken', { timeout: '120s' });

    expect(run.exitCode).toBe(1);
    expect(run.outputs).toMatchObject({ result: 'failed', 'release-revision': '1', 'release-status': 'deployed', failed: `${NS}/Deployment/broken-web` });
    const annotation = run.errors.find((e) => e.properties.title === `Deployment ${NS}/broken-web`);
    expect(annotation?.message).toContain('registry.example/shop:does-not-exist');
    // The manifest is the release's, not a file of the workspace: no file= that would point nowhere.
    expect(annotation?.properties.file).toBeUndefined();
    expect(byRef(run)[`${NS}/Deployment/broken-web`]).toMatchObject({ status: 'Failed', file: 'release broken (revision 1)' });
    expect(run.summary.split('\n')[0]).toBe('## ❌ kubewait: 1 of 7 targets failed · release broken revision 1 (chart shop-1.2.3, app 4.5.6)');
    expect(run.summary).not.toMatch(/\]\(https:[^)]*release/);
    expectNoValues(run);
  }, 150_000);

  it('follows a pending upgrade until helm marks it deployed, then waits for that revision', async () => {
    install(['v1-deployed', 'v2-pending-upgrade'], 'v2-pending-upgrade');
    let upgraded = false;

    const run = await release(
      'shop',
      {},
      {
        onStdout: (stdout) => {
          if (upgraded || !stdout.includes('is pending-upgrade')) return;
          upgraded = true;
          cluster.apply(releaseRecord('v1-superseded'));
          cluster.apply(releaseRecord('v2-deployed'));
        },
      },
    );

    expect(upgraded).toBe(true);
    expect(run.errors).toEqual([]);
    expect(run.exitCode).toBe(0);
    expect(run.outputs).toMatchObject({ result: 'ready', 'release-revision': '2', 'release-status': 'deployed', pending: '' });
    expect(resourcesOf(run).map(refOf).sort()).toEqual([...SHOP_OBJECTS].sort());
    expect(run.log.some((l) => l.includes('Helm release shop revision 2 is pending-upgrade (Preparing upgrade): helm is still at work'))).toBe(true);
    expect(run.log.some((l) => l.includes('Helm release shop revision 2 is deployed (Upgrade complete)'))).toBe(true);
    expect(run.summary.split('\n')[0]).toBe('## ✅ kubewait: 7 of 7 targets ready · release shop revision 2 (chart shop-1.2.3, app 4.5.6)');
    expectNoValues(run);
  }, 150_000);

  it("a failed release fails with Helm's own description, its objects still judged", async () => {
    install(['v3-failed'], 'v3-failed');

    const run = await release('shop');

    expect(run.exitCode).toBe(1);
    expect(run.outputs).toMatchObject({ result: 'failed', 'release-revision': '3', 'release-status': 'failed' });
    expect(run.errors.map((e) => e.message)).toContainEqual(
      expect.stringContaining('Helm release shop revision 3 failed: Upgrade "shop" failed: etcdserver: request timed out'),
    );
    // The objects themselves came up: the summary shows it was the release, not one of them.
    expect(Object.values(byRef(run)).map((r) => r.status)).toEqual(SHOP_OBJECTS.map(() => 'Current'));
    expect(run.summary).toContain('> [!CAUTION]');
    expect(run.summary).toContain('Upgrade &quot;shop&quot; failed: etcdserver: request timed out');
    expectNoValues(run);
  }, 150_000);

  it('waits for a release that appears only after kubewait started, saying so meanwhile', async () => {
    let installed = false;

    const run = await release(
      'shop',
      {},
      {
        onStdout: (stdout) => {
          if (installed || !stdout.includes(`Helm release shop does not exist in namespace ${NS} (yet)`)) return;
          installed = true;
          install(['v1-deployed'], 'v1-deployed');
        },
      },
    );

    expect(installed).toBe(true);
    expect(run.exitCode).toBe(0);
    expect(run.outputs).toMatchObject({ result: 'ready', 'release-revision': '1', 'release-status': 'deployed' });
    expect(resourcesOf(run).map(refOf).sort()).toEqual([...SHOP_OBJECTS].sort());
    expectNoValues(run);
  }, 150_000);

  it('a release that never appears times out saying what it waited for, with empty release outputs', async () => {
    const run = await release('shop', { timeout: '2s' });

    expect(run.exitCode).toBe(1);
    expect(run.outputs).toMatchObject({ result: 'timeout', 'release-revision': '', 'release-status': '', resources: '[]' });
    expect(run.errors.map((e) => e.message)).toContainEqual(expect.stringContaining(`Helm release shop does not exist in namespace ${NS} (yet)`));
  }, 60_000);

  it('an opted-out object that is not ready is reported but does not hold the wait, for release and resources alike', async () => {
    const failing = { ...OPT_OUT, 'kubewait.test/pod-failure': 'ImagePullBackOff' };
    install(['v2-deployed'], 'v2-deployed', (o) => (o.kind === 'Deployment' ? { ...o, metadata: { ...o.metadata, annotations: failing } } : o));
    const extras = deployment('extras', { namespace: NS, podFailure: 'ImagePullBackOff' });
    cluster.create({ ...extras, metadata: { ...extras.metadata, annotations: { ...extras.metadata.annotations, ...OPT_OUT } } });

    const run = await release('shop', { resources: 'deployment/extras' });

    expect(run.errors).toEqual([]);
    expect(run.exitCode).toBe(0);
    expect(run.outputs).toMatchObject({ result: 'ready', pending: '', failed: '', 'release-status': 'deployed' });
    for (const name of ['shop-web', 'extras']) {
      const target = byRef(run)[`${NS}/Deployment/${name}`];
      expect(target?.status).not.toBe('Current');
      expect(target?.message).toMatch(/^not waited for \(kubewait\.io\/wait: false\)/);
    }
    expect(run.summary.split('\n')[0]).toBe('## ✅ kubewait: 6 of 6 targets ready (2 not waited for) · release shop revision 2 (chart shop-1.2.3, app 4.5.6)');
    expect(run.summary).toContain('not waited for (kubewait.io/wait: false)');
    expectNoValues(run);
  }, 150_000);

  it("an uninstalling release is a deletion wait for its objects, beside the other inputs' targets as wait-for says", async () => {
    install(['v3-uninstalling'], 'v3-uninstalling');
    cluster.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'unrelated', namespace: NS }, data: { a: 'b' } });
    let deleted = false;

    const run = await release(
      'shop',
      { resources: 'configmap/unrelated' },
      {
        onStdout: (stdout) => {
          if (deleted || !stdout.includes('Waiting for 7 targets to be deleted')) return;
          deleted = true;
          for (const o of manifestObjects('v3-uninstalling')) cluster.delete(o.apiVersion, o.kind, o.metadata.namespace, o.metadata.name);
        },
      },
    );

    expect(deleted).toBe(true);
    expect(run.errors).toEqual([]);
    expect(run.exitCode).toBe(0);
    expect(run.outputs).toMatchObject({ result: 'ready', 'release-revision': '3', 'release-status': 'uninstalling', pending: '' });
    const statuses = Object.fromEntries(resourcesOf(run).map((r) => [refOf(r), r.status]));
    expect(statuses[`${NS}/ConfigMap/unrelated`]).toBe('Current');
    expect(SHOP_OBJECTS.map((ref) => statuses[ref])).toEqual(SHOP_OBJECTS.map(() => 'NotFound'));
    // Two goals side by side, each group headed by its own.
    const groups = run.commands.filter((c) => c.command === 'group').map((c) => c.message);
    expect(groups.sort()).toEqual(['Waiting for 1 target to be ready', 'Waiting for 7 targets to be deleted']);
    expectNoValues(run);
  }, 150_000);

  it('a release whose latest revision is superseded is an input problem naming release', async () => {
    install(['v1-superseded'], 'v1-superseded');

    const run = await release('shop');

    expect(run.exitCode).toBe(1);
    expect(run.outputs).toMatchObject({ result: 'error', 'release-revision': '1', 'release-status': 'superseded' });
    expect(run.errors.find((e) => e.properties.title === 'kubewait: input "release"')?.message).toMatch(/superseded.*helm history shop -n store/);
    // Every target is reported, also when none was judged.
    expect(resourcesOf(run).map(refOf).sort()).toEqual([...SHOP_OBJECTS].sort());
    expectNoValues(run);
  }, 60_000);
});

/**
 * A step started beside `helm upgrade` (docs/helm-release.md, "Started beside helm upgrade"): before helm
 * records the upgrade, the release's latest revision is the old one, deployed, with its objects ready.
 * `upgrade()` is what helm then does: the pending record, the new objects (here the Deployment's new image
 * cannot be pulled), the deployed record.
 */
describe('release: a step started beside helm upgrade', () => {
  const WAITING_FOR_2 = 'Helm release shop revision 1 is deployed, but revision 2 or newer is waited for';

  function upgrade(): void {
    cluster.apply(releaseRecord('v2-pending-upgrade'));
    for (const object of manifestObjects('v2-deployed')) {
      if (object.kind !== 'Deployment') continue;
      const template = object.spec.template;
      template.spec.containers[0].image = 'registry.example/shop:4.6.0-typo';
      template.metadata.annotations = { 'kubewait.test/pod-failure': 'ImagePullBackOff' };
      cluster.apply(object);
    }
    cluster.apply(releaseRecord('v1-superseded'));
    cluster.apply(releaseRecord('v2-deployed'));
  }

  it('without release-min-revision it judges the revision it finds: the old one, ready (so the step must run after helm upgrade)', async () => {
    install(['v1-deployed'], 'v1-deployed');

    const run = await release('shop');

    expect(run.exitCode).toBe(0);
    expect(run.outputs).toMatchObject({ result: 'ready', 'release-revision': '1', 'release-status': 'deployed' });
  }, 150_000);

  it('release-min-revision: next waits for the upgrade helm records, and judges its objects', async () => {
    install(['v1-deployed'], 'v1-deployed');
    let upgraded = false;

    const run = await release(
      'shop',
      { 'release-min-revision': 'next', timeout: '120s' },
      {
        onStdout: (stdout) => {
          if (upgraded || !stdout.includes(WAITING_FOR_2)) return;
          upgraded = true;
          upgrade();
        },
      },
    );

    expect(upgraded).toBe(true);
    expect(run.exitCode).toBe(1);
    expect(run.outputs).toMatchObject({ result: 'failed', 'release-revision': '2', 'release-status': 'deployed', failed: `${NS}/Deployment/shop-web` });
    expect(run.errors.find((e) => e.properties.title === `Deployment ${NS}/shop-web`)?.message).toContain('registry.example/shop:4.6.0-typo');
    expect(run.log.some((l) => l.includes(`${WAITING_FOR_2} (release-min-revision: next)`))).toBe(true);
    expectNoValues(run);
  }, 150_000);

  it('--release-min-revision N: the command waits for revision N, and at the deadline says which revision it found', async () => {
    install(['v1-deployed'], 'v1-deployed');
    const kubeconfig = path.join(tmpdir(), `kubewait-release-min-${process.pid}.yaml`);
    cluster.writeKubeconfig(kubeconfig, { namespace: NS });

    const run = await runCommand(['--release', 'shop', '-n', NS, '--release-min-revision', '2', '--timeout', '3s', '--poll-interval', '200ms', '-o', 'json'], {
      env: { KUBECONFIG: kubeconfig },
    });
    rmSync(kubeconfig, { force: true });

    expect(run.exitCode).toBe(2);
    const document = JSON.parse(run.stdout) as { result: string; resources: ResourceOutput[]; 'release-revision': number; 'release-status': string };
    expect(document).toMatchObject({ result: 'timeout', 'release-revision': 1, 'release-status': 'deployed' });
    // The old revision's objects are reported, never judged: no false green from them.
    expect(document.resources.map((r) => r.status)).toEqual(SHOP_OBJECTS.map(() => 'Unknown'));
    expect(document.resources[0]?.message).toContain(`${WAITING_FOR_2} (release-min-revision: 2)`);
  }, 150_000);
});

describe('kubewait --release -o json: stdout is one JSON document in every outcome', () => {
  let scratch: string;
  beforeEach(() => {
    scratch = mkdtempSync(path.join(tmpdir(), 'kubewait-release-json-'));
  });
  afterEach(() => rmSync(scratch, { recursive: true, force: true }));

  interface ReleaseDocument {
    result: string;
    resources: ResourceOutput[];
    'release-revision'?: number | null;
    'release-status'?: string | null;
    error?: string;
  }

  function command(extra: string[], options: CommandOptions = {}): Promise<CommandRun> {
    const kubeconfig = path.join(scratch, 'kubeconfig.yaml');
    cluster.writeKubeconfig(kubeconfig, { namespace: NS });
    const args = ['--release', 'shop', '-n', NS, '-o', 'json', '--poll-interval', '200ms', ...extra];
    return runCommand(args, { env: { KUBECONFIG: kubeconfig }, ...options });
  }

  /** The whole of stdout parses as one JSON document: a line before or after it (the release's log line
   *  on stdout, as before this was fixed) makes JSON.parse throw. */
  function document(run: CommandRun): ReleaseDocument {
    expect(run.stdout.trimStart().startsWith('{')).toBe(true);
    return JSON.parse(run.stdout) as ReleaseDocument;
  }

  it.each<[string, () => void, string[], CommandOptions, number, Partial<ReleaseDocument>]>([
    [
      'ready',
      () => install(['v1-deployed'], 'v1-deployed'),
      ['--timeout', '90s'],
      {},
      0,
      { result: 'ready', 'release-revision': 1, 'release-status': 'deployed' },
    ],
    ['failed', () => install(['v3-failed'], 'v3-failed'), ['--timeout', '90s'], {}, 1, { result: 'failed', 'release-revision': 3, 'release-status': 'failed' }],
    ['timeout', () => undefined, ['--timeout', '2s'], {}, 2, { result: 'timeout', 'release-revision': null, 'release-status': null, resources: [] }],
    [
      'error',
      () => install(['v1-superseded'], 'v1-superseded'),
      ['--timeout', '90s'],
      {},
      3,
      { result: 'error', 'release-revision': 1, 'release-status': 'superseded' },
    ],
    [
      'cancelled',
      () => install(['v1-pending-install'], 'v1-pending-install'),
      ['--timeout', '90s'],
      { signalWhen: (output) => (output.includes('is pending-install') ? 'SIGINT' : undefined) },
      130,
      { result: 'cancelled', 'release-revision': 1, 'release-status': 'pending-install' },
    ],
  ])(
    '%s',
    async (_outcome, setup, extra, options, exitCode, expected) => {
      setup();

      const run = await command(extra, options);

      expect(run.exitCode).toBe(exitCode);
      expect(document(run)).toMatchObject(expected);
      // The release's decision is in the live log, which -o json sends to stderr.
      expect(run.stdout).not.toContain('kubewait: Helm release shop');
      expect(run.stderr).toContain('kubewait: Helm release shop');
      expect(run.stdout + run.stderr).not.toContain(SECRET_VALUE);
    },
    150_000,
  );

  it('without --release the document has no release fields', async () => {
    install([], 'v1-deployed');
    const kubeconfig = path.join(scratch, 'kubeconfig.yaml');
    cluster.writeKubeconfig(kubeconfig, { namespace: NS });

    const run = await runCommand(['deployment/shop-web', '-n', NS, '-o', 'json', '--timeout', '90s'], { env: { KUBECONFIG: kubeconfig } });

    expect(run.exitCode).toBe(0);
    expect(Object.keys(JSON.parse(run.stdout) as object).sort()).toEqual(['resources', 'result']);
  }, 150_000);
});
