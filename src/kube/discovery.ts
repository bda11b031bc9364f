/**
 * API discovery with a cache: aggregated discovery (2 requests) when the server offers it, else the
 * legacy walk over every group version, as kubectl does. Re-discovery is rate-limited so a target whose
 * CRD is installed mid-wait gets resolved without hammering the server.
 */
import { realTime, type Time } from '../time.js';
import type { KubeClient } from './client.js';
import { addAggregated, fromResourceList, groupVersion, resolveType } from './restmapper.js';
import type { DiscoveryIndex, Resolution } from './restmapper.js';
import { closestResource, describeType, nearMissOf } from './suggest.js';

const AGGREGATED_ACCEPT = [
  'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList',
  'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList',
  'application/json',
].join(',');

export class Discovery {
  private index?: DiscoveryIndex;
  /** Resolutions against the current index: thousands of targets share a handful of type strings. */
  private readonly resolved = new Map<string, Resolution>();
  private loading?: Promise<void>;
  private loadedAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly client: KubeClient,
    /** Minimum time between two discoveries. */
    readonly minIntervalMs = 3000,
    /** The run's clock: the engine schedules re-discovery by `refreshDelayMs` on the same one. */
    private readonly time: Time = realTime,
  ) {}

  get loaded(): boolean {
    return this.index !== undefined;
  }

  /** Discovers once (joins a discovery in flight). Throws ApiError when the server cannot be asked. */
  async load(signal?: AbortSignal): Promise<void> {
    if (this.index) return;
    await this.fetch(signal);
  }

  /** Discovers again unless the last discovery is younger than `minIntervalMs`. True when it did. */
  async refresh(signal?: AbortSignal): Promise<boolean> {
    if (this.loading) {
      await this.loading;
      return true;
    }
    if (this.time.now() - this.loadedAt < this.minIntervalMs) return false;
    await this.fetch(signal);
    return true;
  }

  /** Milliseconds until `refresh` would discover again. */
  refreshDelayMs(): number {
    return Math.max(0, this.loadedAt + this.minIntervalMs - this.time.now());
  }

  resolve(spec: { type: string; apiVersion?: string }): Resolution {
    if (!this.index) return { ok: false, ambiguous: false, message: 'API discovery has not completed' };
    const key = `${spec.apiVersion ?? ''} ${spec.type}`;
    let resolution = this.resolved.get(key);
    if (!resolution) {
      resolution = resolveType(this.index, spec);
      this.resolved.set(key, resolution);
    }
    return resolution;
  }

  /** The served type closest to one that is not served (`deploymnt` -> `deployments.apps (deployment, deploy)`). */
  suggest(written: string): string | undefined {
    const closest = this.index && closestResource(this.index, written);
    return closest && describeType(closest);
  }

  /** The served type that a type nobody serves is a typo of, in words; undefined when there is none or the
   *  type may be a custom resource type whose CRD is not installed yet (`nearMissOf`). */
  nearMiss(spec: { type: string; apiVersion?: string }): string | undefined {
    const closest = this.index && nearMissOf(this.index, spec);
    return closest && describeType(closest);
  }

  private fetch(signal?: AbortSignal): Promise<void> {
    this.loading ??= discover(this.client, signal)
      .then((index) => {
        this.index = index;
        this.resolved.clear();
        this.loadedAt = this.time.now();
      })
      .finally(() => {
        this.loading = undefined;
      });
    return this.loading;
  }
}

interface GroupList {
  kind?: string;
  versions?: string[];
  groups?: Array<{ name?: string; versions?: Array<{ version?: string }>; preferredVersion?: { version?: string } }>;
}

async function discover(client: KubeClient, signal?: AbortSignal): Promise<DiscoveryIndex> {
  const options = { signal, accept: AGGREGATED_ACCEPT };
  const [core, apis] = (await Promise.all([client.get('/api', {}, options), client.get('/apis', {}, options)])) as [GroupList, GroupList];
  const index: DiscoveryIndex = { groups: [], resources: new Map() };
  const pending: Array<{ group: string; version: string }> = [];

  if (core.kind === 'APIGroupDiscoveryList') addAggregated(index, core);
  else {
    index.groups.push({ name: '', versions: core.versions ?? ['v1'] });
    for (const version of core.versions ?? ['v1']) pending.push({ group: '', version });
  }
  if (apis.kind === 'APIGroupDiscoveryList') addAggregated(index, apis);
  else {
    for (const group of apis.groups ?? []) {
      if (!group.name) continue;
      const preferred = group.preferredVersion?.version;
      const all = (group.versions ?? []).map((v) => v.version).filter((v): v is string => !!v);
      const versions = preferred ? [preferred, ...all.filter((v) => v !== preferred)] : all;
      index.groups.push({ name: group.name, versions });
      for (const version of versions) pending.push({ group: group.name, version });
    }
  }

  // One unavailable aggregated API (metrics-server down, ...) must not break the others, as in kubectl.
  await forEachLimited(pending, 8, async ({ group, version }) => {
    const path = group ? `/apis/${group}/${version}` : `/api/${version}`;
    try {
      index.resources.set(groupVersion(group, version), fromResourceList(group, version, await client.get(path, {}, { signal })));
    } catch (error) {
      if (signal?.aborted) throw error;
    }
  });
  return index;
}

async function forEachLimited<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
