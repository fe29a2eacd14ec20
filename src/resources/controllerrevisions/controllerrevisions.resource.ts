/**
 * ControllerRevision: an immutable snapshot of a controller's state (pkg/registry/apps/
 * controllerrevision), stored as apps/v1 under upstream's prefix `controllerrevisions` and served
 * at apps/v1, apps/v1beta2 and apps/v1beta1, which have the same fields and no defaults. No
 * subresources, short names or categories, as upstream.
 */
import type { ResourceDefinition, VersionConversion } from '../../registry/types.js';
import { defineResource } from '../define.js';
import { controllerRevisionMessages } from './controllerrevisions.protobuf.js';
import { controllerRevisionSchema, type ControllerRevision } from './controllerrevisions.schema.js';
import { controllerRevisionPrinter } from './controllerrevisions.table.js';
import { validateControllerRevision, validateControllerRevisionUpdate } from './controllerrevisions.validation.js';

export const controllerRevisions = defineResource({
  group: 'apps',
  version: 'v1',
  kind: 'ControllerRevision',
  description:
    'ControllerRevision implements an immutable snapshot of state data, used by the DaemonSet and StatefulSet controllers for update and rollback. Its data cannot change once created.',
  plural: 'controllerrevisions',
  namespaced: true,
  schema: controllerRevisionSchema,
  printer: controllerRevisionPrinter,
  protobuf: controllerRevisionMessages,
  strategy: {
    validate: validateControllerRevision,
    validateUpdate: validateControllerRevisionUpdate,
  },
});

/** A beta version: the same object under another apiVersion. */
function beta(version: 'v1beta1' | 'v1beta2'): ResourceDefinition<ControllerRevision> {
  const conversion: VersionConversion = {
    toStorage: (obj) => ({ ...obj, apiVersion: 'apps/v1' }),
    fromStorage: (obj) => ({ ...obj, apiVersion: `apps/${version}` }),
  };
  return { ...controllerRevisions, version, conversion };
}

export const controllerRevisionsV1beta2 = beta('v1beta2');
export const controllerRevisionsV1beta1 = beta('v1beta1');
