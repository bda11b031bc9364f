/**
 * Pod diagnosis's graced rules (an image that cannot be pulled, a controller's `FailedCreate`, an autoscaler's
 * refusal to add a node) count a failure as final only once it has stood for a grace, so that what recovers in
 * a moment never ends a wait. The one rule for all of them: has it stood that long, and if not, when will it
 * have. The second half lets the diagnoser look again when a grace ends, whatever its backoff
 * (src/engine/diagnoser.ts): without it, a failure was seen up to a round (15 s) late. Pure.
 */

/** A failure that counts once it has stood for a grace. */
export interface Standing {
  /** It has stood for the grace: final. */
  final: boolean;
  /** Still in its grace: when (epoch ms) it becomes final if it stands. */
  finalAtMs?: number;
}

/** A failure standing since `sinceMs` (epoch ms), judged at `nowMs`. */
export function standing(sinceMs: number, graceMs: number, nowMs: number): Standing {
  const finalAtMs = sinceMs + graceMs;
  return nowMs >= finalAtMs ? { final: true } : { final: false, finalAtMs };
}

/** The earliest of the given grace ends, if any: when a diagnosis must be made again. */
export function earliestFinalAt(times: Iterable<number | undefined>): number | undefined {
  let earliest: number | undefined;
  for (const time of times) if (time !== undefined && (earliest === undefined || time < earliest)) earliest = time;
  return earliest;
}
