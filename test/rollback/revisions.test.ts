/**
 * Which revision `rollback` restores and the patch it sends, against kubectl's rollback.go: the second
 * highest revision among the objects the workload controls, "nothing to do" without one or when the
 * template already matches, kubectl's annotation rules, and a guard against a concurrent change.
 */
import { describe, expect, it } from '@jest/globals';
import { controllerRevisionRollback, deploymentRollback, selectorText, type ObjectLike } from '../../src/rollback/revisions.js';

const owner = { uid: 'dep-uid', controller: true };
const template = (image: string, hash?: string) => ({
  metadata: { labels: { app: 'web', ...(hash && { 'pod-template-hash': hash }) } },
  spec: { containers: [{ name: 'web', image }] },
});

const deployment: ObjectLike = {
  metadata: {
    name: 'web',
    uid: 'dep-uid',
    generation: 4,
    annotations: { 'deployment.kubernetes.io/revision': '7', 'kubectl.kubernetes.io/last-applied-configuration': '{}', team: 'shop' },
  },
  spec: { template: template('web:2') },
};

function replicaSet(revision: number, image: string, extra: Partial<ObjectLike['metadata']> = {}): ObjectLike {
  return {
    metadata: {
      name: `web-${revision}`,
      ownerReferences: [owner],
      annotations: { 'deployment.kubernetes.io/revision': String(revision), note: `rs${revision}` },
      ...extra,
    },
    spec: { template: template(image, `h${revision}`) },
  };
}

describe('deploymentRollback', () => {
  it('restores the second highest revision among its own ReplicaSets, as kubectl rollout undo', () => {
    const other = replicaSet(9, 'other:1', { ownerReferences: [{ uid: 'someone-else', controller: true }] });
    const plan = deploymentRollback(deployment, [replicaSet(5, 'web:0'), replicaSet(7, 'web:2'), replicaSet(6, 'web:1'), other]);

    expect(plan).toEqual({
      kind: 'restore',
      from: 7,
      to: 6,
      patch: [
        { op: 'test', path: '/metadata/generation', value: 4 },
        { op: 'replace', path: '/spec/template', value: template('web:1') },
        // kubectl's annotationsToSkip kept from the Deployment, the rest from the ReplicaSet.
        {
          op: 'replace',
          path: '/metadata/annotations',
          value: { 'deployment.kubernetes.io/revision': '7', 'kubectl.kubernetes.io/last-applied-configuration': '{}', note: 'rs6' },
        },
      ],
    });
  });

  it('has nothing to do without a previous revision, or when the template already matches it', () => {
    expect(deploymentRollback(deployment, [replicaSet(7, 'web:2')])).toEqual({ kind: 'unchanged', reason: 'no previous revision to roll back to' });
    expect(deploymentRollback(deployment, [replicaSet(8, 'web:3'), replicaSet(7, 'web:2')])).toEqual({
      kind: 'unchanged',
      reason: 'the current template already matches revision 7',
      from: 8,
      to: 7,
    });
  });

  it('refuses a paused Deployment, as kubectl does', () => {
    const paused = { ...deployment, spec: { ...deployment.spec, paused: true } };
    expect(deploymentRollback(paused, [replicaSet(7, 'web:2'), replicaSet(6, 'web:1')])).toMatchObject({
      kind: 'refused',
      reason: expect.stringMatching(/paused/),
    });
  });
});

describe('controllerRevisionRollback', () => {
  const statefulSet: ObjectLike = { metadata: { name: 'db', uid: 'sts-uid', resourceVersion: '812' }, spec: { template: template('db:2') } };
  const revision = (n: number, image: string) => ({
    metadata: { name: `db-${n}`, ownerReferences: [{ uid: 'sts-uid', controller: true }] },
    revision: n,
    data: { spec: { template: { ...template(image), $patch: 'replace' } } },
  });

  it("sends the previous ControllerRevision's data as it is, with the resourceVersion read", () => {
    expect(controllerRevisionRollback(statefulSet, [revision(3, 'db:2'), revision(2, 'db:1'), revision(1, 'db:0')])).toEqual({
      kind: 'restore',
      from: 3,
      to: 2,
      patch: { spec: { template: { ...template('db:1'), $patch: 'replace' } }, metadata: { resourceVersion: '812' } },
    });
  });

  it('has nothing to do with one revision, or when the current template is the previous one', () => {
    expect(controllerRevisionRollback(statefulSet, [revision(1, 'db:2')])).toMatchObject({ kind: 'unchanged', reason: 'no previous revision to roll back to' });
    expect(controllerRevisionRollback(statefulSet, [revision(4, 'db:3'), revision(3, 'db:2')])).toMatchObject({
      kind: 'unchanged',
      reason: 'the current template already matches revision 3',
    });
  });
});

describe('selectorText', () => {
  it("says a spec.selector as kubectl's selector text", () => {
    expect(
      selectorText({
        matchLabels: { app: 'web' },
        matchExpressions: [
          { key: 'tier', operator: 'In', values: ['a', 'b'] },
          { key: 'canary', operator: 'DoesNotExist' },
        ],
      }),
    ).toBe('app=web,tier in (a,b),!canary');
    expect(selectorText({ matchExpressions: [{ key: 'x', operator: 'Gt' }] })).toBeUndefined();
  });
});
