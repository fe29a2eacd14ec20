/**
 * Protobuf messages of core/v1 shared by several kinds: PodSpec and its parts (used by pods,
 * pod templates and replication controllers), volume sources, references. Notation in
 * api/protobuf/messages.ts; field numbers from upstream's k8s.io/api core/v1 generated.proto
 * at 1.33 (ProbeHandler and LifecycleHandler are what 1.10 called Handler; new fields keep 1.33's
 * flags, fields of 1.10 keep theirs).
 */
import type { MessageSet, ProtoMessages } from '../protobuf/messages.js';

/** The API version of core/v1, whose package holds these messages (every other package may refer to them). */
export const CORE_VERSION = 'v1';

const CORE: MessageSet = {
  AWSElasticBlockStoreVolumeSource: 'volumeID=1! fsType=2 partition=3:int32 readOnly=4:bool',
  Affinity: 'nodeAffinity=1:NodeAffinity podAffinity=2:PodAffinity podAntiAffinity=3:PodAntiAffinity',
  AppArmorProfile: 'type=1! localhostProfile=2!',
  AzureDiskVolumeSource: 'diskName=1! diskURI=2! cachingMode=3 fsType=4 readOnly=5:bool kind=6',
  AzureFileVolumeSource: 'secretName=1! shareName=2! readOnly=3:bool',
  CSIVolumeSource:
    'driver=1! readOnly=2:bool! fsType=3! volumeAttributes=4:map<string> nodePublishSecretRef=5:LocalObjectReference',
  Capabilities: 'add=1:[]string drop=2:[]string',
  CephFSVolumeSource: 'monitors=1:[]string path=2 user=3 secretFile=4 secretRef=5:LocalObjectReference readOnly=6:bool',
  CinderVolumeSource: 'volumeID=1! fsType=2 readOnly=3:bool secretRef=4:LocalObjectReference',
  ClusterTrustBundleProjection: 'name=1! signerName=2! labelSelector=3:LabelSelector path=4! optional=5:bool!',
  ConfigMapEnvSource: 'localObjectReference=1:LocalObjectReference~ optional=2:bool!',
  ConfigMapKeySelector: 'localObjectReference=1:LocalObjectReference~ key=2! optional=3:bool!',
  ConfigMapProjection: 'localObjectReference=1:LocalObjectReference~ items=2:[]KeyToPath optional=4:bool!',
  ConfigMapVolumeSource:
    'localObjectReference=1:LocalObjectReference~ items=2:[]KeyToPath defaultMode=3:int32! optional=4:bool!',
  Container:
    'name=1! image=2 command=3:[]string args=4:[]string workingDir=5 ports=6:[]ContainerPort env=7:[]EnvVar resources=8:ResourceRequirements volumeMounts=9:[]VolumeMount livenessProbe=10:Probe readinessProbe=11:Probe lifecycle=12:Lifecycle terminationMessagePath=13 imagePullPolicy=14 securityContext=15:SecurityContext stdin=16:bool stdinOnce=17:bool tty=18:bool envFrom=19:[]EnvFromSource terminationMessagePolicy=20 volumeDevices=21:[]VolumeDevice startupProbe=22:Probe resizePolicy=23:[]ContainerResizePolicy restartPolicy=24!',
  ContainerPort: 'name=1 hostPort=2:int32 containerPort=3:int32! protocol=4 hostIP=5',
  ContainerResizePolicy: 'resourceName=1! restartPolicy=2!',
  DownwardAPIProjection: 'items=1:[]DownwardAPIVolumeFile',
  DownwardAPIVolumeFile:
    'path=1! fieldRef=2:ObjectFieldSelector resourceFieldRef=3:ResourceFieldSelector mode=4:int32!',
  DownwardAPIVolumeSource: 'items=1:[]DownwardAPIVolumeFile defaultMode=2:int32!',
  EmptyDirVolumeSource: 'medium=1 sizeLimit=2:Quantity',
  EnvFromSource: 'prefix=1 configMapRef=2:ConfigMapEnvSource secretRef=3:SecretEnvSource',
  EnvVar: 'name=1! value=2 valueFrom=3:EnvVarSource',
  EnvVarSource:
    'fieldRef=1:ObjectFieldSelector resourceFieldRef=2:ResourceFieldSelector configMapKeyRef=3:ConfigMapKeySelector secretKeyRef=4:SecretKeySelector',
  EphemeralContainer: 'ephemeralContainerCommon=1:EphemeralContainerCommon~ targetContainerName=2',
  EphemeralContainerCommon:
    'name=1! image=2 command=3:[]string args=4:[]string workingDir=5 ports=6:[]ContainerPort env=7:[]EnvVar resources=8:ResourceRequirements volumeMounts=9:[]VolumeMount livenessProbe=10:Probe readinessProbe=11:Probe lifecycle=12:Lifecycle terminationMessagePath=13 imagePullPolicy=14 securityContext=15:SecurityContext stdin=16:bool stdinOnce=17:bool tty=18:bool envFrom=19:[]EnvFromSource terminationMessagePolicy=20 volumeDevices=21:[]VolumeDevice startupProbe=22:Probe resizePolicy=23:[]ContainerResizePolicy restartPolicy=24!',
  EphemeralVolumeSource: 'volumeClaimTemplate=1:PersistentVolumeClaimTemplate',
  ExecAction: 'command=1:[]string',
  FCVolumeSource: 'targetWWNs=1:[]string lun=2:int32! fsType=3 readOnly=4:bool wwids=5:[]string',
  FlexVolumeSource: 'driver=1! fsType=2 secretRef=3:LocalObjectReference readOnly=4:bool options=5:map<string>',
  FlockerVolumeSource: 'datasetName=1 datasetUUID=2',
  GCEPersistentDiskVolumeSource: 'pdName=1! fsType=2 partition=3:int32 readOnly=4:bool',
  GRPCAction: 'port=1:int32! service=2!',
  GitRepoVolumeSource: 'repository=1! revision=2 directory=3',
  GlusterfsVolumeSource: 'endpoints=1! path=2! readOnly=3:bool',
  HTTPGetAction: 'path=1 port=2:IntOrString! host=3 scheme=4 httpHeaders=5:[]HTTPHeader',
  HTTPHeader: 'name=1! value=2!',
  HostAlias: 'ip=1 hostnames=2:[]string',
  HostPathVolumeSource: 'path=1! type=2!',
  ISCSIVolumeSource:
    'targetPortal=1! iqn=2! lun=3:int32! iscsiInterface=4 fsType=5 readOnly=6:bool portals=7:[]string chapAuthDiscovery=8:bool secretRef=10:LocalObjectReference chapAuthSession=11:bool initiatorName=12!',
  ImageVolumeSource: 'reference=1 pullPolicy=2',
  KeyToPath: 'key=1! path=2! mode=3:int32!',
  Lifecycle: 'postStart=1:LifecycleHandler preStop=2:LifecycleHandler stopSignal=3!',
  LifecycleHandler: 'exec=1:ExecAction httpGet=2:HTTPGetAction tcpSocket=3:TCPSocketAction sleep=4:SleepAction',
  LocalObjectReference: 'name=1',
  NFSVolumeSource: 'server=1! path=2! readOnly=3:bool',
  NodeAffinity:
    'requiredDuringSchedulingIgnoredDuringExecution=1:NodeSelector preferredDuringSchedulingIgnoredDuringExecution=2:[]PreferredSchedulingTerm',
  NodeSelector: 'nodeSelectorTerms=1:[]NodeSelectorTerm!',
  NodeSelectorRequirement: 'key=1! operator=2! values=3:[]string',
  NodeSelectorTerm: 'matchExpressions=1:[]NodeSelectorRequirement matchFields=2:[]NodeSelectorRequirement',
  ObjectFieldSelector: 'apiVersion=1 fieldPath=2!',
  ObjectReference: 'kind=1 namespace=2 name=3 uid=4 apiVersion=5 resourceVersion=6 fieldPath=7',
  PersistentVolumeClaimSpec:
    'accessModes=1:[]string resources=2:VolumeResourceRequirements volumeName=3 selector=4:LabelSelector storageClassName=5! volumeMode=6! dataSource=7:TypedLocalObjectReference dataSourceRef=8:TypedObjectReference volumeAttributesClassName=9!',
  PersistentVolumeClaimTemplate: 'metadata=1:ObjectMeta spec=2:PersistentVolumeClaimSpec!',
  PersistentVolumeClaimVolumeSource: 'claimName=1! readOnly=2:bool',
  PhotonPersistentDiskVolumeSource: 'pdID=1! fsType=2',
  PodAffinity:
    'requiredDuringSchedulingIgnoredDuringExecution=1:[]PodAffinityTerm preferredDuringSchedulingIgnoredDuringExecution=2:[]WeightedPodAffinityTerm',
  PodAffinityTerm:
    'labelSelector=1:LabelSelector namespaces=2:[]string topologyKey=3 namespaceSelector=4:LabelSelector matchLabelKeys=5:[]string mismatchLabelKeys=6:[]string',
  PodAntiAffinity:
    'requiredDuringSchedulingIgnoredDuringExecution=1:[]PodAffinityTerm preferredDuringSchedulingIgnoredDuringExecution=2:[]WeightedPodAffinityTerm',
  PodDNSConfig: 'nameservers=1:[]string searches=2:[]string options=3:[]PodDNSConfigOption',
  PodDNSConfigOption: 'name=1 value=2',
  PodOS: 'name=1!',
  PodReadinessGate: 'conditionType=1!',
  PodResourceClaim: 'name=1! resourceClaimName=3! resourceClaimTemplateName=4!',
  PodSchedulingGate: 'name=1!',
  PodSecurityContext:
    'seLinuxOptions=1:SELinuxOptions runAsUser=2:int64! runAsNonRoot=3:bool! supplementalGroups=4:[]int64 fsGroup=5:int64! runAsGroup=6:int64! sysctls=7:[]Sysctl windowsOptions=8:WindowsSecurityContextOptions fsGroupChangePolicy=9! seccompProfile=10:SeccompProfile appArmorProfile=11:AppArmorProfile supplementalGroupsPolicy=12! seLinuxChangePolicy=13!',
  PodSpec:
    'volumes=1:[]Volume containers=2:[]Container! restartPolicy=3 terminationGracePeriodSeconds=4:int64! activeDeadlineSeconds=5:int64! dnsPolicy=6 nodeSelector=7:map<string> serviceAccountName=8 serviceAccount=9 nodeName=10 hostNetwork=11:bool hostPID=12:bool hostIPC=13:bool securityContext=14:PodSecurityContext imagePullSecrets=15:[]LocalObjectReference hostname=16 subdomain=17 affinity=18:Affinity schedulerName=19 initContainers=20:[]Container automountServiceAccountToken=21:bool! tolerations=22:[]Toleration hostAliases=23:[]HostAlias priorityClassName=24 priority=25:int32! dnsConfig=26:PodDNSConfig shareProcessNamespace=27:bool! readinessGates=28:[]PodReadinessGate runtimeClassName=29! enableServiceLinks=30:bool! preemptionPolicy=31! overhead=32:map<Quantity> topologySpreadConstraints=33:[]TopologySpreadConstraint ephemeralContainers=34:[]EphemeralContainer setHostnameAsFQDN=35:bool! os=36:PodOS hostUsers=37:bool! schedulingGates=38:[]PodSchedulingGate resourceClaims=39:[]PodResourceClaim resources=40:ResourceRequirements',
  PodTemplateSpec: 'metadata=1:ObjectMeta spec=2:PodSpec',
  PortworxVolumeSource: 'volumeID=1! fsType=2 readOnly=3:bool',
  PreferredSchedulingTerm: 'weight=1:int32! preference=2:NodeSelectorTerm!',
  Probe:
    'handler=1:ProbeHandler~ initialDelaySeconds=2:int32 timeoutSeconds=3:int32 periodSeconds=4:int32 successThreshold=5:int32 failureThreshold=6:int32 terminationGracePeriodSeconds=7:int64!',
  ProbeHandler: 'exec=1:ExecAction httpGet=2:HTTPGetAction tcpSocket=3:TCPSocketAction grpc=4:GRPCAction',
  ProjectedVolumeSource: 'sources=1:[]VolumeProjection defaultMode=2:int32!',
  QuobyteVolumeSource: 'registry=1! volume=2! readOnly=3:bool user=4 group=5 tenant=6',
  RBDVolumeSource:
    'monitors=1:[]string image=2! fsType=3 pool=4 user=5 keyring=6 secretRef=7:LocalObjectReference readOnly=8:bool',
  ResourceClaim: 'name=1! request=2',
  ResourceFieldSelector: 'containerName=1 resource=2! divisor=3:Quantity',
  ResourceRequirements: 'limits=1:map<Quantity> requests=2:map<Quantity> claims=3:[]ResourceClaim',
  SELinuxOptions: 'user=1 role=2 type=3 level=4',
  ScaleIOVolumeSource:
    'gateway=1! system=2! secretRef=3:LocalObjectReference sslEnabled=4:bool protectionDomain=5 storagePool=6 storageMode=7 volumeName=8 fsType=9 readOnly=10:bool',
  SeccompProfile: 'type=1! localhostProfile=2!',
  SecretEnvSource: 'localObjectReference=1:LocalObjectReference~ optional=2:bool!',
  SecretKeySelector: 'localObjectReference=1:LocalObjectReference~ key=2! optional=3:bool!',
  SecretProjection: 'localObjectReference=1:LocalObjectReference~ items=2:[]KeyToPath optional=4:bool!',
  SecretVolumeSource: 'secretName=1 items=2:[]KeyToPath defaultMode=3:int32! optional=4:bool!',
  SecurityContext:
    'capabilities=1:Capabilities privileged=2:bool! seLinuxOptions=3:SELinuxOptions runAsUser=4:int64! runAsNonRoot=5:bool! readOnlyRootFilesystem=6:bool! allowPrivilegeEscalation=7:bool! runAsGroup=8:int64! procMount=9! windowsOptions=10:WindowsSecurityContextOptions seccompProfile=11:SeccompProfile appArmorProfile=12:AppArmorProfile',
  ServiceAccountTokenProjection: 'audience=1 expirationSeconds=2:int64! path=3!',
  SleepAction: 'seconds=1:int64!',
  StorageOSVolumeSource: 'volumeName=1 volumeNamespace=2 fsType=3 readOnly=4:bool secretRef=5:LocalObjectReference',
  Sysctl: 'name=1! value=2!',
  TCPSocketAction: 'port=1:IntOrString! host=2',
  Toleration: 'key=1 operator=2 value=3 effect=4 tolerationSeconds=5:int64!',
  TopologySpreadConstraint:
    'maxSkew=1:int32! topologyKey=2! whenUnsatisfiable=3! labelSelector=4:LabelSelector minDomains=5:int32! nodeAffinityPolicy=6! nodeTaintsPolicy=7! matchLabelKeys=8:[]string',
  TypedLocalObjectReference: 'apiGroup=1! kind=2! name=3!',
  TypedObjectReference: 'apiGroup=1! kind=2! name=3! namespace=4!',
  Volume: 'name=1! volumeSource=2:VolumeSource~',
  VolumeDevice: 'name=1! devicePath=2!',
  VolumeMount: 'name=1! readOnly=2:bool mountPath=3! subPath=4 mountPropagation=5 subPathExpr=6 recursiveReadOnly=7!',
  VolumeProjection:
    'secret=1:SecretProjection downwardAPI=2:DownwardAPIProjection configMap=3:ConfigMapProjection serviceAccountToken=4:ServiceAccountTokenProjection clusterTrustBundle=5:ClusterTrustBundleProjection',
  VolumeResourceRequirements: 'limits=1:map<Quantity> requests=2:map<Quantity>',
  VolumeSource:
    'hostPath=1:HostPathVolumeSource emptyDir=2:EmptyDirVolumeSource gcePersistentDisk=3:GCEPersistentDiskVolumeSource awsElasticBlockStore=4:AWSElasticBlockStoreVolumeSource gitRepo=5:GitRepoVolumeSource secret=6:SecretVolumeSource nfs=7:NFSVolumeSource iscsi=8:ISCSIVolumeSource glusterfs=9:GlusterfsVolumeSource persistentVolumeClaim=10:PersistentVolumeClaimVolumeSource rbd=11:RBDVolumeSource flexVolume=12:FlexVolumeSource cinder=13:CinderVolumeSource cephfs=14:CephFSVolumeSource flocker=15:FlockerVolumeSource downwardAPI=16:DownwardAPIVolumeSource fc=17:FCVolumeSource azureFile=18:AzureFileVolumeSource configMap=19:ConfigMapVolumeSource vsphereVolume=20:VsphereVirtualDiskVolumeSource quobyte=21:QuobyteVolumeSource azureDisk=22:AzureDiskVolumeSource photonPersistentDisk=23:PhotonPersistentDiskVolumeSource portworxVolume=24:PortworxVolumeSource scaleIO=25:ScaleIOVolumeSource projected=26:ProjectedVolumeSource storageos=27:StorageOSVolumeSource csi=28:CSIVolumeSource ephemeral=29:EphemeralVolumeSource image=30:ImageVolumeSource',
  VsphereVirtualDiskVolumeSource: 'volumePath=1! fsType=2 storagePolicyName=3 storagePolicyID=4',
  WeightedPodAffinityTerm: 'weight=1:int32! podAffinityTerm=2:PodAffinityTerm!',
  WindowsSecurityContextOptions: 'gmsaCredentialSpecName=1! gmsaCredentialSpec=2! runAsUserName=3! hostProcess=4:bool!',
};

export const CORE_MESSAGES: ProtoMessages = { [CORE_VERSION]: CORE };
