/**
 * The krew plugin (`npm run krew-manifest`, scripts/krew-manifest.ts) built around a small stand-in for the
 * single executable: the manifest is packaging/krew.yaml filled in, valid YAML of krew's Plugin shape
 * (kubernetes-sigs/krew-index plugins/*.yaml), for Linux amd64, naming the archive the build wrote with that
 * archive's real sha256; the archive holds the executable as `kubewait` (the manifest's `bin`) and LICENSE.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { archiveName, fillKrewManifest, KREW_TEMPLATE, packArchive, writeKrewPlugin } from '../../scripts/krew-manifest.js';
import { ROOT } from '../e2e/dist.js';

interface KrewPlugin {
  apiVersion: string;
  kind: string;
  metadata: { name: string };
  spec: {
    version: string;
    homepage: string;
    shortDescription: string;
    description: string;
    platforms: Array<{
      selector: { matchLabels: Record<string, string> };
      uri: string;
      sha256: string;
      bin: string;
      files: Array<{ from: string; to: string }>;
    }>;
  };
}

const { version } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

let scratch: string;
let fakeExecutable: string;

beforeAll(() => {
  scratch = mkdtempSync(path.join(tmpdir(), 'kubewait-krew-test-'));
  fakeExecutable = path.join(scratch, 'built-executable');
  writeFileSync(fakeExecutable, '#!/bin/sh\necho kubewait stand-in\n', { mode: 0o644 });
});

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('krew plugin manifest', () => {
  it("is krew's Plugin for linux/amd64 naming the built archive with its real sha256", () => {
    const out = path.join(scratch, 'out');
    const { archive, manifest } = writeKrewPlugin(fakeExecutable, out, version);

    expect(path.basename(archive)).toBe(archiveName(version));
    expect(path.basename(manifest)).toBe('kubewait.yaml'); // krew: the file is named after the plugin
    const text = readFileSync(manifest, 'utf8');
    expect(text).not.toContain('{{'); // every placeholder filled, none left in a comment either
    expect(text.startsWith('apiVersion: ')).toBe(true);
    const plugin = parse(text) as KrewPlugin;
    expect(plugin.apiVersion).toBe('krew.googlecontainertools.github.com/v1alpha2');
    expect(plugin.kind).toBe('Plugin');
    expect(plugin.metadata.name).toBe('kubewait');
    expect(plugin.spec.version).toBe(`v${version}`);
    expect(plugin.spec.homepage).toMatch(/^https:\/\//);
    expect(plugin.spec.shortDescription.length).toBeGreaterThan(0);
    expect(plugin.spec.description.length).toBeGreaterThan(0);
    expect(plugin.spec.platforms).toHaveLength(1);
    const [platform] = plugin.spec.platforms;
    expect(platform?.selector.matchLabels).toEqual({ os: 'linux', arch: 'amd64' });
    expect(platform?.uri).toBe(`https://github.com/kubewait/kubewait/releases/download/v${version}/${archiveName(version)}`);
    expect(platform?.sha256).toBe(sha256(archive));
    expect(platform?.bin).toBe('kubewait');
    expect(platform?.files).toEqual([
      { from: 'kubewait', to: '.' },
      { from: 'LICENSE', to: '.' },
    ]);
  });

  it('archive holds the executable as kubewait (mode 755) and LICENSE, the same bytes on a rebuild', () => {
    const first = packArchive(fakeExecutable, path.join(scratch, 'a'), version);
    const second = packArchive(fakeExecutable, path.join(scratch, 'b'), version);
    expect(sha256(second)).toBe(sha256(first));

    const listing = execFileSync('tar', ['-tvzf', first], { encoding: 'utf8' }).trim().split('\n');
    expect(listing.map((line) => line.split(/\s+/).at(-1))).toEqual(['LICENSE', 'kubewait']);
    expect(listing[1]).toMatch(/^-rwxr-xr-x /);
    const extracted = path.join(scratch, 'extracted');
    execFileSync('mkdir', ['-p', extracted]);
    execFileSync('tar', ['-xzf', first, '-C', extracted]);
    expect(readFileSync(path.join(extracted, 'kubewait'))).toEqual(readFileSync(fakeExecutable));
    expect(readFileSync(path.join(extracted, 'LICENSE'), 'utf8')).toBe(readFileSync(path.join(ROOT, 'LICENSE'), 'utf8'));
    expect(statSync(path.join(extracted, 'kubewait')).mode & 0o111).toBe(0o111);
  });

  it('refuses a version krew would not take and a sha256 that is not one, naming the right form', () => {
    const template = readFileSync(KREW_TEMPLATE, 'utf8');
    const sha = 'a'.repeat(64);
    expect(() => fillKrewManifest(template, { version: 'latest', sha256: sha })).toThrow(/semantic.*e\.g\. 1\.2\.3.*"latest"/);
    expect(() => fillKrewManifest(template, { version, sha256: 'ABC' })).toThrow(/64 lowercase hex digits.*"ABC"/);
    expect(() => fillKrewManifest(`${template}\nextra: "{{arch}}"\n`, { version, sha256: sha })).toThrow(/\{\{arch\}\}/);
  });
});
