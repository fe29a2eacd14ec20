/**
 * NamespaceLifecycle admission (upstream plugin/pkg/admission/namespace/lifecycle): creating a
 * namespaced object needs its namespace to exist (404 otherwise) and not be Terminating (403).
 * As upstream reads its namespace informer first and storage only when the namespace is not
 * there yet, the namespace is read from the watch cache (resourceVersion "0"), and from storage
 * when the cache does not hold it (a namespace created a moment ago on another replica).
 */
import type { ApiObject } from '../api/object.js';
import { ApiError, forbidden, notFound } from '../errors/api-error.js';
import type { GenericStore } from '../registry/generic-store.js';
import type { StoreHooks } from '../registry/hooks.js';
import type { ResourceRegistry } from '../registry/resource-registry.js';
import { namespaces as namespacesResource } from '../resources/namespaces/namespaces.resource.js';
import type { Namespace } from '../resources/namespaces/namespaces.schema.js';

/** The create-time check for objects of a namespaced `store`. */
export function namespaceLifecycle(registry: ResourceRegistry, store: GenericStore): StoreHooks {
  return {
    async beforeCreate(obj: ApiObject) {
      const ns = obj.metadata.namespace ?? '';
      const namespaces = registry.of(namespacesResource);
      let namespace: Namespace;
      try {
        namespace = await namespaces.get('', ns, '0').catch((err) => {
          if (err instanceof ApiError && err.code === 404) return namespaces.get('', ns);
          throw err;
        });
      } catch (err) {
        throw err instanceof ApiError && err.code === 404 ? notFound('namespaces', ns) : err;
      }
      if (namespace.status?.phase === 'Terminating') {
        throw forbidden(
          store.def.plural,
          obj.metadata.name ?? '',
          `unable to create new content in namespace ${ns} because it is being terminated`,
          store.def.group,
        );
      }
    },
  };
}
