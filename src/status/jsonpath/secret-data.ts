/**
 * The expected value of a `jsonpath=EXPR=VALUE` wait, as kubewait shows it. Once the wait is met on a
 * Secret, VALUE is that Secret's data: printed in the live log, the outputs, the job summary and the
 * resources file, it would leak. So VALUE is shown only when EXPR cannot reach a Secret's data: each of its
 * `{...}` actions starts with a named top-level field other than `data` and `stringData`. A recursive
 * descent (`{..password}`), a wildcard or a filter at the root might read it, and hides the value too.
 */

/** Where a Secret keeps its values. */
const SECRET_DATA_FIELDS = new Set(['data', 'stringData']);

/** What stands for a value that is not shown: the runner's own mask. */
export const HIDDEN_VALUE = '***';

/** True when the expression may read a Secret's `data` or `stringData`. */
export function mayReadSecretData(expression: string): boolean {
  const actions = [...expression.matchAll(/\{([^}]*)\}/g)].map((match) => match[1]!.trim());
  if (actions.length === 0) actions.push(expression.trim());
  return actions.some((action) => {
    const first = /^\.([A-Za-z_$][\w$-]*)(?=$|[.[])/.exec(action);
    return !first || SECRET_DATA_FIELDS.has(first[1]!);
  });
}

/** The expected value as printed: itself, or `***` when the expression may read a Secret's data. */
export function shownJsonPathValue(expression: string, value: string): string {
  return mayReadSecretData(expression) ? HIDDEN_VALUE : value;
}
