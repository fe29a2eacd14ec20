/**
 * StatefulSet: stored as apps/v1 (upstream's storage version) under upstream's prefix
 * `statefulsets`, served at apps/v1, apps/v1beta2 and apps/v1beta1 (pkg/registry/apps/statefulset).
 * Status and scale subresources; generation 1 on create and +1 on every spec change
 * (strategy.go PrepareForUpdate); short name `sts`, category `all`; names are DNS-1123 labels
 * (ValidateStatefulSetName). The versions differ in their defaults and in apps/v1beta1's
 * pointer status.observedGeneration; every field has the same JSON name in all three.
 */
import { validateDns1123Label } from '../../api/names.js';
import type { ResourceDefinition, VersionConversion } from '../../registry/types.js';
import { defineResource, keepStatusOnUpdate, specGeneration, statusSubresource } from '../define.js';
import { workloadScale } from '../apps-common/scale.js';
import { defaultStatefulSetV1, defaultStatefulSetV1beta1, withApiVersion } from './statefulsets.defaults.js';
import {
  statefulSetMessagesV1,
  statefulSetMessagesV1beta1,
  statefulSetMessagesV1beta2,
} from './statefulsets.protobuf.js';
import { statefulSetSchema, type StatefulSet } from './statefulsets.schema.js';
import { statefulSetPrinter } from './statefulsets.table.js';
import { validateStatefulSet, validateStatefulSetUpdate } from './statefulsets.validation.js';

const STORAGE = 'apps/v1';
const generation = specGeneration();

/** apps/v1: the storage version. */
export const statefulSets = defineResource({
  group: 'apps',
  version: 'v1',
  kind: 'StatefulSet',
  description:
    'StatefulSet represents a set of pods with consistent identities: a stable DNS name and hostname each, and as many volume claims as requested.',
  plural: 'statefulsets',
  namespaced: true,
  schema: statefulSetSchema,
  printer: statefulSetPrinter,
  protobuf: statefulSetMessagesV1,
  shortNames: ['sts'],
  categories: ['all'],
  validateName: validateDns1123Label,
  subresources: [statusSubresource<StatefulSet>('StatefulSet'), workloadScale<StatefulSet>('autoscaling/v1')],
  strategy: {
    defaults: defaultStatefulSetV1,
    prepareForCreate(obj) {
      // upstream: create cannot set status (StatefulSetStatus{}: its non-omitempty counts).
      obj.status = { replicas: 0, availableReplicas: 0 };
      generation.prepareForCreate!(obj);
    },
    prepareForUpdate(obj, old) {
      keepStatusOnUpdate.prepareForUpdate!(obj, old);
      generation.prepareForUpdate!(obj, old);
    },
    validate: validateStatefulSet,
    validateUpdate: validateStatefulSetUpdate,
  },
});

/** apps/v1beta2: the same fields and defaults as apps/v1. */
const v1beta2: VersionConversion = {
  defaults: (obj: StatefulSet) => defaultStatefulSetV1(obj),
  toStorage: (obj) => withApiVersion(obj, STORAGE),
  fromStorage: (obj) => withApiVersion(obj, 'apps/v1beta2'),
};

/**
 * apps/v1beta1: its own defaults (OnDelete, selector from the template's labels), and a pointer
 * status.observedGeneration, which upstream's conversion from apps/v1 always sets (0 included).
 */
const v1beta1: VersionConversion = {
  defaults: (obj: StatefulSet) => defaultStatefulSetV1beta1(obj),
  toStorage(obj: StatefulSet) {
    const out = withApiVersion(obj, STORAGE);
    if (out.status && !out.status.observedGeneration) {
      const { observedGeneration: _dropped, ...status } = out.status;
      out.status = status;
    }
    return out;
  },
  fromStorage(obj: StatefulSet) {
    const out = withApiVersion(obj, 'apps/v1beta1');
    if (out.status) out.status = { ...out.status, observedGeneration: out.status.observedGeneration ?? 0 };
    return out;
  },
};

/** A beta version's row: the storage row's rules over its own schema, messages, scale view and defaults. */
function betaRow(
  version: 'v1beta1' | 'v1beta2',
  conversion: VersionConversion,
  protobuf: ResourceDefinition['protobuf'],
): ResourceDefinition<StatefulSet> {
  return {
    ...statefulSets,
    version,
    protobuf,
    conversion,
    subresources: [statusSubresource<StatefulSet>('StatefulSet'), workloadScale<StatefulSet>(`apps/${version}`)],
  };
}

export const statefulSetsV1beta2 = betaRow('v1beta2', v1beta2, statefulSetMessagesV1beta2);
export const statefulSetsV1beta1 = betaRow('v1beta1', v1beta1, statefulSetMessagesV1beta1);
