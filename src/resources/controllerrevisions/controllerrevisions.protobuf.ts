/**
 * Protobuf messages of ControllerRevision (notation in api/protobuf/messages.ts; numbers from
 * upstream's k8s.io/api apps/v1, v1beta2 and v1beta1 generated.proto, the same in all three):
 * data is a RawExtension holding the JSON bytes.
 */
import { inVersions, listMessage } from '../../api/protobuf/messages.js';

export const controllerRevisionMessages = inVersions(
  {
    ...listMessage('ControllerRevision'),
    ControllerRevision: 'metadata=1:ObjectMeta data=2:RawExtension revision=3:int64!',
  },
  'apps/v1',
  'apps/v1beta2',
  'apps/v1beta1',
);
