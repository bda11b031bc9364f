/**
 * dist/cli.js on a Node older than the command needs (Node 20 is the default of many machines): it used to
 * crash with a minified stack trace and exit 1, the code of "a target failed". Run as an installed `kubewait`
 * is, through its shebang, with that old Node first on PATH: one message naming what is needed, the usage
 * exit code, no stack trace.
 */
import { describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import { MINIMUM_NODE_MAJOR } from '../../src/cli/node-version.js';
import { DIST_CLI, ensureDist } from './dist.js';
import { runCommand } from './runCommand.js';

/** The first `node` on PATH older than the command needs. Jest itself runs on Node 24 (process.execPath),
 *  so this looks past it, as a shell whose PATH has the system's Node would find it. */
function oldNode(): { executable: string; version: string } | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    const executable = path.join(dir, 'node');
    try {
      accessSync(executable, constants.X_OK);
      const version = execFileSync(executable, ['--version'], { encoding: 'utf8', timeout: 30_000 }).trim();
      if (Number(/^v(\d+)\./.exec(version)?.[1]) < MINIMUM_NODE_MAJOR) return { executable, version };
    } catch {
      // Not there, or not a Node that answers: look further.
    }
  }
  return undefined;
}

const old = oldNode();
const withOldNode = old ? it : it.skip;
const skipped = old ? '' : ` (skipped: no node older than ${MINIMUM_NODE_MAJOR} on PATH)`;

describe(`dist/cli.js on ${old ? `Node ${old.version}` : 'an old Node'}`, () => {
  withOldNode(
    `says which Node it needs and exits 3, without a stack trace${skipped}`,
    async () => {
      await ensureDist();
      const run = await runCommand(['deployment/web', '--timeout', '5s'], {
        command: DIST_CLI,
        env: { PATH: path.dirname(old!.executable) },
        killAfterMs: 60_000, // only a hang fails on time
      });

      expect([run.exitCode, run.stdout]).toEqual([3, '']);
      const escaped = old!.version.replace(/\./g, '\\.');
      expect(run.stderr).toMatch(new RegExp(`^kubewait: needs Node\\.js ${MINIMUM_NODE_MAJOR} or later; this is Node\\.js ${escaped} \\(.+\\)\\.\\n`));
      expect(run.stderr).toMatch(/single executable,\s+which carries its own Node\.js/);
      expect(run.stderr).not.toMatch(/^\s+at |Error|file:\/\/|\^/m);
    },
    120_000,
  );
});
