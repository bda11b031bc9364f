import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { InputError } from '../../src/settings.js';
import { targetsFromManifests, targetsFromManifestText } from '../../src/targets/manifests.js';
import type { TargetSpec } from '../../src/targets/types.js';

function inputError(action: () => unknown): InputError {
  try {
    action();
  } catch (error) {
    if (error instanceof InputError) return error;
    throw error;
  }
  throw new Error('no InputError');
}

async function inputErrorAsync(action: () => Promise<unknown>): Promise<InputError> {
  try {
    await action();
  } catch (error) {
    if (error instanceof InputError) return error;
    throw error;
  }
  throw new Error('no InputError');
}

const deployment = (name: string, namespace?: string) =>
  `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: ${name}\n${namespace ? `  namespace: ${namespace}\n` : ''}spec:\n  replicas: 1\n`;

describe('targetsFromManifestText', () => {
  it('reads every document of a multi-document file with the line each object starts on', () => {
    const text = [
      '# the web tier',
      '---',
      deployment('web', 'shop'),
      '---',
      '',
      '---',
      '# only a comment',
      '---',
      'apiVersion: v1',
      'kind: Service',
      'metadata:',
      '  name: web',
    ].join('\n');
    expect(targetsFromManifestText(text, { kind: 'file', file: 'k8s/web.yaml' })).toEqual([
      { type: 'Deployment', apiVersion: 'apps/v1', name: 'web', namespace: 'shop', source: { kind: 'file', file: 'k8s/web.yaml', line: 3 } },
      { type: 'Service', apiVersion: 'v1', name: 'web', source: { kind: 'file', file: 'k8s/web.yaml', line: 16 } },
    ]);
  });

  it('keeps the namespace undefined when the manifest sets none (the engine defaults it)', () => {
    const [target] = targetsFromManifestText(deployment('web'), { kind: 'file', file: 'a.yaml' });
    expect(target).not.toHaveProperty('namespace');
  });

  it('reads JSON, tab-indented as editors write it', () => {
    const text = '{\n\t"apiVersion": "batch/v1",\n\t"kind": "Job",\n\t"metadata": {"name": "migrate", "namespace": "db"}\n}\n';
    expect(targetsFromManifestText(text, { kind: 'file', file: 'job.json' })).toEqual([
      { type: 'Job', apiVersion: 'batch/v1', name: 'migrate', namespace: 'db', source: { kind: 'file', file: 'job.json', line: 1 } },
    ]);
  });

  it('reads the items of a List, each with its own line', () => {
    const text = [
      'apiVersion: v1',
      'kind: List',
      'items:',
      '- apiVersion: apps/v1',
      '  kind: Deployment',
      '  metadata: {name: a}',
      '- apiVersion: v1',
      '  kind: ConfigMap',
      '  metadata:',
      '    name: b',
      '    namespace: x',
    ].join('\n');
    expect(targetsFromManifestText(text, { kind: 'file', file: 'list.yaml' })).toEqual([
      { type: 'Deployment', apiVersion: 'apps/v1', name: 'a', source: { kind: 'file', file: 'list.yaml', line: 4 } },
      { type: 'ConfigMap', apiVersion: 'v1', name: 'b', namespace: 'x', source: { kind: 'file', file: 'list.yaml', line: 7 } },
    ]);
  });

  it('takes kind and apiVersion of typed list items from the list (as the API returns them)', () => {
    const text = JSON.stringify({ apiVersion: 'apps/v1', kind: 'DeploymentList', items: [{ metadata: { name: 'a' } }, { metadata: { name: 'b' } }] }, null, 2);
    expect(targetsFromManifestText(text, { kind: 'file', file: 'deployments.json' }).map((t) => [t.type, t.apiVersion, t.name, t.source?.line])).toEqual([
      ['Deployment', 'apps/v1', 'a', 5],
      ['Deployment', 'apps/v1', 'b', 10],
    ]);
  });

  it('says which type a CustomResourceDefinition defines, so its objects wait for it to be served', () => {
    const text = [
      'apiVersion: apiextensions.k8s.io/v1',
      'kind: CustomResourceDefinition',
      'metadata: {name: sprockets.example.org}',
      'spec: {group: example.org, names: {kind: Sprocket, plural: sprockets, singular: sprocket, shortNames: [spr]}}',
    ].join('\n');
    const [target] = targetsFromManifestText(text, { kind: 'file', file: 'crds.yaml' });
    expect(target?.defines).toEqual({ group: 'example.org', names: ['sprocket', 'sprockets', 'spr'] });
  });

  it('returns nothing for an empty file', () => {
    expect(targetsFromManifestText('', { kind: 'file', file: 'empty.yaml' })).toEqual([]);
    expect(targetsFromManifestText('---\n---\n', { kind: 'file', file: 'empty.yaml' })).toEqual([]);
  });

  it.each<[string, string, string, number]>([
    [
      'no kind',
      'apiVersion: v1\nmetadata:\n  name: a\n',
      'Input "manifests" has "bad.yaml" line 1, which is not a Kubernetes object: it has no kind. Each document needs apiVersion, kind and metadata.name, like "apiVersion: apps/v1", "kind: Deployment", "metadata: {name: web}".',
      1,
    ],
    [
      'no apiVersion, second document',
      `${deployment('ok')}---\nkind: Deployment\nmetadata:\n  name: a\n`,
      'Input "manifests" has "bad.yaml" line 8, which is not a Kubernetes object: it has no apiVersion. Each document needs apiVersion, kind and metadata.name, like "apiVersion: apps/v1", "kind: Deployment", "metadata: {name: web}".',
      8,
    ],
    [
      'no name',
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {}\n',
      'Input "manifests" has "bad.yaml" line 1, which is not a Kubernetes object: it has no metadata.name. Each document needs apiVersion, kind and metadata.name, like "apiVersion: apps/v1", "kind: Deployment", "metadata: {name: web}".',
      1,
    ],
    [
      'generateName only',
      'apiVersion: batch/v1\nkind: Job\nmetadata:\n  generateName: run-\n',
      'Input "manifests" has "bad.yaml" line 1, which is not a Kubernetes object: it has only metadata.generateName, so its name is not known before it is created. Each document needs apiVersion, kind and metadata.name, like "apiVersion: apps/v1", "kind: Deployment", "metadata: {name: web}".',
      1,
    ],
    [
      'a scalar',
      'just some text\n',
      'Input "manifests" has "bad.yaml" line 1, which is not a Kubernetes object: it is not a mapping. Each document needs apiVersion, kind and metadata.name, like "apiVersion: apps/v1", "kind: Deployment", "metadata: {name: web}".',
      1,
    ],
    [
      'a list item without a name',
      'apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Secret\n  metadata: {name: a}\n- apiVersion: v1\n  kind: Secret\n',
      'Input "manifests" has "bad.yaml" line 7, which is not a Kubernetes object: it has no metadata.name. Each document needs apiVersion, kind and metadata.name, like "apiVersion: apps/v1", "kind: Deployment", "metadata: {name: web}".',
      7,
    ],
    [
      'invalid YAML',
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n   labels: x\n',
      'Input "manifests" has "bad.yaml", which is not valid YAML or JSON at line 4: Nested mappings are not allowed in compact mappings.',
      4,
    ],
    [
      'a duplicate key',
      'apiVersion: v1\nkind: ConfigMap\nkind: Secret\nmetadata: {name: a}\n',
      'Input "manifests" has "bad.yaml", which is not valid YAML or JSON at line 3: Map keys must be unique.',
      3,
    ],
    [
      'an unclosed flow mapping at the end of the file (pointed at the last line)',
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a\n',
      'Input "manifests" has "bad.yaml", which is not valid YAML or JSON at line 3: Flow map in block collection must be sufficiently indented and end with a }.',
      3,
    ],
    [
      'broken JSON',
      '{\n  "apiVersion": "v1",\n  "kind": "ConfigMap"\n  "metadata": {}\n}\n',
      'Input "manifests" has "bad.yaml", which is not valid YAML or JSON at line 4: Missing , between flow map items.',
      4,
    ],
  ])('%s is an input error naming the file and line', (_case, text, message, line) => {
    const error = inputError(() => targetsFromManifestText(text, { kind: 'file', file: 'bad.yaml' }));
    expect(error.input).toBe('manifests');
    expect(error.message).toBe(message);
    expect(error.source).toEqual({ file: 'bad.yaml', line });
  });
});

describe('targetsFromManifestText: names and namespaces are checked like those in resources', () => {
  it.each([
    ['a name with a path in it', '../x', undefined, /^Input "manifests" has "k8s\/app.yaml" line 8: "\.\.\/x" is not a valid object name/],
    ['a namespace with capitals', 'web', 'Shop', /^Input "manifests" has "k8s\/app.yaml" line 8: "Shop" is not a valid namespace/],
    ['a name with a slash', 'a/b', undefined, /^Input "manifests" has "k8s\/app.yaml" line 8: "a\/b" is not a valid object name/],
  ])('%s is an input error on its file and line', (_case, name, namespace, message) => {
    const text = `${deployment('ok')}---\n${deployment(name, namespace)}`;
    const error = inputError(() => targetsFromManifestText(text, { kind: 'file', file: 'k8s/app.yaml' }));
    expect(error.input).toBe('manifests');
    expect(error.message).toMatch(message);
    // The second document starts on line 8.
    expect(error.source).toEqual({ file: 'k8s/app.yaml', line: 8 });
  });
});

describe('targetsFromManifests (files)', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'kubewait-manifests-'));
    mkdirSync(path.join(dir, 'k8s/extra'), { recursive: true });
    writeFileSync(path.join(dir, 'k8s/b.yaml'), deployment('b'));
    writeFileSync(path.join(dir, 'k8s/a.yml'), deployment('a'));
    writeFileSync(path.join(dir, 'k8s/c.json'), JSON.stringify({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'c' } }));
    writeFileSync(path.join(dir, 'k8s/README.md'), '# not a manifest\n');
    writeFileSync(path.join(dir, 'k8s/extra/d.yaml'), deployment('d'));
    // A file that exists but fails to read, for any user (root reads a chmod 000 file): EIO.
    symlinkSync('/proc/self/mem', path.join(dir, 'unreadable.yaml'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const names = (targets: TargetSpec[]) => targets.map((t) => `${t.source?.kind === 'file' ? t.source.file : ''}:${t.name}`);

  it('expands globs relative to the workspace, in a stable order, with workspace-relative file names', async () => {
    expect(names(await targetsFromManifests(['k8s/*.y*ml'], dir))).toEqual(['k8s/a.yml:a', 'k8s/b.yaml:b']);
    expect(names(await targetsFromManifests(['k8s/**/*.yaml'], dir))).toEqual(['k8s/b.yaml:b', 'k8s/extra/d.yaml:d']);
  });

  it('reads the manifest files of a directory, not its other files nor subdirectories', async () => {
    expect(names(await targetsFromManifests(['k8s'], dir))).toEqual(['k8s/a.yml:a', 'k8s/b.yaml:b', 'k8s/c.json:c']);
  });

  it('honours exclusions and lists a file matched twice once', async () => {
    expect(names(await targetsFromManifests(['k8s/*.yaml', 'k8s/b.yaml', 'k8s/*.*', '!k8s/c.json', '!k8s/README.md', 'k8s/a.yml'], dir))).toEqual([
      'k8s/a.yml:a',
      'k8s/b.yaml:b',
    ]);
  });

  it('takes absolute paths as they are', async () => {
    expect(names(await targetsFromManifests([path.join(dir, 'k8s/b.yaml')], '/'))).toEqual([`${path.join(dir, 'k8s/b.yaml').slice(1)}:b`]);
  });

  it('is an input error when the files hold no object at all, never a wait for nothing', async () => {
    writeFileSync(path.join(dir, 'empty.yaml'), '---\n# only a comment\n---\n');
    const error = await inputErrorAsync(() => targetsFromManifests(['empty.yaml'], dir));
    expect(error.message).toBe(
      'Input "manifests" yields nothing to wait for: "empty.yaml" holds no Kubernetes object (only empty documents). Expected files with at least one object, like k8s/*.yaml holding a Deployment.',
    );
  });

  it('is an input error when a pattern matches no file', async () => {
    const error = await inputErrorAsync(() => targetsFromManifests(['k8s/*.yaml', 'deploy/*.yaml'], dir));
    expect(error.input).toBe('manifests');
    expect(error.message).toBe(
      'Input "manifests" has "deploy/*.yaml", which matches no manifest file. Expected paths or globs of YAML or JSON files, like k8s/*.yaml or deploy/app.json.',
    );
  });

  it('is an input error when a file cannot be read', async () => {
    const error = await inputErrorAsync(() => targetsFromManifests(['unreadable.yaml'], dir));
    expect(error.message).toBe('Input "manifests" has "unreadable.yaml", which cannot be read (EIO). Expected readable YAML or JSON files, like k8s/*.yaml.');
    expect(error.source).toEqual({ file: 'unreadable.yaml' });
  });
});
