/** VolumeAttachment fields (k8s.io/api storage/v1 types.go; storage/v1beta1 has the same). */
import type { KindObject } from '../../registry/types.js';
import { kindSchema } from '../../api/meta-schema.js';
import { bool, int, obj, str, strMap, time } from '../../api/core/schema-kit.js';
import { persistentVolumeSchema } from '../persistentvolumes/persistentvolumes.schema.js';

const volumeError = obj({
  errorCode: int.describe(
    'A numeric gRPC code of the error (alpha: MutableCSINodeAllocatableCount, off in 1.33, so dropped).',
  ),
  message: str.describe('The error encountered during the attach or detach operation; may be logged.'),
  time: time.describe('When the error was encountered.'),
});

export const volumeAttachmentSchema = kindSchema({
  spec: obj({
    attacher: str.describe(
      'The name of the volume driver that must handle this request (the name returned by GetPluginName()).',
    ),
    nodeName: str.describe('The node the volume should be attached to.'),
    source: obj({
      inlineVolumeSpec: persistentVolumeSchema.shape.spec.describe(
        "The PersistentVolumeSpec translated from a pod's inline volume (CSI migration).",
      ),
      persistentVolumeName: str.describe('The name of the persistent volume to attach.'),
    }).describe('The volume that should be attached: exactly one of persistentVolumeName and inlineVolumeSpec.'),
  }).describe('The desired attach/detach behaviour, populated by the Kubernetes system. Immutable.'),
  status: obj({
    attachError: volumeError.describe('The last error of an attach operation, if any.'),
    attached: bool.describe('Whether the volume is attached; set only by the external attacher.'),
    attachmentMetadata: strMap.describe(
      'Information returned by a successful attach, passed to subsequent WaitForAttach or Mount calls.',
    ),
    detachError: volumeError.describe('The last error of a detach operation, if any.'),
  }).describe('The status of the request, populated by the entity completing the attach or detach operation.'),
});

/** A VolumeAttachment as its schema describes it. */
export type VolumeAttachment = KindObject<typeof volumeAttachmentSchema>;
