/**
 * A controller, played by a test on the real control plane: each step's status is written once the run's
 * output (so far) contains its `after` text, i.e. once kubewait has judged the status before it through the
 * real server. Writes run one at a time, in order; `done()` rethrows a write the server refused (a status its
 * schema rejects) and asserts that every step was played.
 */
import { expect } from '@jest/globals';

export interface PlayedStep {
  after: string;
  write: () => Promise<unknown>;
}

export function controller(steps: PlayedStep[]) {
  let next = 0;
  let writes: Promise<unknown> = Promise.resolve();
  let refused: Error | undefined;
  return {
    onStdout: (stdout: string) => {
      while (next < steps.length && stdout.includes(steps[next]!.after)) {
        const { write } = steps[next++]!;
        writes = writes.then(write).catch((error: unknown) => (refused ??= error instanceof Error ? error : new Error(String(error))));
      }
    },
    done: async () => {
      await writes;
      if (refused) throw refused;
      expect(next).toBe(steps.length);
    },
  };
}
