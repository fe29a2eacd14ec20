/**
 * The Endpoints controller's reads and writes on this server's stores (upstream's listers and
 * clientset calls): Services and pods from the watch cache (resourceVersion '0'), the
 * Endpoints read fresh (upstream compensates a stale informer with its staleEndpointsTracker;
 * a fresh read needs none), writes through the store (admission runs) as the controller's
 * service account `system:serviceaccount:kube-system:endpoint-controller`, field manager
 * `kube-controller-manager`.
 */
import { ApiError } from '../../errors/api-error.js';
import { deleteObject } from '../../registry/deletion.js';
import type { GenericStore } from '../../registry/generic-store.js';
import { buildPredicate } from '../../registry/predicate.js';
import type { Endpoints } from '../../resources/endpoints/endpoints.schema.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import type { Service } from '../../resources/services/services.schema.js';
import { CONTROLLER_FIELD_MANAGER, controllerUser } from '../controller-user.js';
import type { EndpointsClient } from './sync.js';

/** The service account the controller writes as (upstream's `endpoint-controller`). */
export const ENDPOINT_CONTROLLER_USER = controllerUser('endpoint-controller');

/** undefined for a 404, the value otherwise. */
export async function orUndefined<T>(read: Promise<T>): Promise<T | undefined> {
  try {
    return await read;
  } catch (err) {
    if (err instanceof ApiError && err.code === 404) return undefined;
    throw err;
  }
}

/** An EndpointsClient over the stores of Services, pods and Endpoints. */
export function registryEndpointsClient(
  services: GenericStore<Service>,
  pods: GenericStore<Pod>,
  endpoints: GenericStore<Endpoints>,
): EndpointsClient {
  const user = ENDPOINT_CONTROLLER_USER;
  const write = { user, fieldManager: CONTROLLER_FIELD_MANAGER };
  return {
    getService: (ns, name) => orUndefined(services.get(ns, name, '0')),
    listPods: async (ns) => (await pods.list(ns, { predicate: buildPredicate(pods.def), resourceVersion: '0' })).items,
    getEndpoints: (ns, name) => orUndefined(endpoints.get(ns, name)),
    async createEndpoints(ns, body) {
      await endpoints.create(ns, body, write);
    },
    async updateEndpoints(ns, body) {
      await endpoints.update(ns, body.metadata.name ?? '', () => body, undefined, write);
    },
    async deleteEndpoints(ns, name) {
      await orUndefined(deleteObject(endpoints, ns, name, { user }));
    },
  };
}
