/**
 * The EndpointSlice controller's reads and writes on this server's stores: Services, pods and
 * Nodes from the watch cache (resourceVersion '0'); the Service's slices read fresh (upstream
 * guards its informer with an EndpointSliceTracker; a fresh read cannot miss the slices just
 * written, so no slice is created twice); writes through the store (admission runs) as
 * `system:serviceaccount:kube-system:endpointslice-controller`, field manager
 * `kube-controller-manager`. `onWrite` hears of each slice written or deleted, so the
 * controller can tell its own changes from others' in the watch.
 */
import { deleteObject } from '../../registry/deletion.js';
import type { GenericStore } from '../../registry/generic-store.js';
import { buildPredicate } from '../../registry/predicate.js';
import type { EndpointSlice } from '../../resources/endpointslices/endpointslices.schema.js';
import type { Node } from '../../resources/nodes/nodes.schema.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import type { Service } from '../../resources/services/services.schema.js';
import { CONTROLLER_FIELD_MANAGER, controllerUser } from '../controller-user.js';
import { orUndefined } from '../endpoints/registry-client.js';
import { SERVICE_NAME_LABEL } from './endpoint.js';
import type { SliceClient } from './reconciler.js';
import { CONTROLLER_NAME, MANAGED_BY_LABEL } from './slice.js';

/** The service account the controller writes as (upstream's `endpointslice-controller`). */
export const ENDPOINTSLICE_CONTROLLER_USER = controllerUser('endpointslice-controller');

/** Every read and write of one sync. */
export interface EndpointSliceClient extends SliceClient {
  getService(namespace: string, name: string): Promise<Service | undefined>;
  listPods(namespace: string): Promise<Pod[]>;
  /** The slices this controller manages for Service `name`, not being deleted. */
  listSlices(namespace: string, name: string): Promise<EndpointSlice[]>;
}

/** An EndpointSliceClient over the stores; `onWrite(slice, deleted)` hears of each write. */
export function registrySliceClient(
  stores: {
    services: GenericStore<Service>;
    pods: GenericStore<Pod>;
    nodes: GenericStore<Node>;
    slices: GenericStore<EndpointSlice>;
  },
  onWrite: (namespace: string, name: string, resourceVersion: string | undefined) => void = () => {},
): EndpointSliceClient {
  const { services, pods, nodes, slices } = stores;
  const user = ENDPOINTSLICE_CONTROLLER_USER;
  const write = { user, fieldManager: CONTROLLER_FIELD_MANAGER };
  const noted = (ns: string, s: EndpointSlice) => onWrite(ns, s.metadata.name ?? '', s.metadata.resourceVersion ?? '');
  return {
    getService: (ns, name) => orUndefined(services.get(ns, name, '0')),
    listPods: async (ns) => (await pods.list(ns, { predicate: buildPredicate(pods.def), resourceVersion: '0' })).items,
    getNode: (name) => orUndefined(nodes.get('', name, '0')),
    async listSlices(ns, name) {
      const selector = `${SERVICE_NAME_LABEL}=${name},${MANAGED_BY_LABEL}=${CONTROLLER_NAME}`;
      const list = await slices.list(ns, { predicate: buildPredicate(slices.def, selector) });
      return list.items.filter((s) => !s.metadata.deletionTimestamp);
    },
    async createSlice(ns, slice) {
      noted(ns, await slices.create(ns, slice, write));
    },
    async updateSlice(ns, slice) {
      noted(ns, await slices.update(ns, slice.metadata.name ?? '', () => slice, undefined, write));
    },
    async deleteSlice(ns, name) {
      onWrite(ns, name, undefined);
      await orUndefined(deleteObject(slices, ns, name, { user }));
    },
  };
}
