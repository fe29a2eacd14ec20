/**
 * DaemonSet: stored as apps/v1 (upstream's storage version) under upstream's prefix
 * `daemonsets`, served at apps/v1, apps/v1beta2 and extensions/v1beta1
 * (pkg/registry/apps/daemonset). Status subresource; generation 1 on create and +1 on every spec
 * change; the template generation (1 on create, +1 on every template change) kept as upstream
 * keeps it: extensions/v1beta1's spec.templateGeneration is apps/v1's annotation
 * `deprecated.daemonset.template.generation`, which every apps/v1 and apps/v1beta2 object
 * carries. Short name `ds`, category `all`. The selector is immutable except through
 * extensions/v1beta1 (upstream's strategy ValidateUpdate).
 */
import { patchMetaOf } from '../../api/core/patch-meta.js';
import type { ResourceDefinition, Strategy, VersionConversion } from '../../registry/types.js';
import { defineResource, keepStatusOnUpdate, specGeneration, statusSubresource } from '../define.js';
import {
  defaultDaemonSetExtensions,
  defaultDaemonSetV1,
  extensionsFromStorage,
  extensionsToStorage,
  prepareTemplateGenerationForCreate,
  prepareTemplateGenerationForUpdate,
  templateGenerationOf,
} from './daemonsets.defaults.js';
import { daemonSetMessagesExtensions, daemonSetMessagesV1, daemonSetMessagesV1beta2 } from './daemonsets.protobuf.js';
import {
  daemonSetSchema,
  daemonSetSchemaExtensions,
  type DaemonSet,
  type DaemonSetExtensions,
} from './daemonsets.schema.js';
import { daemonSetPrinter } from './daemonsets.table.js';
import { validateDaemonSet, validateDaemonSetUpdate } from './daemonsets.validation.js';

const generation = specGeneration();

/**
 * apps/v1 and apps/v1beta2 defaults; their requests' template generation annotation must parse,
 * as upstream's conversion into the internal version reads it (400 otherwise).
 */
function defaultsV1(obj: DaemonSet): void {
  templateGenerationOf(obj);
  defaultDaemonSetV1(obj);
}

/** The storage rules, with the selector immutable or not (extensions/v1beta1). */
function strategy(selectorImmutable: boolean): Strategy<DaemonSet> {
  return {
    defaults: defaultsV1,
    prepareForCreate(obj) {
      // upstream: create cannot set status (DaemonSetStatus{}: its non-omitempty counts).
      obj.status = { currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 };
      generation.prepareForCreate!(obj);
      prepareTemplateGenerationForCreate(obj);
    },
    prepareForUpdate(obj, old) {
      keepStatusOnUpdate.prepareForUpdate!(obj, old);
      generation.prepareForUpdate!(obj, old);
      prepareTemplateGenerationForUpdate(obj, old);
    },
    validate: validateDaemonSet,
    validateUpdate: (obj, old) => validateDaemonSetUpdate(obj, old, selectorImmutable),
  };
}

/** apps/v1: the storage version. */
export const daemonSets = defineResource({
  group: 'apps',
  version: 'v1',
  kind: 'DaemonSet',
  description: 'DaemonSet runs a copy of a pod on every node (or on the nodes its template selects).',
  plural: 'daemonsets',
  namespaced: true,
  schema: daemonSetSchema,
  printer: daemonSetPrinter,
  protobuf: daemonSetMessagesV1,
  shortNames: ['ds'],
  categories: ['all'],
  subresources: [statusSubresource<DaemonSet>('DaemonSet')],
  strategy: strategy(true),
});

/** apps/v1beta2: the same fields and defaults as apps/v1. */
const v1beta2: VersionConversion = {
  defaults: (obj: DaemonSet) => defaultsV1(obj),
  toStorage: (obj) => ({ ...obj, apiVersion: 'apps/v1' }),
  fromStorage: (obj) => ({ ...obj, apiVersion: 'apps/v1beta2' }),
};

/** extensions/v1beta1: its own defaults, and spec.templateGeneration for the annotation. */
const extensions: VersionConversion = {
  defaults: (obj: DaemonSetExtensions) => defaultDaemonSetExtensions(obj),
  toStorage: (obj: DaemonSetExtensions) => extensionsToStorage(obj),
  fromStorage: (obj: DaemonSet) => extensionsFromStorage(obj),
};

export const daemonSetsV1beta2: ResourceDefinition<DaemonSet> = {
  ...daemonSets,
  version: 'v1beta2',
  protobuf: daemonSetMessagesV1beta2,
  conversion: v1beta2,
};

export const daemonSetsExtensions: ResourceDefinition<DaemonSet> = {
  ...daemonSets,
  group: 'extensions',
  version: 'v1beta1',
  // Only apps' workloads are in `all` (upstream #58301, 1.10): `kubectl get all` lists each once.
  categories: [],
  schema: daemonSetSchemaExtensions,
  patchMeta: patchMetaOf(daemonSetSchemaExtensions),
  protobuf: daemonSetMessagesExtensions,
  conversion: extensions,
  strategy: strategy(false),
};
