/**
 * The Node the command needs, checked first by dist/cli.js (src/cli-boot.ts): on Node 20 the bundle used to
 * fail with a minified stack trace and exit 1, the code that means "a target failed".
 *
 * Why 22: the command's end-to-end tests pass on Node 22.0.0 and 24. Node 20 left support in April 2026, and
 * libraries in the bundle declare Node 22 (content-type, which Octokit uses). package.json `engines` says the
 * same (test/cli/node-version.test.ts holds them together).
 *
 * Evaluated before anything else on whatever Node runs `kubewait`: imports nothing and uses nothing a Node
 * that loads ES modules lacks (scripts/package.ts builds dist/cli.js for Node 12.20).
 */

export const MINIMUM_NODE_MAJOR = 22;

/** What to tell the user when `version` (`process.version`, like v20.20.2) is older than the command needs,
 *  else undefined. `node` is the executable that ran it: with several installed, the one to replace. */
export function nodeVersionProblem(version: string, node: string): string | undefined {
  const major = Number(/^v(\d+)\./.exec(version)?.[1]);
  // An unknown format (another runtime) is given the benefit of the doubt: it runs or fails on its own.
  if (!Number.isInteger(major) || major >= MINIMUM_NODE_MAJOR) return undefined;
  return [
    `kubewait: needs Node.js ${MINIMUM_NODE_MAJOR} or later; this is Node.js ${version} (${node}).`,
    'Upgrade Node.js (https://nodejs.org), or use kubewait as a single executable,',
    'which carries its own Node.js: `npm run sea` in a clone of kubewait builds it',
    '(README, "Outside GitHub Actions").',
    '',
  ].join('\n');
}
