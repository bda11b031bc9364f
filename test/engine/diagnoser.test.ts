/** Which pending workload a pod or a warning event belongs to (pure), for pod diagnosis. */
import { describe, expect, it } from '@jest/globals';
import { eventSubject, ownerOf } from '../../src/engine/diagnoser.js';
import type { DiagnosisSubject, PodLike } from '../../src/engine/group.js';
import { parseSelector } from '../../src/engine/labels.js';

function subject(kind: string, name: string, selector: string): DiagnosisSubject {
  const matches = parseSelector(selector);
  return { kind, name, pendingSince: 0, ownsPod: (pod: PodLike) => matches(pod.metadata?.labels ?? {}), apply: () => {} };
}

const web = subject('Deployment', 'web-app', 'app=web');
const db = subject('StatefulSet', 'db', 'app=db');
const migrate = subject('Job', 'migrate', 'job-name=migrate');
const bare = subject('Pod', 'debug', 'run=debug');
const byOwner = new Map([web, db, migrate, bare].map((s) => [`${s.kind}/${s.name}`, s]));

function pod(name: string, labels: Record<string, string>, owner?: { kind: string; name: string }) {
  return { metadata: { name, labels, ...(owner ? { ownerReferences: [{ ...owner, controller: true }] } : {}) } };
}

describe('ownerOf', () => {
  it.each([
    ['a Deployment pod through its ReplicaSet', pod('web-app-7d9c5-x', { app: 'web' }, { kind: 'ReplicaSet', name: 'web-app-7d9c5' }), web],
    ['a StatefulSet pod', pod('db-0', { app: 'db' }, { kind: 'StatefulSet', name: 'db' }), db],
    ['a Job pod', pod('migrate-abc', { 'job-name': 'migrate' }, { kind: 'Job', name: 'migrate' }), migrate],
    ['a bare pod target', pod('debug', { run: 'debug' }), bare],
    ['a pod of another ReplicaSet', pod('api-5f-x', { app: 'api' }, { kind: 'ReplicaSet', name: 'api-5f' }), undefined],
    ['an owned pod whose labels do not match the selector', pod('web-app-1-x', { app: 'other' }, { kind: 'ReplicaSet', name: 'web-app-1' }), undefined],
  ])('%s', (_name, p, expected) => {
    expect(ownerOf(p, byOwner)).toBe(expected);
  });
});

describe('eventSubject', () => {
  const podOwner = new Map([['web-app-7d9c5-x', web]]);
  it.each([
    ['an event on a pod of the workload', { kind: 'Pod', name: 'web-app-7d9c5-x' }, web],
    ['an event on the workload itself', { kind: 'StatefulSet', name: 'db' }, db],
    ["an event on the Deployment's ReplicaSet (FailedCreate)", { kind: 'ReplicaSet', name: 'web-app-7d9c5' }, web],
    ['an event on a bare pod target', { kind: 'Pod', name: 'debug' }, bare],
    ['an event on something else', { kind: 'Pod', name: 'unrelated' }, undefined],
  ])('%s', (_name, involvedObject, expected) => {
    expect(eventSubject({ involvedObject }, byOwner, podOwner)).toBe(expected);
  });
});
