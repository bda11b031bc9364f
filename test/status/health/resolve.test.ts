/** Which rule judges an object: group match, kind beats group-only, user beats built-in, exact beats wildcard. */
import { describe, expect, test } from '@jest/globals';
import { parseRuleText } from '../../../src/status/health/parse.js';
import { resolveRules } from '../../../src/status/health/resolve.js';
import { builtinRules } from '../../../src/status/health/builtin.js';

const user = parseRuleText(
  `- apiVersion: cert-manager.io/v1
  kind: Certificate
  current: "true"
- apiVersion: example.com/v1
  current: "true"
- apiVersion: example.com/v1beta1
  kind: Widget
  current: "true"
- apiVersion: s3.aws.upbound.io/v1beta1
  kind: Bucket
  current: "true"
- apiVersion: keda.sh/v1alpha1
  current: "true"
`,
  { firstIndex: 0 },
).rules;

describe('resolveRules', () => {
  const withBuiltins = resolveRules({ user, builtin: true });
  const userOnly = resolveRules({ user, builtin: false });
  const builtinOnly = resolveRules({ user: [], builtin: true });

  test.each([
    ['a user rule beats the built-in rule for the same group/kind', withBuiltins, 'cert-manager.io/v1', 'Certificate', 'health-checks[0]'],
    ['the version is ignored', withBuiltins, 'cert-manager.io/v1alpha2', 'Certificate', 'health-checks[0]'],
    ['other kinds of the group fall through to the built-ins', withBuiltins, 'cert-manager.io/v1', 'Issuer', 'builtin:cert-manager-issuer'],
    ['a kind rule beats a group-only rule', withBuiltins, 'example.com/v1', 'Widget', 'health-checks[2]'],
    ['a group-only rule takes every other kind of its group', withBuiltins, 'example.com/v2', 'Gadget', 'health-checks[1]'],
    ['a user group-only rule beats a built-in kind rule', withBuiltins, 'keda.sh/v1alpha1', 'ScaledObject', 'health-checks[4]'],
    ['a user kind rule beats a built-in wildcard', withBuiltins, 's3.aws.upbound.io/v1beta2', 'Bucket', 'health-checks[3]'],
    ['the wildcard takes the other kinds of a matching group', withBuiltins, 'rds.aws.upbound.io/v1beta1', 'Instance', 'builtin:upbound'],
    ['a wildcard needs the dot: upbound.io.example.com is not matched', builtinOnly, 'upbound.io.example.com/v1', 'Thing', undefined],
    ['groups are not case-folded or prefix-matched', builtinOnly, 'cert-manager.io.evil/v1', 'Certificate', undefined],
    ['no rule: kstatus judges', withBuiltins, 'apps/v1', 'Deployment', undefined],
    ['the core group has no rule', withBuiltins, 'v1', 'Service', undefined],
    ['builtin-health-checks: false leaves only user rules', userOnly, 'cert-manager.io/v1', 'Issuer', undefined],
    ['a built-in kind rule', builtinOnly, 'cert-manager.io/v1', 'Certificate', 'builtin:cert-manager-certificate'],
    ['a built-in wildcard for a crossplane provider group', builtinOnly, 'ec2.aws.crossplane.io/v1beta1', 'VPC', 'builtin:crossplane'],
  ])('%s', (_name, resolved, apiVersion, kind, id) => {
    expect(resolved.ruleFor(apiVersion, kind)?.id).toBe(id);
    expect(resolved.ruleFor(apiVersion, kind)?.id).toBe(id); // cached answers are the same
  });
});

test('every built-in rule is for a group with a dot, so resolving parses them only for such groups', () => {
  expect(builtinRules().filter((rule) => !rule.group.includes('.'))).toEqual([]);
});

test('a user rule for a group without a dot (apps) still judges', () => {
  const apps = parseRuleText('- apiVersion: apps/v1\n  kind: Deployment\n  current: "true"\n', { firstIndex: 0 }).rules;
  expect(resolveRules({ user: apps, builtin: true }).ruleFor('apps/v1', 'Deployment')?.id).toBe('health-checks[0]');
});
