/**
 * Builders and a fake client for the Endpoints controller's unit tests, after upstream's
 * endpoints_controller_test.go testPod / addPods / addNotReadyPodsWithSpecifiedRestartPolicyAndPhase
 * and its fake Endpoints handler (which records the writes and counts them).
 */
import type { Endpoints } from '../../resources/endpoints/endpoints.schema.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import type { Service } from '../../resources/services/services.schema.js';
import type { EndpointsClient } from './sync.js';

/** IP families of a test pod, as upstream's ipv4only / ipv6only / ipv4ipv6 / ipv6ipv4. */
export type Families = readonly ('IPv4' | 'IPv6')[];

/**
 * Upstream testPod: `pod<id>` labelled foo=bar, resourceVersion `<id>`, Ready or not, one
 * container with `nPorts` ports `port<j>` = 8080+j, IPs 1.2.3.<4+id> / 2000::<4+id>.
 */
export function testPod(
  namespace: string,
  id: number,
  nPorts: number,
  isReady: boolean,
  families: Families = ['IPv4'],
): Pod {
  const podIPs = families.map((f) => ({ ip: f === 'IPv4' ? `1.2.3.${4 + id}` : `2000::${4 + id}` }));
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { namespace, name: `pod${id}`, labels: { foo: 'bar' }, resourceVersion: String(id) },
    spec: {
      containers: [
        { name: 'c', ports: Array.from({ length: nPorts }, (_, j) => ({ name: `port${j}`, containerPort: 8080 + j })) },
      ],
    },
    status: {
      conditions: [{ type: 'Ready', status: isReady ? 'True' : 'False' }],
      podIPs,
      podIP: podIPs[0]?.ip,
    },
  };
}

/** Upstream addPods: `nPods` ready pods then `nNotReady` not-ready ones. */
export function makePods(
  namespace: string,
  nPods: number,
  nPorts: number,
  nNotReady: number,
  families: Families = ['IPv4'],
): Pod[] {
  return Array.from({ length: nPods + nNotReady }, (_, i) => testPod(namespace, i, nPorts, i < nPods, families));
}

/** Upstream addNotReadyPodsWithSpecifiedRestartPolicyAndPhase. */
export function notReadyPodsInPhase(
  namespace: string,
  nPods: number,
  nPorts: number,
  restartPolicy: string,
  phase: string,
): Pod[] {
  return Array.from({ length: nPods }, (_, i) => {
    const pod = testPod(namespace, i, nPorts, false);
    return {
      ...pod,
      spec: { ...pod.spec!, restartPolicy },
      status: { ...pod.status, phase, podIPs: undefined, podIP: `1.2.3.${4 + i}` },
    } as Pod;
  });
}

/** A Service `name` in `namespace` with `spec` (and `labels`). */
export function service(
  namespace: string,
  name: string,
  spec: Service['spec'],
  labels?: Record<string, string>,
): Service {
  return { apiVersion: 'v1', kind: 'Service', metadata: { namespace, name, ...(labels ? { labels } : {}) }, spec };
}

/** An Endpoints `foo` at resourceVersion 1 with `subsets` (and `meta`). */
export function existingEndpoints(
  namespace: string,
  subsets: Endpoints['subsets'],
  meta: Partial<Endpoints['metadata']> = {},
): Endpoints {
  return {
    apiVersion: 'v1',
    kind: 'Endpoints',
    metadata: { name: 'foo', namespace, resourceVersion: '1', ...meta },
    subsets,
  };
}

/** A write the fake recorded. */
export interface Request {
  readonly verb: 'create' | 'update' | 'delete';
  readonly namespace: string;
  readonly name: string;
  readonly body?: Endpoints;
}

/** The informer stores and the fake API of upstream's tests. */
export class FakeEndpointsClient implements EndpointsClient {
  readonly services: Service[] = [];
  pods: Pod[] = [];
  readonly endpoints = new Map<string, Endpoints>();
  readonly requests: Request[] = [];

  async getService(ns: string, name: string) {
    return this.services.find((s) => s.metadata.namespace === ns && s.metadata.name === name);
  }
  async listPods(ns: string) {
    return this.pods.filter((p) => p.metadata.namespace === ns);
  }
  async getEndpoints(ns: string, name: string) {
    return this.endpoints.get(`${ns}/${name}`);
  }
  async createEndpoints(ns: string, body: Endpoints) {
    this.requests.push({ verb: 'create', namespace: ns, name: body.metadata.name ?? '', body });
    this.endpoints.set(`${ns}/${body.metadata.name}`, {
      ...body,
      metadata: { ...body.metadata, resourceVersion: '100' },
    });
  }
  async updateEndpoints(ns: string, body: Endpoints) {
    this.requests.push({ verb: 'update', namespace: ns, name: body.metadata.name ?? '', body });
    this.endpoints.set(`${ns}/${body.metadata.name}`, body);
  }
  async deleteEndpoints(ns: string, name: string) {
    this.requests.push({ verb: 'delete', namespace: ns, name });
    this.endpoints.delete(`${ns}/${name}`);
  }
}
