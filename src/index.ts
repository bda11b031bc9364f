import { setFlagsFromString } from 'node:v8';
import { installSignalHandlers } from './signals.js';

// First: a cancelled job's signal must find a handler even while the rest loads (src/signals.ts).
installSignalHandlers();

// V8 doubles its young generation each time a burst of short-lived objects survives a scavenge: the list
// pages and watch events of thousands of targets grew it to its 16 MB semi-space maximum, ~40 MB of RSS
// (bench/). An action cannot pass Node flags, so set this one before the rest of the bundle is evaluated.
setFlagsFromString('--semi-space-growth-factor=1');
const { run } = await import('./main.js');
await run();
