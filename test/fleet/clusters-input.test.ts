/**
 * The `clusters` and `cluster-policy` inputs through the action's own parser (parseSettings): both shapes,
 * the command's `--context a,b`, and a clear error naming the input, with an example, for each mistake.
 */
import { describe, expect, it } from '@jest/globals';
import { inputErrorFrom, settingsFrom } from '../inputs/parse.js';

const target = { resources: 'deployment/web' };

describe('clusters: good inputs', () => {
  it('is empty without clusters or several contexts: the one-cluster path', () => {
    expect(settingsFrom({ ...target, context: 'kind-ci' })).toMatchObject({ clusters: [], clusterPolicy: 'all', context: 'kind-ci' });
  });

  it('reads a YAML list, each field optional but the name', () => {
    const clusters = settingsFrom({
      ...target,
      clusters: [
        '- name: eu-west',
        '  kubeconfig: KUBECONFIG_EU',
        '  namespace: shop',
        '- name: us-east',
        '  context: us-east-1',
        '  kubeconfig: ./us.yaml',
      ].join('\n'),
    }).clusters;
    expect(clusters).toEqual([
      { name: 'eu-west', context: '', kubeconfig: 'KUBECONFIG_EU', namespace: 'shop' },
      { name: 'us-east', context: 'us-east-1', kubeconfig: './us.yaml', namespace: '' },
    ]);
  });

  it.each([
    ['a comma list', { clusters: 'eu-west, us-east' }],
    ['a flow list', { clusters: '[eu-west, us-east]' }],
    ['a block list of names', { clusters: '- eu-west\n- us-east' }],
    ['several contexts (the command: --context eu-west,us-east)', { context: 'eu-west,us-east' }],
  ])('reads contexts of the one kubeconfig from %s, each cluster named after its context', (_shape, inputs) => {
    expect(settingsFrom({ ...target, ...inputs }).clusters).toEqual([
      { name: 'eu-west', context: 'eu-west', kubeconfig: '', namespace: '' },
      { name: 'us-east', context: 'us-east', kubeconfig: '', namespace: '' },
    ]);
  });

  it('reads cluster-policy any', () => {
    expect(settingsFrom({ ...target, clusters: 'a,b', 'cluster-policy': 'any' }).clusterPolicy).toBe('any');
  });
});

describe('clusters: bad inputs', () => {
  it.each([
    ['not YAML', { clusters: '- name: [eu' }, /not valid YAML/],
    ['a mapping', { clusters: 'name: eu-west' }, /holds no list of clusters/],
    ['an entry without a name', { clusters: '- context: eu-west' }, /entry 1 has no name/],
    ['an unknown field', { clusters: '- name: eu\n  contxt: eu-west' }, /entry 1 has "contxt": expected only name, context, kubeconfig, namespace/],
    ['a name twice', { clusters: 'eu-west, eu-west' }, /names cluster "eu-west" twice/],
    ['a name with a space', { clusters: '- name: eu west' }, /cluster named "eu west"/],
    ['a bad namespace', { clusters: '- name: eu\n  namespace: Shop_1' }, /namespace "Shop_1"/],
    ['a field that is no text', { clusters: '- name: eu\n  context: [a, b]' }, /context that is not text/],
    ['both clusters and context', { clusters: 'eu-west', context: 'prod' }, /Inputs "clusters" and "context" are both set/],
  ])('names the input and shows an example for %s', (_case, inputs, message) => {
    const problem = inputErrorFrom({ ...target, ...inputs });
    expect(problem.input).toBe('clusters');
    expect(problem.message).toMatch(message);
    expect(problem.message).toContain('- name: eu-west');
  });

  it('names cluster-policy with its choices', () => {
    const problem = inputErrorFrom({ ...target, clusters: 'a', 'cluster-policy': 'some' });
    expect(problem.input).toBe('cluster-policy');
    expect(problem.message).toMatch(/expected all .* or any .*, like cluster-policy: all/);
  });
});
