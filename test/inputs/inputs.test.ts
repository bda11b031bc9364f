import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { parseDurationMs, parseGitHubReportInputs } from '../../src/inputs.js';
import { INPUT_DEFAULTS } from '../../src/settings.js';
import { inputErrorFrom, settingsFrom } from './parse.js';

const target = { resources: 'deployment/web' };

describe('parseSettings: good inputs', () => {
  it('applies the action.yml defaults when inputs are unset', () => {
    expect(settingsFrom(target)).toEqual({
      kubeconfig: '',
      context: '',
      namespace: '',
      clusters: [],
      clusterPolicy: 'all',
      resources: [{ type: 'deployment', name: 'web' }],
      selector: '',
      manifests: [],
      waitFor: { kind: 'ready' },
      timeoutMs: 300_000,
      pollIntervalMs: 2_000,
      mode: 'auto',
      failFast: true,
      jobCompletion: true,
      summary: true,
      prComment: 'off',
      githubToken: '',
      deploymentEnvironment: '',
      deploymentUrl: '',
      reportMatrix: '',
      reportJobId: '',
      healthChecks: '',
      builtinHealthChecks: true,
      statusGraceMs: 30_000,
      stableForMs: 0,
      paused: 'wait',
      release: '',
      releaseMinRevision: 0,
      inventory: true,
      reconcile: false,
      rollback: 'off',
      rollbackTimeoutMs: 300_000,
      rollbackScope: 'failed',
      logs: true,
      logLines: 30,
    });
  });

  it('takes the revision a step shipped: a sha, a tag, or Flux’s form', () => {
    expect(settingsFrom({ ...target, revision: ' 9F8E7D6 ' }).revision).toEqual({ text: '9F8E7D6', sha: '9f8e7d6' });
    expect(settingsFrom({ ...target, revision: 'v1.2.3' }).revision).toEqual({ text: 'v1.2.3', name: 'v1.2.3' });
    expect(settingsFrom({ ...target, revision: 'main@sha1:0123abcd' }).revision).toEqual({ text: 'main@sha1:0123abcd', sha: '0123abcd' });
    expect(settingsFrom(target)).not.toHaveProperty('revision');
  });

  it('takes inventory: false (the GitOps objects alone)', () => {
    expect(settingsFrom({ ...target, inventory: 'false' }).inventory).toBe(false);
    expect(settingsFrom(target).inventory).toBe(true);
  });

  it('takes reconcile: true (ask the GitOps controllers to act now); off by default', () => {
    expect(settingsFrom({ ...target, reconcile: 'true' }).reconcile).toBe(true);
    expect(settingsFrom(target).reconcile).toBe(false);
  });

  it('takes a Helm release name alone: release: shop is enough', () => {
    expect(settingsFrom({ release: 'shop.staging-2' })).toMatchObject({ release: 'shop.staging-2', resources: [], manifests: [], selector: '' });
  });

  it.each<[string, 'next' | number]>([
    ['next', 'next'],
    ['4', 4],
  ])('release-min-revision: %s', (text, expected) => {
    expect(settingsFrom({ release: 'shop', 'release-min-revision': text })).toMatchObject({ releaseMinRevision: expected });
  });

  it.each([
    ['status-grace', '0s', { statusGraceMs: 0 }],
    ['status-grace', '1m', { statusGraceMs: 60_000 }],
    ['stable-for', '30s', { stableForMs: 30_000 }],
    ['stable-for', '1.5', { stableForMs: 1_500 }],
    ['builtin-health-checks', 'false', { builtinHealthChecks: false }],
  ])('reads %s: %s', (name, value, expected) => {
    expect(settingsFrom({ ...target, [name]: value })).toMatchObject(expected);
  });

  it('uses the same defaults as action.yml', () => {
    const action = parse(readFileSync('action.yml', 'utf8')) as { inputs: Record<string, { default?: string }> };
    for (const [name, value] of Object.entries(INPUT_DEFAULTS)) {
      expect([name, action.inputs[name]?.default]).toEqual([name, value]);
    }
    // `${{ ... }}` defaults are evaluated by the runner; the code cannot apply them itself.
    const withDefault = Object.entries(action.inputs).filter(
      ([, input]) => input.default !== undefined && input.default !== '' && !input.default.startsWith('${{'),
    );
    expect(withDefault.map(([name]) => name).sort()).toEqual(Object.keys(INPUT_DEFAULTS).sort());
  });

  it('keeps the kubeconfig and context as given', () => {
    const settings = settingsFrom({ ...target, kubeconfig: 'apiVersion: v1\nkind: Config\n', context: 'kind-ci' });
    expect(settings.kubeconfig).toBe('apiVersion: v1\nkind: Config');
    expect(settings.context).toBe('kind-ci');
  });

  it.each([
    ['deployment/web', [{ type: 'deployment', name: 'web' }]],
    ['shop/deploy/web', [{ type: 'deploy', namespace: 'shop', name: 'web' }]],
    [
      'deployments.apps/web\nsts/db',
      [
        { type: 'deployments.apps', name: 'web' },
        { type: 'sts', name: 'db' },
      ],
    ],
    [
      'deploy/a, deploy/b,\n\n  svc/c  ',
      [
        { type: 'deploy', name: 'a' },
        { type: 'deploy', name: 'b' },
        { type: 'svc', name: 'c' },
      ],
    ],
    ['Certificate.cert-manager.io/tls', [{ type: 'Certificate.cert-manager.io', name: 'tls' }]],
    ['deployments.v1.apps/web', [{ type: 'deployments.v1.apps', name: 'web' }]],
    ['clusterrole/system:aggregate-to-admin', [{ type: 'clusterrole', name: 'system:aggregate-to-admin' }]],
    ['configmap/app.config-1', [{ type: 'configmap', name: 'app.config-1' }]],
    ['crd', [{ type: 'crd' }]],
  ])('resources %j', (resources, expected) => {
    expect(settingsFrom({ resources }).resources).toEqual(expected);
  });

  it.each([
    'app=web',
    'app==web,tier!=cache',
    'env in (prod, staging)',
    'env notin (dev),!canary',
    'app.kubernetes.io/name=web',
    'example.com/tier',
    'app=',
    'replicas>2,replicas<10',
    ' app = web , tier ',
  ])('selector %j', (selector) => {
    expect(settingsFrom({ selector }).selector).toBe(selector.trim());
  });

  it('reads the GitHub reporting inputs, as parseGitHubReportInputs does alone', () => {
    const inputs = {
      'pr-comment': 'on-failure',
      'github-token': ' ghs_secret ',
      'deployment-environment': 'staging',
      'deployment-url': 'https://staging.example.com',
      'report-matrix': '{"cluster":"eu"}',
      'report-job-id': '4711',
    };
    const expected = {
      prComment: 'on-failure',
      githubToken: 'ghs_secret',
      deploymentEnvironment: 'staging',
      deploymentUrl: 'https://staging.example.com',
      reportMatrix: '{"cluster":"eu"}',
      reportJobId: '4711',
    };
    expect(settingsFrom({ ...target, ...inputs })).toMatchObject(expected);
    expect(parseGitHubReportInputs((name) => inputs[name as keyof typeof inputs] ?? '')).toEqual(expected);
  });

  it('keeps report-job-id and report-matrix as given: helpers of the reports, never a bad input (report/github/ checks them)', () => {
    const inputs = { 'report-job-id': '${{ job.check_run_id }}', 'report-matrix': '${{ toJSON(matrix) }}' };
    expect(settingsFrom({ ...target, ...inputs })).toMatchObject({ reportJobId: '${{ job.check_run_id }}', reportMatrix: '${{ toJSON(matrix) }}' });
  });

  it('accepts a bare type filtered by a selector', () => {
    const settings = settingsFrom({ resources: 'deployments', selector: 'app=web' });
    expect(settings.resources).toEqual([{ type: 'deployments' }]);
    expect(settings.selector).toBe('app=web');
  });

  it('splits manifests into lines', () => {
    expect(settingsFrom({ manifests: 'k8s/*.yaml\n\n  deploy/app.json \n' }).manifests).toEqual(['k8s/*.yaml', 'deploy/app.json']);
  });

  it.each([
    ['ready', { kind: 'ready' }],
    ['Ready', { kind: 'ready' }],
    ['deleted', { kind: 'deleted' }],
    ['delete', { kind: 'deleted' }],
    ['condition=Available', { kind: 'condition', type: 'Available', value: 'True' }],
    ['condition=Ready=False', { kind: 'condition', type: 'Ready', value: 'False' }],
    ['condition=example.com/Synced', { kind: 'condition', type: 'example.com/Synced', value: 'True' }],
    ['jsonpath={.status.phase}=Running', { kind: 'jsonpath', expression: '{.status.phase}', value: 'Running' }],
    ['jsonpath=.status.phase=Running', { kind: 'jsonpath', expression: '{.status.phase}', value: 'Running' }],
    ['jsonpath=status.phase=Running', { kind: 'jsonpath', expression: '{.status.phase}', value: 'Running' }],
    ["jsonpath='{.status.phase}'='Running'", { kind: 'jsonpath', expression: '{.status.phase}', value: 'Running' }],
    ['jsonpath={.status.loadBalancer.ingress}', { kind: 'jsonpath', expression: '{.status.loadBalancer.ingress}' }],
    [
      'jsonpath={.status.conditions[?(@.type=="Ready")].status}=True',
      { kind: 'jsonpath', expression: '{.status.conditions[?(@.type=="Ready")].status}', value: 'True' },
    ],
  ])('wait-for %j', (waitFor, expected) => {
    expect(settingsFrom({ ...target, 'wait-for': waitFor }).waitFor).toEqual(expected);
  });

  it.each([
    ['90s', 90_000],
    ['5m', 300_000],
    ['1h30m', 5_400_000],
    ['1.5h', 5_400_000],
    ['500ms', 500],
    ['2m3.5s', 123_500],
    ['120', 120_000],
    ['2.5', 2_500],
    ['+10s', 10_000],
    ['1ms', 1], // the shortest
    ['168h', 604_800_000], // the longest: 7 days
    ['604800', 604_800_000],
  ])('timeout %j is %d ms', (timeout, ms) => {
    expect(settingsFrom({ ...target, timeout }).timeoutMs).toBe(ms);
  });

  it.each([
    ['2s', 2_000],
    ['500ms', 500],
    ['1', 1_000],
    ['100ms', 100], // the shortest
    ['1h', 3_600_000], // the longest
  ])('poll-interval %j is %d ms', (pollInterval, ms) => {
    expect(settingsFrom({ ...target, 'poll-interval': pollInterval }).pollIntervalMs).toBe(ms);
  });

  it.each([
    ['auto', 'auto'],
    ['watch', 'watch'],
    ['POLL', 'poll'],
  ])('mode %j', (mode, expected) => {
    expect(settingsFrom({ ...target, mode }).mode).toBe(expected);
  });

  it.each([
    ['true', true],
    ['True', true],
    ['TRUE', true],
    ['false', false],
    ['False', false],
    ['FALSE', false],
  ])('booleans accept %j', (text, value) => {
    const settings = settingsFrom({ ...target, 'fail-fast': text, 'job-completion': text, summary: text });
    expect([settings.failFast, settings.jobCompletion, settings.summary]).toEqual([value, value, value]);
  });
});

describe('parseSettings: bad inputs name the input, the problem and an example', () => {
  it.each<[string, Record<string, string>, string]>([
    ['status-grace', { ...target, 'status-grace': 'soon' }, 'Input "status-grace" is "soon": expected a duration of zero or more, like 30s, 2m or 0s (off).'],
    ['stable-for', { ...target, 'stable-for': '-5s' }, 'Input "stable-for" is "-5s": expected a duration of zero or more, like 30s, 2m or 0s (off).'],
    [
      'builtin-health-checks',
      { ...target, 'builtin-health-checks': 'yes' },
      'Input "builtin-health-checks" is "yes": expected true or false, like builtin-health-checks: true.',
    ],
    ...['0', '1001', '2.5', '-3', 'all'].map((lines): [string, Record<string, string>, string] => [
      'log-lines',
      { ...target, 'log-lines': lines },
      `Input "log-lines" is "${lines}": expected a whole number of lines from 1 to 1000, like 30. To show no logs, set logs: false.`,
    ]),
    ['logs', { ...target, logs: 'sometimes' }, 'Input "logs" is "sometimes": expected true or false, like logs: true.'],
    ['timeout', { ...target, timeout: '5 minutes' }, 'Input "timeout" is "5 minutes": expected a duration like 90s, 5m or 1h30m, or a number of seconds.'],
    ['timeout', { ...target, timeout: '5min' }, 'Input "timeout" is "5min": expected a duration like 90s, 5m or 1h30m, or a number of seconds.'],
    ['timeout', { ...target, timeout: '1d' }, 'Input "timeout" is "1d": expected a duration like 90s, 5m or 1h30m, or a number of seconds.'],
    ['timeout', { ...target, timeout: '0' }, 'Input "timeout" is "0": expected a duration greater than zero, like 90s, 5m or 1h30m.'],
    ['timeout', { ...target, timeout: '0s' }, 'Input "timeout" is "0s": expected a duration greater than zero, like 90s, 5m or 1h30m.'],
    ['timeout', { ...target, timeout: '-5m' }, 'Input "timeout" is "-5m": expected a duration greater than zero, like 90s, 5m or 1h30m.'],
    // Past the limit, and where Node's 32-bit timers would overflow (2^31 ms is about 596.5 h).
    [
      'timeout',
      { ...target, timeout: '168h1ms' },
      'Input "timeout" is "168h1ms": expected at most 168h (7 days, longer than any job may run), like 90s, 5m or 1h30m.',
    ],
    [
      'timeout',
      { ...target, timeout: '597h' },
      'Input "timeout" is "597h": expected at most 168h (7 days, longer than any job may run), like 90s, 5m or 1h30m.',
    ],
    [
      'timeout',
      { ...target, timeout: '99999999999999999999' },
      'Input "timeout" is "99999999999999999999": expected at most 168h (7 days, longer than any job may run), like 90s, 5m or 1h30m.',
    ],
    ['poll-interval', { ...target, 'poll-interval': '1h1ms' }, 'Input "poll-interval" is "1h1ms": expected at most 1h, like 500ms, 2s or 10s.'],
    ['poll-interval', { ...target, 'poll-interval': '597h' }, 'Input "poll-interval" is "597h": expected at most 1h, like 500ms, 2s or 10s.'],
    [
      'wait-for',
      { ...target, 'wait-for': 'jsonpath={..[?(@@@)]}' },
      'Input "wait-for" is "jsonpath={..[?(@@@)]}": the filter [?(@@@)] is not valid: expected [?(@.FIELD)] or [?(@.FIELD=="VALUE")]; expected jsonpath=EXPR[=VALUE], like jsonpath={.status.phase}=Running or jsonpath={.status.loadBalancer.ingress}.',
    ],
    [
      'poll-interval',
      { ...target, 'poll-interval': 'often' },
      'Input "poll-interval" is "often": expected a duration like 500ms, 2s or 10s, or a number of seconds.',
    ],
    [
      'poll-interval',
      { ...target, 'poll-interval': '10ms' },
      'Input "poll-interval" is "10ms": expected at least 100ms (to spare the API server), like 500ms, 2s or 10s.',
    ],
    [
      'poll-interval',
      { ...target, 'poll-interval': '0' },
      'Input "poll-interval" is "0": expected at least 100ms (to spare the API server), like 500ms, 2s or 10s.',
    ],
    [
      'wait-for',
      { ...target, 'wait-for': 'available' },
      'Input "wait-for" is "available": expected ready, deleted, condition=TYPE[=VALUE] or jsonpath=EXPR[=VALUE], like condition=Available or jsonpath={.status.phase}=Running.',
    ],
    [
      'wait-for',
      { ...target, 'wait-for': 'condition=' },
      'Input "wait-for" is "condition=": the condition type is empty; expected condition=TYPE[=VALUE], like condition=Available or condition=Ready=False.',
    ],
    [
      'wait-for',
      { ...target, 'wait-for': 'condition=Ready=' },
      'Input "wait-for" is "condition=Ready=": the condition value after "=" is empty; expected condition=TYPE[=VALUE], like condition=Available or condition=Ready=False.',
    ],
    [
      'wait-for',
      { ...target, 'wait-for': 'jsonpath=' },
      'Input "wait-for" is "jsonpath=": the JSONPath expression is empty; expected jsonpath=EXPR[=VALUE], like jsonpath={.status.phase}=Running or jsonpath={.status.loadBalancer.ingress}.',
    ],
    [
      'wait-for',
      { ...target, 'wait-for': 'jsonpath={.status.phase}=' },
      'Input "wait-for" is "jsonpath={.status.phase}=": the value after "=" is empty; expected jsonpath=EXPR[=VALUE], like jsonpath={.status.phase}=Running or jsonpath={.status.loadBalancer.ingress}.',
    ],
    [
      'wait-for',
      { ...target, 'wait-for': 'jsonpath={.status.phase' },
      `Input "wait-for" is "jsonpath={.status.phase": the JSONPath expression is not valid (unexpected path string, expected a 'name1.name2' or '.name1.name2' or '{name1.name2}' or '{.name1.name2}'); expected jsonpath=EXPR[=VALUE], like jsonpath={.status.phase}=Running or jsonpath={.status.loadBalancer.ingress}.`,
    ],
    [
      'wait-for',
      { ...target, 'wait-for': 'jsonpath={.status.items[x]}=1' },
      'Input "wait-for" is "jsonpath={.status.items[x]}=1": the JSONPath expression is not valid (invalid array index x); expected jsonpath=EXPR[=VALUE], like jsonpath={.status.phase}=Running or jsonpath={.status.loadBalancer.ingress}.',
    ],
    ['mode', { ...target, mode: 'fast' }, 'Input "mode" is "fast": expected auto, watch or poll.'],
    [
      'paused',
      { ...target, paused: 'yes' },
      'Input "paused" is "yes": expected wait (a paused rollout is not ready until it continues) or ready (it is ready where it paused), like paused: ready.',
    ],
    ['fail-fast', { ...target, 'fail-fast': 'yes' }, 'Input "fail-fast" is "yes": expected true or false, like fail-fast: true.'],
    ['job-completion', { ...target, 'job-completion': '1' }, 'Input "job-completion" is "1": expected true or false, like job-completion: true.'],
    ['summary', { ...target, summary: 'on' }, 'Input "summary" is "on": expected true or false, like summary: true.'],
    [
      'release',
      { release: 'Shop' },
      'Input "release" is "Shop": Helm release names are lower-case letters, digits, "-" and ".", starting and ending with a letter or digit, like shop or shop-staging. Expected the name given to helm install, like release: shop.',
    ],
    [
      'release',
      { release: 'a'.repeat(54) },
      `Input "release" is "${'a'.repeat(54)}": it is longer than 53 characters, which Helm never allows. Expected the name given to helm install, like release: shop.`,
    ],
    ...['latest', '0', '-1', '2.5', 'Next'].map((text): [string, Record<string, string>, string] => [
      'release-min-revision',
      { release: 'shop', 'release-min-revision': text },
      `Input "release-min-revision" is "${text}". Expected next (a revision newer than the one recorded when the step starts) or a revision number, like release-min-revision: next or release-min-revision: 4.`,
    ]),
    [
      'release-min-revision',
      { ...target, 'release-min-revision': 'next' },
      'Input "release-min-revision" is "next", but "release" is empty: it says which revision of a Helm release to wait for, like release: shop with release-min-revision: next.',
    ],
    [
      'revision',
      { ...target, revision: 'abc12' },
      'Input "revision" is "abc12": it looks like a commit sha shorter than 7 hex characters, which could match unrelated commits. Expected the commit sha the step pushed, a tag or branch, or Flux\'s form, like revision: ${{ github.sha }}, revision: v1.2.3 or revision: main@sha1:0123abc.',
    ],
    [
      'revision',
      { ...target, revision: 'main@sha1:' },
      'Input "revision" is "main@sha1:": the digest after "main@sha1:" is not 7 or more hex characters. Expected the commit sha the step pushed, a tag or branch, or Flux\'s form, like revision: ${{ github.sha }}, revision: v1.2.3 or revision: main@sha1:0123abc.',
    ],
    [
      'selector',
      { release: 'shop', selector: 'app=web' },
      'Input "selector" is "app=web", but nothing uses it: it filters the bare types of "resources" (like resources: deployments), or stands alone without "resources", "manifests" and "release".',
    ],
    [
      'namespace',
      { ...target, namespace: 'Shop' },
      'Input "namespace" is "Shop": expected a namespace name of lowercase letters, digits and "-", like shop or kube-system.',
    ],
    [
      'resources',
      {},
      'Inputs "resources", "selector", "manifests" and "release" are all empty: nothing to wait for. Set at least one, like resources: deployment/web, selector: app=web, manifests: k8s/*.yaml or release: shop.',
    ],
    [
      'resources',
      { resources: ' \n , \n' },
      'Inputs "resources", "selector", "manifests" and "release" are all empty: nothing to wait for. Set at least one, like resources: deployment/web, selector: app=web, manifests: k8s/*.yaml or release: shop.',
    ],
    [
      'resources',
      { resources: 'deployment/Web' },
      'Input "resources" has "deployment/Web": "Web" is not a valid object name (lowercase letters, digits, "-" and ".", starting and ending with a letter or digit). Expected TYPE/NAME or NAMESPACE/TYPE/NAME, like deployment/web or shop/deployment/web.',
    ],
    [
      'resources',
      { resources: 'deployment/web-' },
      'Input "resources" has "deployment/web-": "web-" is not a valid object name (lowercase letters, digits, "-" and ".", starting and ending with a letter or digit). Expected TYPE/NAME or NAMESPACE/TYPE/NAME, like deployment/web or shop/deployment/web.',
    ],
    [
      'resources',
      { resources: 'deployment/web\nShop/deployment/web' },
      'Input "resources" has "Shop/deployment/web": "Shop" is not a valid namespace (at most 63 lowercase letters, digits and "-", starting and ending with a letter or digit). Expected TYPE/NAME or NAMESPACE/TYPE/NAME, like deployment/web or shop/deployment/web.',
    ],
    [
      'resources',
      { resources: 'a/b/c/d' },
      'Input "resources" has "a/b/c/d": it has too many "/". Expected TYPE/NAME or NAMESPACE/TYPE/NAME, like deployment/web or shop/deployment/web.',
    ],
    [
      'resources',
      { resources: 'deployment/' },
      'Input "resources" has "deployment/": a part between "/" is empty. Expected TYPE/NAME or NAMESPACE/TYPE/NAME, like deployment/web or shop/deployment/web.',
    ],
    [
      'resources',
      { resources: 'deployment web' },
      'Input "resources" has "deployment web": it contains a space; write TYPE/NAME without spaces, one per line or separated by commas. Expected TYPE/NAME or NAMESPACE/TYPE/NAME, like deployment/web or shop/deployment/web.',
    ],
    [
      'resources',
      { resources: 'deploy_ment/web' },
      'Input "resources" has "deploy_ment/web": "deploy_ment" is not a resource type (a kind, plural or short name, optionally with its group, like deployments.apps). Expected TYPE/NAME or NAMESPACE/TYPE/NAME, like deployment/web or shop/deployment/web.',
    ],
    [
      'selector',
      { selector: 'app=(web' },
      'Input "selector" is "app=(web": expected a value after "=", found "(". Expected a label selector like app=web,tier!=cache or env in (prod,staging).',
    ],
    [
      'selector',
      { selector: 'app=web tier=cache' },
      'Input "selector" is "app=web tier=cache": expected "," between requirements, found "tier". Expected a label selector like app=web,tier!=cache or env in (prod,staging).',
    ],
    [
      'selector',
      { selector: 'env in prod' },
      'Input "selector" is "env in prod": "env in" needs a list of values in parentheses, like (a,b). Expected a label selector like app=web,tier!=cache or env in (prod,staging).',
    ],
    [
      'selector',
      { selector: 'env in (prod' },
      'Input "selector" is "env in (prod": missing ")" after "env in (prod". Expected a label selector like app=web,tier!=cache or env in (prod,staging).',
    ],
    [
      'selector',
      { selector: 'env in ()' },
      'Input "selector" is "env in ()": "env in ()" has no values. Expected a label selector like app=web,tier!=cache or env in (prod,staging).',
    ],
    [
      'selector',
      { selector: 'app=web,' },
      'Input "selector" is "app=web,": it ends with ",". Expected a label selector like app=web,tier!=cache or env in (prod,staging).',
    ],
    [
      'selector',
      { selector: '-app=web' },
      'Input "selector" is "-app=web": "-app" is not a valid label key (up to 63 letters, digits, "-", "_" or ".", starting and ending with a letter or digit). Expected a label selector like app=web,tier!=cache or env in (prod,staging).',
    ],
    [
      'selector',
      { selector: 'Example.com/app=web' },
      'Input "selector" is "Example.com/app=web": "Example.com/app" is not a valid label key: the prefix "Example.com" must be a DNS subdomain like example.com. Expected a label selector like app=web,tier!=cache or env in (prod,staging).',
    ],
    [
      'selector',
      { selector: 'app=web!' },
      'Input "selector" is "app=web!": expected "," between requirements, found "!". Expected a label selector like app=web,tier!=cache or env in (prod,staging).',
    ],
    [
      'selector',
      { selector: 'replicas>two' },
      'Input "selector" is "replicas>two": "replicas >" needs an integer value. Expected a label selector like app=web,tier!=cache or env in (prod,staging).',
    ],
    [
      'selector',
      { selector: 'app=we$b' },
      'Input "selector" is "app=we$b": "we$b" is not a valid label value (up to 63 letters, digits, "-", "_" or ".", starting and ending with a letter or digit). Expected a label selector like app=web,tier!=cache or env in (prod,staging).',
    ],
    [
      'selector',
      { resources: 'deployment/web', selector: 'app=web' },
      'Input "selector" is "app=web", but nothing uses it: it filters the bare types of "resources" (like resources: deployments), or stands alone without "resources", "manifests" and "release".',
    ],
    [
      'selector',
      { manifests: 'k8s/*.yaml', selector: 'app=web' },
      'Input "selector" is "app=web", but nothing uses it: it filters the bare types of "resources" (like resources: deployments), or stands alone without "resources", "manifests" and "release".',
    ],
    ['pr-comment', { ...target, 'pr-comment': 'yes' }, 'Input "pr-comment" is "yes": expected off, always or on-failure, like pr-comment: on-failure.'],
    [
      'deployment-url',
      { ...target, 'deployment-environment': 'staging', 'deployment-url': 'staging.example.com' },
      'Input "deployment-url" is "staging.example.com": expected an http(s) URL, like deployment-url: https://staging.example.com.',
    ],
    [
      'deployment-url',
      { ...target, 'deployment-environment': 'staging', 'deployment-url': 'ftp://staging.example.com' },
      'Input "deployment-url" is "ftp://staging.example.com": expected an http(s) URL, like deployment-url: https://staging.example.com.',
    ],
    [
      'deployment-url',
      { ...target, 'deployment-url': 'https://staging.example.com' },
      'Input "deployment-url" is set but "deployment-environment" is empty: name the environment too, like deployment-environment: staging.',
    ],
  ])('%s: %j', (input, inputs, message) => {
    const error = inputErrorFrom(inputs);
    expect(error.input).toBe(input);
    expect(error.message).toBe(message);
  });

  it('reports a bad input without echoing the kubeconfig', () => {
    const error = inputErrorFrom({ ...target, kubeconfig: 'token: s3cr3t', timeout: 'soon' });
    expect(error.message).not.toContain('s3cr3t');
  });
});

describe('parseDurationMs', () => {
  it.each([
    ['1h', 3_600_000],
    ['1m1s', 61_000],
    ['1.5s', 1_500],
    ['.5s', 500],
    ['1500us', 2],
    ['3000000ns', 3],
    ['1h0m0s', 3_600_000],
  ])('%j is %d ms', (text, ms) => {
    expect(parseDurationMs(text)).toBe(ms);
  });

  it.each(['', 's', '1x', '1 m', 'm1', '1h30', '5 minutes', '1e3s'])('%j is not a duration', (text) => {
    expect(parseDurationMs(text)).toBeUndefined();
  });
});
