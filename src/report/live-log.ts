/**
 * The live log: what a user watching the step sees while kubewait waits.
 * Line formatting is pure; `createLiveLog` only routes lines to a `LogSink` (the shell's `ReportWriter`).
 */
import { isSelectorPlaceholder, notReadYet, type EngineObserver, type RunResult, type TargetReport } from '../result.js';
import { publicResult } from './outputs.js';
import { memberJoinedLine, selectorExpansionLine } from './selector-log.js';
import type { WaitFor } from '../settings.js';
import { progressText } from '../status/progressive/progress.js';
import type { Status } from '../status/types.js';
import { byStanding, desiredPhrase, diagnosisLines, fileLine, formatSeconds, logRef, oneLine, targetCount, truncate } from './text.js';
import type { LogSink } from './writer.js';

export type { LogSink } from './writer.js';

export interface LiveLogOptions {
  waitFor: WaitFor;
  /** With a lone selector (no `resources`, no `manifests`), it expands to several workload types. */
  resources?: readonly unknown[];
  manifests?: readonly string[];
  /** How many pending targets a heartbeat names before it says `and N more` (default 10). */
  heartbeatNames?: number;
}

const MESSAGE_MAX = 300;

/** `Waiting for 3 targets to be ready` / `... to be deleted` / `... to have Available=True`. */
export function resolvedHeading(count: number, waitFor: WaitFor): string {
  const goal = waitFor.kind === 'ready' || waitFor.kind === 'deleted' ? `be ${desiredPhrase(waitFor)}` : `have ${desiredPhrase(waitFor)}`;
  return `Waiting for ${targetCount(count)} to ${goal}`;
}

/** `deployment/web (shop)  apps/v1  from k8s/web.yaml:12  InProgress: Replicas: 0/3`; a target not read yet
 *  (`notReadYet`) without a state: its first one follows once it is known. */
export function resolvedLine(target: TargetReport): string {
  const source = target.file ? `  from ${fileLine(target)}` : '';
  if (notReadYet(target)) return `${logRef(target)}  ${target.apiVersion}${source}`;
  const said = stated(target);
  const state = said ? `${target.status}: ${said}` : target.status;
  return `${logRef(target)}  ${target.apiVersion}${source}  ${truncate(state, MESSAGE_MAX)}`;
}

/** `deployment/web (shop): InProgress -> Current after 12.4s: Deployment is available. Replicas: 3`
 *  A target that is not done also says why (its first diagnosis line). When the goal is not plain
 *  readiness, reaching it is said too (`Current, Available=True`), as the status alone may not change. */
export function transitionLine(target: TargetReport, previous: Status | undefined, waitFor?: WaitFor): string {
  const at = target.history.at(-1)?.atSeconds ?? target.seconds;
  const status = previous === undefined || previous === target.status ? target.status : `${previous} -> ${target.status}`;
  const change = target.done && waitFor && waitFor.kind !== 'ready' ? `${status}, ${desiredPhrase(waitFor)}` : status;
  const why = target.done ? [] : diagnosisLines(target.diagnosis, { containers: 1, events: 0, alreadySaid: target.message });
  const message = [stated(target), ...why.map(oneLine)].filter(Boolean).join('; ');
  return `${logRef(target)}: ${change} after ${formatSeconds(at)}${message ? `: ${truncate(message, MESSAGE_MAX)}` : ''}`;
}

/** The target's message on one line, after where its canary stands (`canary step 2/5, weight 20 % — ...`). */
function stated(target: TargetReport): string {
  return [target.progress ? progressText(target.progress) : '', oneLine(target.message)].filter(Boolean).join(' — ');
}

/** `Still waiting after 30.0s for 2 of 5 targets:` then one indented line per pending target, at most `names`
 *  of them, then `and N more`. Failed targets (the wait goes on past them without fail-fast) are not "waiting":
 *  they follow under their own header. */
export function heartbeatLines(notDone: readonly TargetReport[], elapsedSeconds: number, total: number, names = 10): string[] {
  const failed = notDone.filter((t) => t.status === 'Failed');
  const waiting = notDone.filter((t) => t.status !== 'Failed');
  const of = total > 0 ? ` of ${total}` : '';
  const count = (n: number) => `${n}${of} target${n === 1 && !of ? '' : 's'}`;
  const lines =
    waiting.length > 0 || failed.length === 0
      ? [`Still waiting after ${formatSeconds(elapsedSeconds)} for ${count(waiting.length)}:`, ...listed(waiting, names)]
      : [];
  if (failed.length > 0)
    lines.push(`Failed after ${formatSeconds(elapsedSeconds)}, ${count(failed.length)} (fail-fast is off: the wait goes on):`, ...listed(failed, names));
  return lines;
}

/** One indented line per target with its reason, at most `names`, then `and N more`. */
function listed(targets: readonly TargetReport[], names: number): string[] {
  const shown = targets.slice(0, names).map((target) => {
    const why = diagnosisLines(target.diagnosis, { containers: 1, events: 0, alreadySaid: target.message })[0];
    const message = [stated(target), why && oneLine(why)].filter(Boolean).join('; ');
    return `  ${logRef(target)}: ${target.status}${message ? `: ${truncate(message, 160)}` : ''}`;
  });
  return targets.length > names ? [...shown, `  and ${targets.length - names} more`] : shown;
}

/**
 * A sink that writes the lines of one burst of events (one turn of the event loop) in a single write:
 * 5,000 Deployments turning ready are a few writes, not 5,000 (on a pipe each is a system call, and
 * they were half of kubewait's CPU per watch event at 5,000 targets; a write per chunk read from a watch
 * was still 1,154 writes, against 21). The turn's end is too late for the last line, though: the engine
 * closes its watches and builds the result first, so the live log flushes when the engine says the wait is
 * decided (`createLiveLog`'s `decided`; 3 ms earlier at one Deployment, bench/RESULTS.md, issue 35).
 * Anything but `info` flushes first, so the order of lines never changes; call `flush()` before writing
 * anything else to stdout.
 */
export function bufferedSink(sink: LogSink): LogSink & { flush(): void } {
  let lines: string[] = [];
  const flush = () => {
    if (lines.length === 0) return;
    const text = lines.join('\n');
    lines = [];
    sink.info(text);
  };
  const flushing =
    <A extends unknown[]>(write: (...args: A) => void) =>
    (...args: A) => {
      flush();
      write(...args);
    };
  return {
    info(message) {
      if (lines.length === 0) setImmediate(flush);
      lines.push(message);
    },
    warning: flushing((message: string) => sink.warning(message)),
    startGroup: flushing((name: string) => sink.startGroup(name)),
    endGroup: flushing(() => sink.endGroup()),
    flush,
  };
}

/** An `EngineObserver` that writes the live log through `sink` (the shell's `ReportWriter`, through a
 *  `bufferedSink`, which it flushes when the wait is decided). */
export function createLiveLog(sink: LogSink & { flush?(): void }, options: LiveLogOptions): EngineObserver {
  let total = 0;
  let resolved = false;
  const members = new Set<TargetReport>();
  /** Listed without a state (not read yet): their first status is said as it is, not as a change from Unknown. */
  const unread = new Set<TargetReport>();
  const lone = (options.resources?.length ?? 0) === 0 && (options.manifests?.length ?? 0) === 0;
  // The engine says what each batch waits for: an uninstalling Helm release's objects are a deletion wait
  // whatever wait-for says; every other target keeps it.
  const goals = new WeakMap<TargetReport, WaitFor>();
  return {
    // Called once per batch of targets: the inputs' at the start, then those a feed adds (a Helm release's
    // objects, a GitOps parent's inventory), each batch under its own heading and goal.
    resolved(targets, waitFor) {
      // Selector placeholders stand for objects not listed yet, and are not counted as targets.
      const batchPlaceholders = targets.filter((t) => isSelectorPlaceholder(t)).length;
      const count = targets.length - batchPlaceholders;
      total += count;
      resolved = true;
      const goal = waitFor ?? options.waitFor;
      for (const target of targets) goals.set(target, goal);
      const heading =
        count === 0 && batchPlaceholders > 0
          ? `${resolvedHeading(0, goal).replace('0 targets', 'the targets a selector matches')}`
          : resolvedHeading(count, goal);
      sink.startGroup(heading);
      try {
        for (const target of targets) {
          if (notReadYet(target)) unread.add(target);
          sink.info(isSelectorPlaceholder(target) ? selectorExpansionLine(target, lone) : resolvedLine(target));
        }
      } finally {
        sink.endGroup();
      }
    },
    transition(target, previous) {
      // Before the targets are resolved, the resolved group (written next) shows where each one stands.
      if (!resolved) return;
      if (previous === undefined && target.selector !== undefined && !members.has(target)) {
        members.add(target);
        total++;
        sink.info(memberJoinedLine(target, total));
      }
      // Still not read (a type resolved mid-wait, now waiting for its list): nothing new to say.
      if (unread.has(target) && notReadYet(target)) return;
      sink.info(transitionLine(target, unread.delete(target) ? undefined : previous, goals.get(target) ?? options.waitFor));
    },
    warning(message) {
      sink.warning(message);
    },
    heartbeat(pending, elapsedSeconds) {
      sink.info(heartbeatLines(pending, elapsedSeconds, total, options.heartbeatNames).join('\n'));
    },
    decided() {
      sink.flush?.();
    },
  };
}

/** The closing lines of the log: the outcome, then every target that is not done with its reason
 *  and diagnosis (at most `names` of them), so the log alone explains a failure. */
export function finalLogLines(
  result: Pick<RunResult, 'outcome' | 'cancelled' | 'error' | 'durationSeconds' | 'targets' | 'release'>,
  waitFor: WaitFor,
  names = 50,
): string[] {
  const total = result.targets.length;
  const done = result.targets.filter((t) => t.done).length;
  // When the Helm release decided the result (failed, or never settled), its own words come first.
  const release = result.release?.verdict ? [`  ${truncate(oneLine(result.release.message), MESSAGE_MAX)}`] : [];
  const outcome = publicResult(result);
  const header = `kubewait: ${outcome} after ${formatSeconds(result.durationSeconds)}: ${done} of ${targetCount(total)} ${desiredPhrase(waitFor)}`;
  const notDone = byStanding(result.targets.filter((t) => !t.done));
  const lines = notDone
    .slice(0, names)
    .flatMap((target) => [
      `  ${logRef(target)}: ${target.status}${stated(target) ? `: ${truncate(stated(target), MESSAGE_MAX)}` : ''}`,
      ...diagnosisLines(target.diagnosis, { alreadySaid: target.message }).map((line) => `    ${truncate(oneLine(line), MESSAGE_MAX)}`),
    ]);
  const more = notDone.length > names ? [`  and ${notDone.length - names} more (see the job summary and the outputs)`] : [];
  return [header, ...release, ...lines, ...more];
}
