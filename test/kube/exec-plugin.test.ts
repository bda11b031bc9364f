/**
 * Exec credential plugins, run as real shell scripts: a plugin still running when the wait ends is killed
 * with its children and not started again; one that answered in time keeps serving its credential; and a
 * process that exits any other way takes a hanging plugin's group with it.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ExecPlugin } from '../../src/kube/exec-plugin.js';
import { pidsIn, survivors } from '../processes.js';

let scratch: string;
beforeAll(() => {
  scratch = mkdtempSync(path.join(tmpdir(), 'kubewait-exec-plugin-'));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const noSecrets = { mask: () => {} };

/** A plugin script that records its pid and its `sleep` child's pid in `NAME.pid`, then runs `body`. */
function plugin(name: string, body: string): { command: string; pidFile: string } {
  const command = path.join(scratch, name);
  const pidFile = `${command}.pid`;
  writeFileSync(command, `#!/bin/sh\necho $$ > "${pidFile}"\nsleep 600 &\necho $! >> "${pidFile}"\n${body}\n`);
  chmodSync(command, 0o755);
  return { command, pidFile };
}

async function pidsOnceWritten(pidFile: string): Promise<number[]> {
  for (let waited = 0; waited < 10_000; waited += 20) {
    if (existsSync(pidFile) && pidsIn(pidFile).length === 2) return pidsIn(pidFile);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`${pidFile} was never written`);
}

const credential = (token: string) => `echo '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"${token}"}}'`;

describe('the end of the wait', () => {
  it('kills a plugin still running, with its children, and does not start it again', async () => {
    const { command, pidFile } = plugin('hanging', 'wait');
    const execPlugin = new ExecPlugin({ command }, 'ci', noSecrets);
    const asked = execPlugin.credential();
    const pids = await pidsOnceWritten(pidFile);

    execPlugin.stopAtEndOfWait();

    await expect(asked).rejects.toThrow('the exec credential plugin "hanging" of user "ci" did not answer before the end of the wait and was stopped');
    expect(await survivors(pids)).toEqual([]);
    rmSync(pidFile);
    await expect(execPlugin.credential()).rejects.toMatchObject({ reason: 'Credentials' });
    expect(existsSync(pidFile)).toBe(false);
  });

  it('leaves a plugin that answered in time serving its credential', async () => {
    const { command, pidFile } = plugin('answering', `kill $!\n${credential('in-time')}`);
    const execPlugin = new ExecPlugin({ command }, 'ci', noSecrets);
    await expect(execPlugin.credential()).resolves.toMatchObject({ token: 'in-time' });

    execPlugin.stopAtEndOfWait();

    await expect(execPlugin.credential()).resolves.toMatchObject({ token: 'in-time' });
    execPlugin.close();
    expect(await survivors(pidsIn(pidFile))).toEqual([]);
  });

  it('kills a plugin whose script exited but left a child holding its stdout', async () => {
    const { command, pidFile } = plugin('daemonising', 'exit 0');
    const execPlugin = new ExecPlugin({ command }, 'ci', noSecrets);
    const asked = execPlugin.credential();
    const pids = await pidsOnceWritten(pidFile);

    execPlugin.stopAtEndOfWait();

    await expect(asked).rejects.toMatchObject({ reason: 'Credentials' });
    expect(await survivors(pids)).toEqual([]);
  });
});

it('a process that exits while its plugin hangs takes the plugin and its children with it', async () => {
  const { command, pidFile } = plugin('orphaned', 'wait');
  const module = fileURLToPath(new URL('../../src/kube/exec-plugin.ts', import.meta.url));
  // As a second signal or a crash does: process.exit with the plugin running and nobody closing it.
  const script = path.join(scratch, 'exits.ts');
  writeFileSync(
    script,
    `import { existsSync } from 'node:fs';
import { ExecPlugin } from ${JSON.stringify(module)};
void new ExecPlugin({ command: ${JSON.stringify(command)} }, 'ci', { mask: () => {} }).credential().catch(() => {});
const poll = setInterval(() => { if (existsSync(${JSON.stringify(pidFile)})) { clearInterval(poll); setTimeout(() => process.exit(3), 200); } }, 20);
`,
  );
  const child = spawn(process.execPath, ['--import', 'tsx', script], { stdio: 'ignore' });
  const exitCode = await new Promise((resolve) => child.on('close', resolve));

  expect(exitCode).toBe(3);
  const pids = pidsIn(pidFile);
  expect(pids).toHaveLength(2);
  expect(await survivors(pids)).toEqual([]);
});
