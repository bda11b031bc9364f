/** The action's bundle (dist/kubewait.js), loaded by dist/index.js once the start-up is done (src/boot.ts). */
import { run } from './main.js';

await run();
