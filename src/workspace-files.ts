/**
 * The one reader of the user's files: the `manifests` and `health-checks` inputs name paths and globs in the
 * workspace, and this module expands them, reads the files and names them as annotations need them
 * (relative to the workspace). The inputs word their own errors; this module says only what matched and
 * why a file could not be read. A leaf: it imports nothing of ours.
 *
 * A read is bounded: regular files only (a FIFO or a device would never end, or never stop), opened without
 * blocking and checked on the open handle, and at most `MAX_FILE_BYTES`. So is a glob: it stays inside the
 * workspace (`/usr/**` would walk the runner's disk; a plain path outside it is still read, the user named
 * it), and its walk stops when the given signal aborts (the step's deadline, or a cancel).
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import path from 'node:path';
import { builtinModule } from './builtin.js';

/** node:fs/promises when first used: loading it also loads readline and the fs watchers (a few ms of a
 *  command's start), and a wait that names no files never reads one (bench/RESULTS.md, issue 35). */
const fsPromises = () => builtinModule('node:fs/promises');

/** Far above any manifest or rule file (a CRD bundle is a few MB), far below what would exhaust a runner. */
export const MAX_FILE_BYTES = 64 * 1024 * 1024;

export interface MatchOptions {
  /** `!` lines exclude what they match from every other line, and `#` lines are comments (the `manifests`
   *  input); without it every line is a pattern of its own. */
  exclusions?: boolean;
  /** A matched directory means its files with these extensions (not recursive, as `kubectl apply -f DIR`);
   *  without it directories are not matched. */
  directoryFiles?: readonly string[];
}

/** What one pattern matched: absolute paths, sorted; or why it could not be expanded (not a usable glob); or
 *  why it was not (`refused`, worded to follow `has "PATTERN", which`: outside the workspace, or stopped). */
export type PatternMatch = { pattern: string; files: string[] } | { pattern: string; error: unknown } | { pattern: string; refused: string };

/** Why a pattern was not expanded, worded to follow `has "PATTERN", which ...`; the inputs add their example. */
class PatternRefused extends Error {
  constructor(readonly why: string) {
    super(why);
    this.name = 'PatternRefused';
  }
}

/** A file's text, or why it cannot be read: an errno code (`ENOENT`, `EACCES`), `not a regular file`, ... */
export type FileText = { text: string } | { reason: string };

/** The user's files under one workspace directory. */
export interface WorkspaceFiles {
  /** Each pattern (relative to the workspace, or absolute) with the files it matches, in order. */
  match(patterns: readonly string[], options?: MatchOptions): Promise<PatternMatch[]>;
  read(file: string): Promise<FileText>;
  /** How messages and annotations name a file: relative to the workspace, `/`-separated; a file outside it
   *  keeps its absolute path. */
  name(file: string): string;
}

/** `signal` stops a glob's walk: the step's deadline and its cancellation (a walk of a large tree takes
 *  seconds, and nothing else bounds it before the wait starts). */
export function workspaceFiles(cwd: string, options: { signal?: AbortSignal } = {}): WorkspaceFiles {
  return {
    match: (patterns, matchOptions = {}) => matchPatterns(patterns, cwd, matchOptions, options.signal),
    read: readBounded,
    name: (file) => workspaceName(file, cwd),
  };
}

/** @actions/glob, loaded when a pattern is expanded: it brings @actions/core and @actions/http-client, which
 *  the command's --version, --help and every run without `manifests` or `health-checks` never need
 *  (bench/RESULTS.md, start-up). */
const loadGlob = () => import('@actions/glob');

async function matchPatterns(patterns: readonly string[], cwd: string, options: MatchOptions, signal: AbortSignal | undefined): Promise<PatternMatch[]> {
  const glob = await loadGlob();
  const exclusions = options.exclusions ? patterns.filter((pattern) => pattern.startsWith('!')).map((pattern) => `!${absolute(pattern.slice(1), cwd)}`) : [];
  // The globber applies `!` lines to what it matches, not to the files of a directory it matched (`k8s/`):
  // those are read here, so the excluded files are listed once and taken out of them too.
  let excluded = new Set<string>();
  try {
    if (options.exclusions) excluded = await excludedFiles(patterns, cwd, signal);
  } catch (error) {
    return [
      refusedOr(
        patterns.find((p) => p.startsWith('!'))!,
        error,
      ),
    ];
  }
  const wanted = options.exclusions ? patterns.filter((p) => !p.startsWith('!') && !p.startsWith('#')) : patterns;
  const matches: PatternMatch[] = [];
  for (const pattern of wanted) {
    let found: string[];
    try {
      refuseGlobOutside(pattern, cwd);
      const globber = await glob.create([absolute(pattern, cwd), ...exclusions].join('\n'), {
        implicitDescendants: false,
        matchDirectories: options.directoryFiles !== undefined,
      });
      const matched = await walk(globber, signal);
      found = options.directoryFiles ? (await Promise.all(matched.map((match) => filesOf(match, options.directoryFiles!)))).flat() : matched;
    } catch (error) {
      matches.push(refusedOr(pattern, error));
      continue;
    }
    matches.push({ pattern, files: found.filter((file) => !excluded.has(file)).sort() });
  }
  return matches;
}

function refusedOr(pattern: string, error: unknown): PatternMatch {
  return error instanceof PatternRefused ? { pattern, refused: error.why } : { pattern, error };
}

/** Every file an exclusion line matches (a directory: the files in it). */
async function excludedFiles(patterns: readonly string[], cwd: string, signal: AbortSignal | undefined): Promise<Set<string>> {
  const exclusions = patterns.filter((pattern) => pattern.startsWith('!') && pattern.length > 1).map((pattern) => absolute(pattern.slice(1), cwd));
  if (exclusions.length === 0) return new Set();
  const glob = await loadGlob();
  const globber = await glob.create(exclusions.join('\n'), { implicitDescendants: true, matchDirectories: false });
  return new Set(await walk(globber, signal));
}

/** Glob characters of @actions/glob; a pattern without them is a path the user gave explicitly. */
const GLOB_CHARACTERS = /[*?[]/;

/** A glob is expanded inside the workspace only: its literal part (after `..` are resolved) must be in it. */
function refuseGlobOutside(pattern: string, cwd: string): void {
  if (!GLOB_CHARACTERS.test(pattern)) return;
  const segments = path.resolve(cwd, pattern).split(path.sep);
  const firstGlob = segments.findIndex((segment) => GLOB_CHARACTERS.test(segment));
  const literal = segments.slice(0, firstGlob === -1 ? segments.length : firstGlob).join(path.sep) || path.sep;
  const relative = path.relative(cwd, literal);
  if (relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative)) {
    throw new PatternRefused('is a glob reaching outside the workspace (give such a file by its own path, without * ? or [)');
  }
}

/** The globber's matches, or `PatternRefused` as soon as `signal` aborts. The walk itself cannot be
 *  stopped: it pauses at its next match, as nothing asks for more. */
async function walk(globber: { globGenerator(): AsyncGenerator<string, void> }, signal: AbortSignal | undefined): Promise<string[]> {
  const stopped = (): PatternRefused =>
    new PatternRefused(
      signal?.reason instanceof DOMException && signal.reason.name === 'TimeoutError'
        ? 'was still being expanded when the timeout ran out'
        : 'was still being expanded when the run was cancelled',
    );
  if (signal?.aborted) throw stopped();
  const matches = globber.globGenerator();
  let onAbort = (): void => undefined;
  const aborted = new Promise<never>((_resolve, reject) => {
    onAbort = () => reject(stopped());
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  aborted.catch(() => undefined); // rejected only while raced below
  const found: string[] = [];
  try {
    for (;;) {
      const next = await Promise.race([matches.next(), aborted]);
      if (next.done) return found;
      found.push(next.value);
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}

async function filesOf(match: string, extensions: readonly string[]): Promise<string[]> {
  if (!(await fsPromises().stat(match)).isDirectory()) return [match];
  const entries = await fsPromises().readdir(match, { withFileTypes: true });
  return entries.filter((entry) => entry.isFile() && extensions.includes(path.extname(entry.name).toLowerCase())).map((entry) => path.join(match, entry.name));
}

const TOO_LARGE = `larger than ${MAX_FILE_BYTES / 1024 / 1024} MB`;

async function readBounded(file: string): Promise<FileText> {
  let handle;
  try {
    // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer (Windows has neither).
    handle = await fsPromises().open(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    return { reason: errorCode(error) };
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) return { reason: 'not a regular file' };
    if (info.size > MAX_FILE_BYTES) return { reason: TOO_LARGE };
    // Read until the end, not just `size` bytes: a file may grow between its stat and its read.
    const chunkSize = Math.max(Math.min(info.size + 1, 1024 * 1024), 64 * 1024);
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.alloc(chunkSize);
      const { bytesRead } = await handle.read(chunk, 0, chunkSize, total);
      if (bytesRead === 0) break;
      total += bytesRead;
      if (total > MAX_FILE_BYTES) return { reason: TOO_LARGE };
      chunks.push(chunk.subarray(0, bytesRead));
    }
    return { text: Buffer.concat(chunks).toString('utf8') };
  } catch (error) {
    return { reason: errorCode(error) };
  } finally {
    await handle.close();
  }
}

/**
 * `read` without a promise, under the same bounds, for a reader that is synchronous all through (the kubeconfig
 * files, src/kube/kubeconfig.ts): the open does not wait for a FIFO's writer and anything but a regular file is
 * refused before a byte is read, so nothing here waits on anyone but the disk.
 */
export function readBoundedSync(file: string): FileText {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    return { reason: errorCode(error) };
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) return { reason: 'not a regular file' };
    if (info.size > MAX_FILE_BYTES) return { reason: TOO_LARGE };
    const chunkSize = Math.max(Math.min(info.size + 1, 1024 * 1024), 64 * 1024);
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.alloc(chunkSize);
      const bytesRead = readSync(fd, chunk, 0, chunkSize, total);
      if (bytesRead === 0) break;
      total += bytesRead;
      if (total > MAX_FILE_BYTES) return { reason: TOO_LARGE };
      chunks.push(chunk.subarray(0, bytesRead));
    }
    return { text: Buffer.concat(chunks).toString('utf8') };
  } catch (error) {
    return { reason: errorCode(error) };
  } finally {
    closeSync(fd);
  }
}

const errorCode = (error: unknown): string => (error as NodeJS.ErrnoException).code ?? 'unknown error';

function absolute(pattern: string, cwd: string): string {
  return path.isAbsolute(pattern) ? pattern : path.join(cwd, pattern);
}

function workspaceName(file: string, cwd: string): string {
  const relative = path.relative(cwd, file);
  return relative.startsWith('..') || path.isAbsolute(relative) ? file : relative.split(path.sep).join('/');
}
