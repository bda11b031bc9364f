/**
 * Where each cluster of `clusters` finds its kubeconfig: the step's own, an environment variable's content,
 * or files read as $KUBECONFIG is (relative to the workspace, several merged); and its context and namespace.
 */
import { describe, expect, it } from '@jest/globals';
import path from 'node:path';
import { clusterConnection } from '../../src/fleet/index.js';
import { parseSettings } from '../../src/inputs.js';
import { InputError, type ClusterSpec } from '../../src/settings.js';

const settings = parseSettings((name) => ({ resources: 'deployment/web', kubeconfig: 'STEP-KUBECONFIG', namespace: 'shop', clusters: 'a' })[name] ?? '');
const sources = { env: { KUBECONFIG_EU: '  apiVersion: v1\n', HOME: '/home/ci' }, home: '/home/ci', serviceAccountDir: '/var/run/secrets' };
const spec = (fields: Partial<ClusterSpec>): ClusterSpec => ({ name: 'eu', context: '', kubeconfig: '', namespace: '', ...fields });

describe('clusterConnection', () => {
  it('uses the step`s kubeconfig and namespace by default, with the cluster`s context, and no clusters of its own', () => {
    const { settings: own, kubeconfigSources } = clusterConnection(settings, spec({ context: 'eu-1' }), sources, '/work');
    expect(own).toMatchObject({ kubeconfig: 'STEP-KUBECONFIG', context: 'eu-1', namespace: 'shop', clusters: [] });
    expect(kubeconfigSources).toBe(sources);
  });

  it('waits for the cluster`s own resources instead of the step`s, with the step`s selector', () => {
    const own = clusterConnection(settings, spec({ resources: [{ type: 'statefulset', name: 'db' }] }), sources, '/work').settings;
    expect(own).toMatchObject({ resources: [{ type: 'statefulset', name: 'db' }], selector: settings.selector });
    expect(clusterConnection(settings, spec({}), sources, '/work').settings.resources).toEqual([{ type: 'deployment', name: 'web' }]);
  });

  it('reads the content of an upper-case environment variable, and the cluster`s namespace', () => {
    const { settings: own } = clusterConnection(settings, spec({ kubeconfig: 'KUBECONFIG_EU', namespace: 'shop-eu' }), sources, '/work');
    expect(own).toMatchObject({ kubeconfig: 'apiVersion: v1', namespace: 'shop-eu' });
  });

  it('names the cluster`s entry when its environment variable is unset', () => {
    const act = () => clusterConnection(settings, spec({ kubeconfig: 'KUBECONFIG_US' }), sources, '/work');
    expect(act).toThrow(InputError);
    expect(act).toThrow(/environment variable KUBECONFIG_US, which is empty or unset.*env: KUBECONFIG_US: \$\{\{ secrets.KUBECONFIG_US \}\}/);
  });

  it('reads files as $KUBECONFIG, relative to the workspace, several merged', () => {
    const { settings: own, kubeconfigSources } = clusterConnection(
      settings,
      spec({ kubeconfig: `fleet/a.yaml${path.delimiter}/etc/b.yaml` }),
      sources,
      '/work',
    );
    expect(own.kubeconfig).toBe('');
    expect(kubeconfigSources.env.KUBECONFIG).toBe(['/work/fleet/a.yaml', '/etc/b.yaml'].join(path.delimiter));
    expect(kubeconfigSources.env.HOME).toBe('/home/ci');
  });
});
