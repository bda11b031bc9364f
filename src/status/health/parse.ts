/**
 * Parsing Flux `healthCheckExprs` lists (fluxcd/pkg apis/kustomize CustomHealthCheck): `apiVersion`
 * GROUP/VERSION required, `kind` optional, `current` required, `inProgress` and `failed` optional, each a
 * CEL expression. Every expression is compiled here, before any wait starts, so a typo is an input
 * problem naming the rule, the expression and the position, never a surprise mid-wait. Pure: text in,
 * rules and problems out (files are read by load.ts).
 */
import { isAlias, isMap, isScalar, isSeq, LineCounter, parseAllDocuments, type Document, type Node, type YAMLMap } from 'yaml';
import { compileExpression, type CelProgram } from './cel.js';
import { EXPRESSION_FIELDS, type ExpressionField, type HealthRule, type HealthRuleProblem } from './types.js';

export const HEALTH_CHECKS_INPUT = 'health-checks';

export const HEALTH_CHECKS_EXAMPLE = `Expected a YAML list of Flux health check expressions, like:
- apiVersion: cert-manager.io/v1
  kind: Certificate
  current: status.conditions.exists(c, c.type == 'Ready' && c.status == 'True')
  failed: status.conditions.exists(c, c.type == 'Ready' && c.status == 'False')
or lines of paths/globs of YAML files holding such a list or Flux Kustomization/HelmRelease documents (spec.healthCheckExprs).`;

const KNOWN_FIELDS = new Set(['apiVersion', 'kind', ...EXPRESSION_FIELDS]);

export interface ParseOptions {
  /** Index of the first rule in this text among all the input's rules (ids are `health-checks[<i>]`). */
  firstIndex: number;
  /** Where the text came from, for messages; absent for the inline input. */
  file?: string;
  /** Built-in rules: ids from a `# name: <name>` comment, and `*.group` wildcards allowed. */
  builtin?: boolean;
}

export interface ParsedRules {
  rules: HealthRule[];
  problems: HealthRuleProblem[];
}

/** A text's rules, plus how many list items it had (a rule that failed to parse still takes its index). */
export interface ParsedText extends ParsedRules {
  count: number;
}

/**
 * Rules from YAML text that is a bare list, or (with `fluxDocuments`) a multi-document file whose Flux
 * Kustomization/HelmRelease documents carry `spec.healthCheckExprs`. Lists are concatenated in order.
 */
export function parseRuleText(text: string, options: ParseOptions & { fluxDocuments?: boolean }): ParsedText {
  const lineCounter = new LineCounter();
  const lineOf = (node: Node | null | undefined): number | undefined => (node?.range ? lineCounter.linePos(node.range[0]).line : undefined);
  const problems: HealthRuleProblem[] = [];
  const where = options.file ? `"${options.file}"` : 'its inline value';
  const problem = (message: string, line?: number): HealthRuleProblem => ({
    input: HEALTH_CHECKS_INPUT,
    message,
    ...(options.file === undefined ? {} : { file: options.file }),
    ...(line === undefined ? {} : { line }),
  });

  const lists: { items: Node[]; doc: Document }[] = [];
  for (const doc of parseAllDocuments(text, { lineCounter })) {
    const error = doc.errors[0];
    if (error) {
      const line = error.linePos?.[0].line;
      const reason = (error.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '');
      return {
        rules: [],
        count: 0,
        problems: [
          problem(
            `Input "${HEALTH_CHECKS_INPUT}" has ${where}, which is not valid YAML${line ? ` at line ${line}` : ''}: ${reason}. ${HEALTH_CHECKS_EXAMPLE}`,
            line,
          ),
        ],
      };
    }
    const root = doc.contents;
    if (root === null || (isScalar(root) && (root.value === null || root.value === ''))) continue;
    if (isSeq(root)) {
      lists.push({ items: root.items, doc });
      continue;
    }
    if (options.fluxDocuments && isMap(root)) {
      const exprs = fluxHealthChecks(root);
      if (exprs) lists.push({ items: exprs.items as Node[], doc });
      continue;
    }
    const what = isMap(root) ? 'a mapping' : 'a scalar';
    return {
      rules: [],
      count: 0,
      problems: [
        problem(
          `Input "${HEALTH_CHECKS_INPUT}" has ${where}, which is ${what}, not a list of rules (start each rule with "- apiVersion: ..."). ${HEALTH_CHECKS_EXAMPLE}`,
          lineOf(root),
        ),
      ],
    };
  }
  if (lists.length === 0) {
    const expected = options.fluxDocuments ? 'no rule list and no Flux Kustomization or HelmRelease with spec.healthCheckExprs' : 'no rules';
    return { rules: [], count: 0, problems: [problem(`Input "${HEALTH_CHECKS_INPUT}" has ${where}, which holds ${expected}. ${HEALTH_CHECKS_EXAMPLE}`)] };
  }

  const rules: HealthRule[] = [];
  let index = options.firstIndex;
  for (const list of lists) {
    for (const item of list.items) {
      const rule = parseRule(resolved(item, list.doc), index, { ...options, lineOf, problem, problems, doc: list.doc });
      if (rule) rules.push(rule);
      index++;
    }
  }
  return { rules, problems, count: index - options.firstIndex };
}

/** `spec.healthCheckExprs` of a Flux Kustomization or HelmRelease document, if it has one. */
function fluxHealthChecks(root: YAMLMap): { items: unknown[] } | undefined {
  const kind = root.get('kind');
  const apiVersion = root.get('apiVersion');
  if (kind !== 'Kustomization' && kind !== 'HelmRelease') return undefined;
  if (typeof apiVersion !== 'string' || !apiVersion.includes('fluxcd.io/')) return undefined;
  const spec = root.get('spec', true);
  const exprs = isMap(spec) ? spec.get('healthCheckExprs', true) : undefined;
  return isSeq(exprs) ? exprs : undefined;
}

/** A YAML alias (`*name`) as the node it points at: Flux reads rules through a YAML parser, so anchors work there. */
function resolved(node: Node, doc: Document): Node {
  return isAlias(node) ? ((node.resolve(doc) as Node | undefined) ?? node) : node;
}

interface RuleContext extends ParseOptions {
  doc: Document;
  lineOf(node: Node | null | undefined): number | undefined;
  problem(message: string, line?: number): HealthRuleProblem;
  problems: HealthRuleProblem[];
}

function parseRule(item: Node, index: number, ctx: RuleContext): HealthRule | undefined {
  const line = ctx.lineOf(item);
  const name = ctx.builtin ? builtinName(item) : undefined;
  const label = ctx.builtin ? `built-in rule ${name ?? `#${index}`}` : `rule ${HEALTH_CHECKS_INPUT}[${index}]`;
  const fail = (message: string, at = line): undefined => {
    ctx.problems.push(
      ctx.problem(`Input "${HEALTH_CHECKS_INPUT}" has ${label}${ctx.file ? ` in "${ctx.file}"` : ''}${at ? ` (line ${at})` : ''}: ${message}`, at),
    );
    return undefined;
  };
  if (!isMap(item)) return fail(`it is not a mapping. ${HEALTH_CHECKS_EXAMPLE}`);
  if (ctx.builtin && !name) return fail('it has no "# name: <name>" comment above it');

  for (const pair of item.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
    if (!KNOWN_FIELDS.has(key))
      return fail(
        `it has the unknown field "${key}"; a rule has apiVersion, kind, current, inProgress and failed. ${HEALTH_CHECKS_EXAMPLE}`,
        ctx.lineOf(pair.key as Node),
      );
  }
  const text = (field: string): { value?: string; line?: number; bad?: true } => {
    const raw = item.get(field, true) as Node | undefined;
    const node = raw === undefined ? undefined : resolved(raw, ctx.doc);
    if (node === undefined || (isScalar(node) && node.value === null)) return {};
    if (!isScalar(node) || typeof node.value !== 'string') return { bad: true, line: ctx.lineOf(node) ?? line };
    const at = ctx.lineOf(node);
    return { value: node.value, ...(at === undefined ? {} : { line: at }) };
  };

  const apiVersion = text('apiVersion');
  if (apiVersion.bad || apiVersion.value === undefined)
    return fail(`apiVersion is required, as GROUP/VERSION (like cert-manager.io/v1). ${HEALTH_CHECKS_EXAMPLE}`);
  const group = groupOf(apiVersion.value, ctx.builtin === true);
  if (group === undefined)
    return fail(
      `apiVersion "${apiVersion.value}" is not GROUP/VERSION (like cert-manager.io/v1; the version is ignored, the group is matched). ${HEALTH_CHECKS_EXAMPLE}`,
      apiVersion.line,
    );
  const kind = text('kind');
  if (kind.bad || kind.value === '')
    return fail(`kind must be a kind name (like Certificate), or left out to match every kind of the group. ${HEALTH_CHECKS_EXAMPLE}`, kind.line);
  const where = `${group || 'core'}${kind.value ? `/${kind.value}` : ''}`;

  const programs: Partial<Record<ExpressionField, CelProgram>> = {};
  for (const field of EXPRESSION_FIELDS) {
    const expr = text(field);
    if (expr.bad) return fail(`${field} (for ${where}) must be a CEL expression string. ${HEALTH_CHECKS_EXAMPLE}`, expr.line);
    if (expr.value === undefined || expr.value.trim() === '') {
      if (field === 'current')
        return fail(`current (for ${where}) is required: the CEL expression that is true when the object is ready. ${HEALTH_CHECKS_EXAMPLE}`);
      continue;
    }
    const compiled = compileExpression(expr.value);
    if (!compiled.ok) {
      return fail(
        `${field} (for ${where}) is not valid CEL at position ${compiled.position + 1}: ${compiled.message}\n  ${expr.value}\n  ${' '.repeat(compiled.position)}^\n${HEALTH_CHECKS_EXAMPLE}`,
        expr.line,
      );
    }
    programs[field] = compiled.program;
  }
  const { current } = programs;
  if (!current) return undefined; // unreachable: a missing current returned above
  return {
    id: ctx.builtin ? `builtin:${name ?? ''}` : `${HEALTH_CHECKS_INPUT}[${index}]`,
    apiVersion: apiVersion.value,
    group,
    ...(kind.value === undefined ? {} : { kind: kind.value }),
    current,
    ...(programs.inProgress ? { inProgress: programs.inProgress } : {}),
    ...(programs.failed ? { failed: programs.failed } : {}),
    ...(ctx.file === undefined ? {} : { file: ctx.file }),
    ...(line === undefined ? {} : { line }),
  };
}

/** The `# name: <name>` comment right above a built-in rule. */
function builtinName(item: Node): string | undefined {
  const comment = item.commentBefore ?? '';
  const names = [...comment.matchAll(/^\s*name:\s*([a-z0-9][a-z0-9.-]*)\s*$/gm)];
  return names.at(-1)?.[1];
}

/**
 * The group of GROUP/VERSION, as schema.ParseGroupVersion reads it ("v1" is the core group "");
 * undefined when malformed. Built-ins may use `*.example.io` to match every group ending in `.example.io`.
 */
export function groupOf(apiVersion: string, allowWildcard: boolean): string | undefined {
  const name = /^(?:(\*\.)?([a-z0-9]([a-z0-9.-]*[a-z0-9])?)\/)?(v\d+(?:(?:alpha|beta)\d+)?)$/.exec(apiVersion);
  if (!name) return undefined;
  const [, wildcard, group = ''] = name;
  if (wildcard && !allowWildcard) return undefined;
  return `${wildcard ?? ''}${group}`;
}

/** A duplicate (group, kind) is an input error, as in Flux's status reader. */
export function duplicateProblems(rules: HealthRule[]): HealthRuleProblem[] {
  const seen = new Map<string, HealthRule>();
  const problems: HealthRuleProblem[] = [];
  for (const rule of rules) {
    const key = `${rule.group}/${rule.kind ?? ''}`;
    const first = seen.get(key);
    if (!first) {
      seen.set(key, rule);
      continue;
    }
    const what = rule.kind ? `${rule.group}/${rule.kind}` : `every kind of ${rule.group} (no kind)`;
    problems.push({
      input: HEALTH_CHECKS_INPUT,
      message: `Input "${HEALTH_CHECKS_INPUT}" has two rules for ${what}: ${first.id} and ${rule.id}. Keep one rule per group and kind (the version of apiVersion is ignored). ${HEALTH_CHECKS_EXAMPLE}`,
      ...(rule.file === undefined ? {} : { file: rule.file }),
      ...(rule.line === undefined ? {} : { line: rule.line }),
    });
  }
  return problems;
}
