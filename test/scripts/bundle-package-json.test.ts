/** The bundles hold the version of package.json and nothing else of it (scripts/bundle-plugins.ts,
 *  packageVersionOnly): a change to its scripts or devDependencies must not make the committed dist/ stale. */
import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ensureDist, ROOT } from '../e2e/dist.js';

describe('dist/ and package.json', () => {
  it('the bundles carry the version, not the scripts', async () => {
    await ensureDist();
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string; scripts: Record<string, string> };
    const chunks = ['dist/chunks', 'dist/action'].flatMap((dir) => readdirSync(path.join(ROOT, dir)).map((name) => path.join(dir, name)));
    const text = ['dist/kubewait.js', 'dist/kubewait-cli.js', ...chunks].map((file) => readFileSync(path.join(ROOT, file), 'utf8')).join('\n');
    expect(text).toContain(`version:"${pkg.version}"`);
    expect(text).not.toContain(pkg.scripts['test:all']);
    expect(text).not.toContain(pkg.scripts['cluster:real:build']);
  }, 300_000);
});
