/**
 * extensions/v1beta1 `replicationcontrollers`: upstream 1.10 serves only the controllers'
 * `scale` subresource there (its ReplicationControllerDummy kind has no verbs, "a hack to allow
 * scale for RCs" in pkg/registry/extensions/rest/storage_extensions.go), answering
 * extensions/v1beta1 Scale over the core controllers' storage.
 */
import { kindSchema } from '../../api/meta-schema.js';
import type { ApiObject } from '../../api/object.js';
import type { ResourceDefinition, VersionConversion } from '../../registry/types.js';
import { scaleMessages } from '../apps-common/scale.js';
import { patchMetaOf } from '../../api/core/patch-meta.js';
import type { ReplicationController } from './replicationcontrollers.schema.js';
import { replicationControllers } from './replicationcontrollers.resource.js';
import { controllerScale } from './scale.js';

/** The dummy kind carries nothing but its type (k8s.io/api extensions/v1beta1 ReplicationControllerDummy). */
const dummySchema = kindSchema({}).omit({ metadata: true });

/** Never used to read or write a controller (the row has no verbs); stored objects pass through. */
const noConversion: VersionConversion = {
  toStorage: (obj: ApiObject) => obj,
  fromStorage: (obj: ApiObject) => obj,
};

export const replicationControllersExtensions: ResourceDefinition<ReplicationController> = {
  ...replicationControllers,
  group: 'extensions',
  version: 'v1beta1',
  kind: 'ReplicationControllerDummy',
  description: 'Dummy definition',
  singular: 'replicationcontrollerdummy',
  shortNames: [],
  categories: [],
  verbs: [],
  schema: dummySchema,
  patchMeta: patchMetaOf(dummySchema),
  protobuf: {
    'extensions/v1beta1': {
      ReplicationControllerDummy: '',
      ...scaleMessages('extensions/v1beta1')['extensions/v1beta1'],
    },
  },
  subresources: [controllerScale('extensions/v1beta1')],
  selectableFields: [],
  conversion: noConversion,
};
