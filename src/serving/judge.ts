/**
 * Is it serving? A Service is serving when its EndpointSlices hold at least one ready address (and, for a
 * LoadBalancer, when it has its external address); an Ingress when it has its address. Headless and
 * ExternalName Services, and Services without a selector (their endpoints are managed by hand), are
 * exempt. Pulumi's rules (provider/pkg/await/service.go), in plain words that say what is missing. Pure.
 */
type Obj = Record<string, unknown>;
const obj = (value: unknown): Obj => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Obj) : {});
const list = (value: unknown): Obj[] => (Array.isArray(value) ? value.map(obj) : []);
const str = (value: unknown): string => (typeof value === 'string' ? value : '');

export interface ServingVerdict {
  serving: boolean;
  /** What is missing, or what it serves with. */
  message: string;
  /** The ready addresses, sorted: a change starts the settle window again. */
  addresses: string[];
}

/** The Service's own EndpointSlices carry this label (set by the EndpointSlice controller). */
export const SERVICE_NAME_LABEL = 'kubernetes.io/service-name';

export function serviceServing(service: unknown, slices: unknown[]): ServingVerdict {
  const spec = obj(obj(service).spec);
  const type = str(spec.type) || 'ClusterIP';
  if (type === 'ExternalName') return { serving: true, message: 'an ExternalName Service: no endpoints to wait for', addresses: [] };
  if (str(spec.clusterIP) === 'None') return { serving: true, message: 'a headless Service: no endpoints to wait for', addresses: [] };
  if (Object.keys(obj(spec.selector)).length === 0) return { serving: true, message: 'no selector: its endpoints are managed by hand', addresses: [] };
  const endpoints = slices.flatMap((slice) => list(obj(slice).endpoints));
  // `ready` absent means ready (discovery.k8s.io/v1: "nil should be interpreted as ready").
  const ready = endpoints.filter((e) => obj(e.conditions).ready !== false);
  const addresses = ready.flatMap((e) => (Array.isArray(e.addresses) ? e.addresses.map(str) : [])).sort();
  if (ready.length === 0) {
    const message =
      endpoints.length === 0
        ? 'the Service selects no pod: is `spec.selector` right?'
        : `the Service selects ${endpoints.length} ${endpoints.length === 1 ? 'pod' : 'pods'}, none ready: the pods are not ready, or a readiness probe fails`;
    return { serving: false, message, addresses };
  }
  if (type === 'LoadBalancer' && list(obj(obj(obj(service).status).loadBalancer).ingress).length === 0) {
    return { serving: false, message: 'the LoadBalancer was not given an external address yet: does the cluster provide LoadBalancer Services?', addresses };
  }
  return { serving: true, message: `${ready.length} ready ${ready.length === 1 ? 'endpoint' : 'endpoints'}`, addresses };
}

export function ingressServing(ingress: unknown): ServingVerdict {
  const ingresses = list(obj(obj(obj(ingress).status).loadBalancer).ingress);
  if (ingresses.length === 0)
    return { serving: false, message: 'the Ingress has no address yet: is an ingress controller running for its class?', addresses: [] };
  const addresses = ingresses.map((i) => str(i.ip) || str(i.hostname)).sort();
  return { serving: true, message: `address ${addresses.join(', ')}`, addresses };
}
