/** Kubeconfig YAML for the stand-in: CA data (or insecure-skip-tls-verify for plain http), a bearer token
 *  user, one context as current-context. */
import { stringify } from 'yaml';

export interface KubeconfigOptions {
  token?: string;
  namespace?: string;
  context?: string;
}

export function kubeconfigYaml(server: string, caPem: string | undefined, opts: KubeconfigOptions = {}): string {
  const token = opts.token ?? 'admin';
  const context = opts.context ?? 'test';
  const cluster = caPem ? { server, 'certificate-authority-data': Buffer.from(caPem).toString('base64') } : { server, 'insecure-skip-tls-verify': true };
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    preferences: {},
    clusters: [{ name: 'kubewait-test', cluster }],
    users: [{ name: `${token}-user`, user: { token } }],
    contexts: [{ name: context, context: { cluster: 'kubewait-test', user: `${token}-user`, ...(opts.namespace ? { namespace: opts.namespace } : {}) } }],
    'current-context': context,
  });
}
