/**
 * Helm release records -> the release and its targets (pure; read.ts lists the records).
 *
 * Helm 3 and 4 store each revision of a release as a Secret `sh.helm.release.v1.NAME.vN` (type
 * `helm.sh/release.v1`) or, with HELM_DRIVER=configmap, a ConfigMap of the same name, labelled
 * `owner=helm,name=NAME,status=STATUS,version=N`. `data.release` is Helm's encodeRelease: base64 of
 * gzip of the release JSON (helm/helm pkg/storage/driver/util.go). A Secret's data comes back from
 * the API base64-encoded once more; a ConfigMap's does not. Like Helm's decodeRelease, a payload
 * without the gzip magic is read as plain JSON (releases stored before compression).
 *
 * The payload holds the user's values (`config`), the chart's files and the rendered manifest, with
 * every Secret of the chart in clear: nothing of it is kept, logged or put into an error message.
 * Only the name, namespace, revision, status, description, chart name/version/appVersion and the
 * manifest's object identities leave this module.
 *
 * Hooks (`hooks[]`, including tests) never are in `manifest`: Helm sorts every template with a
 * `helm.sh/hook` annotation out of it (pkg/release/v1/util/manifest_sorter.go), so they are not targets.
 */
import { InputError } from '../settings.js';
import { targetsFromManifestText, type ManifestFailure } from '../targets/manifests.js';
import type { TargetSpec } from '../targets/types.js';
import { builtinModule } from '../builtin.js';

/** Where a release is stored: the storage driver's object kind. */
export type ReleaseDriver = 'Secret' | 'ConfigMap';

/** Helm's release statuses (pkg/release/common/status.go). Others are kept as read, and explained. */
export type ReleaseStatus =
  'unknown' | 'deployed' | 'uninstalled' | 'superseded' | 'failed' | 'uninstalling' | 'pending-install' | 'pending-upgrade' | 'pending-rollback';

export interface Release {
  name: string;
  namespace: string;
  revision: number;
  /** A ReleaseStatus as Helm writes them; anything else is kept as read, and explained by the policy. */
  status: string;
  /** Helm's own words for the revision (`Install complete`, `Upgrade "shop" failed: ...`). */
  description: string;
  chart: { name: string; version: string; appVersion: string };
  /** The storage object it was read from, for messages: `Secret sh.helm.release.v1.shop.v3`. */
  record: { kind: ReleaseDriver; name: string };
  /**
   * The manifest's objects, split as the `manifests` input splits a file (source: kind `release`, with
   * the lines as `helm get manifest NAME --revision N` prints them). An object without a
   * namespace gets the release's: Helm installs namespaced objects there, and the engine drops the
   * namespace of a type that discovery finds cluster-scoped, as it does for manifests.
   */
  targets: TargetSpec[];
}

const SECRET_TYPE = 'helm.sh/release.v1';
const GZIP_MAGIC = [0x1f, 0x8b, 0x08];
/** A Secret holds at most 1 MiB; gzip at best compression rarely beats 20:1 on a release's JSON. */
const MAX_DECODED_BYTES = 64 * 1024 * 1024;
/** Standard base64; line breaks are ignored, as by Go's decoder. */
const BASE64 = /^[A-Za-z0-9+/\r\n]*={0,2}[\r\n]*$/;

interface RecordObject {
  type?: unknown;
  metadata?: { name?: unknown; namespace?: unknown; labels?: Record<string, unknown> };
  data?: Record<string, unknown>;
}

/** Helm's ValidateReleaseName (pkg/chart/v2/util/validate_name.go): the rule `helm install` enforces. */
const RELEASE_NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const MAX_RELEASE_NAME = 53;

/**
 * Why `name` cannot be a Helm release name, or undefined when it can. For the `release` input's
 * validation; it also keeps the name safe inside the label selector `owner=helm,name=NAME`.
 */
export function releaseNameProblem(name: string): string | undefined {
  if (name.length > MAX_RELEASE_NAME) return `it is longer than ${MAX_RELEASE_NAME} characters, which Helm never allows`;
  if (!RELEASE_NAME.test(name))
    return 'Helm release names are lower-case letters, digits, "-" and ".", starting and ending with a letter or digit, like shop or shop-staging';
  return undefined;
}

/** One line naming the release for the summary headline: `shop revision 3 (chart shop-1.2.3, app 4.5.6)`. */
export function releaseHeadline(release: Pick<Release, 'name' | 'revision' | 'chart'>): string {
  const { name, version, appVersion } = release.chart;
  const chart = name ? `chart ${name}${version ? `-${version}` : ''}` : '';
  const app = appVersion ? `app ${appVersion}` : '';
  const details = [chart, app].filter(Boolean).join(', ');
  return `${release.name} revision ${release.revision}${details ? ` (${details})` : ''}`;
}

/**
 * The highest revision of release `name` among `records` (the items of a LIST by
 * `owner=helm,name=NAME`), decoded; `undefined` when there is none. Revisions come from the `version`
 * label, as Helm sets it; a record without a usable label is decoded to learn its revision. Secrets of
 * another type than `helm.sh/release.v1` are not Helm's records and are passed over.
 */
export function latestRelease(records: readonly unknown[], driver: ReleaseDriver, name: string): Release | undefined {
  let best: { record: RecordObject; revision: number } | undefined;
  let decodedBest: Release | undefined;
  for (const item of records) {
    const record = asRecordObject(item);
    if (!record || !isReleaseRecord(record, driver, name)) continue;
    let revision = labelRevision(record);
    let decoded: Release | undefined;
    if (revision === undefined) {
      decoded = decodeRelease(record, driver);
      revision = decoded.revision;
    }
    if (!best || revision > best.revision) {
      best = { record, revision };
      decodedBest = decoded;
    }
  }
  if (!best) return undefined;
  return decodedBest ?? decodeRelease(best.record, driver);
}

/** Decodes one record (a Secret or ConfigMap as the API returns it). Throws an InputError (input `release`) naming it, never quoting it. */
export function decodeRelease(item: unknown, driver: ReleaseDriver): Release {
  const record = asRecordObject(item) ?? {};
  const recordName = typeof record.metadata?.name === 'string' ? record.metadata.name : '(unnamed)';
  const where = `${driver} ${recordName}`;
  const broken = (why: string) =>
    new InputError('release', `The Helm release record ${where} cannot be read: ${why}. Check it with "helm history" or "helm status".`);

  const stored = record.data?.release;
  if (typeof stored !== 'string' || stored === '') throw broken('it has no data.release');
  let encoded = stored;
  if (driver === 'Secret') {
    if (!BASE64.test(stored)) throw broken('data.release is not base64');
    encoded = Buffer.from(stored, 'base64').toString('latin1');
  }
  if (!BASE64.test(encoded)) throw broken(`the release payload is not base64 (${driver === 'Secret' ? 'inside the Secret' : 'in the ConfigMap'})`);
  let bytes = Buffer.from(encoded, 'base64');
  if (GZIP_MAGIC.every((byte, index) => bytes[index] === byte)) {
    try {
      // node:zlib when first used: only a Helm release is gzipped (a wait's start need not load it, issue 35).
      bytes = builtinModule('node:zlib').gunzipSync(bytes, { maxOutputLength: MAX_DECODED_BYTES });
    } catch (error) {
      const tooLarge = (error as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE';
      throw broken(tooLarge ? `its payload unpacks to more than ${MAX_DECODED_BYTES / 1024 / 1024} MiB` : 'its gzip payload is corrupt');
    }
  }
  let payload: unknown;
  try {
    payload = JSON.parse(bytes.toString('utf8'));
  } catch {
    // JSON.parse quotes the text around the error: that text may be a value, so it is not passed on.
    throw broken('its payload is not JSON');
  }
  return releaseOf(payload, record, driver, recordName, broken);
}

function releaseOf(payload: unknown, record: RecordObject, driver: ReleaseDriver, recordName: string, broken: (why: string) => InputError): Release {
  const json = asObject(payload);
  if (!json) throw broken('its payload is not a release object');
  const info = asObject(json.info) ?? {};
  const metadata = asObject(asObject(json.chart)?.metadata) ?? {};
  const name = text(json.name);
  if (!name) throw broken('the release has no name');
  const revision = typeof json.version === 'number' && Number.isInteger(json.version) && json.version > 0 ? json.version : labelRevision(record);
  if (revision === undefined) throw broken('the release has no revision');
  const namespace = text(json.namespace) || text(record.metadata?.namespace) || 'default';
  const manifest = typeof json.manifest === 'string' ? json.manifest : '';
  // The parser's own reason may quote the manifest (which holds the chart's Secrets): only the line is named.
  const fail: ManifestFailure = ({ line, kind, reason }) =>
    broken(
      `line ${line ?? 1} of its manifest (helm get manifest ${name} --revision ${revision}) ${kind === 'yaml' ? 'is not valid YAML' : kind === 'name' ? `has a name Kubernetes does not accept: ${reason}` : `is not a Kubernetes object: ${reason}`}`,
    );
  const targets = targetsFromManifestText(manifest, { kind: 'release', name, revision }, fail).map((target) =>
    target.namespace ? target : { ...target, namespace },
  );
  return {
    name,
    namespace,
    revision,
    status: text(info.status) || text(record.metadata?.labels?.status) || 'unknown',
    description: text(info.description),
    chart: { name: text(metadata.name), version: text(metadata.version), appVersion: text(metadata.appVersion) },
    record: { kind: driver, name: recordName },
    targets,
  };
}

function isReleaseRecord(record: RecordObject, driver: ReleaseDriver, name: string): boolean {
  const labels = record.metadata?.labels ?? {};
  if (labels.owner !== 'helm' || labels.name !== name) return false;
  return driver === 'ConfigMap' || record.type === undefined || record.type === SECRET_TYPE;
}

function labelRevision(record: RecordObject): number | undefined {
  const label = record.metadata?.labels?.version;
  if (typeof label !== 'string' || !/^[1-9][0-9]{0,9}$/.test(label)) return undefined;
  return Number(label);
}

function asRecordObject(value: unknown): RecordObject | undefined {
  return asObject(value);
}

function asObject(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
