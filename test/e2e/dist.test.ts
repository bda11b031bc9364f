/**
 * The committed bundle is used when it is current: its build record (dist/build.json, written by
 * `npm run package`) names the sources it was built from, so a fresh clone (no local build stamp) runs the
 * committed dist/ instead of rebuilding it, and a record of other sources still means a rebuild.
 */
import { expect, it } from '@jest/globals';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { BUILD_RECORD, sourcesHash } from '../../scripts/sources-hash.js';
import { distIsStale, ensureDist, STAMP } from './dist.js';

it('a bundle whose build record matches the sources is current without a local stamp; another record is stale', async () => {
  await ensureDist();
  const record = readFileSync(BUILD_RECORD, 'utf8');
  expect((JSON.parse(record) as { sources: string }).sources).toBe(sourcesHash());
  const stamp = existsSync(STAMP) ? readFileSync(STAMP, 'utf8') : undefined;
  rmSync(STAMP, { force: true }); // as in a fresh clone
  try {
    expect(distIsStale()).toBe(false);
    writeFileSync(BUILD_RECORD, JSON.stringify({ ...(JSON.parse(record) as object), sources: 'built from other sources' }));
    expect(distIsStale()).toBe(true);
  } finally {
    writeFileSync(BUILD_RECORD, record);
    if (stamp !== undefined) writeFileSync(STAMP, stamp);
  }
}, 120_000);
