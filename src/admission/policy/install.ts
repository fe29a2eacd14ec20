/**
 * Installs the ValidatingAdmissionPolicy plugin on every store, those served at run time
 * (custom resources) included, with what it reads: the policies, the namespaces (watch cache
 * first, then storage, as upstream's lister then client), every served row (matchPolicy
 * Equivalent) and the server's authorizer (`authorizer` in expressions), built after admission
 * is installed and so read through a getter.
 */
import type { CelAuthorizer } from '../../api/cel/admission/index.js';
import type { ApiObject } from '../../api/object.js';
import { ApiError } from '../../errors/api-error.js';
import type { ResourceRegistry } from '../../registry/resource-registry.js';
import type { PolicyDispatchDeps } from './dispatcher.js';
import { policyAdmission } from './plugin.js';
import type { PolicySource } from './source.js';

export { ValidatingPolicySource } from './source.js';

/** A namespace from the watch cache, else from storage. Throws ApiError 404 when it does not exist. */
function namespaceReader(registry: ResourceRegistry): (name: string) => Promise<ApiObject> {
  return async (name) => {
    const namespaces = registry.core('namespaces');
    try {
      return await namespaces.get('', name, '0');
    } catch (err) {
      if (!(err instanceof ApiError && err.code === 404)) throw err;
      return namespaces.get('', name);
    }
  };
}

/** Install the plugin on every store of `registry`, reading `source`; `authorizer` is the server's once built. */
export function installPolicyAdmission(
  registry: ResourceRegistry,
  source: PolicySource,
  authorizer: () => CelAuthorizer | undefined = () => undefined,
): void {
  const namespaceOf = namespaceReader(registry);
  const deps: PolicyDispatchDeps = {
    namespaceLabels: async (name) => (await namespaceOf(name)).metadata.labels ?? {},
    namespaceOf,
    rows: () => registry.definitions,
    authorizer,
  };
  for (const store of registry.all()) store.addAdmission(policyAdmission(store.def, source, deps));
  registry.onStoreCreated((store) => store.addAdmission(policyAdmission(store.def, source, deps)));
}
