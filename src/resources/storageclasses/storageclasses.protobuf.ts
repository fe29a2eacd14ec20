/**
 * Protobuf messages of StorageClass (numbers from upstream's k8s.io/api storage/v1 and v1beta1
 * generated.proto, the same in both), for each group version it is served at. The core/v1
 * TopologySelectorTerm messages are declared here with core/v1's numbers.
 */
import { inVersions, listMessage } from '../../api/protobuf/messages.js';

export const STORAGE_CLASS_VERSIONS = [
  'storage.k8s.io/v1',
  'storage.k8s.io/v1beta1',
  'storage.ck.io/v1',
  'storage.ck.io/v1beta1',
] as const;

export const storageClassMessages = inVersions(
  {
    ...listMessage('StorageClass'),
    StorageClass:
      'metadata=1:ObjectMeta provisioner=2! parameters=3:map<string> reclaimPolicy=4 mountOptions=5:[]string allowVolumeExpansion=6:bool volumeBindingMode=7 allowedTopologies=8:[]TopologySelectorTerm',
    TopologySelectorTerm: 'matchLabelExpressions=1:[]TopologySelectorLabelRequirement',
    TopologySelectorLabelRequirement: 'key=1! values=2:[]string',
  },
  ...STORAGE_CLASS_VERSIONS,
);
