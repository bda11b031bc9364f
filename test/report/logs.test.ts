/** The log blocks of the report: summary <details>, the step log group, the annotation line; and the failed Job's words. */
import { describe, expect, it } from '@jest/globals';
import type { FailureExplanation } from '../../src/status/explain-failure.js';
import type { ContainerToExplain } from '../../src/status/explain-pods.js';
import { failedPodLines, failureHeadline } from '../../src/report/failure.js';
import { annotationLine, logDetails, logGroup, logRecords, logsCommand, telling, type ContainerLogView } from '../../src/report/logs.js';
import type { TargetReport } from '../../src/result.js';

const crash: ContainerToExplain = {
  namespace: 'shop',
  pod: 'api-7d9c-abcde',
  container: 'api',
  init: false,
  reason: 'CrashLoopBackOff',
  message: '',
  restartCount: 4,
  exitCode: 1,
  terminationReason: 'Error',
  previous: true,
};
const goPanic = 'level=info msg="starting api"\npanic: missing DATABASE_URL\n\ngoroutine 1 [running]:\nmain.main()\n\t/app/main.go:42 +0x1d\n';
const crashView: ContainerLogView = { request: crash, outcome: { kind: 'text', text: goPanic, previous: true, truncated: false } };
const pull: ContainerLogView = {
  request: {
    ...crash,
    reason: 'ImagePullBackOff',
    restartCount: 0,
    exitCode: undefined,
    terminationReason: undefined,
    previous: false,
    noLogs: 'ImagePullBackOff: Back-off pulling image "shop/api:2.0"',
  },
  events: [
    { object: 'Pod/api-7d9c-abcde', reason: 'Failed', message: 'Failed to pull image "shop/api:2.0": not found', count: 4, lastSeen: '2026-12-02T10:00:00Z' },
  ],
};

describe('telling', () => {
  const problem = (container: string) => ({ pod: 'api-7d9c-abcde', container, init: false, reason: 'ImagePullBackOff', message: '', unrecoverable: true });
  const diagnosis = (...containers: string[]) => ({ problems: containers.map(problem), events: [], summary: '', unrecoverable: true });
  const explanation = { pods: [], logs: [crashView, pull] };

  it('leaves out a container that never started when the diagnosis names it: its cause is said there', () => {
    expect(telling({ explanation, diagnosis: diagnosis('api') })).toEqual([crashView]);
  });
  it('keeps it when nothing else says why it has no log', () => {
    expect(telling({ explanation })).toEqual([crashView, pull]);
    expect(telling({ explanation, diagnosis: diagnosis('sidecar') })).toEqual([crashView, pull]);
  });
});

describe('annotationLine', () => {
  it.each<[string, ContainerLogView, string]>([
    ['a crash loop with its panic line', crashView, 'pod api-7d9c-abcde, container api: exit 1: panic: missing DATABASE_URL'],
    ['no log possible: the waiting reason', pull, 'pod api-7d9c-abcde, container api: ImagePullBackOff: Back-off pulling image "shop/api:2.0"'],
    [
      'OOMKilled, the log says nothing telling',
      { request: { ...crash, exitCode: 137, terminationReason: 'OOMKilled' }, outcome: { kind: 'text', text: '', previous: true, truncated: false } },
      'pod api-7d9c-abcde, container api: exit 137 (OOMKilled)',
    ],
    ['logs forbidden: what the status says', { request: crash, outcome: { kind: 'forbidden' } }, 'pod api-7d9c-abcde, container api: exit 1'],
    [
      'the API says why (a container that became ContainerCreating again)',
      {
        request: { ...crash, reason: 'NotReady', exitCode: undefined, previous: false },
        outcome: { kind: 'unavailable', reason: 'container "api" in pod "api-7d9c-abcde" is waiting to start: ContainerCreating' },
      },
      'pod api-7d9c-abcde, container api: NotReady: container "api" in pod "api-7d9c-abcde" is waiting to start: ContainerCreating',
    ],
    [
      'an init container',
      { ...crashView, request: { ...crash, init: true, container: 'migrate' } },
      'pod api-7d9c-abcde, init container migrate: exit 1: panic: missing DATABASE_URL',
    ],
  ])('%s', (_what, view, expected) => {
    expect(annotationLine(view)).toBe(expected);
  });
});

describe('logsCommand', () => {
  it.each<[string, ContainerLogView, string]>([
    ['previous run', crashView, 'kubectl logs -n shop api-7d9c-abcde -c api --previous --tail=200'],
    [
      'fell back to the current run',
      { request: crash, outcome: { kind: 'text', text: 'x\n', previous: false, truncated: false } },
      'kubectl logs -n shop api-7d9c-abcde -c api --tail=200',
    ],
  ])('%s', (_what, view, expected) => {
    expect(logsCommand(view)).toBe(expected);
  });
});

describe('logDetails (job summary)', () => {
  it('a crash loop: collapsed, the tail fenced, the command to see more', () => {
    expect(logDetails(crashView)).toBe(
      [
        '<details>',
        '<summary>📄 pod api-7d9c-abcde, container api (previous run): exit 1: panic: missing DATABASE_URL</summary>',
        '',
        '_last 6 lines_',
        '',
        '```text',
        'level=info msg="starting api"\npanic: missing DATABASE_URL\n\ngoroutine 1 [running]:\nmain.main()\n\t/app/main.go:42 +0x1d',
        '```',
        '',
        'More: `kubectl logs -n shop api-7d9c-abcde -c api --previous --tail=200`',
        '',
        '</details>',
      ].join('\n'),
    );
  });

  it('hostile log text cannot close the fence, inject HTML into the summary line or keep terminal codes', () => {
    const text = 'ok\n````\n</details><img src=x onerror=alert(1)>\n\u001b[31mError: <b>bad</b>\u001b[0m\n';
    const block = logDetails({ request: crash, outcome: { kind: 'text', text, previous: true, truncated: false } });
    expect(block).toContain('\n`````text\nok\n````\n</details><img src=x onerror=alert(1)>\nError: <b>bad</b>\n`````\n');
    expect(block).toContain('<summary>📄 pod api-7d9c-abcde, container api (previous run): exit 1: Error: &lt;b&gt;bad&lt;/b&gt;</summary>');
    expect(block).not.toContain('\u001b');
  });

  it('only the last `lines` lines, each at most 500 characters', () => {
    const text = `${Array.from({ length: 50 }, (_, i) => `line ${i}`).join('\n')}\n${'x'.repeat(2000)}\n`;
    const block = logDetails({ request: crash, outcome: { kind: 'text', text, previous: true, truncated: false } }, { lines: 3 });
    expect(block).toContain(`_last 3 lines_\n\n\`\`\`text\nline 48\nline 49\n${'x'.repeat(499)}…\n\`\`\``);
  });

  it('a cut log says so', () => {
    expect(logDetails({ request: crash, outcome: { kind: 'text', text: 'level=info msg="sta', previous: true, truncated: true } })).toContain(
      '_the log was cut at the size limit; its end may be missing_',
    );
  });

  it('no log possible: the reason in the heading, the pod events that say more, no command', () => {
    const block = logDetails(pull);
    // Markdown text is escaped as everywhere in the summary (quotes as &quot;, which renders as ").
    expect(block).toContain('container api: ImagePullBackOff: Back-off pulling image &quot;shop/api:2.0&quot;</summary>');
    expect(block).toContain('No log: the container has not started.');
    expect(block).toContain('| Failed | 4 | 2026-12-02T10:00:00Z | Failed to pull image &quot;shop/api:2.0&quot;: not found |');
    expect(block).not.toContain('kubectl logs');
  });

  it.each<[string, ContainerLogView['outcome'], string]>([
    ['forbidden', { kind: 'forbidden' }, 'No log: reading container logs is not allowed here (get on pods/log).'],
    ['out of time', { kind: 'failed', message: 'not read within 5 s' }, 'No log: not read within 5 s.'],
    ['empty', { kind: 'text', text: '', previous: true, truncated: false }, 'The log is empty.'],
  ])('nothing to show: %s', (_what, outcome, expected) => {
    expect(logDetails({ request: crash, ...(outcome ? { outcome } : {}) })).toContain(`\n\n${expected}\n\n`);
  });
});

describe('logGroup (step log)', () => {
  const token = '3f0c2a8e-6b1d-4c1e-9a57-0b6f2d9e7c41';

  it('commands are stopped around the log text', () => {
    const view: ContainerLogView = {
      request: crash,
      outcome: { kind: 'text', text: 'start\n::add-mask::oops\n::error::fake\npanic: x\n', previous: true, truncated: false },
    };
    expect(logGroup(view, token)).toEqual({
      title: 'Logs shop/api-7d9c-abcde/api (previous): exit 1: panic: x',
      lines: [
        `::stop-commands::${token}`,
        'start',
        '::add-mask::oops',
        '::error::fake',
        'panic: x',
        `::${token}::`,
        'More: kubectl logs -n shop api-7d9c-abcde -c api --previous --tail=200',
      ],
    });
  });

  it('a log that contains the token cannot resume commands early', () => {
    const view: ContainerLogView = { request: crash, outcome: { kind: 'text', text: `::${token}::\n::error::fake\n`, previous: true, truncated: false } };
    const { lines } = logGroup(view, token);
    expect(lines.filter((l) => l === `::${token}::`)).toHaveLength(1);
    expect(lines.at(-2)).toBe(`::${token}::`);
  });

  it('no log: one line saying why', () => {
    expect(logGroup(pull, token)).toEqual({
      title: 'Logs shop/api-7d9c-abcde/api: ImagePullBackOff: Back-off pulling image "shop/api:2.0"',
      lines: ['No log: the container has not started.'],
    });
  });
});

describe('logGroup without a token (the command outside GitHub Actions, a JUnit file)', () => {
  it('shows the lines plainly, without terminal control codes: the log can neither repaint a terminal nor close a GitLab section', () => {
    const text = '\u001b[31mstarting\u001b[0m\n\u001b[0Ksection_end:1:kubewait_1\r\u001b[0K\n::error::shown\n\tat main.go:42\npanic: x\n';
    expect(logGroup({ request: crash, outcome: { kind: 'text', text, previous: true, truncated: false } }, undefined)).toEqual({
      title: 'Logs shop/api-7d9c-abcde/api (previous): exit 1: panic: x',
      lines: [
        'starting',
        'section_end:1:kubewait_1',
        '::error::shown',
        '\tat main.go:42',
        'panic: x',
        'More: kubectl logs -n shop api-7d9c-abcde -c api --previous --tail=200',
      ],
    });
  });
});

describe('logRecords (-o json)', () => {
  const target = (name: string, logs: ContainerLogView[]): TargetReport => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    namespace: 'shop',
    name,
    status: 'Failed',
    message: '',
    rule: 'kstatus',
    done: false,
    seconds: 3,
    history: [],
    conditions: [],
    explanation: { pods: [], logs },
  });
  const replica: ContainerLogView = { ...crashView, request: { ...crash, pod: 'api-7d9c-fghij' } };

  it('one record per distinct log, naming the target, the replicas that printed the same, and why there is none', () => {
    expect(logRecords([target('api', [crashView, replica]), target('web', [pull])])).toEqual([
      {
        resource: 'shop/Deployment/api',
        pod: 'api-7d9c-abcde',
        container: 'api',
        init: false,
        previous: true,
        summary: 'exit 1: panic: missing DATABASE_URL',
        lines: ['level=info msg="starting api"', 'panic: missing DATABASE_URL', '', 'goroutine 1 [running]:', 'main.main()', '\t/app/main.go:42 +0x1d'],
        samePods: ['api-7d9c-fghij'],
        command: 'kubectl logs -n shop api-7d9c-abcde -c api --previous --tail=200',
      },
      {
        resource: 'shop/Deployment/web',
        pod: 'api-7d9c-abcde',
        container: 'api',
        init: false,
        previous: false,
        summary: 'ImagePullBackOff: Back-off pulling image "shop/api:2.0"',
        missing: 'No log: the container has not started.',
        samePods: [],
      },
    ]);
  });
});

describe('a failed Job in words', () => {
  const migrate = (name: string, exitCode: number, terminationReason: string, message = ''): FailureExplanation['failedPods'][number] => ({
    namespace: 'shop',
    name,
    phase: 'Failed',
    restarts: 0,
    events: [],
    containers: [
      {
        namespace: 'shop',
        pod: name,
        container: 'migrate',
        init: false,
        reason: terminationReason,
        message,
        restartCount: 0,
        exitCode,
        terminationReason,
        previous: false,
      },
    ],
  });
  const job: FailureExplanation = {
    kind: 'Job',
    namespace: 'shop',
    name: 'migrate',
    reason: 'BackoffLimitExceeded',
    message: 'Job has reached the specified backoff limit',
    failedCount: 3,
    failedPods: [migrate('migrate-c', 137, 'OOMKilled'), migrate('migrate-b', 1, 'Error', 'relation "orders" does not exist')],
    events: [],
  };

  it.each<[string, FailureExplanation, string]>([
    [
      'backoff limit',
      job,
      'Job shop/migrate failed: BackoffLimitExceeded: Job has reached the specified backoff limit; 3 pods failed, the last with exit 137 (OOMKilled) in container migrate',
    ],
    [
      'deadline, pods gone',
      { ...job, reason: 'DeadlineExceeded', message: 'Job was active longer than specified deadline', failedCount: 1, failedPods: [] },
      'Job shop/migrate failed: DeadlineExceeded: Job was active longer than specified deadline; 1 pod failed',
    ],
    [
      'a bare Pod',
      { ...job, kind: 'Pod', name: 'solo', reason: '', message: '', failedCount: 1, failedPods: [migrate('solo', 2, 'Error')] },
      'Pod shop/solo failed: exit 2 (Error) in container migrate',
    ],
  ])('%s', (_what, f, expected) => {
    expect(failureHeadline(f)).toBe(expected);
  });

  it('one line per failed pod', () => {
    expect(failedPodLines(job)).toEqual([
      'pod migrate-c (Failed): container migrate exit 137 (OOMKilled)',
      'pod migrate-b (Failed): container migrate exit 1 (Error): relation "orders" does not exist',
    ]);
  });
});
