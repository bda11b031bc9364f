/**
 * The command's flags: one for every action input (so a new input cannot be forgotten), producing the same
 * `Settings` the action builds from the same values, and one clear line for a bad flag.
 */
import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { describeForCommand } from '../../src/cli/messages.js';
import { checkSomethingToWaitFor, INPUT_FLAGS, parseCommandLine, settingsFrom, UsageError } from '../../src/cli/flags.js';
import { parseSettings } from '../../src/inputs.js';
import { InputError } from '../../src/settings.js';

const actionInputs = Object.keys((parse(readFileSync(new URL('../../action.yml', import.meta.url), 'utf8')) as { inputs: Record<string, unknown> }).inputs);

describe('flags', () => {
  it('has a flag (or the positional arguments) for every input of action.yml, and nothing else', () => {
    expect(Object.keys(INPUT_FLAGS)).toEqual(actionInputs);
  });

  it.each<[string, string[], Record<string, string>]>([
    [
      'TYPE/NAME arguments and kubectl flags',
      ['deployment/web', 'shop/job/migrate', '-n', 'shop', '--for', 'condition=Available', '--timeout', '90s'],
      { resources: 'deployment/web\nshop/job/migrate', namespace: 'shop', 'wait-for': 'condition=Available', timeout: '90s' },
    ],
    ["kubectl's TYPE NAME... form", ['deployment', 'web', 'api'], { resources: 'deployment/web\ndeployment/api' }],
    ['TYPE,TYPE NAME', ['deploy,sts', 'web'], { resources: 'deploy/web\nsts/web' }],
    ['a bare type filtered by -l', ['deployments', '-l', 'tier=frontend'], { resources: 'deployments', selector: 'tier=frontend' }],
    ['repeated -f', ['-f', 'a.yaml', '--filename', 'k8s/', '-fb.json'], { manifests: 'a.yaml\nk8s/\nb.json' }],
    ['short flags with = (pflag)', ['pod/x', '-n=shop', '-o=json'], { resources: 'pod/x', namespace: 'shop' }],
    [
      'booleans, kubectl style and negated',
      ['-l', 'app=web', '--fail-fast=false', '--no-job-completion', '--summary'],
      { selector: 'app=web', 'fail-fast': 'false', 'job-completion': 'false', summary: 'true' },
    ],
    [
      '--flag=value and the last of a repeated flag',
      ['pod/x', '--mode=poll', '--poll-interval', '1s', '--poll-interval=500ms', '--context', 'prod'],
      { resources: 'pod/x', mode: 'poll', 'poll-interval': '500ms', context: 'prod' },
    ],
    [
      'jsonpath with = inside',
      ['svc/lb', '--for', 'jsonpath={.status.conditions[?(@.type=="Ready")].status}=True'],
      { resources: 'svc/lb', 'wait-for': 'jsonpath={.status.conditions[?(@.type=="Ready")].status}=True' },
    ],
    ['deletion, as kubectl says it', ['ns/old', '--for=delete'], { resources: 'ns/old', 'wait-for': 'delete' }],
    ['a Helm release alone', ['--release', 'shop', '-n', 'shop'], { release: 'shop', namespace: 'shop' }],
    [
      'the revision a GitOps controller must apply',
      ['kustomizations.kustomize.toolkit.fluxcd.io/apps', '--revision', 'main@sha1:0123abcd'],
      { resources: 'kustomizations.kustomize.toolkit.fluxcd.io/apps', revision: 'main@sha1:0123abcd' },
    ],
    [
      'health rules and windows',
      [
        '-f',
        'k8s/',
        '--health-checks',
        'health/a.yaml',
        '--health-checks',
        'health/b.yaml',
        '--no-builtin-health-checks',
        '--status-grace',
        '0s',
        '--stable-for',
        '1m',
      ],
      { manifests: 'k8s/', 'health-checks': 'health/a.yaml\nhealth/b.yaml', 'builtin-health-checks': 'false', 'status-grace': '0s', 'stable-for': '1m' },
    ],
  ])('%s: the same Settings as the action inputs', (_case, argv, inputs) => {
    expect(settingsFrom(parseCommandLine(argv))).toEqual(parseSettings((name) => inputs[name] ?? ''));
  });

  it('takes --kubeconfig as a path, never as the content the action input takes', () => {
    const line = parseCommandLine(['pod/x', '--kubeconfig', '/etc/kube/ci.yaml']);
    expect(line.kubeconfigPath).toBe('/etc/kube/ci.yaml');
    expect(settingsFrom(line).kubeconfig).toBe('');
  });

  it.each<[string, string[], string]>([
    [
      'an unknown flag, with a suggestion',
      ['pod/x', '--namepsace', 'a'],
      'unknown flag --namepsace (did you mean --namespace?). Run kubewait --help for the flags.',
    ],
    ['an unknown short flag', ['pod/x', '-z'], 'unknown flag -z. Run kubewait --help for the flags.'],
    ['a missing value', ['pod/x', '-n'], '-n needs a value, like --namespace shop.'],
    ['a flag where the value should be', ['pod/x', '--timeout', '-n', 'shop'], '--timeout needs a value, like --timeout 5m.'],
    ['a bad boolean', ['pod/x', '--job-completion=yes'], '--job-completion is "yes": expected true or false, like --job-completion or --job-completion=false.'],
    ['a bad output', ['pod/x', '-o', 'wide'], '--output is "wide": expected text or json, like -o json.'],
    [
      'mixed target forms',
      ['deployment', 'web', 'job/migrate'],
      'argument "deployment": give targets either as TYPE/NAME each or as TYPE NAME..., like kubewait deployment/web job/migrate or kubewait deployment web api.',
    ],
    [
      'a bare type after TYPE/NAME',
      ['job/migrate', 'web'],
      'argument "web": give targets either as TYPE/NAME each or as TYPE NAME..., like kubewait deployment/web job/migrate or kubewait deployment web api.',
    ],
  ])('rejects %s in one line', (_case, argv, message) => {
    expect(() => parseCommandLine(argv)).toThrow(new UsageError(message));
  });

  it('says "nothing to wait for" in its own terms', () => {
    expect(() => checkSomethingToWaitFor(parseCommandLine(['-n', 'shop']))).toThrow(/^nothing to wait for: .*kubewait -l app=web/);
  });

  it.each<[string, string[], RegExp]>([
    ['namespace', ['pod/x', '-n', 'Shop'], /^--namespace is "Shop": expected a namespace name/],
    ['resources', ['pod/Bad!'], /^Target "pod\/Bad!": .*like deployment\/web or shop\/deployment\/web\.$/],
    [
      'selector',
      ['pod/x', '-l', 'app=web'],
      /^--selector is "app=web", but nothing uses it: it filters the bare types of the TYPE\/NAME arguments \(like kubewait deployments\), or stands alone without the TYPE\/NAME arguments, --filename and --release\.$/,
    ],
    ['selector syntax', ['-l', 'env in (a,b'], /^--selector is "env in \(a,b": .*like app=web,tier!=cache/],
    ['wait-for', ['pod/x', '--for', 'condition='], /^--for is "condition=": the condition type is empty/],
    ['timeout', ['pod/x', '--timeout', '0s'], /^--timeout is "0s": expected a duration greater than zero/],
    ['poll-interval', ['pod/x', '--poll-interval', '10ms'], /^--poll-interval is "10ms": expected at least 100ms/],
    ['mode', ['pod/x', '--mode', 'push'], /^--mode is "push": expected auto, watch or poll\.$/],
    ['fail-fast', ['pod/x', '--fail-fast=1'], /^--fail-fast is "1"/],
  ])('words the action`s validation of %s in flags', (_input, argv, message) => {
    let said = '';
    try {
      settingsFrom(parseCommandLine(argv));
    } catch (error) {
      said = error instanceof InputError ? describeForCommand(error) : (error as Error).message;
    }
    expect(said).toMatch(message);
    expect(said).not.toMatch(/\bInputs? "/);
  });

  it.each<[string, string, string]>([
    [
      'context',
      'context "prod" is not in /x/config (ci, dev). Example: `context: ci`',
      '--context: context "prod" is not in /x/config (ci, dev). Example: `--context ci`',
    ],
    [
      'kubeconfig',
      'no kubeconfig found: the kubeconfig input is empty, $KUBECONFIG is not set. Example: `kubeconfig: ${{ secrets.KUBECONFIG }}` (the YAML of a kubeconfig file, or its base64)',
      '--kubeconfig: no kubeconfig found: --kubeconfig is not given, $KUBECONFIG is not set. Example: --kubeconfig ~/.kube/config (or set $KUBECONFIG to the file)',
    ],
    [
      'manifests',
      'Input "manifests" has "k8s/a.yaml", which is not valid YAML or JSON at line 3: bad.',
      '-f "k8s/a.yaml", which is not valid YAML or JSON at line 3: bad.',
    ],
    ['resources', 'the server has no resource type "widgets"', 'the TYPE/NAME arguments: the server has no resource type "widgets"'],
  ])('rewords a problem with %s found later (kubeconfig, manifests, the engine)', (input, message, said) => {
    expect(describeForCommand({ input, message })).toBe(said);
  });
});

describe('README', () => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const section = readme.slice(readme.indexOf('## Outside GitHub Actions'), readme.indexOf('\n## ', readme.indexOf('## Outside GitHub Actions') + 1));
  /** Every `kubewait ...` and `kubectl kubewait ...` command line of the section, as a shell would split it. */
  const commands = [...section.matchAll(/(?:^|[\s'])(?:kubectl kubewait|npx --yes \S+|kubewait) ((?:-|[a-z]).*?)(?:$|'| >| \|| \\| #)/gm)].map((m) => m[1]!);

  it('has command lines whose flags and arguments all parse', () => {
    expect(commands.length).toBeGreaterThan(8);
    for (const command of commands) {
      // Quotes as a shell reads them; a pipeline's `$(params.x)` stands for some value.
      const argv = [...command.matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2]!).map((arg) => (arg.startsWith('$(') ? 'shop' : arg));
      let problem = '';
      try {
        parseCommandLine(argv);
      } catch (error) {
        problem = (error as Error).message;
      }
      expect({ command, problem }).toEqual({ command, problem: '' });
    }
  });
});
