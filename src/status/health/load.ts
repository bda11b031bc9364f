/**
 * The `health-checks` input: an inline YAML list of Flux rules, or lines of paths/globs of YAML files
 * holding such a list or Flux Kustomization/HelmRelease documents (so a user points at the GitOps file
 * they already have). Returns every rule, numbered across all sources in order (`health-checks[<i>]`),
 * and every problem found; never throws for bad input. Pure but for the reader it is given: the files are
 * the workspace's, read by src/workspace-files.ts.
 */
import { duplicateProblems, HEALTH_CHECKS_EXAMPLE, HEALTH_CHECKS_INPUT, parseRuleText, type ParsedRules } from './parse.js';
import type { HealthRule, HealthRuleProblem } from './types.js';

/** Inline when the first meaningful line starts a YAML list item or a flow sequence. */
export function isInlineRuleList(value: string): boolean {
  const first = value
    .split('\n')
    .map((line) => line.trim())
    .find((line) => line !== '' && !line.startsWith('#'));
  return first !== undefined && (first.startsWith('- ') || first === '-' || first.startsWith('['));
}

/** What loading needs of the workspace: `workspaceFiles(cwd)` of src/workspace-files.ts (status/ reads no file). */
export interface RuleFiles {
  /** Each pattern with the files it matches (sorted), or why it is not a usable path or glob, or why it was
   *  not expanded (`refused`: outside the workspace, or the deadline passed). */
  match(
    patterns: readonly string[],
  ): Promise<Array<{ pattern: string; files: string[] } | { pattern: string; error: unknown } | { pattern: string; refused: string }>>;
  read(file: string): Promise<{ text: string } | { reason: string }>;
  /** The file as messages name it (relative to the workspace). */
  name(file: string): string;
}

/** Parses the input's value; `files` expands and reads the paths it names. Empty: no rules. */
export async function loadHealthChecks(value: string, files: RuleFiles): Promise<ParsedRules> {
  if (value.trim() === '') return { rules: [], problems: [] };
  if (isInlineRuleList(value)) {
    const { rules, problems } = parseRuleText(value, { firstIndex: 0 });
    return withDuplicates({ rules, problems });
  }
  const lines = value
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  if (lines.some((line) => /^[A-Za-z]+:(\s|$)/.test(line))) {
    return {
      rules: [],
      problems: [
        {
          input: HEALTH_CHECKS_INPUT,
          message: `Input "${HEALTH_CHECKS_INPUT}" looks like a single YAML mapping, not a list of rules: start each rule with "- apiVersion: ...". ${HEALTH_CHECKS_EXAMPLE}`,
        },
      ],
    };
  }
  const rules: HealthRule[] = [];
  const problems: HealthRuleProblem[] = [];
  let index = 0;
  for (const match of await files.match(lines)) {
    const { pattern } = match;
    if ('error' in match) {
      const { error } = match;
      problems.push({
        input: HEALTH_CHECKS_INPUT,
        message: `Input "${HEALTH_CHECKS_INPUT}" has "${pattern}", which is not a usable path or glob (${error instanceof Error ? error.message : String(error)}). ${HEALTH_CHECKS_EXAMPLE}`,
      });
      continue;
    }
    if ('refused' in match) {
      problems.push({
        input: HEALTH_CHECKS_INPUT,
        message: `Input "${HEALTH_CHECKS_INPUT}" has "${pattern}", which ${match.refused}. ${HEALTH_CHECKS_EXAMPLE}`,
      });
      continue;
    }
    if (match.files.length === 0) {
      problems.push({
        input: HEALTH_CHECKS_INPUT,
        message: `Input "${HEALTH_CHECKS_INPUT}" has "${pattern}", which matches no file. ${HEALTH_CHECKS_EXAMPLE}`,
      });
      continue;
    }
    for (const file of match.files) {
      const display = files.name(file);
      const read = await files.read(file);
      if ('reason' in read) {
        problems.push({
          input: HEALTH_CHECKS_INPUT,
          message: `Input "${HEALTH_CHECKS_INPUT}" has "${display}", which cannot be read (${read.reason}). ${HEALTH_CHECKS_EXAMPLE}`,
          file: display,
        });
        continue;
      }
      const parsed = parseRuleText(read.text, { firstIndex: index, file: display, fluxDocuments: true });
      rules.push(...parsed.rules);
      problems.push(...parsed.problems);
      index += parsed.count;
    }
  }
  return withDuplicates({ rules, problems });
}

function withDuplicates(parsed: ParsedRules): ParsedRules {
  return { rules: parsed.rules, problems: [...parsed.problems, ...duplicateProblems(parsed.rules)] };
}
