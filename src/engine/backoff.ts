/** Exponential backoff with jitter, like client-go's (base doubles per attempt, capped, 50-100 % jitter). */
export function backoffMs(attempt: number, baseMs = 500, capMs = 10_000, random: () => number = Math.random): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.min(attempt, 20));
  return Math.round(ceiling * (0.5 + random() * 0.5));
}
