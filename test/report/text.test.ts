import { describe, expect, it } from '@jest/globals';
import type { WaitFor } from '../../src/settings.js';
import type { ContainerProblem, Diagnosis } from '../../src/status/types.js';
import {
  byStanding,
  causeGroups,
  desiredPhrase,
  diagnosisLines,
  displayServer,
  doneFromTheStart,
  newsEvents,
  formatSeconds,
  logRef,
  oneLine,
  outputRef,
  roundSeconds,
  titleRef,
  truncate,
  waitForInput,
} from '../../src/report/text.js';
import { failed, imagePullDiagnosis, pending, ready, target } from './fixtures.js';

describe('target names', () => {
  const cases = [
    { what: 'namespaced', t: target(), log: 'deployment/web (shop)', title: 'Deployment shop/web', out: 'shop/Deployment/web' },
    {
      what: 'cluster-scoped',
      t: target({ apiVersion: 'v1', kind: 'Namespace', namespace: '', name: 'shop' }),
      log: 'namespace/shop',
      title: 'Namespace shop',
      out: 'Namespace/shop',
    },
    {
      what: 'selector that matched nothing',
      t: target({ name: '', selector: 'app=web' }),
      log: 'deployment -l app=web (shop)',
      title: 'Deployment in shop -l app=web',
      out: 'shop/Deployment/',
    },
    {
      what: 'custom resource',
      t: target({ apiVersion: 'cert-manager.io/v1', kind: 'Certificate', namespace: 'edge', name: 'tls' }),
      log: 'certificate/tls (edge)',
      title: 'Certificate edge/tls',
      out: 'edge/Certificate/tls',
    },
    {
      what: 'applied by a GitOps target: titled under its parent',
      t: target({ parent: { kind: 'Kustomization', namespace: 'flux-system', name: 'apps' } }),
      log: 'kustomization/apps (flux-system) -> deployment/web (shop)',
      title: 'Kustomization flux-system/apps -> Deployment shop/web',
      out: 'shop/Deployment/web',
    },
  ];
  it.each(cases)('$what', ({ t, log, title, out }) => {
    expect(logRef(t)).toBe(log);
    expect(titleRef(t)).toBe(title);
    expect(outputRef(t)).toBe(out);
  });
});

describe('formatSeconds', () => {
  it.each([
    [0, '0.0s'],
    [0.04, '0.0s'],
    [0.44, '0.4s'],
    [12.36, '12.4s'],
    [59.94, '59.9s'],
    [60, '1m00s'],
    [65.4, '1m05s'],
    [3723, '1h02m03s'],
    [-3, '0.0s'],
    [Number.NaN, '0.0s'],
  ])('%p -> %p', (seconds, text) => {
    expect(formatSeconds(seconds)).toBe(text);
  });
});

describe('roundSeconds', () => {
  it.each([
    [12.36, 12.4],
    [0, 0],
    [-1, 0],
    [Number.POSITIVE_INFINITY, 0],
    [301.04, 301],
  ])('%p -> %p', (seconds, rounded) => {
    expect(roundSeconds(seconds)).toBe(rounded);
  });
});

describe('wait-for phrases', () => {
  const cases: Array<[WaitFor, string, string]> = [
    [{ kind: 'ready' }, 'ready', 'ready'],
    [{ kind: 'deleted' }, 'deleted', 'deleted'],
    [{ kind: 'condition', type: 'Available', value: 'True' }, 'Available=True', 'condition=Available=True'],
    [{ kind: 'jsonpath', expression: '{.status.phase}', value: 'Running' }, '{.status.phase}=Running', 'jsonpath={.status.phase}=Running'],
    [{ kind: 'jsonpath', expression: '{.status.loadBalancer.ingress}' }, '{.status.loadBalancer.ingress} present', 'jsonpath={.status.loadBalancer.ingress}'],
  ];
  it.each(cases)('%j', (waitFor, phrase, input) => {
    expect(desiredPhrase(waitFor)).toBe(phrase);
    expect(waitForInput(waitFor)).toBe(input);
  });
});

describe('byStanding', () => {
  it('puts failed first, then pending, then done, keeping the given order within each', () => {
    const targets = [ready('a'), pending('b'), failed('c'), ready('d'), failed('e'), pending('f')];
    expect(byStanding(targets).map((t) => t.name)).toEqual(['c', 'e', 'b', 'f', 'a', 'd']);
  });
  it('counts a Failed target that is done (wait-for: deleted never makes it so, but be safe) as done', () => {
    expect(byStanding([pending('p'), target({ name: 'x', status: 'Failed', done: true })]).map((t) => t.name)).toEqual(['p', 'x']);
  });
});

describe('diagnosisLines', () => {
  it('names the container, pod and reason, then the warning events', () => {
    expect(diagnosisLines(imagePullDiagnosis())).toEqual([
      'container web of pod web-7d9c-abcde: ImagePullBackOff: Back-off pulling image "web:v2"',
      'event Failed on Pod/web-7d9c-abcde (x4): Failed to pull image "web:v2": not found',
    ]);
  });
  it('shows restarts, the last exit reason and init containers', () => {
    const lines = diagnosisLines({
      problems: [
        {
          pod: 'p',
          container: 'setup',
          init: true,
          reason: 'CrashLoopBackOff',
          message: '',
          restartCount: 5,
          lastTerminationReason: 'OOMKilled',
          unrecoverable: true,
        },
      ],
      events: [],
      summary: 'ignored when there are problems',
      unrecoverable: true,
    });
    expect(lines).toEqual(['init container setup of pod p: CrashLoopBackOff, 5 restarts, last exit: OOMKilled']);
  });
  it('names only the pod for a pod-level problem (Unschedulable names no container)', () => {
    const lines = diagnosisLines({
      problems: [
        { pod: 'web-1', container: '', init: false, reason: 'Unschedulable', message: '0/3 nodes are available', restartCount: 0, unrecoverable: false },
      ],
      events: [],
      summary: '',
      unrecoverable: false,
    });
    expect(lines).toEqual(['pod web-1: Unschedulable: 0/3 nodes are available']);
  });
  it('caps containers and events, saying how many more there are', () => {
    const d = imagePullDiagnosis();
    const many = { ...d, problems: Array.from({ length: 7 }, (_, i) => ({ ...d.problems[0]!, container: `c${i}` })) };
    const lines = diagnosisLines(many, { containers: 2, events: 0 });
    expect(lines).toEqual([expect.stringContaining('container c0 '), expect.stringContaining('container c1 '), '... and 5 more containers']);
  });
  it('does not repeat a cause the message already states: the other pods it holds for are named, the cause is not', () => {
    const d = imagePullDiagnosis();
    const twoPods = { ...d, problems: [d.problems[0]!, { ...d.problems[0]!, pod: 'web-7d9c-fghij' }] };
    const message = 'pod web-7d9c-abcde: container web: ImagePullBackOff: Back-off pulling image "web:v2" (and 1 more)';
    expect(diagnosisLines(twoPods, { alreadySaid: message })).toEqual([
      'container web of pod web-7d9c-fghij: the same',
      'event Failed on Pod/web-7d9c-abcde (x4): Failed to pull image "web:v2": not found',
    ]);
    expect(diagnosisLines({ problems: [], events: [], summary: 'no pods yet', unrecoverable: false }, { alreadySaid: 'no pods yet' })).toEqual([]);
  });

  it('says each cause once, naming its pods: replicas of one crash loop (restart counts apart) are one line, another cause its own', () => {
    const crash = (pod: string, restartCount: number): ContainerProblem => ({
      pod,
      container: 'api',
      init: false,
      reason: 'CrashLoopBackOff',
      message: `restarted ${restartCount} times, last exit: Error (exit code 1)`,
      restartCount,
      lastTerminationReason: 'Error',
      unrecoverable: true,
    });
    const oom = { ...crash('api-3', 2), message: 'restarted 2 times, last exit: OOMKilled (exit code 137)', lastTerminationReason: 'OOMKilled' };
    const diagnosis: Diagnosis = { problems: [crash('api-1', 8), crash('api-2', 7), oom], events: [], summary: '', unrecoverable: true };
    expect(diagnosisLines(diagnosis)).toEqual([
      'container api of pods api-1, api-2: CrashLoopBackOff: restarted 8 times, last exit: Error (exit code 1)',
      'container api of pod api-3: CrashLoopBackOff: restarted 2 times, last exit: OOMKilled (exit code 137)',
    ]);
    expect(causeGroups(diagnosis.problems).map((g) => g.problems.map((p) => p.pod))).toEqual([['api-1', 'api-2'], ['api-3']]);
  });

  it('one pull error is one cause, whether its replicas are in ErrImagePull or ImagePullBackOff at the moment', () => {
    const error = 'rpc error: code = NotFound desc = failed to resolve reference "registry.example.com/web:v2": not found';
    const pull = (pod: string, reason: string, message: string): ContainerProblem => ({
      pod,
      container: 'web',
      init: false,
      reason,
      message,
      unrecoverable: false,
    });
    const pulling = pull('web-1', 'ErrImagePull', error);
    const backingOff = pull('web-2', 'ImagePullBackOff', `Back-off pulling image "registry.example.com/web:v2": ErrImagePull: ${error}`);
    // An older kubelet's back-off does not say the error: it cannot be told to be the same one.
    const unsaid = pull('web-3', 'ImagePullBackOff', 'Back-off pulling image "registry.example.com/web:v2"');
    const other = pull('web-4', 'ErrImagePull', 'rpc error: code = Unknown desc = failed to pull and unpack image: unauthorized');
    expect(causeGroups([pulling, backingOff, unsaid, other]).map((g) => g.problems.map((p) => p.pod))).toEqual([['web-1', 'web-2'], ['web-3'], ['web-4']]);
    expect(causeGroups([backingOff, pulling]).map((g) => g.problems.map((p) => p.pod))).toEqual([['web-2', 'web-1']]);
  });

  it('falls back to the summary when there is nothing itemised, and to nothing without a diagnosis', () => {
    expect(diagnosisLines({ problems: [], events: [], summary: 'pods not scheduled', unrecoverable: false })).toEqual(['pods not scheduled']);
    expect(diagnosisLines(undefined)).toEqual([]);
  });
});

describe('displayServer', () => {
  it.each([
    ['https://10.0.0.1:6443', 'https://10.0.0.1:6443'],
    ['https://admin:s3cret@k8s.example.com:443/?token=abc', 'https://k8s.example.com'],
    ['https://rancher.example.com/k8s/clusters/c-1', 'https://rancher.example.com/k8s/clusters/c-1'],
    ['not a url with s3cret', '(unparsable server address)'],
    ['', ''],
  ])('%p -> %p', (server, shown) => {
    expect(displayServer(server)).toBe(shown);
    expect(displayServer(server)).not.toContain('s3cret');
  });
});

describe('small text helpers', () => {
  it('truncate keeps short text and marks cut text', () => {
    expect(truncate('abc', 3)).toBe('abc');
    expect(truncate('abcdef', 4)).toBe('abc…');
  });
  it.each([
    [
      'rpc error: code = NotFound desc = failed to pull and unpack image "registry.example.com/shop/api:v2": failed to resolve reference "registry.example.com/shop/api:v2": registry.example.com/shop/api:v2: not found',
      80,
      'rpc error: code = NotFound desc = failed to … example.com/shop/api:v2: not found',
    ],
    ['one two three four five six seven eight nine ten eleven twelve thirteen fourteen', 50, 'one two three four five six … thirteen fourteen'],
  ])('truncate cuts %j at word boundaries, keeping its end', (text, max, expected) => {
    expect(truncate(text, max)).toBe(expected);
    expect(truncate(text, max).length).toBeLessThanOrEqual(max);
  });

  it.each([
    ['ready at its first real status', ['Unknown', 'Current'], true, true],
    ['became ready', ['Unknown', 'InProgress', 'Current'], true, false],
    ['not done', ['Unknown', 'InProgress'], false, false],
    ['no history recorded', [], true, false],
  ] as const)('doneFromTheStart: %s', (_what, statuses, done, expected) => {
    const history = statuses.map((status, i) => ({ status, message: '', atSeconds: i }));
    expect(doneFromTheStart({ history, done, status: statuses.at(-1) ?? 'Current' })).toBe(expected);
  });

  it('newsEvents drops the events that restate a listed container, keeps the ones that say more', () => {
    const problem = { pod: 'api-1', container: 'api', init: false, reason: 'CrashLoopBackOff', message: 'restarted 3 times', unrecoverable: true };
    const event = (object: string, reason: string, message: string) => ({ object, reason, message, count: 3 });
    const events = [
      event('Pod/api-1', 'BackOff', 'Back-off restarting failed container api in pod api-1_shop(uid)'),
      event('Pod/api-1', 'Failed', 'Error: ErrImagePull'),
      event('Pod/api-1', 'Unhealthy', 'Readiness probe failed: connection refused'),
      event('Pod/other', 'BackOff', 'Back-off restarting failed container api in pod other_shop(uid)'),
    ];
    expect(newsEvents({ problems: [problem], events }).map((e) => `${e.object} ${e.reason}`)).toEqual(['Pod/api-1 Unhealthy', 'Pod/other BackOff']);
  });

  it("newsEvents drops a pull failure whose error the container's message already holds, keeps one that says more", () => {
    const error = 'rpc error: code = NotFound desc = registry.example.com/api:v2: not found';
    const problem = {
      pod: 'api-1',
      container: 'api',
      init: false,
      reason: 'ImagePullBackOff',
      message: `Back-off pulling image "api:v2": ErrImagePull: ${error}`,
      unrecoverable: true,
    };
    const event = (message: string) => ({ object: 'Pod/api-1', reason: 'Failed', message, count: 9 });
    const restating = event(`Failed to pull image "registry.example.com/api:v2": ${error}`);
    const more = event('Failed to pull image "registry.example.com/api:v2": unauthorized: authentication required');
    expect(newsEvents({ problems: [problem], events: [restating, more] })).toEqual([more]);
  });

  it('oneLine joins lines', () => {
    expect(oneLine('a\n  b\r\nc ')).toBe('a b c');
  });
});
