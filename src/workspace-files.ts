/**
 * The one reader of the user's files: the `manifests` and `health-checks` inputs name paths and globs in the
 * workspace, and this module expands them, reads the files and names them as annotations need them
 * (relative to the workspace). The inputs word their own errors; this module says only what matched and
 * why a file could not be read. A leaf: it imports nothing of ours.
 *
 * A read is bounded: regular files only (a FIFO or a device would never end, or never stop), opened without
 * blocking and checked on the open handle, and at most `MAX_FILE_BYTES`.
 */
import { constants } from 'node:fs';
import { open, readdir, stat } from 'node:fs/promises';
import path from 'node:path';

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

/** What one pattern matched: absolute paths, sorted; or why it could not be expanded (not a usable glob). */
export type PatternMatch = { pattern: string; files: string[] } | { pattern: string; error: unknown };

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

export function workspaceFiles(cwd: string): WorkspaceFiles {
  return {
    match: (patterns, options = {}) => matchPatterns(patterns, cwd, options),
    read: readBounded,
    name: (file) => workspaceName(file, cwd),
  };
}

/** @actions/glob, loaded when a pattern is expanded: it brings @actions/core and @actions/http-client, which
 *  the command's --version, --help and every run without `manifests` or `health-checks` never need
 *  (bench/RESULTS.md, start-up). */
const loadGlob = () => import('@actions/glob');

async function matchPatterns(patterns: readonly string[], cwd: string, options: MatchOptions): Promise<PatternMatch[]> {
  const glob = await loadGlob();
  const exclusions = options.exclusions ? patterns.filter((pattern) => pattern.startsWith('!')).map((pattern) => `!${absolute(pattern.slice(1), cwd)}`) : [];
  // The globber applies `!` lines to what it matches, not to the files of a directory it matched (`k8s/`):
  // those are read here, so the excluded files are listed once and taken out of them too.
  const excluded = options.exclusions ? await excludedFiles(patterns, cwd) : new Set<string>();
  const wanted = options.exclusions ? patterns.filter((p) => !p.startsWith('!') && !p.startsWith('#')) : patterns;
  const matches: PatternMatch[] = [];
  for (const pattern of wanted) {
    let found: string[];
    try {
      const globber = await glob.create([absolute(pattern, cwd), ...exclusions].join('\n'), {
        implicitDescendants: false,
        matchDirectories: options.directoryFiles !== undefined,
      });
      const matched = await globber.glob();
      found = options.directoryFiles ? (await Promise.all(matched.map((match) => filesOf(match, options.directoryFiles!)))).flat() : matched;
    } catch (error) {
      matches.push({ pattern, error });
      continue;
    }
    matches.push({ pattern, files: found.filter((file) => !excluded.has(file)).sort() });
  }
  return matches;
}

/** Every file an exclusion line matches (a directory: the files in it). */
async function excludedFiles(patterns: readonly string[], cwd: string): Promise<Set<string>> {
  const exclusions = patterns.filter((pattern) => pattern.startsWith('!') && pattern.length > 1).map((pattern) => absolute(pattern.slice(1), cwd));
  if (exclusions.length === 0) return new Set();
  const glob = await loadGlob();
  const globber = await glob.create(exclusions.join('\n'), { implicitDescendants: true, matchDirectories: false });
  return new Set(await globber.glob());
}

async function filesOf(match: string, extensions: readonly string[]): Promise<string[]> {
  if (!(await stat(match)).isDirectory()) return [match];
  const entries = await readdir(match, { withFileTypes: true });
  return entries.filter((entry) => entry.isFile() && extensions.includes(path.extname(entry.name).toLowerCase())).map((entry) => path.join(match, entry.name));
}

const TOO_LARGE = `larger than ${MAX_FILE_BYTES / 1024 / 1024} MB`;

async function readBounded(file: string): Promise<FileText> {
  let handle;
  try {
    // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer (Windows has neither).
    handle = await open(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
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

const errorCode = (error: unknown): string => (error as NodeJS.ErrnoException).code ?? 'unknown error';

function absolute(pattern: string, cwd: string): string {
  return path.isAbsolute(pattern) ? pattern : path.join(cwd, pattern);
}

function workspaceName(file: string, cwd: string): string {
  const relative = path.relative(cwd, file);
  return relative.startsWith('..') || path.isAbsolute(relative) ? file : relative.split(path.sep).join('/');
}
