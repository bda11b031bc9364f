/**
 * The `rollback` input's part of every report (src/rollback/ fills `RunResult.rollback`): the `rolled-back`
 * and `rollback-result` outputs, the live log's closing lines, `-o json` and JUnit (src/cli/), and the
 * "Rolled back" section of the job summary and the pull-request comment. Pure; one wording for all of them.
 */
import type { RollbackReport, RolledBackWorkload, RunResult } from '../result.js';
import { cell, code, escapeMarkdown, table } from './markdown.js';

/** `shop/Deployment/api revision 7 -> 6: ready`, `[eu] shop/Job/migrate: refused (Jobs are never ...)`. */
export function rolledBackLine(row: RolledBackWorkload): string {
  return `${row.cluster !== undefined ? `[${row.cluster}] ` : ''}${rowRef(row)}${revisionText(row)}: ${standing(row)}`;
}

function rowRef(row: Pick<RolledBackWorkload, 'namespace' | 'kind' | 'name'>): string {
  return `${row.namespace ? `${row.namespace}/` : ''}${row.kind}/${row.name}`;
}

function revisionText(row: RolledBackWorkload): string {
  return row.fromRevision !== undefined && row.toRevision !== undefined ? ` revision ${row.fromRevision} -> ${row.toRevision}` : '';
}

/** What became of it: `ready`, `failed (why)`, `timeout (why)`, `refused (why)`, `nothing to do (why)`. */
export function standing(row: RolledBackWorkload): string {
  switch (row.action) {
    case 'refused':
      return `refused (${row.reason ?? 'not rolled back'})`;
    case 'unchanged':
      return `nothing to do (${row.reason ?? 'nothing to restore'})`;
    case 'error':
      return `failed (${row.reason ?? 'the rollback failed'})`;
    case 'rolled-back': {
      const target = row.target;
      if (!target) return row.reason ?? 'rolled back, not waited for';
      if (target.done) return 'ready';
      return `${target.status === 'Failed' ? 'failed' : 'timeout'} (${target.message})`;
    }
  }
}

/** The two outputs; empty when `rollback` did not act. */
export function rollbackOutputs(result: Pick<RunResult, 'rollback'>): { 'rolled-back': string; 'rollback-result': string } {
  const rollback = result.rollback;
  if (!rollback) return { 'rolled-back': '', 'rollback-result': '' };
  return { 'rolled-back': rollback.workloads.map(rolledBackLine).join('\n'), 'rollback-result': rollback.result };
}

/** The `rollback` part of `-o json`: the outputs' words, and each row's fields. */
export function rollbackJson(rollback: RollbackReport): object {
  return {
    result: rollback.result,
    seconds: Math.round(rollback.durationSeconds * 10) / 10,
    workloads: rollback.workloads.map((row) => ({
      ...(row.cluster !== undefined && { cluster: row.cluster }),
      apiVersion: row.apiVersion,
      kind: row.kind,
      namespace: row.namespace,
      name: row.name,
      action: row.action,
      ...(row.fromRevision !== undefined && { fromRevision: row.fromRevision }),
      ...(row.toRevision !== undefined && { toRevision: row.toRevision }),
      ...(row.reason !== undefined && { reason: row.reason }),
      ...(row.target && { status: row.target.status, message: row.target.message }),
      line: rolledBackLine(row),
    })),
  };
}

/** The live log's closing lines, after the failure's. */
export function rolledBackLogLines(rollback: RollbackReport): string[] {
  return [`Rolled back: ${rollback.result}`, ...rollback.workloads.map((row) => `  ${rolledBackLine(row)}`)];
}

const RESULT_WORDS: Record<RollbackReport['result'], string> = {
  ready: 'the rolled-back workloads are ready again',
  failed: 'a rollback failed, or a rolled-back workload is not ready',
  timeout: 'a rolled-back workload was not ready within rollback-timeout',
  refused: 'nothing could be rolled back',
  none: 'nothing to roll back',
};

/** "Rolled back": after the failure's sections, in the summary and the pull-request comment. */
export function rolledBackSection(rollback: RollbackReport | undefined): string | undefined {
  if (!rollback) return undefined;
  const rows = rollback.workloads.map((row) => [
    code(rowRef(row)),
    row.fromRevision !== undefined && row.toRevision !== undefined ? `${row.fromRevision} → ${row.toRevision}` : '',
    cell(standing(row)),
  ]);
  const note = `_${escapeMarkdown(RESULT_WORDS[rollback.result])}; the step's result is unchanged: a rollback is a recovery, not a success._`;
  return [`### Rolled back`, note, ...(rows.length > 0 ? [table(['Workload', 'Revision', 'Result'], rows)] : [])].join('\n\n');
}
