/**
 * Helm release records -> Release, on records the real helm v4.1.4 wrote (fixtures/record.ts); the policy
 * that decides what to do with one; and the source a release's targets carry.
 * The fixtures decode the payload independently (payloadOf) to know what each record holds.
 */
import { documentName, InputError } from '../../src/settings.js';
import { describe, expect, it } from '@jest/globals';
import { gzipSync } from 'node:zlib';
import { targetsFromManifestText } from '../../src/targets/manifests.js';
import { decodeRelease, latestRelease, releaseHeadline, releaseNameProblem, type Release, type ReleaseDriver } from '../../src/release/decode.js';
import { decideRelease } from '../../src/release/policy.js';
import { inputOf } from '../../src/targets/types.js';
import { payloadOf, RECORD_KEYS, releaseRecord, SECRET_VALUE, type RecordKey, type StoredRecord } from './fixtures/index.js';

const driverOf = (record: StoredRecord): ReleaseDriver => record.kind;

/** A record carrying `payload` (any bytes) encoded as `driver` stores it. */
function recordWith(payload: Buffer | string, driver: ReleaseDriver = 'Secret', gzip = true): StoredRecord {
  const bytes = Buffer.isBuffer(payload) ? payload : Buffer.from(payload);
  const helmEncoded = (gzip ? gzipSync(bytes) : bytes).toString('base64');
  const base = releaseRecord(driver === 'Secret' ? 'v1-deployed' : 'configmap-v1-deployed');
  return { ...base, data: { release: driver === 'Secret' ? Buffer.from(helmEncoded).toString('base64') : helmEncoded } };
}

function releaseError(action: () => unknown): InputError {
  try {
    action();
  } catch (error) {
    if (error instanceof InputError) return error;
    throw error;
  }
  throw new Error('no InputError');
}

const shop = (revision: number) => ({ kind: 'release' as const, name: 'shop', revision });
const chart = { name: 'shop', version: '1.2.3', appVersion: '4.5.6' };

describe('decodeRelease on records helm v4.1.4 wrote', () => {
  it.each<[RecordKey, Omit<Release, 'targets'>]>([
    [
      'v1-pending-install',
      {
        name: 'shop',
        namespace: 'store',
        revision: 1,
        status: 'pending-install',
        description: 'Initial install underway',
        chart,
        record: { kind: 'Secret', name: 'sh.helm.release.v1.shop.v1' },
      },
    ],
    [
      'v1-deployed',
      {
        name: 'shop',
        namespace: 'store',
        revision: 1,
        status: 'deployed',
        description: 'Install complete',
        chart,
        record: { kind: 'Secret', name: 'sh.helm.release.v1.shop.v1' },
      },
    ],
    [
      'v2-pending-upgrade',
      {
        name: 'shop',
        namespace: 'store',
        revision: 2,
        status: 'pending-upgrade',
        description: 'Preparing upgrade',
        chart,
        record: { kind: 'Secret', name: 'sh.helm.release.v1.shop.v2' },
      },
    ],
    [
      'v1-superseded',
      {
        name: 'shop',
        namespace: 'store',
        revision: 1,
        status: 'superseded',
        description: 'Install complete',
        chart,
        record: { kind: 'Secret', name: 'sh.helm.release.v1.shop.v1' },
      },
    ],
    [
      'v3-failed',
      {
        name: 'shop',
        namespace: 'store',
        revision: 3,
        status: 'failed',
        description: 'Upgrade "shop" failed: etcdserver: request timed out',
        chart,
        record: { kind: 'Secret', name: 'sh.helm.release.v1.shop.v3' },
      },
    ],
    [
      'v3-uninstalling',
      {
        name: 'shop',
        namespace: 'store',
        revision: 3,
        status: 'uninstalling',
        description: 'Deletion in progress (or silently failed)',
        chart,
        record: { kind: 'Secret', name: 'sh.helm.release.v1.shop.v3' },
      },
    ],
    [
      'configmap-v1-deployed',
      {
        name: 'cart',
        namespace: 'store',
        revision: 1,
        status: 'deployed',
        description: 'Install complete',
        chart,
        record: { kind: 'ConfigMap', name: 'sh.helm.release.v1.cart.v1' },
      },
    ],
  ])('%s', (key, expected) => {
    const record = releaseRecord(key);
    const { targets, ...release } = decodeRelease(record, driverOf(record));
    expect(release).toEqual(expected);
    expect(targets).toHaveLength(7);
  });

  it('splits the manifest into the objects helm installed, each with its line in "helm get manifest"', () => {
    expect(decodeRelease(releaseRecord('v2-deployed'), 'Secret').targets).toEqual([
      { type: 'Namespace', apiVersion: 'v1', name: 'shop-jobs', namespace: 'store', source: { ...shop(2), line: 4 } },
      { type: 'Secret', apiVersion: 'v1', name: 'shop-db', namespace: 'store', source: { ...shop(2), line: 10 } },
      { type: 'ConfigMap', apiVersion: 'v1', name: 'shop-settings', namespace: 'store', source: { ...shop(2), line: 18 } },
      { type: 'Service', apiVersion: 'v1', name: 'shop-web', namespace: 'store', source: { ...shop(2), line: 26 } },
      { type: 'Deployment', apiVersion: 'apps/v1', name: 'shop-web', namespace: 'store', source: { ...shop(2), line: 37 } },
      // The v1 List's items; the second names its own namespace, which stays.
      { type: 'ServiceAccount', apiVersion: 'v1', name: 'shop-web', namespace: 'store', source: { ...shop(2), line: 65 } },
      { type: 'ServiceAccount', apiVersion: 'v1', name: 'shop-runner', namespace: 'shop-jobs', source: { ...shop(2), line: 69 } },
    ]);
  });

  it('splits exactly as the manifests input does, namespaces defaulted to the release namespace', () => {
    const record = releaseRecord('v2-deployed');
    const asManifest = targetsFromManifestText(payloadOf(record).manifest, shop(2));
    expect(asManifest.some((target) => target.namespace === undefined)).toBe(true);
    expect(decodeRelease(record, 'Secret').targets).toEqual(asManifest.map((target) => ({ ...target, namespace: target.namespace ?? 'store' })));
  });

  it('leaves hooks and tests out: the record holds them in hooks[], never in the manifest', () => {
    const record = releaseRecord('v1-deployed');
    expect(payloadOf(record).hooks.map(({ name, kind, events }) => ({ name, kind, events }))).toEqual([
      { name: 'shop-test-connection', kind: 'Pod', events: ['test'] },
      { name: 'shop-migrate', kind: 'Job', events: ['pre-install', 'pre-upgrade'] },
    ]);
    const names = decodeRelease(record, 'Secret').targets.map((target) => target.name);
    expect(names).not.toContain('shop-test-connection');
    expect(names).not.toContain('shop-migrate');
  });

  it('reads a payload without gzip (stored before compression) as Helm does', () => {
    const plain = releaseRecord('v1-deployed-plain');
    expect(Buffer.from(Buffer.from(plain.data.release, 'base64').toString('latin1'), 'base64').subarray(0, 1).toString()).toBe('{');
    expect(decodeRelease(plain, 'Secret')).toEqual(decodeRelease(releaseRecord('v1-deployed'), 'Secret'));
  });

  it.each<[string, StoredRecord, ReleaseDriver]>([
    [
      'a gzip payload in a ConfigMap',
      recordWith(JSON.stringify({ name: 'cart', version: 4, namespace: 'store', info: { status: 'deployed' }, manifest: '' }), 'ConfigMap'),
      'ConfigMap',
    ],
    [
      'a plain payload in a ConfigMap',
      recordWith(JSON.stringify({ name: 'cart', version: 4, namespace: 'store', info: { status: 'deployed' }, manifest: '' }), 'ConfigMap', false),
      'ConfigMap',
    ],
  ])('reads %s (one base64 layer fewer than a Secret)', (_name, record, driver) => {
    expect(decodeRelease(record, driver)).toMatchObject({ name: 'cart', revision: 4, status: 'deployed', targets: [] });
  });
});

describe('latestRelease picks the highest revision of the release', () => {
  it.each<[string, RecordKey[], string, { revision: number; status: string } | undefined]>([
    ['one deployed revision', ['v1-deployed'], 'shop', { revision: 1, status: 'deployed' }],
    ['an upgrade in progress', ['v1-deployed', 'v2-pending-upgrade'], 'shop', { revision: 2, status: 'pending-upgrade' }],
    ['a superseded history', ['v1-superseded', 'v2-deployed'], 'shop', { revision: 2, status: 'deployed' }],
    [
      'a failed upgrade over a deployed revision (Helm keeps v2 deployed)',
      ['v2-deployed', 'v1-superseded', 'v3-failed'],
      'shop',
      { revision: 3, status: 'failed' },
    ],
    ['an uninstall in progress', ['v1-superseded', 'v3-uninstalling', 'v2-deployed'], 'shop', { revision: 3, status: 'uninstalling' }],
    ['no records', [], 'shop', undefined],
    ['records of another release only', ['v1-deployed', 'v2-deployed'], 'other', undefined],
  ])('%s', (_name, keys, name, expected) => {
    const found = latestRelease(keys.map(releaseRecord), 'Secret', name);
    if (expected === undefined) expect(found).toBeUndefined();
    else expect(found).toMatchObject(expected);
  });

  it('decodes only the highest: an older broken record is not read', () => {
    const broken = { ...releaseRecord('v1-superseded'), data: { release: '!!!' } };
    expect(latestRelease([broken, releaseRecord('v2-deployed')], 'Secret', 'shop')).toMatchObject({ revision: 2 });
  });

  it('orders revisions as numbers, not text (v10 after v9)', () => {
    const v = (revision: number) => {
      const record = recordWith(JSON.stringify({ name: 'shop', version: revision, namespace: 'store', info: { status: 'superseded' }, manifest: '' }));
      record.metadata.labels.version = String(revision);
      return record;
    };
    expect(latestRelease([v(9), v(10), v(2)], 'Secret', 'shop')).toMatchObject({ revision: 10 });
  });

  it('decodes a record without a version label to learn its revision', () => {
    const unlabelled = releaseRecord('v3-failed');
    delete (unlabelled.metadata.labels as Partial<Record<string, string>>).version;
    expect(latestRelease([releaseRecord('v2-deployed'), unlabelled], 'Secret', 'shop')).toMatchObject({ revision: 3, status: 'failed' });
  });

  it("passes over a Secret that is not Helm's (another type)", () => {
    const opaque = { ...releaseRecord('v3-failed'), type: 'Opaque' };
    expect(latestRelease([releaseRecord('v2-deployed'), opaque], 'Secret', 'shop')).toMatchObject({ revision: 2 });
  });
});

describe('broken records: an error naming the record, never its content', () => {
  const secretJson = JSON.stringify({ name: 'shop', config: { dbPassword: SECRET_VALUE } });
  it.each<[string, StoredRecord, RegExp]>([
    ['no data.release', { ...releaseRecord('v1-deployed'), data: {} as { release: string } }, /it has no data\.release/],
    ['a Secret value that is not base64', { ...releaseRecord('v1-deployed'), data: { release: `${SECRET_VALUE}!` } }, /data\.release is not base64/],
    [
      'a payload that is not base64',
      { ...releaseRecord('v1-deployed'), data: { release: Buffer.from(`${SECRET_VALUE}!`).toString('base64') } },
      /payload is not base64 \(inside the Secret\)/,
    ],
    [
      'a corrupt gzip stream',
      recordWith(Buffer.concat([gzipSync(secretJson).subarray(0, 20), Buffer.from(SECRET_VALUE)]), 'Secret', false),
      /gzip payload is corrupt/,
    ],
    ['JSON cut short (JSON.parse would quote it)', recordWith(secretJson.slice(0, -3)), /payload is not JSON/],
    ['JSON that is not a release', recordWith('[1,2]'), /payload is not a release object/],
    ['a release without a name', recordWith(JSON.stringify({ version: 1, config: { dbPassword: SECRET_VALUE } })), /the release has no name/],
    [
      'a manifest that is not YAML',
      recordWith(JSON.stringify({ name: 'shop', version: 1, manifest: `a: b\n  c: "${SECRET_VALUE}\n` })),
      /line \d+ of its manifest \(helm get manifest shop --revision 1\) is not valid YAML/,
    ],
    [
      'a manifest document that is not an object',
      recordWith(JSON.stringify({ name: 'shop', version: 1, manifest: `---\nkind: Secret\nstringData: {p: ${SECRET_VALUE}}\n` })),
      /line 2 of its manifest .* is not a Kubernetes object: it has no apiVersion/,
    ],
  ])('%s', (_name, record, message) => {
    const error = releaseError(() => decodeRelease(record, 'Secret'));
    expect(error.message).toMatch(/^The Helm release record Secret sh\.helm\.release\.v1\.shop\.v1 cannot be read: /);
    expect(error.message).toMatch(message);
    expect(error.input).toBe('release');
    expect(JSON.stringify([error.message, { ...error }])).not.toContain(SECRET_VALUE);
  });

  it('refuses a gzip bomb instead of unpacking it', () => {
    const bomb = recordWith(Buffer.alloc(70 * 1024 * 1024, 0x20));
    expect(releaseError(() => decodeRelease(bomb, 'Secret')).message).toMatch(/unpacks to more than 64 MiB/);
  });
});

describe('the values never leave the decoder', () => {
  it.each(RECORD_KEYS)('%s', (key) => {
    const record = releaseRecord(key);
    // The record does hold the value: in config, and in the rendered Secret of the manifest.
    expect(payloadOf(record).config).toMatchObject({ dbPassword: SECRET_VALUE });
    expect(payloadOf(record).manifest).toContain(SECRET_VALUE);
    const release = decodeRelease(record, driverOf(record));
    const everything = JSON.stringify([release, latestRelease([record], driverOf(record), release.name), decideRelease(release, release.name, 'store')]);
    expect(everything).not.toContain(SECRET_VALUE);
    expect(everything).not.toContain(Buffer.from(SECRET_VALUE).toString('base64'));
    expect(everything).not.toContain('dbPassword');
  });
});

describe('decideRelease: what the status of the latest revision means', () => {
  const read = (key: RecordKey) => {
    const record = releaseRecord(key);
    return decodeRelease(record, driverOf(record));
  };
  it.each<[string, Release | 'not-found', string, RegExp]>([
    ['deployed', read('v2-deployed'), 'wait', /^Helm release shop revision 2 is deployed \(Upgrade complete\): waiting for its 7 objects$/],
    [
      'pending-install',
      read('v1-pending-install'),
      'poll-again',
      /^Helm release shop revision 1 is pending-install \(Initial install underway\): helm is still at work/,
    ],
    ['pending-upgrade', read('v2-pending-upgrade'), 'poll-again', /is pending-upgrade \(Preparing upgrade\): helm is still at work; reading the release again/],
    ['failed', read('v3-failed'), 'fail', /^Helm release shop revision 3 failed: Upgrade "shop" failed: etcdserver: request timed out$/],
    ['uninstalling', read('v3-uninstalling'), 'wait-deleted', /is being uninstalled .*: waiting for its objects to be deleted$/],
    ['superseded as the latest', read('v1-superseded'), 'error', /is the latest but marked superseded, .* "helm history shop -n store"$/],
    ['uninstalled', { ...read('v2-deployed'), status: 'uninstalled' }, 'error', /was uninstalled \(helm uninstall --keep-history\)/],
    ['a status Helm does not define', { ...read('v2-deployed'), status: 'rolling' }, 'error', /has status "rolling", which says nothing about its objects/],
    ['not found', 'not-found', 'poll-again', /^Helm release shop does not exist in namespace store \(yet\): waiting for it to appear/],
  ])('%s', (_name, release, action, message) => {
    const decision = decideRelease(release, 'shop', 'store');
    expect(decision.action).toBe(action);
    expect(decision.message).toMatch(message);
    // The objects are judged for deployed, failed (to show which one broke) and uninstalling alike.
    if (release !== 'not-found' && 'targets' in decision) expect(decision.targets).toEqual(release.targets);
  });
});

describe("releaseNameProblem: Helm's own rule for release names", () => {
  it.each([
    ['shop', undefined],
    ['shop-staging.eu', undefined],
    ['a'.repeat(53), undefined],
    ['a'.repeat(54), /longer than 53/],
    ['Shop', /lower-case letters/],
    ['shop,owner=x', /lower-case letters/],
    ['-shop', /lower-case letters/],
    ['', /lower-case letters/],
  ])('%s', (name, problem) => {
    const found = releaseNameProblem(name);
    if (problem === undefined) expect(found).toBeUndefined();
    else expect(found).toMatch(problem);
  });
});

describe('naming the release in the report', () => {
  it.each<[Pick<Release, 'name' | 'revision' | 'chart'>, string]>([
    [{ name: 'shop', revision: 3, chart }, 'shop revision 3 (chart shop-1.2.3, app 4.5.6)'],
    [{ name: 'shop', revision: 1, chart: { name: 'shop', version: '1.2.3', appVersion: '' } }, 'shop revision 1 (chart shop-1.2.3)'],
    [{ name: 'shop', revision: 1, chart: { name: '', version: '', appVersion: '' } }, 'shop revision 1'],
  ])('headline %#', (release, expected) => {
    expect(releaseHeadline(release)).toBe(expected);
  });

  it.each([
    [shop(3), 'release shop (revision 3)'],
    [{ kind: 'release' as const, name: 'shop-staging.eu', revision: 12 }, 'release shop-staging.eu (revision 12)'],
    // Named by its path, whatever the path looks like: only the kind makes a source a release.
    [{ kind: 'file' as const, file: 'k8s/release shop (revision 3).yaml' }, 'k8s/release shop (revision 3).yaml'],
    [{ kind: 'file' as const, file: 'release shop (revision 3)' }, 'release shop (revision 3)'],
    [{ kind: 'file' as const, file: 'deploy/web.yaml' }, 'deploy/web.yaml'],
  ])('%j is named %s', (document, expected) => {
    expect(documentName(document)).toBe(expected);
  });

  it('marks every target of a decoded release as coming from it', () => {
    expect(decodeRelease(releaseRecord('v2-deployed'), 'Secret').targets.every((target) => target.source?.kind === 'release')).toBe(true);
  });
});

describe('inputOf: the input a problem found later is blamed on', () => {
  it.each([
    [{}, 'resources'],
    [{ source: { kind: 'file', file: 'k8s/web.yaml', line: 3 } }, 'manifests'],
    [{ source: { ...shop(3), line: 40 } }, 'release'],
    // A workspace file that merely looks alike is still a manifest, even named exactly like a release's.
    [{ source: { kind: 'file', file: 'release shop (revision 3).yaml', line: 1 } }, 'manifests'],
    [{ source: { kind: 'file', file: 'release shop (revision 3)', line: 1 } }, 'manifests'],
  ] as const)('%j -> %s', (spec, input) => {
    expect(inputOf(spec)).toBe(input);
  });
});
