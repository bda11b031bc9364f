/**
 * Node's built-in modules by name, loaded when first asked for: what only some runs use (node:zlib,
 * node:fs/promises) stays off the start of the others, and src/startup.ts loads the wait's own before it
 * sets V8's flags. `process.getBuiltinModule` where Node has it (22.3 and later); on an older Node 22, which
 * the command accepts (src/cli/node-version.ts), a `require`, which loads a built-in from anywhere.
 */
import nodeModule from 'node:module';

const requireBuiltin = nodeModule.createRequire(process.execPath);

export const builtinModule: typeof process.getBuiltinModule = process.getBuiltinModule?.bind(process) ?? ((id: string): unknown => requireBuiltin(id));
