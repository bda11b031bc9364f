/** The `health-checks` input: inline Flux rule lists, files and globs, Flux Kustomization/HelmRelease documents. */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadHealthChecks } from '../../../src/status/health/load.js';
import { HEALTH_CHECKS_EXAMPLE } from '../../../src/status/health/parse.js';
import { workspaceFiles } from '../../../src/workspace-files.js';

const CERTIFICATE_RULE = `- apiVersion: cert-manager.io/v1
  kind: Certificate
  current: status.conditions.exists(c, c.type == 'Ready' && c.status == 'True')
  failed: status.conditions.exists(c, c.type == 'Ready' && c.status == 'False')
`;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'kubewait-health-'));
  mkdirSync(path.join(dir, 'clusters/prod'), { recursive: true });
  writeFileSync(path.join(dir, 'rules.yaml'), CERTIFICATE_RULE);
  writeFileSync(
    path.join(dir, 'clusters/prod/apps.yaml'),
    `apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata:
  name: apps
  namespace: flux-system
spec:
  interval: 10m
  path: ./apps
  healthCheckExprs:
    - apiVersion: bitnami.com/v1alpha1
      kind: SealedSecret
      failed: status.conditions.filter(e, e.type == 'Synced').all(e, e.status == 'False')
      current: status.conditions.filter(e, e.type == 'Synced').all(e, e.status == 'True')
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: unrelated
---
apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata:
  name: podinfo
spec:
  healthCheckExprs:
    - apiVersion: keda.sh/v1alpha1
      kind: ScaledObject
      current: status.conditions.exists(e, e.type == 'Ready' && e.status == 'True')
`,
  );
  writeFileSync(
    path.join(dir, 'clusters/prod/broken.yaml'),
    `apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata:
  name: infra
spec:
  healthCheckExprs:
    - apiVersion: cert-manager.io/v1
      kind: Issuer
      current: status.conditions.exists(e, e.type == 'Ready' &&)
`,
  );
  writeFileSync(path.join(dir, 'clusters/prod/plain.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('inline rules', () => {
  test('a Flux list: ids, groups, kinds, expressions', async () => {
    const { rules, problems } = await loadHealthChecks(
      `${CERTIFICATE_RULE}- apiVersion: example.com/v1beta1
  inProgress: status.phase == 'Pending'
  current: status.phase == 'Ready'
`,
      workspaceFiles(dir),
    );
    expect(problems).toEqual([]);
    expect(
      rules.map((r) => ({ id: r.id, group: r.group, kind: r.kind, inProgress: r.inProgress?.text, failed: r.failed?.text, current: r.current.text })),
    ).toEqual([
      {
        id: 'health-checks[0]',
        group: 'cert-manager.io',
        kind: 'Certificate',
        inProgress: undefined,
        failed: "status.conditions.exists(c, c.type == 'Ready' && c.status == 'False')",
        current: "status.conditions.exists(c, c.type == 'Ready' && c.status == 'True')",
      },
      {
        id: 'health-checks[1]',
        group: 'example.com',
        kind: undefined,
        inProgress: "status.phase == 'Pending'",
        failed: undefined,
        current: "status.phase == 'Ready'",
      },
    ]);
  });

  test('YAML anchors and aliases work, as in a Flux file', async () => {
    const { rules, problems } = await loadHealthChecks(
      `- apiVersion: external-secrets.io/v1
  kind: SecretStore
  failed: &notReady status.conditions.exists(c, c.type == 'Ready' && c.status == 'False')
  current: &ready status.conditions.exists(c, c.type == 'Ready' && c.status == 'True')
- apiVersion: external-secrets.io/v1
  kind: ClusterSecretStore
  failed: *notReady
  current: *ready
`,
      workspaceFiles(dir),
    );
    expect(problems).toEqual([]);
    expect(rules.map((r) => [r.kind, r.current.text])).toEqual([
      ['SecretStore', "status.conditions.exists(c, c.type == 'Ready' && c.status == 'True')"],
      ['ClusterSecretStore', "status.conditions.exists(c, c.type == 'Ready' && c.status == 'True')"],
    ]);
  });

  test('an empty value is no rules', async () => {
    expect(await loadHealthChecks('  \n', workspaceFiles(dir))).toEqual({ rules: [], problems: [] });
  });

  test.each([
    [
      'a CEL syntax error names the rule, group/kind, expression and position',
      "- apiVersion: cert-manager.io/v1\n  kind: Certificate\n  current: status.conditions.exists(c, c.type == 'Ready' &&& c.status == 'True')\n",
      [
        /rule health-checks\[0\]/,
        /\(line 3\)/,
        /current \(for cert-manager\.io\/Certificate\) is not valid CEL at position 49/,
        /Unexpected character: &/,
        /\n {2}status\.conditions\.exists\(c, c\.type == 'Ready' &&& c\.status == 'True'\)\n {50}\^/,
      ],
    ],
    [
      'current is required',
      '- apiVersion: cert-manager.io/v1\n  kind: Certificate\n  failed: "false"\n',
      [/rule health-checks\[0\]/, /current \(for cert-manager\.io\/Certificate\) is required/],
    ],
    ['apiVersion is required', '- kind: Certificate\n  current: "true"\n', [/apiVersion is required, as GROUP\/VERSION/]],
    ['apiVersion must be GROUP/VERSION', '- apiVersion: cert-manager.io\n  current: "true"\n', [/apiVersion "cert-manager\.io" is not GROUP\/VERSION/]],
    [
      'a wildcard group is for built-ins only',
      '- apiVersion: \'*.crossplane.io/v1\'\n  current: "true"\n',
      [/apiVersion "\*\.crossplane\.io\/v1" is not GROUP\/VERSION/],
    ],
    [
      'an unknown field (a typo) is a problem',
      '- apiVersion: example.com/v1\n  inprogress: "true"\n  current: "true"\n',
      [/unknown field "inprogress"/, /\(line 2\)/],
    ],
    ['an expression must be a string', '- apiVersion: example.com/v1\n  current: true\n', [/current \(for example\.com\) must be a CEL expression string/]],
    [
      'a duplicate (group, kind) names both rules',
      `${CERTIFICATE_RULE}${CERTIFICATE_RULE}`,
      [/two rules for cert-manager\.io\/Certificate: health-checks\[0\] and health-checks\[1\]/],
    ],
    [
      'a duplicate group-only rule',
      '- apiVersion: example.com/v1\n  current: "true"\n- apiVersion: example.com/v2\n  current: "false"\n',
      [/two rules for every kind of example\.com \(no kind\)/],
    ],
    ['invalid YAML', "- apiVersion: example.com/v1\n  current: 'unterminated\n", [/not valid YAML/]],
    ['a flow list that is not a list of mappings', '[1, 2]', [/rule health-checks\[0\] \(line 1\): it is not a mapping/]],
  ])('%s', async (_name, value, messages) => {
    const { problems } = await loadHealthChecks(value, workspaceFiles(dir));
    expect(problems.length).toBeGreaterThan(0);
    const [first] = problems;
    expect(first?.input).toBe('health-checks');
    for (const message of messages) expect(first?.message).toMatch(message);
    expect(first?.message).toMatch(/like:\n- apiVersion: cert-manager\.io\/v1\n {2}kind: Certificate/); // a correct example
  });

  test('the example every problem shows is itself valid input', async () => {
    const example = /like:\n([\s\S]*?)\nor lines/.exec(HEALTH_CHECKS_EXAMPLE)?.[1];
    expect(example).toBeDefined();
    const { rules, problems } = await loadHealthChecks(example ?? '', workspaceFiles(dir));
    expect(problems).toEqual([]);
    expect(rules).toHaveLength(1);
  });

  test('a single mapping (a rule without the dash) is a problem with an example', async () => {
    const { problems } = await loadHealthChecks("apiVersion: example.com/v1\ncurrent: 'true'\n", workspaceFiles(dir));
    expect(problems).toHaveLength(1);
    expect(problems[0]?.message).toMatch(/looks like a single YAML mapping, not a list of rules/);
  });

  test('a failing rule keeps its index, so later ids stay stable', async () => {
    const { rules, problems } = await loadHealthChecks(`- apiVersion: bad\n  current: "true"\n${CERTIFICATE_RULE}`, workspaceFiles(dir));
    expect(problems).toHaveLength(1);
    expect(rules.map((r) => r.id)).toEqual(['health-checks[1]']);
  });
});

describe('files and globs', () => {
  test('a bare list file, then Flux Kustomization and HelmRelease documents, numbered in order', async () => {
    const { rules, problems } = await loadHealthChecks('rules.yaml\nclusters/prod/apps.yaml\n', workspaceFiles(dir));
    expect(problems).toEqual([]);
    expect(rules.map((r) => [r.id, `${r.group}/${r.kind ?? ''}`, r.file, r.line])).toEqual([
      ['health-checks[0]', 'cert-manager.io/Certificate', 'rules.yaml', 1],
      ['health-checks[1]', 'bitnami.com/SealedSecret', 'clusters/prod/apps.yaml', 10],
      ['health-checks[2]', 'keda.sh/ScaledObject', 'clusters/prod/apps.yaml', 26],
    ]);
  });

  test('a CEL error in a Kustomization file gives the file and the line of the expression', async () => {
    const { problems } = await loadHealthChecks('clusters/prod/broken.yaml', workspaceFiles(dir));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ input: 'health-checks', file: 'clusters/prod/broken.yaml', line: 9 });
    expect(problems[0]?.message).toMatch(
      /rule health-checks\[0\] in "clusters\/prod\/broken\.yaml" \(line 9\): current \(for cert-manager\.io\/Issuer\) is not valid CEL/,
    );
  });

  test('a glob matches several files; a file with no rules is a problem', async () => {
    const { rules, problems } = await loadHealthChecks('clusters/prod/*.yaml', workspaceFiles(dir));
    expect(rules.map((r) => r.kind)).toEqual(['SealedSecret', 'ScaledObject']);
    expect(problems.map((p) => p.file)).toEqual(['clusters/prod/broken.yaml', 'clusters/prod/plain.yaml']);
    expect(problems[1]?.message).toMatch(
      /"clusters\/prod\/plain\.yaml", which holds no rule list and no Flux Kustomization or HelmRelease with spec\.healthCheckExprs/,
    );
  });

  test('a path that matches nothing is a problem naming it', async () => {
    const { problems } = await loadHealthChecks('flux/missing.yaml', workspaceFiles(dir));
    expect(problems).toHaveLength(1);
    expect(problems[0]?.message).toMatch(/Input "health-checks" has "flux\/missing\.yaml", which matches no file/);
  });

  test('duplicates across files are found', async () => {
    const { problems } = await loadHealthChecks(`rules.yaml\n${path.join(dir, 'rules.yaml')}`, workspaceFiles(dir));
    expect(problems.map((p) => p.message)).toEqual([
      expect.stringMatching(/two rules for cert-manager\.io\/Certificate: health-checks\[0\] and health-checks\[1\]/),
    ]);
  });
});
