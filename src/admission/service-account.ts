/**
 * ServiceAccount admission (upstream plugin/pkg/admission/serviceaccount/admission.go, 1.10):
 * a new pod runs as `default` unless it names a service account, the account must exist
 * (403 `error looking up service account NS/NAME: serviceaccount "NAME" not found`), and a pod
 * without image pull secrets gets the account's. Mirror pods may not reference accounts.
 * No token volume is mounted: no node agent runs against this server to mount it.
 *
 * The account is read from the watch cache, then from storage; `default` is retried for up to
 * ten attempts 100-200 ms apart, as upstream, because the service-account controller creates
 * it a moment after its namespace appears.
 */
import { MIRROR_POD_ANNOTATION } from '../api/core/validation/pod-spec.js';
import { ApiError, forbidden } from '../errors/api-error.js';
import type { StoreHooks } from '../registry/hooks.js';
import type { ResourceRegistry } from '../registry/resource-registry.js';
import type { Pod } from '../resources/pods/pods.schema.js';
import { pods as podsResource } from '../resources/pods/pods.resource.js';
import { serviceAccounts } from '../resources/serviceaccounts/serviceaccounts.resource.js';
import type { ServiceAccount } from '../resources/serviceaccounts/serviceaccounts.schema.js';

export const DEFAULT_SERVICE_ACCOUNT = 'default';
/** Upstream's annotation of pods a node agent created from a file. */

/** Install the plugin on the pod store (create only, not subresources). */
export function installServiceAccountAdmission(
  registry: ResourceRegistry,
  retryDelayMs = () => 100 + Math.random() * 100,
): void {
  const pods = registry.of(podsResource);
  const accounts = registry.of(serviceAccounts);
  const lookup = async (ns: string, name: string): Promise<ServiceAccount> => {
    const attempts = name === DEFAULT_SERVICE_ACCOUNT ? 10 : 1;
    const cached = await accounts.get(ns, name, '0').catch(() => null);
    if (cached) return cached;
    for (let i = 0; ; i++) {
      try {
        return await accounts.get(ns, name);
      } catch (err) {
        if (!(err instanceof ApiError && err.code === 404) || i + 1 >= attempts) throw err;
      }
      await new Promise((r) => setTimeout(r, retryDelayMs()));
    }
  };
  const plugin: StoreHooks<Pod> = {
    async mutate(pod, old, attrs) {
      if (old || attrs.subresource || !pod.spec) return;
      const spec = pod.spec;
      const name = pod.metadata.name ?? pod.metadata.generateName ?? '';
      const refuse = (message: string) => forbidden(pods.def.plural, name, message, pods.def.group);
      if (pod.metadata.annotations?.[MIRROR_POD_ANNOTATION] !== undefined) {
        if (spec.serviceAccountName) throw refuse('a mirror pod may not reference service accounts');
        return;
      }
      spec.serviceAccountName ||= DEFAULT_SERVICE_ACCOUNT;
      spec.serviceAccount = spec.serviceAccountName;
      const ns = pod.metadata.namespace ?? '';
      let account: ServiceAccount;
      try {
        account = await lookup(ns, spec.serviceAccountName);
      } catch (err) {
        if (err instanceof ApiError && err.code === 404) {
          throw refuse(
            `error looking up service account ${ns}/${spec.serviceAccountName}: serviceaccount "${spec.serviceAccountName}" not found`,
          );
        }
        throw err;
      }
      const secrets = account.imagePullSecrets ?? [];
      if (!spec.imagePullSecrets?.length && secrets.length)
        spec.imagePullSecrets = secrets.map((s) => ({ name: s.name }));
    },
  };
  pods.addAdmission(plugin);
}
