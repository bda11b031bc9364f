/**
 * `npm run krew-manifest [-- --out=DIR]`: the krew plugin of kubewait for Linux x64. Builds (or reuses) the
 * single executable (`npm run sea`, scripts/sea.ts), packs it with LICENSE into
 * `kubewait-vX.Y.Z-linux-amd64.tar.gz` (krew installs from .tar.gz or .zip archives only), and fills
 * packaging/krew.yaml into `kubewait.yaml` with package.json's version and the archive's sha256; both in
 * DIR (default release/, not committed). Prints the two paths. Publishing them (the archive on the GitHub
 * release, the manifest as a pull request to kubernetes-sigs/krew-index) cannot be done from the
 * development machines: docs/releasing.md.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { buildSea } from './sea.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const KREW_TEMPLATE = path.join(ROOT, 'packaging/krew.yaml');

/** The archive's name for a version: the template's `uri` ends with it. */
export const archiveName = (version: string) => `kubewait-v${version}-linux-amd64.tar.gz`;

export const sha256Of = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

/** packaging/krew.yaml (or `template`) with `{{version}}` and `{{sha256}}` filled in, and without its
 *  leading comment (it speaks of the template, not of the manifest krew-index receives). */
export function fillKrewManifest(template: string, values: { version: string; sha256: string }): string {
  if (!/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(values.version))
    throw new Error(`the version must be semantic (krew requires it), e.g. 1.2.3; got "${values.version}"`);
  if (!/^[0-9a-f]{64}$/.test(values.sha256)) throw new Error(`the sha256 must be 64 lowercase hex digits; got "${values.sha256}"`);
  const body = template.replace(/^(#.*\n)+/, '');
  const filled = body.replaceAll('{{version}}', values.version).replaceAll('{{sha256}}', values.sha256);
  const left = filled.match(/\{\{\w+\}\}/);
  if (left) throw new Error(`${KREW_TEMPLATE} has a placeholder the build does not fill: ${left[0]}`);
  return filled;
}

/**
 * `executable` (named `kubewait` inside, mode 755) and LICENSE as a gzipped tar in `outDir`; the same bytes
 * for the same inputs (sorted entries, owner root, mtime 0, a gzip header without a name or time), so a
 * rebuild gives the sha256 the manifest already names.
 */
export function packArchive(executable: string, outDir: string, version: string, license = path.join(ROOT, 'LICENSE')): string {
  const staging = mkdtempSync(path.join(tmpdir(), 'kubewait-krew-'));
  try {
    copyFileSync(executable, path.join(staging, 'kubewait'));
    copyFileSync(license, path.join(staging, 'LICENSE'));
    chmodSync(path.join(staging, 'kubewait'), 0o755);
    chmodSync(path.join(staging, 'LICENSE'), 0o644);
    const tar = path.join(staging, 'archive.tar');
    execFileSync('tar', ['--sort=name', '--owner=0', '--group=0', '--numeric-owner', '--mtime=@0', '-cf', tar, '-C', staging, 'LICENSE', 'kubewait'], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    mkdirSync(outDir, { recursive: true });
    const archive = path.join(outDir, archiveName(version));
    writeFileSync(archive, gzipSync(readFileSync(tar), { level: 9 }));
    return archive;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** The archive around `executable` and the manifest naming it, in `outDir`. */
export function writeKrewPlugin(executable: string, outDir: string, version: string): { archive: string; manifest: string } {
  const archive = packArchive(executable, outDir, version);
  const manifest = path.join(outDir, 'kubewait.yaml');
  writeFileSync(manifest, fillKrewManifest(readFileSync(KREW_TEMPLATE, 'utf8'), { version, sha256: sha256Of(archive) }));
  return { archive, manifest };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const outDir = path.resolve(process.argv.find((a) => a.startsWith('--out='))?.slice('--out='.length) ?? path.join(ROOT, 'release'));
  const { version } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
  const { archive, manifest } = writeKrewPlugin(await buildSea(), outDir, version);
  console.log(archive);
  console.log(manifest);
}
