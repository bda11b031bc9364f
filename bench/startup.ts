/**
 * Start-up without a cluster: each bundle run with no targets, so the action fails on its inputs at once
 * and exits. The probe's preload -> exit is then the bundle's evaluation (plus a few ms of input parsing
 * and writing the failure), spawn -> exit the whole cost of a process that does nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Bundle } from './bundles.js';
import { spawnMeasured } from './process.js';
import { actionEnv } from './waiters.js';

export interface EvalRecord {
  bundle: string;
  /** spawn() -> exit seen. */
  totalMs: number;
  /** Process time origin -> preload: Node's own bootstrap. */
  nodeBootMs: number;
  /** Preload -> JS exit: evaluating the bundle (and failing on empty inputs, for the action bundles). */
  evalMs: number;
  peakRssKiB: number;
}

export async function measureEvaluation(bundle: Bundle): Promise<EvalRecord> {
  const scratch = mkdtempSync(path.join(tmpdir(), 'kubewait-eval-'));
  try {
    const env = actionEnv({}, scratch);
    const exit = await spawnMeasured(bundle.entry, [], { node: true, env, cwd: scratch, killAfterMs: 60_000 }).done;
    const probe = exit.probe;
    return {
      bundle: bundle.id,
      totalMs: exit.exitAt - exit.spawnAt,
      nodeBootMs: probe ? probe.preloadAt - probe.startAt : Number.NaN,
      evalMs: probe ? probe.exitAt - probe.preloadAt : Number.NaN,
      peakRssKiB: exit.peakRssKiB,
    };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
