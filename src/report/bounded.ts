/**
 * GitHub keeps at most 1 MB per step output: a longer value fails the step's output, so the `resources`
 * and `pending` outputs of a huge wait are cut to fit, saying so, while the complete JSON goes to the
 * file named by `resources-file`. Pure.
 */

/** Below GitHub's 1 MB per output, with room for the runner's heredoc delimiter. */
export const MAX_OUTPUT_BYTES = 1_000_000 - 1024;
/** Messages in a cut `resources` output are shortened to this first. */
const SHORT_MESSAGE = 200;

const bytes = (text: string): number => Buffer.byteLength(text, 'utf8');

/**
 * The JSON array of `items` if it fits; else messages shortened, and if that is not enough, the items
 * that fit followed by one element `{"truncated": true, "omitted": N, "message": ...}`.
 */
export function boundedJsonArray<T extends { message: string }>(items: T[], maxBytes: number, where: string): string {
  const whole = JSON.stringify(items);
  if (bytes(whole) <= maxBytes) return whole;
  const short = items.map((item) => (item.message.length > SHORT_MESSAGE ? { ...item, message: `${item.message.slice(0, SHORT_MESSAGE - 1)}…` } : item));
  const parts: string[] = [];
  let used = 2;
  for (const [index, item] of short.entries()) {
    const text = JSON.stringify(item);
    const omitted = short.length - index - 1;
    // Room for this item and for the note about the ones after it.
    if (used + bytes(text) + 1 + noteBytes(omitted + 1, where) > maxBytes) {
      parts.push(JSON.stringify(note(short.length - index, where)));
      return `[${parts.join(',')}]`;
    }
    parts.push(text);
    used += bytes(text) + 1;
  }
  return `[${parts.join(',')}]`;
}

function note(omitted: number, where: string): { truncated: true; omitted: number; message: string } {
  return { truncated: true, omitted, message: `${omitted} more targets left out to stay under GitHub's 1 MB output limit; every target is in ${where}` };
}

function noteBytes(omitted: number, where: string): number {
  return bytes(JSON.stringify(note(omitted, where))) + 1;
}

/** Lines joined by newlines if they fit; else the lines that fit and `... and N more (every target is in ...)`. */
export function boundedLines(lines: string[], maxBytes: number, where: string): string {
  const whole = lines.join('\n');
  if (bytes(whole) <= maxBytes) return whole;
  const kept: string[] = [];
  let used = 0;
  for (const [index, line] of lines.entries()) {
    const tail = `... and ${lines.length - index} more (every target is in ${where})`;
    if (used + bytes(line) + 1 + bytes(tail) > maxBytes) return [...kept, tail].join('\n');
    kept.push(line);
    used += bytes(line) + 1;
  }
  return kept.join('\n');
}
