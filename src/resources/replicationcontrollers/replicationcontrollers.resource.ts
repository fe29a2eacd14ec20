/**
 * ReplicationController (core/v1), stored under upstream's special prefix `controllers`.
 * generation is 1 on create and +1 on every spec change (pkg/registry/core/replicationcontroller/strategy.go).
 */
import { isDeepStrictEqual } from 'node:util';
import { defineResource, keepStatusOnUpdate, statusSubresource } from '../define.js';

export const replicationControllers = defineResource({
  kind: 'ReplicationController',
  plural: 'replicationcontrollers',
  namespaced: true,
  shortNames: ['rc'],
  categories: ['all'],
  storagePrefix: 'controllers',
  subresources: [statusSubresource('ReplicationController')],
  strategy: {
    prepareForCreate(obj) {
      obj.status = { replicas: 0 };
      obj.metadata.generation = 1;
    },
    prepareForUpdate(obj, old) {
      keepStatusOnUpdate.prepareForUpdate!(obj, old);
      const gen = old.metadata.generation ?? 0;
      obj.metadata.generation = isDeepStrictEqual(obj.spec, old.spec) ? gen : gen + 1;
    },
  },
  selectableFields: ['status.replicas'],
  fieldSet: (obj) => ({ 'status.replicas': String((obj.status as { replicas?: number } | undefined)?.replicas ?? 0) }),
});
