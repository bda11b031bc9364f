/** A package behind a lazy stand-in (scripts/bundle-plugins.ts, `lazyPackages`: the CEL library, the proxy
 *  agents) is evaluated when a name of it is first used, not when the bundle that holds it is, and the
 *  stand-in's names give the package's own objects. Built with esbuild as scripts/package.ts builds dist/. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { lazyPackages } from '../../scripts/bundle-plugins.js';

let scratch: string;

beforeAll(() => {
  scratch = mkdtempSync(path.join(tmpdir(), 'kubewait-lazy-'));
  for (const [pkg, type] of [
    ['esm-lib', 'module'],
    ['cjs-lib', 'commonjs'],
  ] as const) {
    const dir = path.join(scratch, 'node_modules', pkg);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: pkg, type, main: 'index.js' }));
    const body =
      type === 'module'
        ? `globalThis.evaluated.push('${pkg}'); export class Thing { constructor(n) { this.n = n; } } export function triple(n) { return 3 * n; }`
        : `globalThis.evaluated.push('${pkg}'); exports.Thing = class Thing { constructor(n) { this.n = n; } }; exports.Util = { twice: (n) => 2 * n };`;
    writeFileSync(path.join(dir, 'index.js'), body);
  }
  writeFileSync(
    path.join(scratch, 'user.ts'),
    [
      "import { Thing, triple } from 'esm-lib';",
      "import { Util } from 'cjs-lib';",
      'export const makeThing = (n: number) => new Thing(n);',
      'export const twice = (n: number) => Util.twice(n);',
      'export const thrice = (n: number) => triple(n);',
    ].join('\n'),
  );
});

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The two test packages behind stand-ins for the importers `importedBy` names. */
const STAND_INS = { 'esm-lib': ['class Thing', 'function triple'], 'cjs-lib': ['object Util twice'] };

/**
 * Bundles scratch/ENTRY.ts as scripts/package.ts bundles dist/ and imports it, with a fresh list of the
 * packages evaluated so far (each pushes its name when evaluated).
 */
async function bundleAndImport<T>(entry: string, importedBy: Parameters<typeof lazyPackages>[1]): Promise<{ bundle: T; evaluated: string[] }> {
  const outfile = path.join(scratch, `${entry}.mjs`);
  await build({
    entryPoints: [path.join(scratch, `${entry}.ts`)],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    logLevel: 'silent',
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
    plugins: [lazyPackages('test-lazy', importedBy, STAND_INS)],
  });
  const evaluated: string[] = [];
  (globalThis as { evaluated?: string[] }).evaluated = evaluated;
  return { bundle: (await import(pathToFileURL(outfile).href)) as T, evaluated };
}

describe('lazyPackages', () => {
  it('evaluates each package at the first use of its names, and gives its own objects', async () => {
    const { bundle, evaluated } = await bundleAndImport<{
      makeThing(n: number): { n: number; constructor: { name: string } };
      twice(n: number): number;
      thrice(n: number): number;
    }>('user', path.join(scratch, 'user.ts'));

    expect(evaluated).toEqual([]);
    const thing = bundle.makeThing(3);
    expect(evaluated).toEqual(['esm-lib']);
    expect(thing.n).toBe(3);
    expect(thing.constructor.name).toBe('Thing');
    expect(bundle.thrice(2)).toBe(6);
    expect(bundle.twice(4)).toBe(8);
    expect(evaluated).toEqual(['esm-lib', 'cjs-lib']);
  });

  it('takes a test of the importer: every importer it accepts gets the stand-in, any other the package', async () => {
    writeFileSync(path.join(scratch, 'second.ts'), "import { Util } from 'cjs-lib';\nexport const quadruple = (n: number) => Util.twice(Util.twice(n));");
    writeFileSync(path.join(scratch, 'eager.ts'), "import { triple } from 'esm-lib';\nexport const nine = () => triple(3);");
    writeFileSync(
      path.join(scratch, 'several.ts'),
      "export { makeThing, twice } from './user.js';\nexport { quadruple } from './second.js';\nexport { nine } from './eager.js';",
    );
    const lazyIn = new Set(['user.ts', 'second.ts'].map((file) => path.join(scratch, file)));
    const { bundle, evaluated } = await bundleAndImport<{ quadruple(n: number): number; nine(): number }>('several', (importer) => lazyIn.has(importer));

    // eager.ts is not accepted: it imports esm-lib itself, evaluated with the bundle; cjs-lib waits for its first use.
    expect(evaluated).toEqual(['esm-lib']);
    expect(bundle.quadruple(2)).toBe(8);
    expect(evaluated).toEqual(['esm-lib', 'cjs-lib']);
    expect(bundle.nine()).toBe(9);
  });

  it('fails the build on a name the stand-in does not have, so a new use is seen', async () => {
    writeFileSync(path.join(scratch, 'other.ts'), "import { Other } from 'esm-lib';\nexport const other = Other;");
    await expect(
      build({
        entryPoints: [path.join(scratch, 'other.ts')],
        write: false,
        bundle: true,
        platform: 'node',
        format: 'esm',
        logLevel: 'silent',
        plugins: [lazyPackages('test-lazy', path.join(scratch, 'other.ts'), { 'esm-lib': ['class Thing'] })],
      }),
    ).rejects.toThrow(/Other/);
  });
});
