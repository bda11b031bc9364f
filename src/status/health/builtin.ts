/**
 * The built-in rule library (rules/builtin.yaml, embedded as text by `npm run rules`), parsed once on
 * first use. A problem in it is a bug in kubewait, not in the user's input, so it throws.
 */
import { BUILTIN_RULES_YAML } from './builtin-text.js';
import { duplicateProblems, parseRuleText } from './parse.js';
import type { HealthRule } from './types.js';

export const BUILTIN_RULES_FILE = 'rules/builtin.yaml';

let cached: HealthRule[] | undefined;

export function builtinRules(): HealthRule[] {
  if (cached) return cached;
  const parsed = parseRuleText(BUILTIN_RULES_YAML, { firstIndex: 0, file: BUILTIN_RULES_FILE, builtin: true });
  const problems = [...parsed.problems, ...duplicateProblems(parsed.rules)];
  if (problems.length > 0) throw new Error(`kubewait's ${BUILTIN_RULES_FILE} is invalid: ${problems.map((p) => p.message).join('\n')}`);
  cached = parsed.rules;
  return cached;
}
