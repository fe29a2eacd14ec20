/**
 * The address a webhook's `service` reference is called at (upstream k8s.io/apiserver
 * pkg/util/proxy/proxy.go ResolveEndpoint and RandomEndpoint, which kube-apiserver uses with
 * --enable-aggregator-routing; cluster IPs do not route from here): the Service (ClusterIP,
 * NodePort or LoadBalancer), its port numbered as the webhook's, then a ready endpoint with that
 * port's name, from the Service's EndpointSlices (label `kubernetes.io/service-name`), else
 * from its Endpoints, picked at random. Errors carry upstream's texts.
 */
import { isRecord } from '../../api/json.js';
import type { ResourceRegistry } from '../../registry/resource-registry.js';
import type { ApiObject } from '../../api/object.js';
import { ApiError } from '../../errors/api-error.js';

/** An endpoint to connect to. */
export interface Endpoint {
  readonly host: string;
  readonly port: number;
}

/** Resolves a Service's port to one endpoint; throws Error with upstream's message. */
export type ServiceResolver = (namespace: string, name: string, port: number) => Promise<Endpoint>;

const pickFrom = <T>(list: readonly T[]): T[] => {
  const start = Math.floor(Math.random() * list.length);
  return list.map((_, i) => list[(start + i) % list.length]!);
};

const records = (v: unknown): Record<string, unknown>[] => (Array.isArray(v) ? v.filter(isRecord) : []);

/** A resolver over the registry's stores (read from the watch caches). */
export function registryServiceResolver(registry: ResourceRegistry): ServiceResolver {
  const read = async (group: string, resource: string, namespace: string, name: string) => {
    const store = registry.lookup(group, 'v1', resource);
    if (!store) return null;
    try {
      return await store.get(namespace, name, '0');
    } catch (err) {
      if (err instanceof ApiError && err.code === 404) return null;
      throw err;
    }
  };
  return async (namespace, name, port) => {
    if (!name || !namespace || !port) throw new Error('cannot resolve an empty service name or namespace or port');
    const svc = await read('', 'services', namespace, name);
    if (!svc) throw new Error(`service ${JSON.stringify(name)} not found`);
    const spec = isRecord(svc.spec) ? svc.spec : {};
    const type = typeof spec.type === 'string' ? spec.type : 'ClusterIP';
    if (!['ClusterIP', 'NodePort', 'LoadBalancer'].includes(type))
      throw new Error(`unsupported service type ${JSON.stringify(type)}`);
    const svcPort = records(spec.ports).find((p) => p.port === port);
    if (!svcPort) throw new Error(`no service port ${port} found for service ${JSON.stringify(name)}`);
    const portName = typeof svcPort.name === 'string' ? svcPort.name : '';
    const slices = registry.lookup('discovery.k8s.io', 'v1', 'endpointslices');
    const own = (s: ApiObject) => s.metadata.labels?.['kubernetes.io/service-name'] === name;
    const found =
      fromSlices(slices ? (await slices.items(namespace)).filter(own) : [], portName) ??
      fromEndpoints(await read('', 'endpoints', namespace, name), portName);
    if (!found) throw new Error(`no endpoints available for service ${JSON.stringify(name)}`);
    return found;
  };
}

/** A ready endpoint of the slices with a port named `portName` (RandomEndpoint). */
function fromSlices(slices: readonly ApiObject[], portName: string): Endpoint | null {
  for (const slice of pickFrom(slices)) {
    const s: Record<string, unknown> = slice;
    const p = records(s.ports).find((x) => (typeof x.name === 'string' ? x.name : '') === portName);
    if (!p || typeof p.port !== 'number') continue;
    for (const ep of pickFrom(records(s.endpoints))) {
      const conditions = isRecord(ep.conditions) ? ep.conditions : {};
      if (conditions.ready === false) continue;
      const address = Array.isArray(ep.addresses) ? ep.addresses[0] : undefined;
      if (typeof address === 'string') return { host: address, port: p.port };
    }
  }
  return null;
}

/** A ready address of the Endpoints' subsets with a port named `portName`. */
function fromEndpoints(endpoints: ApiObject | null, portName: string): Endpoint | null {
  const e: Record<string, unknown> | null = endpoints;
  const subsets = e ? records(e.subsets) : [];
  for (const subset of pickFrom(subsets)) {
    const p = records(subset.ports).find((x) => (typeof x.name === 'string' ? x.name : '') === portName);
    const addresses = records(subset.addresses).filter((a) => typeof a.ip === 'string');
    if (!p || typeof p.port !== 'number' || !addresses.length) continue;
    return { host: String(pickFrom(addresses)[0]!.ip), port: p.port };
  }
  return null;
}
