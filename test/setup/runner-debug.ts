/**
 * Jest setup: drop the `::debug::` workflow commands that @actions/core writes to stdout (about a hundred
 * from @actions/glob alone when tests read manifests in-process). On a runner they are hidden unless debug
 * logging is on; in a test run they buried the real output. Every other write goes through unchanged, and
 * the end-to-end tests read the action's stdout from its own process, so nothing they assert is affected.
 */
const write = process.stdout.write.bind(process.stdout);

process.stdout.write = (chunk: string | Uint8Array, ...rest: unknown[]): boolean => {
  const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
  const kept = text
    .split(/(?<=\n)/)
    .filter((line) => !line.startsWith('::debug::'))
    .join('');
  if (kept === '') {
    // Still honour a callback, as a real write would.
    const callback = rest.find((arg): arg is () => void => typeof arg === 'function');
    callback?.();
    return true;
  }
  return (write as (chunk: string, ...args: unknown[]) => boolean)(kept, ...rest);
};
