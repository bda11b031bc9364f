/**
 * A cluster's own `resources` in the `clusters` input (and the command's `--clusters`): the syntax of the
 * `resources` input, as a YAML list or as text, replacing the step's `resources` in that cluster; each
 * cluster checked for something to wait for; a clear error naming the input and the entry otherwise.
 */
import { describe, expect, it } from '@jest/globals';
import { checkSomethingToWaitFor, parseCommandLine, settingsFrom as commandSettings } from '../../src/cli/flags.js';
import { inputErrorFrom, settingsFrom } from './parse.js';

const euWith = (resources: string) => `- name: eu-west\n  resources: ${resources}\n- name: us-east`;

describe('clusters: resources of a cluster', () => {
  it.each([
    ['a flow list', '[deployment/api, shop/statefulset/db]'],
    ['a block list', '\n    - deployment/api\n    - shop/statefulset/db'],
    ['text, as the resources input takes it', 'deployment/api, shop/statefulset/db'],
    ['a list of texts', '["deployment/api, shop/statefulset/db"]'],
  ])('reads %s, and leaves the other clusters without resources of their own', (_shape, resources) => {
    const settings = settingsFrom({ resources: 'deployment/web', clusters: euWith(resources) });

    expect(settings.clusters).toEqual([
      {
        name: 'eu-west',
        context: '',
        kubeconfig: '',
        namespace: '',
        resources: [
          { type: 'deployment', name: 'api' },
          { type: 'statefulset', namespace: 'shop', name: 'db' },
        ],
      },
      { name: 'us-east', context: '', kubeconfig: '', namespace: '' },
    ]);
    expect(settings.resources).toEqual([{ type: 'deployment', name: 'web' }]); // the step's, for us-east
  });

  it('needs no step-wide resources when every cluster names its own', () => {
    const settings = settingsFrom({ clusters: '- name: eu-west\n  resources: deployment/api\n- name: us-east\n  resources: [deployment/web]' });

    expect(settings.resources).toEqual([]);
    expect(settings.clusters.map((cluster) => cluster.resources)).toEqual([[{ type: 'deployment', name: 'api' }], [{ type: 'deployment', name: 'web' }]]);
  });

  it('takes empty resources where the step`s selector gives the cluster something to wait for (it stands alone there)', () => {
    const settings = settingsFrom({ selector: 'app=web', clusters: '- name: eu-west\n  resources: []\n- name: us-east\n  resources: [deployments]' });

    expect(settings.clusters.map((cluster) => cluster.resources)).toEqual([[], [{ type: 'deployments' }]]);
  });

  it('still asks the step for targets when a cluster waits for the step`s', () => {
    const problem = inputErrorFrom({ clusters: euWith('[deployment/api]') });

    expect(problem.input).toBe('resources');
    expect(problem.message).toMatch(/nothing to wait for/);
  });

  it.each([
    ['an entry that is no TYPE/NAME', euWith('[deployment/api, deploy web]'), /cluster "eu-west" with resources entry "deploy web": it contains a space/],
    ['a bad type', euWith('deploy!/web'), /cluster "eu-west" with resources entry "deploy!\/web": "deploy!" is not a resource type/],
    ['a mapping', euWith('{deployment: web}'), /cluster "eu-west" with resources that are neither a list of TYPE\/NAME nor text/],
    ['a list of mappings', euWith('[{name: web}]'), /cluster "eu-west" with resources that are neither a list of TYPE\/NAME nor text/],
  ])('names the input, the cluster and a correct example for %s', (_case, clusters, message) => {
    const problem = inputErrorFrom({ resources: 'deployment/web', clusters });

    expect(problem.input).toBe('clusters');
    expect(problem.message).toMatch(message);
    expect(problem.message).toContain('- name: eu-west\n      resources: [deployment/web, shop/deployment/api]');
    expect(problem.message).toContain('replace the step\'s "resources"');
  });

  it('names the cluster whose empty resources leave it nothing to wait for', () => {
    const problem = inputErrorFrom({ resources: 'deployment/web', clusters: euWith('[]') });

    expect(problem.input).toBe('clusters');
    expect(problem.message).toMatch(
      /^Input "clusters" has cluster "eu-west" with empty resources, .*nothing to wait for there\. .*like resources: \[deployment\/web\]/,
    );
  });

  it('names the cluster whose resources leave the step`s selector unused there', () => {
    const problem = inputErrorFrom({ resources: 'deployments', selector: 'app=web', clusters: euWith('[deployment/api]') });

    expect(problem.input).toBe('clusters');
    expect(problem.message).toMatch(
      /cluster "eu-west" whose resources replace the step's .* the "selector" "app=web" is not used there: .*like resources: \[deployments\]/,
    );
  });
});

describe('the command: --clusters with resources of each cluster', () => {
  it('needs no TYPE/NAME arguments, and reads the same YAML as the action', () => {
    const line = parseCommandLine(['--clusters', '- name: eu-west\n  resources: [deployment/api]\n- name: us-east\n  resources: deployment/web']);

    expect(() => checkSomethingToWaitFor(line)).not.toThrow();
    expect(commandSettings(line).clusters.map((cluster) => [cluster.name, cluster.resources])).toEqual([
      ['eu-west', [{ type: 'deployment', name: 'api' }]],
      ['us-east', [{ type: 'deployment', name: 'web' }]],
    ]);
  });
});
