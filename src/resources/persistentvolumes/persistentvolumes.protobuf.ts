/**
 * Protobuf messages of PersistentVolume (notation in api/protobuf/messages.ts; numbers from upstream's
 * k8s.io/api core/v1 generated.proto).
 */
import { listMessage, type ProtoMessages } from '../../api/protobuf/messages.js';

export const persistentVolumeMessages: ProtoMessages = {
  v1: {
    ...listMessage('PersistentVolume'),
    AzureFilePersistentVolumeSource: 'secretName=1! shareName=2! readOnly=3:bool secretNamespace=4',
    CSIPersistentVolumeSource:
      'driver=1! volumeHandle=2! readOnly=3:bool fsType=4 volumeAttributes=5:map<string> controllerPublishSecretRef=6:SecretReference nodeStageSecretRef=7:SecretReference nodePublishSecretRef=8:SecretReference controllerExpandSecretRef=9:SecretReference nodeExpandSecretRef=10:SecretReference',
    CephFSPersistentVolumeSource:
      'monitors=1:[]string path=2 user=3 secretFile=4 secretRef=5:SecretReference readOnly=6:bool',
    CinderPersistentVolumeSource: 'volumeID=1! fsType=2 readOnly=3:bool secretRef=4:SecretReference',
    FlexPersistentVolumeSource: 'driver=1! fsType=2 secretRef=3:SecretReference readOnly=4:bool options=5:map<string>',
    GlusterfsPersistentVolumeSource: 'endpoints=1! path=2! readOnly=3:bool endpointsNamespace=4!',
    ISCSIPersistentVolumeSource:
      'targetPortal=1! iqn=2! lun=3:int32! iscsiInterface=4 fsType=5 readOnly=6:bool portals=7:[]string chapAuthDiscovery=8:bool secretRef=10:SecretReference chapAuthSession=11:bool initiatorName=12!',
    LocalVolumeSource: 'path=1! fsType=2!',
    PersistentVolume: 'metadata=1:ObjectMeta spec=2:PersistentVolumeSpec status=3:PersistentVolumeStatus',
    PersistentVolumeSource:
      'gcePersistentDisk=1:GCEPersistentDiskVolumeSource awsElasticBlockStore=2:AWSElasticBlockStoreVolumeSource hostPath=3:HostPathVolumeSource glusterfs=4:GlusterfsPersistentVolumeSource nfs=5:NFSVolumeSource rbd=6:RBDPersistentVolumeSource iscsi=7:ISCSIPersistentVolumeSource cinder=8:CinderPersistentVolumeSource cephfs=9:CephFSPersistentVolumeSource fc=10:FCVolumeSource flocker=11:FlockerVolumeSource flexVolume=12:FlexPersistentVolumeSource azureFile=13:AzureFilePersistentVolumeSource vsphereVolume=14:VsphereVirtualDiskVolumeSource quobyte=15:QuobyteVolumeSource azureDisk=16:AzureDiskVolumeSource photonPersistentDisk=17:PhotonPersistentDiskVolumeSource portworxVolume=18:PortworxVolumeSource scaleIO=19:ScaleIOPersistentVolumeSource local=20:LocalVolumeSource storageos=21:StorageOSPersistentVolumeSource csi=22:CSIPersistentVolumeSource',
    PersistentVolumeSpec:
      'capacity=1:map<Quantity> persistentVolumeSource=2:PersistentVolumeSource~ accessModes=3:[]string claimRef=4:ObjectReference persistentVolumeReclaimPolicy=5 storageClassName=6 mountOptions=7:[]string volumeMode=8! nodeAffinity=9:VolumeNodeAffinity volumeAttributesClassName=10!',
    PersistentVolumeStatus: 'phase=1 message=2 reason=3 lastPhaseTransitionTime=4:Time',
    RBDPersistentVolumeSource:
      'monitors=1:[]string image=2! fsType=3 pool=4 user=5 keyring=6 secretRef=7:SecretReference readOnly=8:bool',
    ScaleIOPersistentVolumeSource:
      'gateway=1! system=2! secretRef=3:SecretReference sslEnabled=4:bool protectionDomain=5 storagePool=6 storageMode=7 volumeName=8 fsType=9 readOnly=10:bool',
    SecretReference: 'name=1 namespace=2',
    StorageOSPersistentVolumeSource:
      'volumeName=1 volumeNamespace=2 fsType=3 readOnly=4:bool secretRef=5:ObjectReference',
    VolumeNodeAffinity: 'required=1:NodeSelector',
  },
};
