import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import type { RunResult } from '../../src/result.js';
import {
  byteLength,
  DEFAULT_LIMITS,
  fileUrl,
  headline,
  renderSummary,
  runUrl,
  statusSymbol,
  type RunInfo,
  type SummaryContext,
} from '../../src/report/summary.js';
import { failed, fromFile, fromRelease, imagePullDiagnosis, pending, ready, result, target } from './fixtures.js';

const run: RunInfo = { serverUrl: 'https://github.com', repository: 'acme/shop', runId: 4242, runAttempt: 1, sha: 'abc123' };
const ctx: SummaryContext = { server: 'https://10.0.0.1:6443', context: 'kind-ci', waitFor: { kind: 'ready' }, run };

/** The rows of the first markdown table (the targets table), without header and separator. */
function tableRows(markdown: string): string[] {
  const lines = markdown.split('\n');
  const start = lines.findIndex((l) => l.startsWith('| Resource |'));
  const rows: string[] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(line);
  }
  return rows;
}

/** Cells of a row, splitting only on pipes that are not escaped. */
function cells(row: string): string[] {
  return row
    .slice(2, -2)
    .split(/(?<!\\) \| /)
    .map((c) => c.trim());
}

describe('headline', () => {
  it.each([
    { what: 'ready', r: result([ready('a'), ready('b')]), text: '## ✅ kubewait: 2 of 2 targets ready' },
    { what: 'failed', r: result([ready('a'), failed('b'), pending('c')]), text: '## ❌ kubewait: 1 of 3 targets failed' },
    { what: 'timeout', r: result([ready('a'), pending('c')], { outcome: 'timeout' }), text: '## ⏱️ kubewait: timed out with 1 of 2 targets not ready' },
    {
      what: 'cancelled',
      r: result([ready('a'), pending('c')], { outcome: 'timeout', cancelled: true }),
      text: '## 🛑 kubewait: cancelled with 1 of 2 targets ready',
    },
    {
      what: 'input error',
      r: result([pending('c')], { outcome: 'failed', error: { input: 'resources', message: 'm' } }),
      text: '## ❌ kubewait: stopped: a problem with input `resources`',
    },
    { what: 'one target', r: result([ready('a')]), text: '## ✅ kubewait: 1 of 1 target ready' },
    {
      what: 'opted-out targets counted apart',
      r: result([ready('a'), failed('b', { done: true, optedOut: true })]),
      text: '## ✅ kubewait: 1 of 1 target ready (1 not waited for)',
    },
    {
      what: 'a Helm release, named with chart and app version',
      r: {
        ...result([ready('a')]),
        release: { name: 'shop', namespace: 'store', revision: 3, status: 'deployed', title: 'shop revision 3 (chart shop-1.2.3, app 4.5.6)', message: 'm' },
      },
      text: '## ✅ kubewait: 1 of 1 target ready · release shop revision 3 (chart shop-1.2.3, app 4.5.6)',
    },
    {
      what: 'a failed Helm release',
      r: {
        ...result([ready('a')], { outcome: 'failed' }),
        release: { name: 'shop', namespace: 'store', revision: 3, status: 'failed', title: 'shop revision 3', message: 'm', verdict: 'failed' as const },
      },
      text: '## ❌ kubewait: Helm release failed; 1 of 1 target ready · release shop revision 3',
    },
  ])('$what', ({ r, text }) => {
    expect(headline(r, { kind: 'ready' })).toBe(text);
  });
  it('uses the wait-for goal', () => {
    expect(headline(result([target({ status: 'NotFound', done: true })]), { kind: 'deleted' })).toBe('## ✅ kubewait: 1 of 1 target deleted');
  });
});

describe('links', () => {
  it('builds the run URL, with the attempt when it is not the first', () => {
    expect(runUrl(run)).toBe('https://github.com/acme/shop/actions/runs/4242');
    expect(runUrl({ ...run, runAttempt: 2 })).toBe('https://github.com/acme/shop/actions/runs/4242/attempts/2');
    expect(runUrl({ serverUrl: 'https://github.com' })).toBeUndefined();
    expect(runUrl(undefined)).toBeUndefined();
  });
  it.each([
    ['k8s/web.yaml', 12, 'https://github.com/acme/shop/blob/abc123/k8s/web.yaml#L12'],
    ['./k8s/web.yaml', undefined, 'https://github.com/acme/shop/blob/abc123/k8s/web.yaml'],
    ['/home/runner/work/k8s/web.yaml', 1, undefined],
    ['../other/web.yaml', 1, undefined],
  ])('links %p line %p to %p', (file, line, url) => {
    expect(fileUrl(run, file, line)).toBe(url);
  });
});

describe('renderSummary', () => {
  const mixed: RunResult = result(
    [
      ready('web', { seconds: 12.4 }),
      pending('worker', { kind: 'StatefulSet', message: 'Ready: 1/3' }),
      failed('api', {
        ...fromFile('k8s/api.yaml', 20),
        diagnosis: imagePullDiagnosis('api', 'api:v2'),
        conditions: [{ type: 'Available', status: 'False', reason: 'MinimumReplicasUnavailable', message: 'Deployment does not have minimum availability.' }],
        history: [
          { status: 'InProgress', message: 'Replicas: 0/2', atSeconds: 0.2 },
          { status: 'Failed', message: 'Progress deadline exceeded', atSeconds: 30 },
        ],
      }),
    ],
    { warnings: ['watch on statefulsets in shop is forbidden (missing RBAC verb "watch"): polling every 2s'] },
  );

  it('gives one pull error one row, naming both reasons its replicas show at the moment', () => {
    const error = 'failed to resolve reference "api:v2": not found';
    const pull = (pod: string, reason: string, message: string) => ({
      pod,
      container: 'api',
      init: false,
      reason,
      message,
      restartCount: 0,
      unrecoverable: false,
    });
    const diagnosis = {
      problems: [pull('api-1', 'ErrImagePull', error), pull('api-2', 'ImagePullBackOff', `Back-off pulling image "api:v2": ErrImagePull: ${error}`)],
      events: [],
      summary: '',
      unrecoverable: false,
    };
    const md = renderSummary(result([failed('api', { diagnosis })]), ctx);
    expect(md).toContain('| api-1, api-2 | api | ErrImagePull, ImagePullBackOff | 0 |');
    expect(md.match(/failed to resolve reference/g)).toHaveLength(1);
  });

  it('has the heading, duration, cluster, context and a link to the run', () => {
    const md = renderSummary(mixed, ctx);
    expect(md.split('\n')[0]).toBe('## ❌ kubewait: 1 of 3 targets failed');
    expect(md).toContain(
      '**Duration** 42.4s · **Waited for** `ready` · **Cluster** `https://10.0.0.1:6443` · **Context** `kind-ci` · **Failed** Deployment/api · [Workflow run](https://github.com/acme/shop/actions/runs/4242)',
    );
  });

  it('leads a Rollout’s row with its canary step, weight and analysis', () => {
    const rollout = pending('web', {
      kind: 'Rollout',
      message: 'analysis web-6d8f-2-1 Running at canary step 1/5 (paused: analysis)',
      rule: 'builtin:argo-rollouts-rollout',
      progress: { step: '1/5', weight: 20, analysis: 'Running' },
    });
    expect(renderSummary(result([rollout]), ctx)).toContain(
      '| canary step 1/5, weight 20 %, analysis Running — builtin:argo-rollouts-rollout: analysis web-6d8f-2-1 Running at canary step 1/5 (paused: analysis) |',
    );
  });

  it('names the slowest target of a ready run when two or more are done', () => {
    const md = renderSummary(result([ready('a', { seconds: 3 }), ready('b', { seconds: 71 })]), ctx);
    expect(md).toContain('· **Slowest** Deployment/b (1m11s) ·');
    expect(renderSummary(result([ready('a')]), ctx)).not.toContain('Slowest');
  });

  it('says a crash loop of three replicas once in the details: one Failing containers row naming the pods, the history pointing at it', () => {
    const crash = (pod: string, restartCount: number) => ({
      pod,
      container: 'api',
      init: false,
      reason: 'CrashLoopBackOff',
      message: `restarted ${restartCount} times, last exit: Error (exit code 1)`,
      restartCount,
      lastTerminationReason: 'Error',
      unrecoverable: true,
    });
    const summary = 'pod api-1: container api: CrashLoopBackOff: restarted 8 times, last exit: Error (exit code 1) (and 2 more)';
    const api = failed('api', {
      message: summary,
      diagnosis: { problems: [crash('api-1', 8), crash('api-2', 8), crash('api-3', 7)], events: [], summary, unrecoverable: true },
      history: [
        { status: 'InProgress', message: 'Available: 0/3', atSeconds: 0.2 },
        { status: 'Failed', message: summary, atSeconds: 4.2 },
      ],
    });
    const [, details = ''] = renderSummary(result([api]), ctx).split('### Why it is not ready');
    expect(details.match(/last exit: Error \(exit code 1\)/g)).toHaveLength(1);
    expect(details).toContain('| api-1, api-2, api-3 | api | CrashLoopBackOff | 8, 7 | last exit: Error (exit code 1) |');
    expect(details).toContain('| 4.2s | ❌ Failed | _the failing containers above_ |');
  });

  it.each([
    ['kstatus', 'Judged by kstatus (the status conventions of Kubernetes objects).'],
    ['builtin:cert-manager-certificate', "Judged by kubewait's built-in health rule `builtin:cert-manager-certificate` (docs/health-rules.md)."],
    ['gitops:flux-kustomization', 'Judged by the revision its GitOps controller applied and the health it reports (`gitops:flux-kustomization`).'],
    ['health-checks[0]', 'Judged by the health rule `health-checks\\[0\\]`.'],
  ])('says in words which rule judged a target that is not done: %s', (rule, words) => {
    const [, details = ''] = renderSummary(result([failed('api', { rule })]), ctx).split('### Why it is not ready');
    expect(details).toContain(words);
  });

  it('links a manifest whose name has an & with the name as it is, never an entity', () => {
    const md = renderSummary(result([failed('api', fromFile('k8s/R&D app.yaml', 3))]), ctx);
    expect(md).toContain('[k8s/R\\&D app.yaml:3](https://github.com/acme/shop/blob/');
    expect(md).toContain('Defined in [k8s/R\\&D app.yaml line 3](');
    expect(md).not.toMatch(/\[[^\]]*&amp;/);
  });

  it('on a run that did not succeed, names what failed (else what was not ready), never the slowest of the others', () => {
    const slowRoleBinding = ready('api-reader', { kind: 'RoleBinding', seconds: 9 });
    const failedRun = renderSummary(result([ready('a', { seconds: 3 }), slowRoleBinding, failed('api'), failed('web'), failed('db'), failed('cache')]), ctx);
    expect(failedRun).toContain('· **Failed** Deployment/api, Deployment/web, Deployment/db and 1 more ·');
    const timedOut = renderSummary(result([ready('a', { seconds: 3 }), slowRoleBinding, pending('c', { seconds: 99 })]), ctx);
    expect(timedOut).toContain('· **Not ready** Deployment/c ·');
    for (const md of [failedRun, timedOut]) expect(md).not.toContain('Slowest');
  });

  it('names a Helm release manifest as where a target is defined, without linking it into the repository', () => {
    const md = renderSummary(result([failed('web', fromRelease('shop', 3, 40))]), ctx);
    expect(md).toContain('release shop (revision 3):40');
    expect(md).toContain('Defined in release shop (revision 3) line 40.');
    expect(md).not.toMatch(/\]\(https:[^)]*release/);
  });

  it('shows an opted-out target with its own status, no time, and why it was not waited for', () => {
    const md = renderSummary(
      result([ready('web'), failed('optional', { done: true, optedOut: true, message: 'not waited for (kubewait.io/wait: false): boom' })]),
      ctx,
    );
    const row = tableRows(md).find((r) => r.includes('optional'))!;
    expect(cells(row).slice(2)).toEqual(['➖ Failed', '—', 'not waited for (kubewait.io/wait: false): boom']);
  });

  it('shows warnings as a warning callout', () => {
    expect(renderSummary(mixed, ctx)).toContain(
      '> [!WARNING]\n> watch on statefulsets in shop is forbidden (missing RBAC verb &quot;watch&quot;): polling every 2s',
    );
  });

  it('has one row per target: failed first, then pending, then ready, with symbol, time and message', () => {
    const rows = tableRows(renderSummary(mixed, ctx)).map(cells);
    expect(rows).toEqual([
      [
        'Deployment/api<br><sub>[k8s/api.yaml:20](https://github.com/acme/shop/blob/abc123/k8s/api.yaml#L20)</sub>',
        'shop',
        '❌ Failed',
        '—',
        'Progress deadline exceeded',
      ],
      ['StatefulSet/worker', 'shop', '⏳ InProgress', '—', 'Ready: 1/3'],
      ['Deployment/web', 'shop', '✅ Current', '12.4s', 'Deployment is available. Replicas: 3'],
    ]);
  });

  it('has a details block for each target that is not ready, and none for ready ones', () => {
    const md = renderSummary(mixed, ctx);
    expect(md).toContain('### Why they are not ready');
    const blocks = md.split('<details>').slice(1);
    expect(blocks).toHaveLength(2);
    const api = blocks[0]!;
    expect(api).toContain('<summary>❌ <b>Deployment shop/api</b> Failed</summary>');
    expect(api).toContain('Defined in [k8s/api.yaml line 20](https://github.com/acme/shop/blob/abc123/k8s/api.yaml#L20).');
    expect(api).toContain('| Available | False | MinimumReplicasUnavailable | Deployment does not have minimum availability. |');
    expect(api).toContain('| api-7d9c-abcde | api | ImagePullBackOff | 0 | Back-off pulling image &quot;api:v2&quot; |');
    expect(api).toContain('| Pod/api-7d9c-abcde | Failed | 4 | 2026-01-01T10:00:00Z | Failed to pull image &quot;api:v2&quot;: not found |');
    expect(api).toContain('| 0.2s | ⏳ InProgress | Replicas: 0/2 |\n| 30.0s | ❌ Failed | Progress deadline exceeded |');
    expect(blocks[1]).toContain('<b>StatefulSet shop/worker</b>');
    expect(md).not.toContain('<b>Deployment shop/web</b>');
  });

  it('escapes pipes, HTML and newlines in messages so rows stay intact', () => {
    const nasty = failed('x', { message: 'a | b <img src=x onerror=alert(1)>\nsecond line `tick` *star*' });
    const md = renderSummary(result([nasty]), ctx);
    const rows = tableRows(md);
    expect(rows).toHaveLength(1);
    expect(cells(rows[0]!)).toHaveLength(5);
    expect(cells(rows[0]!)[4]).toBe('a \\| b &lt;img src=x onerror=alert(1)&gt;<br>second line \\`tick\\` \\*star\\*');
    expect(md).not.toContain('<img');
    expect(md).toContain('<summary>❌ <b>Deployment shop/x</b> Failed</summary>');
  });

  it('never shows credentials from the server URL', () => {
    const md = renderSummary(result([ready('a')]), { ...ctx, server: 'https://admin:hunter2@k8s.example.com:6443/?token=t0ps3cret' });
    expect(md).toContain('`https://k8s.example.com:6443`');
    expect(md).not.toMatch(/hunter2|t0ps3cret/);
  });

  it('shows the input error as a caution callout', () => {
    const md = renderSummary(result([pending('a')], { outcome: 'failed', error: { input: 'resources', message: 'type "foo" is ambiguous' } }), ctx);
    expect(md).toContain('> [!CAUTION]\n> Input &quot;resources&quot;: type &quot;foo&quot; is ambiguous');
    expect(tableRows(md)).toHaveLength(1);
  });

  it('ends with a footer naming the version of kubewait that wrote it (package.json), in every outcome', () => {
    const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    const footer = `\n\n<sub>kubewait ${version}</sub>\n`;
    expect(renderSummary(result([ready('a')]), ctx).endsWith(footer)).toBe(true);
    expect(renderSummary(result([failed('a')], { outcome: 'failed' }), ctx).endsWith(footer)).toBe(true);
    expect(renderSummary(result([]), { server: '', context: '', waitFor: { kind: 'ready' } }).endsWith(footer)).toBe(true);
  });

  it('works without run information and without targets', () => {
    const md = renderSummary(result([]), { server: '', context: '', waitFor: { kind: 'ready' } });
    expect(md).toContain('_No targets._');
    expect(md).not.toContain('Workflow run');
    expect(md).not.toContain('**Cluster**');
  });

  it('aggregates ready targets beyond the row cap into a count line that says so', () => {
    const targets = [failed('bad'), ...Array.from({ length: 600 }, (_, i) => ready(`r${i}`))];
    const md = renderSummary(result(targets), ctx);
    const rows = tableRows(md);
    expect(rows).toHaveLength(1 + DEFAULT_LIMITS.readyRows);
    expect(rows[0]).toContain('Deployment/bad');
    expect(md).toContain('**100 more targets that are ready are not listed** (this table shows at most 500 of them).');
    expect(md).toContain('The `resources`, `pending` and `failed` outputs list every target.');
    expect(md).not.toContain('shortened');
  });

  it('caps details blocks and says how many targets have none', () => {
    const targets = Array.from({ length: 60 }, (_, i) => pending(`p${i}`));
    const md = renderSummary(result(targets, { outcome: 'timeout' }), ctx);
    expect(md.split('<details>')).toHaveLength(DEFAULT_LIMITS.details + 1);
    expect(md).toContain('_Details are shown for the first 50 of 60 targets that are not ready; the table lists the others._');
  });

  it('stays under the byte limit by shortening, and says so', () => {
    const long = 'x'.repeat(900);
    const heavy = (i: number) =>
      failed(`f${i}`, {
        message: long,
        diagnosis: { ...imagePullDiagnosis(), summary: long },
        conditions: Array.from({ length: 10 }, (_, c) => ({ type: `C${c}`, status: 'False', reason: 'R', message: long })),
      });
    const targets = [...Array.from({ length: 300 }, (_, i) => heavy(i)), ...Array.from({ length: 300 }, (_, i) => ready(`r${i}`))];
    const limits = { ...DEFAULT_LIMITS, maxBytes: 200_000 };
    const full = renderSummary(result(targets), ctx, { ...limits, maxBytes: Number.MAX_SAFE_INTEGER });
    expect(byteLength(full)).toBeGreaterThan(limits.maxBytes);
    const md = renderSummary(result(targets), ctx, limits);
    expect(byteLength(md)).toBeLessThanOrEqual(limits.maxBytes);
    expect(md).toContain('_This summary was shortened to stay under the 1 MiB job summary limit._');
    expect(tableRows(md)[0]).toContain('Deployment/f0');
  });

  it('keeps a huge target set under 1 MiB with the default limits', () => {
    const targets = [
      ...Array.from({ length: 3000 }, (_, i) =>
        failed(`failed-deployment-with-a-long-name-${i}`, { message: 'y'.repeat(400), diagnosis: imagePullDiagnosis() }),
      ),
      ...Array.from({ length: 5000 }, (_, i) => ready(`ready-${i}`)),
    ];
    const md = renderSummary(result(targets), ctx);
    expect(byteLength(md)).toBeLessThanOrEqual(1024 * 1024);
    expect(md).toContain('targets that are not ready are not listed');
    expect(md).toContain('targets that are ready are not listed');
  });
});

describe('the time to the goal', () => {
  const timeCell = (t: ReturnType<typeof ready>, waitFor: SummaryContext['waitFor'] = { kind: 'ready' }) =>
    cells(tableRows(renderSummary(result([t]), { ...ctx, waitFor }))[0]!)[3];

  it.each([
    {
      what: 'reached during the wait',
      t: ready('a', {
        seconds: 12.4,
        history: [
          { status: 'InProgress', message: '', atSeconds: 0.5 },
          { status: 'Current', message: '', atSeconds: 12.4 },
        ],
      }),
      cell: '12.4s',
    },
    { what: 'there at the first look', t: ready('a', { seconds: 0.6, history: [{ status: 'Current', message: '', atSeconds: 0.6 }] }), cell: 'already ready' },
    { what: 'not there', t: pending('a'), cell: '—' },
    { what: 'opted out', t: failed('a', { done: true, optedOut: true }), cell: '—' },
  ])('$what: $cell', ({ t, cell }) => {
    expect(timeCell(t)).toBe(cell);
  });

  it('names the goal it was already at', () => {
    const gone = ready('a', { status: 'NotFound', history: [{ status: 'NotFound', message: '', atSeconds: 0.2 }] });
    expect(timeCell(gone, { kind: 'deleted' })).toBe('already deleted');
  });
});

describe('statusSymbol', () => {
  it.each([
    [{ done: true, status: 'NotFound' as const }, '✅'],
    [{ done: true, status: 'Current' as const }, '✅'],
    [{ done: false, status: 'Current' as const }, '⏳'],
    [{ done: false, status: 'Failed' as const }, '❌'],
    [{ done: false, status: 'Terminating' as const }, '🗑️'],
    [{ done: false, status: 'Unknown' as const }, '❓'],
  ])('%j -> %p', (t, symbol) => {
    expect(statusSymbol(t)).toBe(symbol);
  });
});
