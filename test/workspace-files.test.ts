/** The one reader of the user's files: globs, names relative to the workspace, bounded reads of regular files only. */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MAX_FILE_BYTES, workspaceFiles } from '../src/workspace-files.js';
import { targetsFromManifests } from '../src/targets/manifests.js';
import { loadHealthChecks } from '../src/status/health/load.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'kubewait-files-'));
  mkdirSync(path.join(dir, 'k8s/sub'), { recursive: true });
  writeFileSync(path.join(dir, 'k8s/a.yaml'), 'a: 1\n');
  writeFileSync(path.join(dir, 'k8s/b.json'), '{}');
  writeFileSync(path.join(dir, 'k8s/notes.md'), '#');
  writeFileSync(path.join(dir, 'k8s/sub/c.yaml'), 'c: 1\n');
  // A FIFO: reading it would wait for a writer for ever. A sparse file one byte over the limit: no disk used.
  execFileSync('mkfifo', [path.join(dir, 'pipe.yaml')]);
  writeFileSync(path.join(dir, 'huge.yaml'), '');
  truncateSync(path.join(dir, 'huge.yaml'), MAX_FILE_BYTES + 1);
  symlinkSync(path.join(dir, 'k8s/a.yaml'), path.join(dir, 'link.yaml'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('match', () => {
  const relative = (files: string[]) => files.map((file) => path.relative(dir, file));

  test.each([
    ['one glob, files only', ['k8s/*'], {}, [['k8s/*', ['k8s/a.yaml', 'k8s/b.json', 'k8s/notes.md']]]],
    ['a directory means its files of the given extensions', ['k8s'], { directoryFiles: ['.yaml', '.json'] }, [['k8s', ['k8s/a.yaml', 'k8s/b.json']]]],
    ['a directory is not matched without them', ['k8s'], {}, [['k8s', []]]],
    [
      'exclusions apply to every line, comments are skipped',
      ['k8s', '#k8s/sub/c.yaml', 'k8s/**/*.yaml', '!k8s/a.yaml'],
      { exclusions: true, directoryFiles: ['.yaml', '.json'] },
      [
        ['k8s', ['k8s/b.json']],
        ['k8s/**/*.yaml', ['k8s/sub/c.yaml']],
      ],
    ],
    ['without exclusions a ! line is a pattern of its own', ['!k8s/a.yaml'], {}, [['!k8s/a.yaml', []]]],
  ])('%s', async (_name, patterns, options, expected) => {
    const matches = await workspaceFiles(dir).match(patterns, options);
    expect(matches.map((m) => ('files' in m ? [m.pattern, relative(m.files)] : [m.pattern, 'error' in m ? m.error : m.refused]))).toEqual(expected);
  });
});

describe('read', () => {
  test.each([
    ['a regular file', 'k8s/a.yaml', { text: 'a: 1\n' }],
    ['a symbolic link to one', 'link.yaml', { text: 'a: 1\n' }],
    ['a missing file', 'missing.yaml', { reason: 'ENOENT' }],
    ['a directory', 'k8s', { reason: 'not a regular file' }],
    ['a FIFO, without waiting for a writer', 'pipe.yaml', { reason: 'not a regular file' }],
    ['a file over the limit', 'huge.yaml', { reason: 'larger than 64 MB' }],
  ])('%s', async (_name, file, expected) => {
    expect(await workspaceFiles(dir).read(path.join(dir, file))).toEqual(expected);
  });
});

test.each([
  ['k8s/a.yaml', 'k8s/a.yaml'],
  ['k8s/sub/c.yaml', 'k8s/sub/c.yaml'],
  ['/etc/hosts', '/etc/hosts'], // outside the workspace: the absolute path
])('name(%s) is %s', (file, expected) => {
  expect(workspaceFiles(dir).name(path.isAbsolute(file) ? file : path.join(dir, file))).toBe(expected);
});

describe('the inputs word what cannot be read', () => {
  test.each([
    ['pipe.yaml', 'not a regular file'],
    ['huge.yaml', 'larger than 64 MB'],
  ])('manifests: %s', async (file, reason) => {
    await expect(targetsFromManifests([file], dir)).rejects.toThrow(
      `Input "manifests" has "${file}", which cannot be read (${reason}). Expected readable YAML or JSON files, like k8s/*.yaml.`,
    );
  });

  test.each([
    ['pipe.yaml', 'not a regular file'],
    ['huge.yaml', 'larger than 64 MB'],
  ])('health-checks: %s', async (file, reason) => {
    const { problems } = await loadHealthChecks(file, workspaceFiles(dir));
    expect(problems).toMatchObject([
      { input: 'health-checks', file, message: expect.stringContaining(`Input "health-checks" has "${file}", which cannot be read (${reason}).`) },
    ]);
  });
});

describe('globs stay inside the workspace and within the deadline', () => {
  const OUTSIDE = 'is a glob reaching outside the workspace (give such a file by its own path, without * ? or [)';

  test.each([
    ['an absolute glob elsewhere', '/usr/**'],
    ['a glob of the root', '/*'],
    ['a relative glob above the workspace', '../*.yaml'],
    ['a glob that climbs out after its wildcard', 'k8s/*/../../../*.yaml'],
  ])('refuses %s', async (_name, pattern) => {
    expect(await workspaceFiles(dir).match([pattern])).toEqual([{ pattern, refused: OUTSIDE }]);
  });

  test('keeps an absolute glob inside the workspace, and a plain path outside it', async () => {
    const inside = path.join(dir, 'k8s/*.yaml');
    expect(await workspaceFiles(dir).match([inside])).toEqual([{ pattern: inside, files: [path.join(dir, 'k8s/a.yaml')] }]);
    expect(await workspaceFiles(path.join(dir, 'k8s/sub')).match(['../a.yaml'])).toEqual([{ pattern: '../a.yaml', files: [path.join(dir, 'k8s/a.yaml')] }]);
  });

  test.each([
    ['the deadline', AbortSignal.timeout(0), 'was still being expanded when the timeout ran out'],
    ['a cancel', AbortSignal.abort(), 'was still being expanded when the run was cancelled'],
  ])('stops a walk at %s', async (_name, signal, why) => {
    await new Promise((resolve) => setTimeout(resolve, 10)); // AbortSignal.timeout(0) fires on a later turn
    expect(await workspaceFiles(dir, { signal }).match(['**/*.yaml'])).toEqual([{ pattern: '**/*.yaml', refused: why }]);
  });

  test('stops a long walk when its deadline passes, not when the walk ends', async () => {
    // A workspace whose links lead into /usr, many times over: the glob is inside, the walk takes minutes.
    const workspace = mkdtempSync(path.join(tmpdir(), 'kubewait-walk-'));
    for (let i = 0; i < 16; i++) symlinkSync('/usr', path.join(workspace, `usr-${i}`));
    try {
      const started = Date.now();
      // Every file matches: the abandoned walk pauses at its next match, not at the end of /usr.
      const [match] = await workspaceFiles(workspace, { signal: AbortSignal.timeout(200) }).match(['**/*']);
      expect(match).toEqual({ pattern: '**/*', refused: 'was still being expanded when the timeout ran out' });
      // A hang bound, not a speed one: far above the 200 ms deadline on any machine, far below the walk's end.
      expect(Date.now() - started).toBeLessThan(20_000);
    } finally {
      rmSync(workspace, { recursive: true, force: true });
    }
  });

  test('the inputs name themselves', async () => {
    await expect(targetsFromManifests(['/usr/**'], dir)).rejects.toThrow(`Input "manifests" has "/usr/**", which ${OUTSIDE}. Expected paths or globs`);
    const { problems } = await loadHealthChecks('k8s/*.yaml', workspaceFiles(dir, { signal: AbortSignal.abort() }));
    expect(problems).toMatchObject([
      {
        input: 'health-checks',
        message: expect.stringContaining('Input "health-checks" has "k8s/*.yaml", which was still being expanded when the run was cancelled.'),
      },
    ]);
  });
});
