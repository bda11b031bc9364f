/**
 * The `health-checks` input: an inline YAML list of Flux rules, or lines of paths/globs of YAML files
 * holding such a list or Flux Kustomization/HelmRelease documents (so a user points at the GitOps file
 * they already have). Returns every rule, numbered across all sources in order (`health-checks[<i>]`),
 * and every problem found; never throws for bad input.
 */
import * as glob from '@actions/glob';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
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

/** Parses the input's value; `cwd` resolves relative paths (the workspace). Empty: no rules. */
export async function loadHealthChecks(value: string, cwd: string): Promise<ParsedRules> {
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
  for (const pattern of lines) {
    let files: string[];
    try {
      files = await expand(pattern, cwd);
    } catch (error) {
      problems.push({
        input: HEALTH_CHECKS_INPUT,
        message: `Input "${HEALTH_CHECKS_INPUT}" has "${pattern}", which is not a usable path or glob (${error instanceof Error ? error.message : String(error)}). ${HEALTH_CHECKS_EXAMPLE}`,
      });
      continue;
    }
    if (files.length === 0) {
      problems.push({
        input: HEALTH_CHECKS_INPUT,
        message: `Input "${HEALTH_CHECKS_INPUT}" has "${pattern}", which matches no file. ${HEALTH_CHECKS_EXAMPLE}`,
      });
      continue;
    }
    for (const file of files) {
      const display = displayPath(file, cwd);
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code ?? 'unknown error';
        problems.push({
          input: HEALTH_CHECKS_INPUT,
          message: `Input "${HEALTH_CHECKS_INPUT}" has "${display}", which cannot be read (${code}). ${HEALTH_CHECKS_EXAMPLE}`,
          file: display,
        });
        continue;
      }
      const parsed = parseRuleText(text, { firstIndex: index, file: display, fluxDocuments: true });
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

async function expand(pattern: string, cwd: string): Promise<string[]> {
  const absolute = path.isAbsolute(pattern) ? pattern : path.join(cwd, pattern);
  const globber = await glob.create(absolute, { implicitDescendants: false, matchDirectories: false });
  return (await globber.glob()).sort();
}

function displayPath(file: string, cwd: string): string {
  const relative = path.relative(cwd, file);
  return relative.startsWith('..') || path.isAbsolute(relative) ? file : relative.split(path.sep).join('/');
}
