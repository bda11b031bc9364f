/**
 * JUnit XML for CI systems that show test reports natively (GitLab `artifacts:reports:junit`, Jenkins
 * `junit`, Tekton, Azure): one testcase per target, named like the log names it; a target that failed or
 * ran out of time carries its reason and diagnosis, and its failing containers' log tails in `<system-out>`;
 * with several clusters, one testsuite per cluster.
 * Pure: result in, XML out.
 */
import type { ClusterRun, RollbackReport, RunResult, TargetReport } from '../result.js';
import { annotatedTargets } from '../report/annotations.js';
import { distinctLogs, logGroup, telling } from '../report/logs.js';
import { clusterPublicResult, publicResult } from '../report/outputs.js';
import { rolledBackLine } from '../report/rolled-back.js';
import { desiredPhrase, diagnosisLines, formatSeconds, roundSeconds } from '../report/text.js';
import { describeInputProblem, type WaitFor } from '../settings.js';

export interface JunitOptions {
  waitFor: WaitFor;
  failFast: boolean;
  /** The problem that stopped the run, in the command's words (an engine `error`, or a setup failure). */
  problem?: string;
}

interface Case {
  classname: string;
  name: string;
  seconds: number;
  /** `<failure>` or `<error>`, or `<skipped>`. */
  verdict?: { element: 'failure' | 'error' | 'skipped'; type?: string; message: string; body?: string };
  /** `<system-out>`: the diagnosis (failing containers, warning events) and the containers' log tails. */
  out?: string;
}

interface Suite {
  name: string;
  cases: Case[];
  seconds: number;
}

export function renderJunit(result: RunResult, options: JunitOptions): string {
  // rollback (issue 32): one more testsuite, after the wait's.
  const rollback = result.rollback ? [rollbackSuite(result.rollback)] : [];
  if (result.clusters) return document([...result.clusters.map((run) => clusterSuite(run, options)), ...rollback], result.durationSeconds);
  const cases = targetCases(result, options.waitFor, options.failFast);
  if (options.problem) cases.push(setupCase(options.problem));
  return document([{ name: `kubewait: ${publicResult(result)}`, cases, seconds: result.durationSeconds }, ...rollback], result.durationSeconds);
}

/** The `rollback` input's rows: a workload rolled back and ready passes; refused or nothing to do is skipped, with why; the rest fail. */
function rollbackSuite(rollback: RollbackReport): Suite {
  const cases = rollback.workloads.map((row): Case => {
    const base = {
      classname: `rollback.${row.cluster !== undefined ? `${row.cluster}.` : ''}${row.namespace ? `${row.namespace}.` : ''}${row.kind}`,
      name: row.name,
      seconds: row.target?.seconds ?? 0,
    };
    const words = rolledBackLine(row);
    if (row.action === 'refused' || row.action === 'unchanged') return { ...base, verdict: { element: 'skipped', message: words } };
    if (row.action === 'rolled-back' && (!row.target || row.target.done)) return { ...base, out: words };
    return { ...base, verdict: { element: 'failure', type: 'Rollback', message: words } };
  });
  return { name: `kubewait rollback: ${rollback.result}`, cases, seconds: rollback.durationSeconds };
}

function targetCases(result: RunResult, waitFor: WaitFor, failFast: boolean): Case[] {
  const blamed = new Set(annotatedTargets(result, failFast));
  return result.targets.map((target) => targetCase(target, result, waitFor, blamed.has(target)));
}

/** With several clusters (the `clusters` input): one testsuite per cluster, its problem an error case of its own. */
function clusterSuite(run: ClusterRun, options: JunitOptions): Suite {
  const cases = targetCases(run.result, options.waitFor, options.failFast);
  if (run.result.error) cases.push(setupCase(describeInputProblem(run.result.error), run.result.error.input === 'kubeconfig' ? 'ClusterError' : 'InputError'));
  return { name: `kubewait [${run.name}]: ${clusterPublicResult(run)}`, cases, seconds: run.result.durationSeconds };
}

function setupCase(message: string, type = 'InputError'): Case {
  return { classname: 'kubewait', name: 'setup', seconds: 0, verdict: { element: 'error', type, message } };
}

function targetCase(target: TargetReport, result: RunResult, waitFor: WaitFor, blamed: boolean): Case {
  const base = {
    classname: target.namespace ? `${target.namespace}.${target.kind}` : target.kind,
    name: target.name,
    seconds: target.seconds,
  };
  if (target.done) return base;
  const diagnosis = diagnosisLines(target.diagnosis, { alreadySaid: target.message });
  const standardOut = [diagnosis.join('\n'), ...logBlocks(target)].filter(Boolean).join('\n\n');
  const out = standardOut ? { out: standardOut } : {};
  const body = [target.message, ...diagnosis].filter(Boolean).join('\n');
  if (target.status === 'Failed') return { ...base, ...out, verdict: { element: 'failure', type: 'Failed', message: target.message || 'Failed', body } };
  if (!blamed) {
    // A wait stopped early (fail-fast, an input problem) did not judge the targets it stopped watching.
    return { ...base, verdict: { element: 'skipped', message: `not judged: the wait stopped early (${target.status})` } };
  }
  const type = result.cancelled ? 'Cancelled' : 'Timeout';
  const when = result.cancelled ? 'when the wait was cancelled' : `after ${formatSeconds(result.durationSeconds)}`;
  const message = `not ${desiredPhrase(waitFor)} ${when} (${target.status})${target.message ? `: ${target.message}` : ''}`;
  return { ...base, ...out, verdict: { element: 'failure', type, message, body } };
}

/** The failing containers' log tails, one block each, as the command's log shows them (report/logs.ts). */
function logBlocks(target: TargetReport): string[] {
  return distinctLogs(telling(target)).map(({ view, samePods }) => {
    const { title, lines } = logGroup(view, undefined, { lines: Number.MAX_SAFE_INTEGER, samePods });
    return [title, ...lines.map((line) => `  ${line}`)].join('\n');
  });
}

/** For a run that stopped before any target was resolved (bad flags, an unusable kubeconfig). */
export function renderSetupFailureJunit(problem: string): string {
  return document([{ name: 'kubewait: error', cases: [setupCase(problem)], seconds: 0 }], 0);
}

function document(suites: Suite[], seconds: number): string {
  const totals = (cases: Case[], time: number) => {
    const count = (element: string) => cases.filter((c) => c.verdict?.element === element).length;
    return `tests="${cases.length}" failures="${count('failure')}" errors="${count('error')}" skipped="${count('skipped')}" time="${roundSeconds(time)}"`;
  };
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="kubewait" ${totals(
      suites.flatMap((suite) => suite.cases),
      seconds,
    )}>`,
    ...suites.flatMap((suite) => [
      `  <testsuite name="${attribute(suite.name)}" ${totals(suite.cases, suite.seconds)}>`,
      ...suite.cases.map(testcase),
      '  </testsuite>',
    ]),
    '</testsuites>',
    '',
  ];
  return lines.join('\n');
}

function testcase(c: Case): string {
  const open = `    <testcase classname="${attribute(c.classname)}" name="${attribute(c.name)}" time="${roundSeconds(c.seconds)}"`;
  if (!c.verdict) return `${open}/>`;
  const { element, type, message, body } = c.verdict;
  const attributes = `${type ? ` type="${attribute(type)}"` : ''} message="${attribute(message)}"`;
  const verdict = body ? `      <${element}${attributes}>${text(body)}</${element}>` : `      <${element}${attributes}/>`;
  const out = c.out ? [`      <system-out>${text(c.out)}</system-out>`] : [];
  return [`${open}>`, verdict, ...out, '    </testcase>'].join('\n');
}

/** XML 1.0 cannot hold most control characters, even escaped: drop them. */
const INVALID_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

function text(value: string): string {
  return value.replace(INVALID_XML, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function attribute(value: string): string {
  return text(value).replace(/"/g, '&quot;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');
}
