/**
 * `kubewait --help`: generated from the flag tables, so it lists every flag and the action's defaults, and
 * from the exit-code table. Every line fits 80 columns, the width a terminal opens with: a flag's help wraps
 * under its own column, as kubectl's and git's do.
 */
import { EXIT_CODES, EXIT_MEANINGS } from './exit-code-table.js';
import { COMMAND_FLAGS, defaultOf, INPUT_FLAGS, type InputFlag } from './flags.js';
import { wrapLine } from './wrap.js';

export const HELP_WIDTH = 80;
/** Where a flag's help starts: after `  -n, --namespace NAME`, padded wide enough for the longest flag and value. */
const FLAG_NAME_WIDTH = 36;
const HELP_COLUMN = 2 + FLAG_NAME_WIDTH + 1;

const EXAMPLES = [
  ['kubewait deployment/web job/migrate -n shop', 'wait until both are ready'],
  ['kubewait -f k8s/ --timeout 10m', 'every object in the manifests of k8s/'],
  ['kubewait -l app=web -n shop', 'every workload labelled app=web'],
  ['kubewait deployments -l tier=frontend', 'every Deployment labelled tier=frontend'],
  ['kubewait pod/seed --for condition=Ready=False', 'a condition, as kubectl wait --for'],
  ["kubewait svc/lb --for 'jsonpath={.status.loadBalancer.ingress}'", 'a field to appear'],
  ['kubewait namespace/old --for deleted', 'until it is gone'],
  ['kubewait --release shop -n shop', "every object of the Helm release's latest revision"],
  ['kubewait -f k8s/ -o json --junit report.xml', 'JSON on stdout, JUnit XML for the CI'],
  ['kubectl kubewait deployment web api', "as a kubectl plugin, in kubectl's TYPE NAME... form"],
];

const TARGET_INPUTS = new Set(['kubeconfig', 'context', 'namespace', 'resources', 'selector', 'manifests', 'release']);
const GITHUB_INPUTS = new Set(['summary', 'pr-comment', 'deployment-environment', 'deployment-url', 'github-token', 'report-matrix', 'report-job-id']);

/** The input flags whose input names pass `keep`; any other input (a new one) shows under "Waiting". */
function pick(keep: (key: string) => boolean): Record<string, InputFlag> {
  return Object.fromEntries(Object.entries(INPUT_FLAGS as Record<string, InputFlag>).filter(([key]) => keep(key)));
}

function flagLines(table: Record<string, InputFlag>, defaults: (key: string) => string | undefined): string[] {
  return Object.entries(table)
    .filter(([, spec]) => spec.flag !== undefined)
    .flatMap(([key, spec]) => {
      const name = `${spec.short ? `-${spec.short}, ` : '    '}--${spec.flag}${spec.value ? ` ${spec.value}` : ''}`;
      const given = defaults(key);
      const shown = given === undefined || given === '' ? '' : ` [${given}]`;
      return wrapLine(`  ${name.padEnd(FLAG_NAME_WIDTH)} ${spec.help}${shown}`, HELP_WIDTH, HELP_COLUMN);
    });
}

/** Prose, wrapped to the help's width. */
const paragraph = (text: string): string[] => wrapLine(text, HELP_WIDTH, 0);

export function helpText(version: string): string {
  const exits = Object.entries(EXIT_CODES).flatMap(([verdict, code]) =>
    wrapLine(`  ${String(code).padStart(3)}  ${EXIT_MEANINGS[verdict as keyof typeof EXIT_CODES]}`, HELP_WIDTH, 7),
  );
  return [
    ...paragraph(`kubewait ${version}: wait until Kubernetes resources are ready (kstatus rules), and say which are not and why.`),
    '',
    'Usage:',
    '  kubewait [flags] [TYPE/NAME | NAMESPACE/TYPE/NAME | TYPE NAME...]',
    '  kubewait [flags] TYPE -l SELECTOR',
    '  kubectl kubewait [flags] [targets]',
    '',
    'Examples:',
    // As kubectl's help: what it does above the command, so a long command keeps its line.
    ...EXAMPLES.flatMap(([command, what], i) => [...(i > 0 ? [''] : []), `  # ${what}`, `  ${command}`]),
    '',
    'Targets and cluster:',
    ...flagLines(
      pick((key) => TARGET_INPUTS.has(key)),
      defaultOf,
    ),
    '',
    'Waiting:',
    ...flagLines(
      pick((key) => !TARGET_INPUTS.has(key) && !GITHUB_INPUTS.has(key)),
      defaultOf,
    ),
    '',
    'Inside GitHub Actions:',
    ...flagLines(
      pick((key) => GITHUB_INPUTS.has(key)),
      defaultOf,
    ),
    '',
    'Output:',
    ...flagLines(COMMAND_FLAGS, (key) => (key === 'output' ? 'text' : undefined)),
    '',
    'Exit codes:',
    ...exits,
    '',
    ...paragraph(
      'Boolean flags take --flag, --no-flag or --flag=false. Inside GitHub Actions the command also writes annotations and the job summary; ' +
        'inside GitLab CI the log uses collapsible sections. NO_COLOR turns colour off.',
    ),
    '',
  ].join('\n');
}
