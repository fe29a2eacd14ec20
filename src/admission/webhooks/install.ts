/**
 * Installs the admission webhook plugins on every store, those served at run time (custom
 * resources) included, with what they read: the configurations, the namespaces' labels (watch
 * cache first, then storage, as upstream's lister then client), every served row (matchPolicy
 * Equivalent) and Services' endpoints.
 */
import type { Logger } from 'pino';
import { errorMessage } from '../../api/error-message.js';
import { ApiError } from '../../errors/api-error.js';
import type { ResourceRegistry } from '../../registry/resource-registry.js';
import { IGNORE_MATCH_CONDITIONS, type MatchConditionEvaluator } from './match-conditions.js';
import type { DispatchDeps } from './mutating.js';
import { webhookAdmission, type ReadyWebhookSource } from './plugin.js';
import type { NamespaceLabels } from './selectors.js';
import { registryServiceResolver } from './service-resolver.js';

export { WebhookConfigSource } from './config-source.js';

/** The labels of a namespace from the registry. Throws ApiError 404 when it does not exist. */
function namespaceLabels(registry: ResourceRegistry): NamespaceLabels {
  return async (name) => {
    const namespaces = registry.core('namespaces');
    try {
      return (await namespaces.get('', name, '0')).metadata.labels ?? {};
    } catch (err) {
      if (!(err instanceof ApiError && err.code === 404)) throw err;
      return (await namespaces.get('', name)).metadata.labels ?? {};
    }
  };
}

/** Install the webhook plugins on every store of `registry`, reading `source`. */
export function installWebhookAdmission(
  registry: ResourceRegistry,
  source: ReadyWebhookSource,
  logger?: Logger,
  conditions: MatchConditionEvaluator = IGNORE_MATCH_CONDITIONS,
): void {
  const deps: DispatchDeps = {
    namespaceLabels: namespaceLabels(registry),
    rows: () => registry.definitions,
    conditions,
    resolve: registryServiceResolver(registry),
    onFailOpen: (webhook, err) =>
      logger?.warn({ webhook, err: errorMessage(err) }, 'Failed calling webhook, failing open'),
  };
  for (const store of registry.all()) store.addAdmission(webhookAdmission(store.def, source, deps));
  registry.onStoreCreated((store) => store.addAdmission(webhookAdmission(store.def, source, deps)));
}
