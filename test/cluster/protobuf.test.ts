/** Protobuf request bodies: golden bodies captured from the real kubectl v1.35.2 and helm v4.1.4 decode to
 *  the JSON those clients would have sent, the special types map as Go's JSON does, and the HTTP API
 *  accepts protobuf creates and updates (and rejects what it cannot read with a clear Status). */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { startCluster, type TestCluster } from './index.js';
import type { MessageSchema } from './proto/build.js';
import { decodeProtobufObject, PROTOBUF } from './protobuf.js';
import { raw } from './testkit.js';

interface Golden {
  captured: string;
  method: string;
  path: string;
  contentType: string;
  body: string;
  json?: unknown;
}
const golden = (name: string) => JSON.parse(readFileSync(new URL(`./fixtures/protobuf/${name}.json`, import.meta.url), 'utf8')) as Golden;
const bodyOf = (g: Golden) => Buffer.from(g.body, 'base64');

// ---------------------------------------------------------------------------------------------
// A minimal encoder over the same schema, for bodies no client at hand sends (special types, edge cases).

const schema = JSON.parse(readFileSync(new URL('./proto/k8s.json', import.meta.url), 'utf8')) as { messages: Record<string, MessageSchema> };
type Value = string | number | boolean | Buffer | Fields;
type Fields = Array<[name: string, value: Value]>;

function varint(n: bigint): Buffer {
  const out: number[] = [];
  let v = BigInt.asUintN(64, n);
  do {
    const byte = Number(v & 0x7fn);
    v >>= 7n;
    out.push(v ? byte | 0x80 : byte);
  } while (v);
  return Buffer.from(out);
}

function encode(type: string, fields: Fields): Buffer {
  const message = schema.messages[type];
  if (!message) throw new Error(`no schema for ${type}`);
  const parts: Buffer[] = [];
  for (const [name, value] of fields) {
    const field = message.fields.find((f) => f.name === name);
    if (!field) throw new Error(`${type} has no field ${name}`);
    if (Array.isArray(value)) {
      const inner = field.keyType ? encodeMapEntry(field.type, value) : encode(field.type, value);
      parts.push(varint(BigInt((field.id << 3) | 2)), varint(BigInt(inner.length)), inner);
    } else if (typeof value === 'string' || Buffer.isBuffer(value)) {
      const bytes = Buffer.isBuffer(value) ? value : Buffer.from(value, 'utf8');
      parts.push(varint(BigInt((field.id << 3) | 2)), varint(BigInt(bytes.length)), bytes);
    } else {
      parts.push(varint(BigInt(field.id << 3)), varint(BigInt(typeof value === 'boolean' ? Number(value) : value)));
    }
  }
  return Buffer.concat(parts);
}

/** A map entry: key 1 (string), value 2 (a scalar or a message given as Fields). */
function encodeMapEntry(valueType: string, entry: Fields): Buffer {
  const [key, value = ''] = [entry[0]?.[1], entry[1]?.[1]];
  const k = Buffer.from(String(key));
  const v = Array.isArray(value) ? encode(valueType, value) : Buffer.isBuffer(value) ? value : Buffer.from(String(value));
  return Buffer.concat([Buffer.from([0x0a]), varint(BigInt(k.length)), k, Buffer.from([0x12]), varint(BigInt(v.length)), v]);
}

function envelope(apiVersion: string, kind: string, raw: Buffer): Buffer {
  const unknown = encode('k8s.io.apimachinery.pkg.runtime.Unknown', [
    [
      'typeMeta',
      [
        ['apiVersion', apiVersion],
        ['kind', kind],
      ],
    ],
    ['raw', raw],
  ]);
  return Buffer.concat([Buffer.from('k8s\0', 'latin1'), unknown]);
}

// ---------------------------------------------------------------------------------------------

describe('golden bodies from the real clients', () => {
  it.each(['kubectl-deployment', 'kubectl-secret', 'kubectl-configmap'])('%s decodes to what the client prints with --dry-run=client -o json', (name) => {
    const g = golden(name);
    expect(g.contentType).toBe(PROTOBUF);
    expect(decodeProtobufObject(bodyOf(g))).toEqual(g.json);
  });

  it.each([
    ['helm-release-install', 'POST', 'pending-install', 'createdAt'],
    ['helm-release-deployed', 'PUT', 'deployed', 'modifiedAt'],
  ])('%s: the release Secret helm 4 writes, with its gzip+base64 payload intact', (name, method, status, stampLabel) => {
    const g = golden(name);
    expect(g.method).toBe(method);
    const secret = decodeProtobufObject(bodyOf(g)) as { metadata: { name: string; labels: Record<string, string> }; type: string; data: { release: string } };
    expect(secret).toMatchObject({
      apiVersion: 'v1',
      kind: 'Secret',
      type: 'helm.sh/release.v1',
      metadata: {
        name: 'sh.helm.release.v1.shop.v1',
        labels: { name: 'shop', owner: 'helm', status, version: '1', [stampLabel]: expect.stringMatching(/^\d+$/) },
      },
    });
    const release = JSON.parse(gunzipSync(Buffer.from(Buffer.from(secret.data.release, 'base64').toString('utf8'), 'base64')).toString('utf8')) as {
      name: string;
      version: number;
      info: { status: string };
      manifest: string;
    };
    expect(release).toMatchObject({ name: 'shop', version: 1, info: { status } });
    expect(release.manifest).toContain('kind: HorizontalPodAutoscaler');
  });
});

describe('special types map as Go encoding/json does', () => {
  const deploymentWith = (spec: Fields, metadata: Fields = [['name', 'd']]) =>
    decodeProtobufObject(
      envelope(
        'apps/v1',
        'Deployment',
        encode('k8s.io.api.apps.v1.Deployment', [
          ['metadata', metadata],
          ['spec', spec],
        ]),
      ),
    ) as Record<string, any>;
  const rolling = (fields: Fields) =>
    deploymentWith([
      [
        'strategy',
        [
          ['type', 'RollingUpdate'],
          ['rollingUpdate', fields],
        ],
      ],
    ]).spec.strategy.rollingUpdate;

  it.each([
    [
      'IntOrString as a string',
      [
        [
          'maxSurge',
          [
            ['type', 1],
            ['strVal', '25%'],
          ],
        ],
      ] as Fields,
      { maxSurge: '25%' },
    ],
    [
      'IntOrString as an int',
      [
        [
          'maxUnavailable',
          [
            ['type', 0],
            ['intVal', 2],
          ],
        ],
      ] as Fields,
      { maxUnavailable: 2 },
    ],
    ['IntOrString zero int', [['maxUnavailable', []]] as Fields, { maxUnavailable: 0 }],
  ])('%s', (_name, fields, expected) => {
    expect(rolling(fields)).toEqual(expected);
  });

  it('pointer scalars keep an explicit zero, absent ones are omitted; negative int32 round-trips', () => {
    expect(deploymentWith([['replicas', 0]]).spec).toEqual({
      replicas: 0,
      selector: null,
      template: { metadata: {}, spec: { containers: null } },
      strategy: {},
    });
    expect(deploymentWith([['progressDeadlineSeconds', -5]]).spec.progressDeadlineSeconds).toBe(-5);
  });

  it('Time as RFC 3339 seconds, zero Time omitted (omitzero), MicroTime with microseconds', () => {
    const d = deploymentWith(
      [],
      [
        ['name', 'd'],
        ['creationTimestamp', [['seconds', 1796225465]]],
        [
          'deletionTimestamp',
          [
            ['seconds', 1796225465],
            ['nanos', 5e8],
          ],
        ],
      ],
    );
    expect(d.metadata).toEqual({ name: 'd', creationTimestamp: '2026-12-02T15:31:05Z', deletionTimestamp: '2026-12-02T15:31:05Z' });
    expect(
      deploymentWith(
        [],
        [
          ['name', 'd'],
          ['creationTimestamp', []],
        ],
      ).metadata,
    ).toEqual({ name: 'd' });
    const lease = decodeProtobufObject(
      envelope(
        'coordination.k8s.io/v1',
        'Lease',
        encode('k8s.io.api.coordination.v1.Lease', [
          [
            'spec',
            [
              [
                'renewTime',
                [
                  ['seconds', 1796225465],
                  ['nanos', 123456789],
                ],
              ],
            ],
          ],
        ]),
      ),
    );
    expect(lease).toEqual({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: {}, spec: { renewTime: '2026-12-02T15:31:05.123456Z' } });
  });

  it('Quantity as its string, bytes as base64, inlined structs flattened', () => {
    const pod = decodeProtobufObject(
      envelope(
        'v1',
        'Pod',
        encode('k8s.io.api.core.v1.Pod', [
          [
            'spec',
            [
              [
                'containers',
                [
                  ['name', 'c'],
                  [
                    'resources',
                    [
                      [
                        'limits',
                        [
                          ['key', 'cpu'],
                          ['value', [['string', '500m']]],
                        ],
                      ],
                    ],
                  ],
                ],
              ],
              [
                'volumes',
                [
                  ['name', 'cfg'],
                  ['volumeSource', [['configMap', [['localObjectReference', [['name', 'app-config']]]]]]],
                ],
              ],
            ],
          ],
        ]),
      ),
    ) as Record<string, any>;
    expect(pod.spec.containers).toEqual([{ name: 'c', resources: { limits: { cpu: '500m' } } }]);
    expect(pod.spec.volumes).toEqual([{ name: 'cfg', configMap: { name: 'app-config' } }]);
    const secret = decodeProtobufObject(
      envelope(
        'v1',
        'Secret',
        encode('k8s.io.api.core.v1.Secret', [
          [
            'data',
            [
              ['key', 'k'],
              ['value', Buffer.from([0, 255, 1])],
            ],
          ],
        ]),
      ),
    );
    expect(secret).toEqual({ apiVersion: 'v1', kind: 'Secret', metadata: {}, data: { k: 'AP8B' } });
  });

  it('skips fields it does not know (a newer client) instead of failing', () => {
    const body = Buffer.concat([
      encode('k8s.io.api.core.v1.ConfigMap', [
        [
          'data',
          [
            ['key', 'a'],
            ['value', 'b'],
          ],
        ],
      ]),
      varint(BigInt((999 << 3) | 2)),
      varint(3n),
      Buffer.from('xyz'),
      varint(BigInt(998 << 3)),
      varint(7n),
    ]);
    expect(decodeProtobufObject(envelope('v1', 'ConfigMap', body))).toEqual({ apiVersion: 'v1', kind: 'ConfigMap', metadata: {}, data: { a: 'b' } });
  });
});

describe('protobuf through the HTTP API', () => {
  let cluster: TestCluster;
  beforeAll(async () => {
    cluster = await startCluster({ controllers: false });
  });
  afterAll(async () => {
    await cluster.close();
  });

  const post = (path: string, body: Buffer) =>
    raw(cluster, 'POST', path, { body, headers: { 'Content-Type': PROTOBUF, Accept: `${PROTOBUF},application/json` } });

  it('creates from the golden kubectl bodies and answers JSON (the client accepts it)', async () => {
    for (const name of ['kubectl-deployment', 'kubectl-secret', 'kubectl-configmap']) {
      const g = golden(name);
      const res = await post(g.path, bodyOf(g));
      expect(res.status).toBe(201);
      expect(res.headers['content-type']).toBe('application/json');
      expect(res.json).toMatchObject({ metadata: { namespace: 'default', uid: expect.any(String) } });
    }
    expect(cluster.get('v1', 'Secret', 'default', 's1')?.data).toEqual({ password: Buffer.from('hunter2').toString('base64') });
    expect(cluster.get('apps/v1', 'Deployment', 'default', 'web')?.spec?.template?.spec?.containers?.[0]?.image).toBe('nginx:1.27');
  });

  it('updates with a protobuf PUT (helm marking its release deployed)', async () => {
    const install = golden('helm-release-install');
    expect((await post(install.path, bodyOf(install))).status).toBe(201);
    const deployed = golden('helm-release-deployed');
    const res = await raw(cluster, 'PUT', deployed.path, { body: bodyOf(deployed), headers: { 'Content-Type': PROTOBUF } });
    expect(res.status).toBe(200);
    expect(cluster.get('v1', 'Secret', 'default', 'sh.helm.release.v1.shop.v1')?.metadata.labels).toMatchObject({ status: 'deployed' });
  });

  it.each([
    ['no k8s\\0 prefix', Buffer.from('{"kind":"ConfigMap"}'), 400, 'BadRequest', 'provided protobuf data is missing the k8s\\x00 prefix'],
    ['a truncated message', Buffer.concat([Buffer.from('k8s\0', 'latin1'), Buffer.from([0x0a, 0x40, 0x0a])]), 400, 'BadRequest', 'truncated protobuf field'],
    [
      'a type without a schema',
      envelope('example.com/v1', 'Widget', Buffer.alloc(0)),
      415,
      'UnsupportedMediaType',
      'protobuf bodies of Widget in example.com/v1 are not supported by the stand-in; send JSON (e.g. kubectl create -f)',
    ],
  ])('rejects %s with a Status naming the problem', async (_name, body, code, reason, message) => {
    const res = await post('/api/v1/namespaces/default/configmaps', body);
    expect(res.status).toBe(code);
    expect(res.json).toMatchObject({ kind: 'Status', code, reason, message });
  });
});
