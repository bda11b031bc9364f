/**
 * The `health-checks` and `builtin-health-checks` inputs into the rules the engine asks, loaded before the
 * wait (the files are the workspace's): any problem is an `InputError` naming `health-checks`, so the run
 * ends with `result: error` before it waits on anything.
 */
import { InputError, type Settings } from '../../settings.js';
import { loadHealthChecks, type RuleFiles } from './load.js';
import { resolveRules } from './resolve.js';
import type { ResolvedRules } from './types.js';

export type HealthSettings = Pick<Settings, 'healthChecks' | 'builtinHealthChecks'>;

/** `files` reads the files the input names: the workspace's (`workspaceFiles(cwd)`, src/workspace-files.ts). */
export async function healthRulesFromSettings(settings: HealthSettings, options: { files: RuleFiles }): Promise<ResolvedRules> {
  const { rules, problems } = await loadHealthChecks(settings.healthChecks, options.files);
  const [first, ...more] = problems;
  if (first) {
    // Every problem at once, so a user with three typos fixes them in one round.
    const message = [first.message, ...more.map((p) => p.message)].join('\n');
    throw new InputError(first.input, message, first.file ? { file: first.file, ...(first.line !== undefined ? { line: first.line } : {}) } : undefined);
  }
  return resolveRules({ user: rules, builtin: settings.builtinHealthChecks });
}
