import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseSettings } from '../../src/inputs.js';
import { dedupe, targetsFromInputs, type TargetSpec } from '../../src/targets/index.js';
import { parseResourceRef, targetsFromRefs } from '../../src/targets/refs.js';

describe('targetsFromInputs', () => {
  let workspace: string;
  beforeAll(() => {
    workspace = mkdtempSync(path.join(tmpdir(), 'kubewait-targets-'));
    writeFileSync(
      path.join(workspace, 'app.yaml'),
      'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n---\napiVersion: batch/v1\nkind: Job\nmetadata:\n  name: migrate\n  namespace: db\n',
    );
  });
  afterAll(() => rmSync(workspace, { recursive: true, force: true }));

  const targetsFor = (inputs: Record<string, string>) =>
    targetsFromInputs(
      parseSettings((name) => inputs[name] ?? ''),
      { cwd: workspace },
    );

  it.each<[string, Record<string, string>, object[]]>([
    [
      'named refs, with and without namespace',
      { resources: 'deploy/web\nshop/sts/db' },
      [
        { type: 'deploy', name: 'web' },
        { type: 'sts', namespace: 'shop', name: 'db' },
      ],
    ],
    [
      'a bare type filtered by the selector, next to a named ref',
      { resources: 'deployments, svc/web', selector: 'app=web' },
      [
        { type: 'deployments', selector: 'app=web' },
        { type: 'svc', name: 'web' },
      ],
    ],
    ['a bare type without selector: every object of the type', { resources: 'crd' }, [{ type: 'crd' }]],
    [
      'a selector alone: every workload kind, bare pods only',
      { selector: 'app in (web,api)' },
      [
        { type: 'deployments.apps', selector: 'app in (web,api)' },
        { type: 'statefulsets.apps', selector: 'app in (web,api)' },
        { type: 'daemonsets.apps', selector: 'app in (web,api)' },
        { type: 'jobs.batch', selector: 'app in (web,api)' },
        { type: 'pods', selector: 'app in (web,api)', ownerless: true },
        { type: 'persistentvolumeclaims', selector: 'app in (web,api)' },
        { type: 'services', selector: 'app in (web,api)' },
      ],
    ],
    [
      'manifests next to refs, each with its source',
      { resources: 'deploy/web', manifests: 'app.yaml' },
      [
        { type: 'deploy', name: 'web' },
        { type: 'Deployment', apiVersion: 'apps/v1', name: 'web', source: { kind: 'file', file: 'app.yaml', line: 1 } },
        { type: 'Job', apiVersion: 'batch/v1', name: 'migrate', namespace: 'db', source: { kind: 'file', file: 'app.yaml', line: 6 } },
      ],
    ],
    ['the same ref twice counts once', { resources: 'deploy/web\ndeploy/web,Deploy/web' }, [{ type: 'deploy', name: 'web' }]],
    [
      'a manifest listed twice counts once',
      { manifests: 'app.yaml\n*.yaml' },
      [
        { type: 'Deployment', apiVersion: 'apps/v1', name: 'web', source: { kind: 'file', file: 'app.yaml', line: 1 } },
        { type: 'Job', apiVersion: 'batch/v1', name: 'migrate', namespace: 'db', source: { kind: 'file', file: 'app.yaml', line: 6 } },
      ],
    ],
  ])('%s', async (_case, inputs, expected) => {
    expect(await targetsFor(inputs)).toEqual(expected);
  });
});

describe('targetsFromRefs', () => {
  it('makes a named ref its own target, and a bare type a selector target', () => {
    const parsed = ['shop/deploy/web', 'deploy/api', 'statefulsets'].map((entry) => parseResourceRef(entry));
    const refs = parsed.map((p) => (p.ok ? p.value : { type: 'never' }));
    const targets = targetsFromRefs(refs, 'app=web');
    expect(targets).toEqual([
      { type: 'deploy', namespace: 'shop', name: 'web' },
      { type: 'deploy', name: 'api' },
      { type: 'statefulsets', selector: 'app=web' },
    ]);
    expect(targets[0]).toBe(refs[0]);
    expect(targetsFromRefs(refs, '')[2]).toEqual({ type: 'statefulsets' });
  });
});

describe('dedupe', () => {
  it('keeps targets that differ in any field, and the first of identical ones', () => {
    const first: TargetSpec = { type: 'Deployment', apiVersion: 'apps/v1', name: 'web', source: { kind: 'file', file: 'a.yaml', line: 1 } };
    const again: TargetSpec = { ...first, source: { kind: 'file', file: 'b.yaml', line: 9 } };
    const otherNamespace = { ...first, namespace: 'shop' };
    const bare = { type: 'pods', selector: 'app=web' };
    const bareOwnerless = { ...bare, ownerless: true };
    expect(dedupe([first, again, otherNamespace, bare, bareOwnerless, bare])).toEqual([first, otherNamespace, bare, bareOwnerless]);
  });
});
