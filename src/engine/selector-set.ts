/**
 * Selector targets that share one selector and namespace form a set: `selector: app=web` alone means
 * "every workload matching app=web", spread over several types. The set reports one placeholder entry
 * ("no deployments, statefulsets, ... match app=web in namespace shop yet") only while none of its types
 * has a match; a type without matches is not a target of its own, so an empty kind never blocks the wait.
 */
import type { TargetState, Tracker, Update } from './tracker.js';
import type { WaitFor } from './types.js';

export class SelectorSet {
  private members = 0;
  private readonly parts: string[] = [];
  private namespaced = true;

  constructor(
    readonly placeholder: TargetState,
    private readonly tracker: Tracker,
    readonly text: string,
    readonly namespace: string,
    private readonly waitFor: WaitFor,
  ) {}

  /** True while nothing matches: the placeholder is a target and is reported. */
  get empty(): boolean {
    return this.members === 0;
  }

  /** A type joins the set (`deployments`, `pods without an owner`), waiting for its first list. */
  addPart(label: string, namespaced: boolean, waiting: Update): void {
    this.parts.push(label);
    this.namespaced &&= namespaced;
    if (this.empty) this.placeholder.update(waiting);
  }

  joined(): void {
    if (this.members++ === 0) this.tracker.retire(this.placeholder);
  }

  left(): void {
    if (--this.members > 0) return;
    this.tracker.register(this.placeholder);
    this.placeholder.update(this.noMatches());
  }

  /** A LIST of one of the types finished. */
  listed(): void {
    if (this.empty) this.placeholder.update(this.noMatches());
  }

  /** A type of the set cannot be listed: while nothing matches, the placeholder says why. */
  unavailable(update: Update): void {
    if (this.empty) this.placeholder.update(update);
  }

  private noMatches(): Update {
    const what = joinOr(this.parts);
    const matching = this.text ? ` match ${this.text}` : ' exist';
    const where = this.namespaced ? ` in namespace ${this.namespace}` : '';
    if (this.waitFor.kind === 'deleted') return { status: 'NotFound', message: `no ${what}${matching}${where}`, done: true };
    return { status: 'NotFound', message: `no ${what}${matching}${where} yet`, done: false };
  }
}

function joinOr(parts: string[]): string {
  if (parts.length <= 1) return parts[0] ?? 'objects';
  return `${parts.slice(0, -1).join(', ')} or ${parts[parts.length - 1]}`;
}
