/**
 * Protobuf messages of VolumeAttachment (numbers from upstream's k8s.io/api storage/v1 and
 * v1beta1 generated.proto, the same in both), for each group version it is served at; the
 * inline volume spec is core/v1's PersistentVolumeSpec.
 */
import { inVersions, listMessage } from '../../api/protobuf/messages.js';

export const volumeAttachmentMessages = inVersions(
  {
    ...listMessage('VolumeAttachment'),
    VolumeAttachment: 'metadata=1:ObjectMeta spec=2:VolumeAttachmentSpec status=3:VolumeAttachmentStatus',
    VolumeAttachmentSpec: 'attacher=1! source=2:VolumeAttachmentSource nodeName=3!',
    VolumeAttachmentSource: 'persistentVolumeName=1! inlineVolumeSpec=2:PersistentVolumeSpec',
    VolumeAttachmentStatus:
      'attached=1:bool! attachmentMetadata=2:map<string> attachError=3:VolumeError detachError=4:VolumeError',
    VolumeError: 'time=1:Time message=2 errorCode=3:int32!',
  },
  'storage.k8s.io/v1',
  'storage.k8s.io/v1beta1',
  'storage.ck.io/v1beta1',
);
