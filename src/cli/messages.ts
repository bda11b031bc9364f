/**
 * The action's messages name its inputs (`Input "wait-for" is ...`, ``Example: `context: prod` ``); the
 * command says the same things in its own terms (`--for is ...`, `Example: --context prod`). One validation
 * (src/inputs.ts, src/kube/kubeconfig.ts, src/targets/) serves both shells; this module only rewords.
 */
import { describeInputProblem, type InputProblem } from '../settings.js';
import { INPUT_FLAGS, type InputFlag } from './flags.js';

const FLAGS = INPUT_FLAGS as Record<string, InputFlag>;

/** How the command names an input in prose. */
function flagOf(input: string): string {
  if (input === 'resources') return 'the TYPE/NAME arguments';
  const flag = FLAGS[input]?.flag;
  return flag ? `--${flag}` : `"${input}"`;
}

/** How an action example `input: value` reads on the command line. */
function exampleOf(input: string, value: string): string {
  if (input === 'resources') return `kubewait ${value}`;
  const entry = FLAGS[input];
  if (entry?.short) return `-${entry.short} ${value}`;
  return `--${entry?.flag ?? input} ${value}`;
}

const ACTION_KUBECONFIG_EXAMPLE = 'Example: `kubeconfig: ${{ secrets.KUBECONFIG }}` (the YAML of a kubeconfig file, or its base64)';
const INPUT_NAMES = Object.keys(FLAGS).join('|');

const REWRITES: Array<[RegExp, (...groups: string[]) => string]> = [
  [new RegExp(escape(ACTION_KUBECONFIG_EXAMPLE), 'g'), () => 'Example: --kubeconfig ~/.kube/config (or set $KUBECONFIG to the file)'],
  [/the kubeconfig input is empty/g, () => '--kubeconfig is not given'],
  [/Input "resources" has /g, () => 'Target '],
  [/Input "manifests" has /g, () => '-f '],
  // `Input "timeout" is`, `Inputs "resources", "selector" and "manifests"`.
  [/Inputs? ((?:"[a-z-]+"(?:, | and | or )?)+)/g, (_match, names = '') => names.replace(/"([a-z-]+)"/g, (_m, name: string) => flagOf(name))],
  // Examples in backquotes: `context: prod`.
  [new RegExp(`\`(${INPUT_NAMES}): ([^\`]*)\``, 'g'), (_match, input = '', value = '') => `\`${exampleOf(input, value)}\``],
  // Examples in prose: `like resources: deployment/web, selector: app=web or manifests: k8s/*.yaml`.
  [new RegExp(`(?<![-\\w])(${INPUT_NAMES}): (\\S+?)(?=[,.)]?(?:\\s|$))`, 'g'), (_match, input = '', value = '') => exampleOf(input, value)],
  // Remaining quoted input names: `"resources"`.
  [new RegExp(`"(${INPUT_NAMES})"`, 'g'), (_match, input = '') => flagOf(input)],
  [/\bthe (kubeconfig|context|namespace) input\b/g, (_match, input = '') => flagOf(input)],
];

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** An action message in the command's terms. */
export function inCommandTerms(text: string): string {
  return REWRITES.reduce((out, [pattern, replace]) => out.replace(pattern, (...args: unknown[]) => replace(...(args.slice(0, -2) as string[]))), text);
}

/** A problem with an input, as the command says it (led by the flag at fault). */
export function describeForCommand(problem: Pick<InputProblem, 'input' | 'message'>): string {
  return inCommandTerms(describeInputProblem(problem));
}
