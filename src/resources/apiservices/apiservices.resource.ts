/**
 * APIService (k8s.io/kube-aggregator pkg/registry/apiservice): one storage
 * (apiregistration.k8s.io/v1, upstream's storage version) served as apiregistration.k8s.io v1
 * and v1beta1 and as the spec's apiregistration.ck.io/v1beta1; the same fields at every version
 * (a conversion changes only the apiVersion; a service's port defaults to 443 at both).
 * Cluster-scoped, category `api-extensions`, `/status`. Create clears the status and marks a
 * local APIService (no service) Available; an update keeps the status; `/status` writes only
 * the status. Stored and validated only: nothing is proxied to the services. The local
 * APIServices of the server's own group versions are registered by
 * controllers/apiservice-registration.ts (upstream's autoregister controller).
 */
import { validatePathSegmentName } from '../../api/names.js';
import { rfc3339 } from '../../api/object.js';
import { invalid } from '../../errors/api-error.js';
import type { ResourceDefinition, Strategy, SubresourceDefinition } from '../../registry/types.js';
import { defineResource, keepStatusOnUpdate, mergeMetaForSubresource } from '../define.js';
import { apiServiceMessages } from './apiservices.protobuf.js';
import { apiServiceSchema, type APIService } from './apiservices.schema.js';
import { apiServicePrinter } from './apiservices.table.js';
import { validateApiService, validateApiServiceStatus } from './apiservices.validation.js';

const STORAGE = 'apiregistration.k8s.io/v1';

/** SetDefaults_ServiceReference. */
function defaults(obj: APIService): void {
  const service = obj.spec?.service;
  if (service) service.port ??= 443;
}

/** The condition of a local APIService (no service): always available (upstream's local availability controller). */
export const LOCAL_AVAILABLE = {
  type: 'Available',
  status: 'True',
  reason: 'Local',
  message: 'Local APIServices are always available',
} as const;

const strategy: Strategy<APIService> = {
  defaults,
  prepareForCreate(obj) {
    obj.status = {};
    if (!obj.spec?.service) obj.status.conditions = [{ ...LOCAL_AVAILABLE, lastTransitionTime: rfc3339() }];
  },
  prepareForUpdate: keepStatusOnUpdate.prepareForUpdate,
  validate: validateApiService,
  validateUpdate: validateApiService,
};

/** `/status` (apiServerStatusStrategy): only the status, checked by ValidateAPIServiceStatus. */
const status: SubresourceDefinition<APIService> = {
  name: 'status',
  kind: 'APIService',
  verbs: ['get', 'patch', 'update'],
  merge(requested: APIService, old) {
    const obj: APIService = {
      ...old,
      metadata: mergeMetaForSubresource(requested, old),
      status: requested.status,
    };
    const errs = validateApiServiceStatus(obj);
    if (errs.length) throw invalid('APIService', old.metadata.name ?? '', errs, 'apiregistration.k8s.io');
    return obj;
  },
};

/** apiregistration.k8s.io/v1: the storage version. */
export const apiServices = defineResource({
  group: 'apiregistration.k8s.io',
  version: 'v1',
  kind: 'APIService',
  description:
    'APIService represents a server for a particular GroupVersion: where it is served (locally or by a service) and its priority.',
  plural: 'apiservices',
  namespaced: false,
  categories: ['api-extensions'],
  schema: apiServiceSchema,
  printer: apiServicePrinter,
  protobuf: apiServiceMessages(STORAGE),
  subresources: [status],
  strategy,
  validateName: validatePathSegmentName,
});

/** A v1beta1 row of `group` over the v1 storage. */
function v1beta1Row(group: string): ResourceDefinition<APIService> {
  return {
    ...apiServices,
    group,
    version: 'v1beta1',
    protobuf: apiServiceMessages(`${group}/v1beta1`),
    conversion: {
      defaults,
      toStorage: (obj) => ({ ...obj, apiVersion: STORAGE }),
      fromStorage: (obj) => ({ ...obj, apiVersion: `${group}/v1beta1` }),
    },
  };
}

export const apiServicesV1beta1 = v1beta1Row('apiregistration.k8s.io');
export const apiServicesCkV1beta1 = v1beta1Row('apiregistration.ck.io');
