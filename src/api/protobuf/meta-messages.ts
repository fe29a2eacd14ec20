/**
 * Messages of k8s.io/apimachinery: the runtime.Unknown envelope, meta/v1 (ObjectMeta, ListMeta,
 * Status, DeleteOptions, WatchEvent, LabelSelector, discovery documents) and the value types
 * that JSON writes as scalars (Time, MicroTime, Quantity, IntOrString, Verbs). Field numbers
 * from upstream's apimachinery generated.proto files; initializers and clusterName are the
 * 1.10 ObjectMeta fields 16 and 15, managedFields (server-side apply) today's field 17, whose
 * FieldsV1 carries the JSON trie as raw bytes.
 */
import type { MessageSet } from './messages.js';

/** The package of the meta messages (their kinds are found under every API version, as upstream registers them in each). */
export const META_VERSION = 'meta.k8s.io/v1';

export const META_MESSAGES: MessageSet = {
  Unknown: 'typeMeta=1:TypeMeta raw=2:bytes contentEncoding=3 contentType=4',
  TypeMeta: 'apiVersion=1 kind=2',
  RawExtension: 'raw=1:bytes',
  Time: 'seconds=1:int64 nanos=2:int32',
  MicroTime: 'seconds=1:int64 nanos=2:int32',
  Quantity: 'string=1',
  IntOrString: 'type=1:int64 intVal=2:int32 strVal=3',
  Verbs: 'items=1:[]string',
  ObjectMeta:
    'name=1 generateName=2 namespace=3 selfLink=4 uid=5 resourceVersion=6 generation=7:int64 creationTimestamp=8:Time ' +
    'deletionTimestamp=9:Time deletionGracePeriodSeconds=10:int64! labels=11:map<string> annotations=12:map<string> ' +
    'ownerReferences=13:[]OwnerReference finalizers=14:[]string clusterName=15 initializers=16:Initializers managedFields=17:[]ManagedFieldsEntry',
  ManagedFieldsEntry: 'manager=1 operation=2 apiVersion=3 time=4:Time fieldsType=6 fieldsV1=7:FieldsV1 subresource=8',
  FieldsV1: 'raw=1:bytes',
  OwnerReference: 'kind=1! name=3! uid=4! apiVersion=5! controller=6:bool! blockOwnerDeletion=7:bool!',
  Initializers: 'pending=1:[]Initializer result=2:Status',
  Initializer: 'name=1!',
  ListMeta: 'selfLink=1 resourceVersion=2 continue=3 remainingItemCount=4:int64!',
  PartialObjectMetadata: 'metadata=1:ObjectMeta',
  PartialObjectMetadataList: 'metadata=1:ListMeta items=2:[]PartialObjectMetadata',
  LabelSelector: 'matchLabels=1:map<string> matchExpressions=2:[]LabelSelectorRequirement',
  LabelSelectorRequirement: 'key=1! operator=2! values=3:[]string',
  Status: 'metadata=1:ListMeta status=2 message=3 reason=4 details=5:StatusDetails code=6:int32',
  StatusDetails: 'name=1 group=2 kind=3 causes=4:[]StatusCause retryAfterSeconds=5:int32 uid=6',
  StatusCause: 'reason=1 message=2 field=3',
  DeleteOptions:
    'gracePeriodSeconds=1:int64! preconditions=2:Preconditions orphanDependents=3:bool! propagationPolicy=4! dryRun=5:[]string',
  Preconditions: 'uid=1! resourceVersion=2!',
  WatchEvent: 'type=1 object=2:RawExtension',
  APIVersions: 'versions=1:[]string serverAddressByClientCIDRs=2:[]ServerAddressByClientCIDR',
  ServerAddressByClientCIDR: 'clientCIDR=1! serverAddress=2!',
  APIGroupList: 'groups=1:[]APIGroup',
  APIGroup:
    'name=1! versions=2:[]GroupVersionForDiscovery preferredVersion=3:GroupVersionForDiscovery serverAddressByClientCIDRs=4:[]ServerAddressByClientCIDR',
  GroupVersionForDiscovery: 'groupVersion=1! version=2!',
  APIResourceList: 'groupVersion=1! resources=2:[]APIResource',
  APIResource:
    'name=1! namespaced=2:bool! kind=3! verbs=4:Verbs! shortNames=5:[]string singularName=6! categories=7:[]string group=8 version=9',
};

/** Kinds of meta documents a response may carry, with their message. */
export const META_KINDS = [
  'Status',
  'APIVersions',
  'APIGroupList',
  'APIGroup',
  'APIResourceList',
  'DeleteOptions',
] as const;
