/**
 * Builders and a fake client for the EndpointSlice controller's unit tests, after upstream's
 * utils_test.go newPod / newServiceAndEndpointMeta / newEmptyEndpointSlice and the fake
 * clientset (a create names a slice from its generateName and sets generation 1; an update
 * bumps the generation).
 */
import type { EndpointSlice } from '../../resources/endpointslices/endpointslices.schema.js';
import type { Node } from '../../resources/nodes/nodes.schema.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import type { Service } from '../../resources/services/services.schema.js';
import { reconcileSlices, type SliceClient } from './reconciler.js';
import { newEndpointSlice, type EndpointMeta } from './slice.js';

/** Upstream newPod: `pod<n>` on node-1 with IP 1.2.3.<4+n>, Ready or not, terminating or not. */
export function newPod(n: number, namespace: string, ready: boolean, nPorts: number, terminating: boolean): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      namespace,
      name: `pod${n}`,
      labels: { foo: 'bar' },
      resourceVersion: String(n),
      ...(terminating ? { deletionTimestamp: new Date().toISOString() } : {}),
    },
    spec: {
      containers: [
        {
          name: 'container-1',
          image: 'x',
          ports: Array.from({ length: nPorts }, (_, j) => ({ name: `port${j}`, containerPort: 8080 + j })),
        },
      ],
      nodeName: 'node-1',
    },
    status: {
      podIP: `1.2.3.${4 + n}`,
      podIPs: [{ ip: `1.2.3.${4 + n}` }],
      conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }],
    },
  };
}

/** Upstream newServiceAndEndpointMeta's Service: port `name` to 80/TCP, selector foo=bar, IPv4, uid `<ns>-<name>`. */
export function newService(name: string, namespace: string): Service {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace, uid: `${namespace}-${name}` },
    spec: {
      ports: [{ name, port: 80, targetPort: 80, protocol: 'TCP' }],
      selector: { foo: 'bar' },
      ipFamilies: ['IPv4'],
    },
  };
}

/** The endpointMeta of {@link newService}. */
export const endpointMetaOf = (name: string): EndpointMeta => ({
  ports: [{ name, port: 80, protocol: 'TCP' }],
  addressType: 'IPv4',
});

/** Upstream newEmptyEndpointSlice: `<service>-<n>` owned by `svc`, no endpoints. */
export function newEmptyEndpointSlice(
  n: number,
  svc: Service,
  meta: EndpointMeta = endpointMetaOf(svc.metadata.name ?? ''),
): EndpointSlice {
  const slice = newEndpointSlice(svc, meta);
  const { generateName: _g, ...metadata } = slice.metadata;
  return { ...slice, metadata: { ...metadata, name: `${svc.metadata.name}-${n}`, resourceVersion: '1' } };
}

/** The fake API: slices by name, nodes, and the actions taken. */
export class FakeSliceClient implements SliceClient {
  readonly slices = new Map<string, EndpointSlice>();
  readonly nodes = new Map<string, Node>([['node-1', { metadata: { name: 'node-1' } }]]);
  readonly actions: { verb: 'create' | 'update' | 'delete'; name: string }[] = [];
  private next = 0;

  async getNode(name: string) {
    return this.nodes.get(name);
  }
  async createSlice(_ns: string, slice: EndpointSlice) {
    const name = `${slice.metadata.generateName ?? ''}${(this.next++).toString(36).padStart(5, 'x')}`;
    const { generateName: _g, ...metadata } = slice.metadata;
    this.slices.set(
      name,
      structuredClone({ ...slice, metadata: { ...metadata, name, generation: 1, resourceVersion: '1' } }),
    );
    this.actions.push({ verb: 'create', name });
  }
  async updateSlice(_ns: string, slice: EndpointSlice) {
    const name = slice.metadata.name ?? '';
    const generation = (this.slices.get(name)?.metadata.generation ?? 0) + 1;
    this.slices.set(name, structuredClone({ ...slice, metadata: { ...slice.metadata, generation } }));
    this.actions.push({ verb: 'update', name });
  }
  async deleteSlice(_ns: string, name: string) {
    this.slices.delete(name);
    this.actions.push({ verb: 'delete', name });
  }
  /** The stored slices. */
  all(): EndpointSlice[] {
    return [...this.slices.values()];
  }
  verbs(): string[] {
    return this.actions.map((a) => a.verb);
  }
}

/** The endpoint counts of `slices`, ascending (upstream expectUnorderedSlicesWithLengths). */
export const lengths = (slices: EndpointSlice[]): number[] =>
  slices.map((s) => s.endpoints?.length ?? 0).sort((a, b) => a - b);

/** `n` pods of {@link newPod}, every third not ready (upstream's loops). */
export const podsOf = (n: number, namespace = 'test'): Pod[] =>
  Array.from({ length: n }, (_, i) => newPod(i, namespace, i % 3 !== 0, 1, false));

/** Run the reconciler as upstream's reconcileHelper does (trigger time now). */
export async function reconcile(
  c: FakeSliceClient,
  svc: Service,
  pods: Pod[],
  existing: EndpointSlice[] = [],
  max = 100,
) {
  await reconcileSlices(svc, pods, existing, Date.now(), c, max);
}

/** Store `slices` in the fake (upstream createEndpointSlices). */
export function seed(c: FakeSliceClient, slices: EndpointSlice[]): void {
  for (const s of slices) c.slices.set(s.metadata.name ?? '', structuredClone(s));
}
