/**
 * A preload (`node --import ./slow-parse.ts dist/cli.js ...`; Node 24 strips its types) that stands for a
 * slow machine: when Node loads a module of more than 200 KB (the action's bundle, or one of the command's
 * larger chunks, which a wait loads; their sizes move with what the bundler puts together), it says
 * `parsing NAME` on stderr and holds the load for 400 ms, so a test can send a signal while a bundle loads,
 * as a Ctrl-C or a CI cancellation may, at a moment it knows instead of a guessed number of milliseconds
 * after the start.
 */
import { registerHooks } from 'node:module';

const BUNDLE_BYTES = 200_000;
const HOLD_MS = 400;

registerHooks({
  load(url, context, nextLoad) {
    const loaded = nextLoad(url, context);
    const source = loaded.source;
    const bytes = typeof source === 'string' ? source.length : (source?.byteLength ?? 0);
    if (bytes > BUNDLE_BYTES) {
      process.stderr.write(`parsing ${url.split('/').pop()}\n`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, HOLD_MS);
    }
    return loaded;
  },
});
