/**
 * ReplicaSet: stored as apps/v1 under `replicasets` (upstream's storage version today), and
 * served at apps/v1beta2 and extensions/v1beta1 over that storage (the fields are alike; the
 * defaults differ: replicasets.defaults.ts); each version's `scale` answers its own Scale kind.
 * apps/v1beta1 has no ReplicaSets (as upstream). As upstream (1.10
 * pkg/registry/extensions/replicaset, today's pkg/registry/apps/replicaset): short name `rs`,
 * category `all`, field selector `status.replicas`; status reset on create and kept by the main
 * resource's writes; generation 1 on create and +1 on a spec change; the selector is immutable
 * except at extensions/v1beta1.
 */
import { patchMetaOf } from '../../api/core/patch-meta.js';
import type { ResourceDefinition, Strategy, VersionConversion } from '../../registry/types.js';
import { defineResource, keepStatusOnUpdate, specGeneration, statusSubresource } from '../define.js';
import { workloadScale } from '../apps-common/scale.js';
import { defaultReplicaSetExtensions, defaultReplicaSetV1 } from './replicasets.defaults.js';
import { replicaSetMessages, SCALE_VERSION, type ReplicaSetVersion } from './replicasets.protobuf.js';
import { replicaSetExtensionsSchema, replicaSetSchema, type ReplicaSet } from './replicasets.schema.js';
import { replicaSetPrinter } from './replicasets.table.js';
import { validateReplicaSet, validateReplicaSetUpdate } from './replicasets.validation.js';

const generation = specGeneration();

/** The strategy (on stored objects); `immutableSelector` where the served version forbids selector changes. */
function strategyOf(immutableSelector: boolean): Strategy<ReplicaSet> {
  return {
    defaults: defaultReplicaSetV1,
    prepareForCreate(obj) {
      obj.status = { replicas: 0 };
      generation.prepareForCreate!(obj);
    },
    prepareForUpdate(obj, old) {
      keepStatusOnUpdate.prepareForUpdate!(obj, old);
      generation.prepareForUpdate!(obj, old);
    },
    validate: validateReplicaSet,
    validateUpdate: (obj, old) => validateReplicaSetUpdate(obj, old, immutableSelector),
  };
}

const DESCRIPTION = 'ReplicaSet ensures that a specified number of pod replicas are running at any given time.';

/** apps/v1, the storage version. */
export const replicaSets = defineResource({
  group: 'apps',
  version: 'v1',
  kind: 'ReplicaSet',
  description: DESCRIPTION,
  plural: 'replicasets',
  namespaced: true,
  schema: replicaSetSchema,
  printer: replicaSetPrinter,
  protobuf: replicaSetMessages('apps/v1'),
  shortNames: ['rs'],
  categories: ['all'],
  subresources: [statusSubresource('ReplicaSet'), workloadScale<ReplicaSet>(SCALE_VERSION['apps/v1'])],
  strategy: strategyOf(true),
  selectableFields: ['status.replicas'],
  fieldSet: (obj) => ({ 'status.replicas': String(obj.status?.replicas ?? 0) }),
});

/** The row of `version`, served over the apps/v1 storage: the same fields in another apiVersion. */
function servedAt(
  version: Exclude<ReplicaSetVersion, 'apps/v1'>,
  defaults: (obj: ReplicaSet) => void,
): ResourceDefinition<ReplicaSet> {
  const [group, v] = version.split('/') as [string, string];
  const schema = version === 'extensions/v1beta1' ? replicaSetExtensionsSchema : replicaSetSchema;
  const conversion: VersionConversion = {
    defaults,
    toStorage: (obj) => ({ ...obj, apiVersion: 'apps/v1' }),
    fromStorage: (obj) => ({ ...obj, apiVersion: version }),
  };
  return {
    ...replicaSets,
    group,
    // Only apps' workloads are in `all` (upstream #58301, 1.10): `kubectl get all` lists each once.
    categories: group === 'apps' ? ['all'] : [],
    version: v,
    description: `DEPRECATED - This group version of ReplicaSet is deprecated by apps/v1/ReplicaSet. ${DESCRIPTION}`,
    schema,
    patchMeta: patchMetaOf(schema),
    protobuf: replicaSetMessages(version),
    subresources: [statusSubresource('ReplicaSet'), workloadScale<ReplicaSet>(SCALE_VERSION[version])],
    strategy: strategyOf(version !== 'extensions/v1beta1'),
    conversion,
  };
}

export const replicaSetsV1beta2 = servedAt('apps/v1beta2', defaultReplicaSetV1);
export const replicaSetsExtensions = servedAt('extensions/v1beta1', defaultReplicaSetExtensions);
