/**
 * ReplicationController (core/v1), stored under upstream's special prefix `controllers`.
 * generation is 1 on create and +1 on every spec change (pkg/registry/core/replicationcontroller/strategy.go).
 */
import { replicationControllerPrinter } from './replicationcontrollers.table.js';
import { replicationControllerSchema, type ReplicationController } from './replicationcontrollers.schema.js';
import { isDeepStrictEqual } from 'node:util';
import { defaultPodSpec } from '../../api/core/pod-spec-defaults.js';
import { defineResource, keepStatusOnUpdate, statusSubresource } from '../define.js';
import { controllerScale } from './scale.js';
import { replicationControllerMessages } from './replicationcontrollers.protobuf.js';
import { validateReplicationController } from './rc-validation.js';

/**
 * Upstream SetDefaults_ReplicationController: selector and object labels from the template's
 * labels when empty, replicas 1, and PodSpec defaults for the template.
 */
function defaults(obj: ReplicationController): void {
  const spec = (obj.spec ??= {});
  const templateLabels = spec.template?.metadata?.labels;
  if (templateLabels && Object.keys(templateLabels).length) {
    if (!spec.selector || !Object.keys(spec.selector).length) spec.selector = { ...templateLabels };
    if (!obj.metadata.labels || !Object.keys(obj.metadata.labels).length) obj.metadata.labels = { ...templateLabels };
  }
  if (spec.replicas === undefined || spec.replicas === null) spec.replicas = 1;
  defaultPodSpec(spec.template?.spec);
}

export const replicationControllers = defineResource({
  kind: 'ReplicationController',
  description: 'ReplicationController keeps a given number of copies of a pod running.',
  protobuf: replicationControllerMessages,
  plural: 'replicationcontrollers',
  namespaced: true,
  schema: replicationControllerSchema,
  printer: replicationControllerPrinter,
  shortNames: ['rc'],
  categories: ['all'],
  storagePrefix: 'controllers',
  subresources: [statusSubresource('ReplicationController'), controllerScale('autoscaling/v1')],
  strategy: {
    defaults,
    prepareForCreate(obj) {
      obj.status = { replicas: 0 };
      obj.metadata.generation = 1;
    },
    prepareForUpdate(obj, old) {
      keepStatusOnUpdate.prepareForUpdate!(obj, old);
      const gen = old.metadata.generation ?? 0;
      obj.metadata.generation = isDeepStrictEqual(obj.spec, old.spec) ? gen : gen + 1;
    },
    /** Upstream ValidateReplicationController / ValidateReplicationControllerUpdate. */
    validate: validateReplicationController,
    validateUpdate: (obj) => validateReplicationController(obj),
  },
  selectableFields: ['status.replicas'],
  fieldSet: (obj) => ({ 'status.replicas': String(obj.status?.replicas ?? 0) }),
});
