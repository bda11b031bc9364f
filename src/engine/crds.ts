/**
 * For `status-grace`: whether a type is a custom resource whose CRD declares a status subresource (so a
 * controller is expected to write a status). Each CRD is read once per run, and only for a type that has
 * an object without status. A group without a dot (apps, batch, the core group) is built in: no read. A
 * CRD that does not exist (404) means the type is not a custom resource; a forbidden read assumes a status
 * subresource and says so once.
 */
import { declaresStatusSubresource } from '../status/health/index.js';
import { ApiError, crdPath, qualifiedResource } from '../kube/index.js';
import type { Cluster, ResourceType } from '../kube/index.js';

type Answer = boolean | undefined;

export class StatusSubresources {
  private readonly answers = new Map<string, Answer>();
  private readonly waiting = new Map<string, Array<() => void>>();
  private warnedForbidden = false;

  constructor(
    private readonly cluster: Cluster,
    private readonly signal: AbortSignal,
    private readonly warn: (message: string) => void,
  ) {}

  /** True/false once known; undefined while the CRD is being read (then `known` runs when it is). */
  of(type: ResourceType, known: () => void): Answer {
    if (!type.group.includes('.')) return false;
    const key = `${type.resource}.${type.group}`;
    if (this.answers.has(key)) {
      const answer = this.answers.get(key);
      if (answer === undefined) this.waiting.get(key)?.push(known);
      return answer;
    }
    this.answers.set(key, undefined);
    this.waiting.set(key, [known]);
    void this.read(type, key);
    return undefined;
  }

  private async read(type: ResourceType, key: string): Promise<void> {
    let answer: boolean;
    try {
      answer = declaresStatusSubresource(await this.cluster.client.get(crdPath(type), {}, { signal: this.signal }), type.version);
    } catch (error) {
      if (this.signal.aborted) return;
      const status = error instanceof ApiError ? error.status : 0;
      // 404: served by something else (a built-in or aggregated API), not a CRD. Anything else: assume a
      // status subresource, so a custom resource is never passed before its controller could answer.
      answer = status !== 404;
      if (status === 403 || status === 401) {
        if (!this.warnedForbidden) {
          this.warnedForbidden = true;
          this.warn(
            `cannot read CustomResourceDefinitions (${qualifiedResource(type)} and others): status-grace assumes every custom resource has a status subresource — grant get on customresourcedefinitions.apiextensions.k8s.io to let kubewait check`,
          );
        }
      }
    }
    this.answers.set(key, answer);
    const callbacks = this.waiting.get(key) ?? [];
    this.waiting.delete(key);
    for (const callback of callbacks) callback();
  }
}
