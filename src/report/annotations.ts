/**
 * Error annotations: one per target that failed or ran out of time, pointing at its manifest line
 * when there is one, plus one for an input problem the engine found. Pure: result in, annotations out.
 */
import type { RunResult, TargetReport } from '../result.js';
import { describeInputProblem, type InputProblem, type WaitFor } from '../settings.js';
import { failedPodLines, failureWhy } from './failure.js';
import { annotationLine, logsCommand, telling } from './logs.js';
import { desiredPhrase, diagnosisLines, formatSeconds, outputRef, standing, titleRef, truncate, workspaceFile } from './text.js';

export interface Annotation {
  title: string;
  message: string;
  file?: string;
  startLine?: number;
}

/** GitHub shows at most 10 error annotations per step. kubewait keeps one of them free for the
 *  step's own failure message (`core.setFailed`). */
export const MAX_ERROR_ANNOTATIONS = 9;

/** How many targets the aggregate annotation names before it says `and N more`. */
const AGGREGATE_NAMES = 50;

export interface AnnotationOptions {
  /** The `fail-fast` input (default true). Without fail-fast, a `failed` outcome means the deadline passed. */
  failFast?: boolean;
  /** At most this many annotations (default `MAX_ERROR_ANNOTATIONS`). */
  max?: number;
}

/** Whether the wait ran until its deadline (or was cancelled), so that every target not done ran out of
 *  time. A `failed` wait with fail-fast stopped early; one without fail-fast and without an input error
 *  only ends at the deadline. */
function ranOutOfTime(result: RunResult, failFast = true): boolean {
  if (result.outcome === 'timeout' || result.cancelled) return true;
  return result.outcome === 'failed' && !failFast && !result.error;
}

/** Targets that deserve an annotation: every Failed one, and, when time ran out, every one that was not
 *  done. Failed first. A wait stopped early by fail-fast or an input error does not blame the targets it
 *  stopped watching: the summary lists them. */
export function annotatedTargets(result: RunResult, failFast = true): TargetReport[] {
  const failed = result.targets.filter((t) => standing(t) === 'failed');
  const pending = ranOutOfTime(result, failFast) ? result.targets.filter((t) => standing(t) === 'pending') : [];
  return [...failed, ...pending];
}

/** First line of a target annotation: what state it is in and since when. */
function reasonLine(target: TargetReport, result: RunResult, waitFor: WaitFor): string {
  const failure = target.explanation?.failure;
  if (failure) return `Failed after ${formatSeconds(target.seconds)}: ${failureWhy(failure)}`;
  const message = target.message ? `: ${target.message}` : '';
  if (target.status === 'Failed') return `Failed after ${formatSeconds(target.seconds)}${message}`;
  const when = result.cancelled ? 'when the wait was cancelled' : `after ${formatSeconds(result.durationSeconds)}`;
  return `Not ${desiredPhrase(waitFor)} ${when} (${target.status})${message}`;
}

function targetAnnotation(target: TargetReport, result: RunResult, waitFor: WaitFor): Annotation {
  const annotation: Annotation = {
    title: titleRef(target),
    message: [reasonLine(target, result, waitFor), ...diagnosisLines(target.diagnosis, { alreadySaid: target.message }), ...explanationLines(target)].join(
      '\n',
    ),
  };
  const file = workspaceFile(target);
  if (file) {
    annotation.file = file;
    if (target.line !== undefined) annotation.startLine = target.line;
  }
  return annotation;
}

/** What the explain step read: a failed Job's pods, then the telling line of the first container log and the
 *  command that shows more. */
function explanationLines(target: TargetReport): string[] {
  const explanation = target.explanation;
  if (!explanation) return [];
  const pods = explanation.failure ? failedPodLines(explanation.failure).slice(0, 3) : [];
  const views = telling(target);
  const view = views.find((v) => v.outcome?.kind === 'text') ?? views[0];
  if (!view) return pods;
  return [...pods, annotationLine(view), ...(view.request.noLogs ? [] : [`More: ${logsCommand(view)}`])];
}

/** The one annotation for a problem with an input, found up front or during the wait. */
export function inputProblemAnnotation(problem: InputProblem): Annotation {
  return {
    title: `kubewait: input "${problem.input}"`,
    // The title names the input already; the message does not say it twice.
    message: problem.message,
    ...(problem.source && { file: problem.source.file }),
    ...(problem.source?.line !== undefined && { startLine: problem.source.line }),
  };
}

/** All error annotations for a result, within `MAX_ERROR_ANNOTATIONS`: when there are more targets
 *  than fit, the last annotation names the rest instead of dropping them. */
export function annotationsFor(result: RunResult, waitFor: WaitFor, options: AnnotationOptions = {}): Annotation[] {
  const max = options.max ?? MAX_ERROR_ANNOTATIONS;
  const head = result.error ? [inputProblemAnnotation(result.error)] : [];
  const targets = annotatedTargets(result, options.failFast);
  const room = Math.max(1, max - head.length);
  if (targets.length <= room) return [...head, ...targets.map((t) => targetAnnotation(t, result, waitFor))];
  const shown = targets.slice(0, room - 1);
  const rest = targets.slice(room - 1);
  return [...head, ...shown.map((t) => targetAnnotation(t, result, waitFor)), aggregateAnnotation(rest, waitFor)];
}

function aggregateAnnotation(rest: TargetReport[], waitFor: WaitFor): Annotation {
  const failed = rest.filter((t) => t.status === 'Failed').length;
  const what = failed === rest.length ? 'failed' : failed === 0 ? `not ${desiredPhrase(waitFor)}` : `failed or not ${desiredPhrase(waitFor)}`;
  const names = rest.slice(0, AGGREGATE_NAMES).map((t) => `${outputRef(t)}: ${t.status}${t.message ? `: ${truncate(t.message, 200)}` : ''}`);
  const more = rest.length > AGGREGATE_NAMES ? [`... and ${rest.length - AGGREGATE_NAMES} more`] : [];
  return {
    title: `kubewait: ${rest.length} more targets ${what}`,
    message: [...names, ...more, 'Every target is listed in the job summary and in the `resources` output.'].join('\n'),
  };
}

/** One line for `core.setFailed`, or undefined when the wait succeeded. */
export function failureMessage(result: RunResult, wanted: WaitFor): string | undefined {
  if (result.outcome === 'ready') return undefined;
  const waitFor = result.waitFor ?? wanted;
  const total = result.targets.length;
  const notDone = result.targets.filter((t) => !t.done);
  const failed = notDone.filter((t) => t.status === 'Failed');
  const names = (ts: TargetReport[]) => ts.slice(0, 5).map(outputRef).join(', ') + (ts.length > 5 ? `, and ${ts.length - 5} more` : '');
  const took = formatSeconds(result.durationSeconds);
  if (result.error) return `kubewait: ${describeInputProblem(result.error)}`;
  if (result.release?.verdict && !result.cancelled) {
    const broke = failed.length > 0 ? `; failed: ${names(failed)}` : '';
    return `kubewait: ${result.release.message} (after ${took})${broke}`;
  }
  if (result.cancelled) return `kubewait: cancelled after ${took} with ${notDone.length} of ${total} targets not ${desiredPhrase(waitFor)}`;
  if (result.unstable && notDone.length === 0)
    return `kubewait: timed out after ${took}: all ${total} targets are ${desiredPhrase(waitFor)}, but they ${result.unstable}`;
  if (failed.length === 0) {
    const how = result.outcome === 'timeout' ? 'timed out' : 'failed';
    const list = notDone.length > 0 ? `: ${names(notDone)}` : '';
    return `kubewait: ${how} after ${took} with ${notDone.length} of ${total} targets not ${desiredPhrase(waitFor)}${list}`;
  }
  return `kubewait: ${failed.length} of ${total} targets failed after ${took}: ${names(failed)}`;
}
