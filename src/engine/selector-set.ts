/**
 * Selector targets that share one selector and namespace form a set: `selector: app=web` alone means
 * "every workload matching app=web", spread over several types. The set reports one placeholder entry
 * ("no deployments, statefulsets, ... match app=web in namespace shop yet") only while none of its types
 * has a match; a type without matches is not a target of its own, so an empty kind never blocks the wait.
 *
 * A set that still matches nothing once `status-grace` has passed since the first LIST of its types is an
 * input error, as `kubectl wait -l` says "no matching resources found": a mistyped label would otherwise
 * wait out the whole timeout. Except for `wait-for: deleted`, where matching nothing is the goal.
 */
import type { InputProblem } from '../settings.js';
import { formatWindow } from '../time.js';
import type { TargetState, Tracker, Update } from './tracker.js';
import type { WaitFor } from './types.js';

/** How a set that matches nothing gives up: after `graceMs` (`status-grace`) from its first LIST. */
export interface GiveUp {
  graceMs: number;
  /** Runs `run` in `ms` on the engine's clock (and lets the engine decide after it). */
  after(ms: number, run: () => void): void;
  problem(problem: InputProblem): void;
}

export class SelectorSet {
  private members = 0;
  private readonly parts: string[] = [];
  private namespaced = true;
  private graceStarted = false;

  constructor(
    readonly placeholder: TargetState,
    private readonly tracker: Tracker,
    readonly text: string,
    readonly namespace: string,
    private readonly waitFor: WaitFor,
    /** Absent: the set waits for a match until the deadline. */
    private readonly giveUp?: GiveUp,
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
    if (this.giveUp && !this.graceStarted && this.waitFor.kind !== 'deleted') {
      this.graceStarted = true;
      this.giveUp.after(this.giveUp.graceMs, () => this.graceOver());
    }
  }

  /** A type of the set cannot be listed: while nothing matches, the placeholder says why. */
  unavailable(update: Update): void {
    if (this.empty) this.placeholder.update(update);
  }

  /** Still nothing: an input error, unless a type could not be listed (the placeholder says why, and that
   *  problem, not the selector, is the one to fix). */
  private graceOver(): void {
    if (!this.empty || this.placeholder.report.status !== 'NotFound') return;
    const problem = this.nothingMatches(this.giveUp?.graceMs ?? 0);
    this.placeholder.update({ status: 'NotFound', message: problem.message, done: false, blocked: true });
    this.giveUp?.problem(problem);
  }

  private nothingMatches(graceMs: number): InputProblem {
    const what = joinOr(this.parts);
    const where = this.namespaced ? ` in namespace ${this.namespace}` : ' in the cluster';
    const waited = `within ${formatWindow(graceMs)} (status-grace) of the first list`;
    const types = this.parts.map((part) => part.split(' ')[0]).join(',');
    const listing = `kubectl get ${types}${this.namespaced ? ` -n ${this.namespace}` : ''} --show-labels`;
    if (!this.text) {
      return {
        input: 'resources',
        message: `Input "resources" has a bare type that waits for every object of it, but no ${what} exist${where} ${waited}. Name the objects to wait for, like resources: deployment/web, or add a selector, like selector: app=web (${listing} lists what exists).`,
      };
    }
    return {
      input: 'selector',
      message: `Input "selector" (${this.text}) matches no ${what}${where} ${waited}. Expected a selector that matches the objects' labels, like selector: app=web (${listing} lists them).`,
    };
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
