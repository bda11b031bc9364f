import { describe, expect, it } from '@jest/globals';
import type { WaitFor } from '../../src/settings.js';
import { annotatedTargets, annotationsFor, failureMessage, MAX_ERROR_ANNOTATIONS } from '../../src/report/annotations.js';
import { failed, fromFile, fromRelease, imagePullDiagnosis, pending, ready, result, target } from './fixtures.js';

const waitForReady: WaitFor = { kind: 'ready' };

describe('annotationsFor', () => {
  it('annotates nothing when every target is ready', () => {
    expect(annotationsFor(result([ready('a'), ready('b')]), waitForReady)).toEqual([]);
  });

  it('titles a failed target, gives reason and diagnosis, and points at its manifest line', () => {
    const r = result([ready('ok'), failed('web', { ...fromFile('k8s/web.yaml', 12), seconds: 21.5, diagnosis: imagePullDiagnosis() })]);
    expect(annotationsFor(r, waitForReady)).toEqual([
      {
        title: 'Deployment shop/web',
        message: [
          'Failed after 21.5s: Progress deadline exceeded',
          'container web of pod web-7d9c-abcde: ImagePullBackOff: Back-off pulling image "web:v2"',
          'event Failed on Pod/web-7d9c-abcde (x4): Failed to pull image "web:v2": not found',
        ].join('\n'),
        file: 'k8s/web.yaml',
        startLine: 12,
      },
    ]);
  });

  it('names a Helm release manifest as the source in the title, but never as file= (it is no file of the workspace)', () => {
    const r = result([failed('web', fromRelease('shop', 3, 40))]);
    const [annotation] = annotationsFor(r, waitForReady);
    expect(annotation).toMatchObject({ title: 'Deployment shop/web' });
    expect(annotation).not.toHaveProperty('file');
    expect(annotation).not.toHaveProperty('startLine');
  });

  it('asks the source its kind, not its name: a workspace file named like a release manifest is annotated on its line', () => {
    const r = result([failed('web', fromFile('release shop (revision 3)', 40))]);
    expect(annotationsFor(r, waitForReady)[0]).toMatchObject({ file: 'release shop (revision 3)', startLine: 40 });
  });

  it('does not annotate an opted-out target, Failed or not', () => {
    const r = result([ready('ok'), failed('optional', { done: true, optedOut: true })], { outcome: 'timeout' });
    expect(annotationsFor(r, waitForReady)).toEqual([]);
  });

  it('on timeout also annotates every pending target, failures first', () => {
    const r = result([pending('slow'), failed('bad'), ready('ok')], { outcome: 'timeout', durationSeconds: 300 });
    expect(annotationsFor(r, waitForReady)).toEqual([
      { title: 'Deployment shop/bad', message: 'Failed after 30.0s: Progress deadline exceeded' },
      { title: 'Deployment shop/slow', message: 'Not ready after 5m00s (InProgress): Ready: 1/3' },
    ]);
  });

  it('after a fail-fast stop blames only the failed target', () => {
    const r = result([pending('slow'), failed('bad')], { outcome: 'failed' });
    expect(annotatedTargets(r).map((t) => t.name)).toEqual(['bad']);
  });

  it('without fail-fast, a failed wait ran to the deadline: pending targets are annotated too', () => {
    const r = result([pending('slow'), failed('bad')], { outcome: 'failed', durationSeconds: 300 });
    expect(annotationsFor(r, waitForReady, { failFast: false })).toEqual([
      { title: 'Deployment shop/bad', message: 'Failed after 30.0s: Progress deadline exceeded' },
      { title: 'Deployment shop/slow', message: 'Not ready after 5m00s (InProgress): Ready: 1/3' },
    ]);
    const withError = result([pending('slow')], { outcome: 'failed', error: { input: 'kubeconfig', message: 'forbidden' } });
    expect(annotatedTargets(withError, false)).toEqual([]);
  });

  it('on cancellation annotates what was still pending', () => {
    const r = result([pending('slow')], { outcome: 'timeout', cancelled: true });
    expect(annotationsFor(r, waitForReady)).toEqual([
      { title: 'Deployment shop/slow', message: 'Not ready when the wait was cancelled (InProgress): Ready: 1/3' },
    ]);
  });

  it('phrases the goal of wait-for deleted and conditions', () => {
    const terminating = target({ name: 'old', status: 'Terminating', message: 'Resource scheduled for deletion', done: false });
    const r = result([terminating], { outcome: 'timeout', durationSeconds: 60 });
    expect(annotationsFor(r, { kind: 'deleted' })[0]!.message).toBe('Not deleted after 1m00s (Terminating): Resource scheduled for deletion');
    const current = target({ name: 'web', done: false });
    expect(
      annotationsFor(result([current], { outcome: 'timeout', durationSeconds: 60 }), { kind: 'condition', type: 'Progressing', value: 'False' })[0]!.message,
    ).toBe('Not Progressing=False after 1m00s (Current): Deployment is available. Replicas: 3');
  });

  it('has one annotation naming the input for an input error, before the targets', () => {
    const r = result([failed('x')], { outcome: 'failed', error: { input: 'resources', message: 'type "foo" is ambiguous: foos.a.io, foos.b.io' } });
    const annotations = annotationsFor(r, waitForReady);
    // The title names the input; the message does not say it again.
    expect(annotations[0]).toEqual({ title: 'kubewait: input "resources"', message: 'type "foo" is ambiguous: foos.a.io, foos.b.io' });
    expect(annotations).toHaveLength(2);
  });

  it('stays within the cap, the last annotation naming every target that did not get its own', () => {
    const targets = Array.from({ length: 30 }, (_, i) => failed(`f${i}`));
    const annotations = annotationsFor(result(targets), waitForReady);
    expect(annotations).toHaveLength(MAX_ERROR_ANNOTATIONS);
    expect(annotations.slice(0, -1).map((a) => a.title)).toEqual(targets.slice(0, MAX_ERROR_ANNOTATIONS - 1).map((t) => `Deployment shop/${t.name}`));
    const aggregate = annotations.at(-1)!;
    expect(aggregate.title).toBe(`kubewait: ${30 - (MAX_ERROR_ANNOTATIONS - 1)} more targets failed`);
    for (const t of targets.slice(MAX_ERROR_ANNOTATIONS - 1))
      expect(aggregate.message).toContain(`shop/Deployment/${t.name}: Failed: Progress deadline exceeded`);
    expect(aggregate.message).toContain('job summary');
  });

  it('keeps room for the input error under the cap and says "failed or not ready" for a mix', () => {
    const targets = [...Array.from({ length: 10 }, (_, i) => failed(`f${i}`)), ...Array.from({ length: 5 }, (_, i) => pending(`p${i}`))];
    const annotations = annotationsFor(result(targets, { outcome: 'timeout', error: { input: 'selector', message: 'x' } }), waitForReady);
    expect(annotations).toHaveLength(MAX_ERROR_ANNOTATIONS);
    expect(annotations[0]!.title).toBe('kubewait: input "selector"');
    expect(annotations.at(-1)!.title).toBe(`kubewait: ${15 - (MAX_ERROR_ANNOTATIONS - 2)} more targets failed or not ready`);
  });

  it('names at most 50 targets in the aggregate annotation', () => {
    const targets = Array.from({ length: 100 }, (_, i) => pending(`p${i}`));
    const aggregate = annotationsFor(result(targets, { outcome: 'timeout' }), waitForReady).at(-1)!;
    expect(annotationsFor(result(targets, { outcome: 'timeout' }), waitForReady, { max: 3 })).toHaveLength(3);
    expect(aggregate.message.split('\n').filter((l) => l.startsWith('shop/Deployment/'))).toHaveLength(50);
    expect(aggregate.message).toContain(`... and ${100 - (MAX_ERROR_ANNOTATIONS - 1) - 50} more`);
  });
});

describe('failureMessage', () => {
  it.each([
    { what: 'success', r: result([ready('a')]), message: undefined },
    { what: 'failure', r: result([ready('a'), failed('b')]), message: 'kubewait: 1 of 2 targets failed after 42.4s: shop/Deployment/b' },
    {
      what: 'timeout',
      r: result([pending('a'), ready('b')], { outcome: 'timeout', durationSeconds: 300 }),
      message: 'kubewait: timed out after 5m00s with 1 of 2 targets not ready: shop/Deployment/a',
    },
    {
      what: 'timeout with a failed target (fail-fast off)',
      r: result([failed('a'), pending('b')], { outcome: 'timeout', durationSeconds: 300 }),
      message: 'kubewait: 1 of 2 targets failed after 5m00s: shop/Deployment/a',
    },
    {
      what: 'a failed wait without failed targets',
      r: result([pending('a')], { outcome: 'failed' }),
      message: 'kubewait: failed after 42.4s with 1 of 1 targets not ready: shop/Deployment/a',
    },
    {
      what: 'cancellation',
      r: result([pending('a')], { outcome: 'timeout', cancelled: true }),
      message: 'kubewait: cancelled after 42.4s with 1 of 1 targets not ready',
    },
    {
      what: 'input error',
      r: result([pending('a')], { outcome: 'failed', error: { input: 'resources', message: 'forbidden' } }),
      message: 'kubewait: Input "resources": forbidden',
    },
    {
      what: 'a failed Helm release: its own words, then the objects that broke',
      r: {
        ...result([failed('a'), ready('b')], { outcome: 'failed' }),
        release: { name: 'shop', namespace: 'store', title: 'shop', message: 'Helm release shop revision 3 failed: boom', verdict: 'failed' as const },
      },
      message: 'kubewait: Helm release shop revision 3 failed: boom (after 42.4s); failed: shop/Deployment/a',
    },
    {
      what: 'a Helm release still pending at the deadline',
      r: {
        ...result([pending('a')], { outcome: 'timeout', durationSeconds: 300 }),
        release: { name: 'shop', namespace: 'store', title: 'shop', message: 'Helm release shop revision 2 is pending-upgrade', verdict: 'unsettled' as const },
      },
      message: 'kubewait: Helm release shop revision 2 is pending-upgrade (after 5m00s)',
    },
    {
      what: 'many failures',
      r: result(Array.from({ length: 7 }, (_, i) => failed(`f${i}`))),
      message:
        'kubewait: 7 of 7 targets failed after 42.4s: shop/Deployment/f0, shop/Deployment/f1, shop/Deployment/f2, shop/Deployment/f3, shop/Deployment/f4, and 2 more',
    },
  ])('$what', ({ r, message }) => {
    expect(failureMessage(r, waitForReady)).toBe(message);
  });
});

describe('input error text', () => {
  it('does not repeat the input when the message already names it', () => {
    const r = result([], {
      outcome: 'failed',
      error: { input: 'resources', message: 'Input "resources" has "foo/bar": no such type. Example: deployment/web' },
    });
    expect(annotationsFor(r, waitForReady)).toEqual([
      { title: 'kubewait: input "resources"', message: 'Input "resources" has "foo/bar": no such type. Example: deployment/web' },
    ]);
  });
});
