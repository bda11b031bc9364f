/** The single executable's build cache keeps the builds used last and removes the rest (each is ~120 MB). */
import { describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pruneBuilds } from '../../scripts/sea.js';

describe('pruneBuilds', () => {
  it('keeps the builds used last, whatever their names, and removes the others whole', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'kubewait-sea-cache-'));
    try {
      // Used (mtime) in this order, oldest first; names in another order, so that sorting by name would fail.
      const used = ['d4', 'a1', 'c3', 'b2', 'e5'];
      used.forEach((name, i) => {
        const dir = path.join(root, name);
        mkdirSync(dir);
        writeFileSync(path.join(dir, 'kubewait'), 'binary');
        const at = new Date(Date.UTC(2026, 0, 1, 0, i));
        utimesSync(dir, at, at);
      });
      writeFileSync(path.join(root, 'not-a-build.txt'), 'left alone');

      const removed: string[] = [];
      pruneBuilds(root, 3, (line) => removed.push(line));

      expect(readdirSync(root).sort()).toEqual(['b2', 'c3', 'e5', 'not-a-build.txt']);
      expect(removed).toHaveLength(2);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
