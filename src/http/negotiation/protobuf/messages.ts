/**
 * Protobuf message definitions, written for protobufjs from upstream's field numbers
 * (k8s.io/apimachinery runtime.Unknown, meta/v1 ObjectMeta and friends, core/v1 kinds), each
 * number checked against bodies kubectl 1.32 sends. Covered so far: the envelope, ObjectMeta,
 * and the kinds kubectl creates with protobuf bodies (Namespace, Secret, ConfigMap,
 * ServiceAccount, ResourceQuota, Service).
 */
import protobuf from 'protobufjs';

type Fields = Record<string, { type: string; id: number; rule?: 'repeated'; keyType?: string }>;

const str = (id: number) => ({ type: 'string', id });
const msg = (type: string, id: number) => ({ type, id });
const list = (type: string, id: number) => ({ type, id, rule: 'repeated' as const });
const map = (type: string, id: number) => ({ type, id, keyType: 'string' });

const definitions: Record<string, Fields> = {
  Unknown: { typeMeta: msg('TypeMeta', 1), raw: { type: 'bytes', id: 2 }, contentEncoding: str(3), contentType: str(4) },
  TypeMeta: { apiVersion: str(1), kind: str(2) },
  Time: { seconds: { type: 'int64', id: 1 }, nanos: { type: 'int32', id: 2 } },
  Quantity: { string: str(1) },
  IntOrString: { type: { type: 'int64', id: 1 }, intVal: { type: 'int32', id: 2 }, strVal: str(3) },
  OwnerReference: { kind: str(1), name: str(3), uid: str(4), apiVersion: str(5), controller: { type: 'bool', id: 6 }, blockOwnerDeletion: { type: 'bool', id: 7 } },
  Initializer: { name: str(1) },
  Initializers: { pending: list('Initializer', 1) },
  ObjectMeta: {
    name: str(1),
    generateName: str(2),
    namespace: str(3),
    selfLink: str(4),
    uid: str(5),
    resourceVersion: str(6),
    generation: { type: 'int64', id: 7 },
    creationTimestamp: msg('Time', 8),
    deletionTimestamp: msg('Time', 9),
    deletionGracePeriodSeconds: { type: 'int64', id: 10 },
    labels: map('string', 11),
    annotations: map('string', 12),
    ownerReferences: list('OwnerReference', 13),
    finalizers: list('string', 14),
    clusterName: str(15),
    initializers: msg('Initializers', 16),
  },
  ObjectReference: { kind: str(1), namespace: str(2), name: str(3), uid: str(4), apiVersion: str(5), resourceVersion: str(6), fieldPath: str(7) },
  LocalObjectReference: { name: str(1) },
  Namespace: { metadata: msg('ObjectMeta', 1), spec: msg('NamespaceSpec', 2), status: msg('NamespaceStatus', 3) },
  NamespaceSpec: { finalizers: list('string', 1) },
  NamespaceStatus: { phase: str(1) },
  Secret: { metadata: msg('ObjectMeta', 1), data: map('bytes', 2), type: str(3), stringData: map('string', 4) },
  ConfigMap: { metadata: msg('ObjectMeta', 1), data: map('string', 2), binaryData: map('bytes', 3) },
  ServiceAccount: {
    metadata: msg('ObjectMeta', 1),
    secrets: list('ObjectReference', 2),
    imagePullSecrets: list('LocalObjectReference', 3),
    automountServiceAccountToken: { type: 'bool', id: 4 },
  },
  ResourceQuota: { metadata: msg('ObjectMeta', 1), spec: msg('ResourceQuotaSpec', 2), status: msg('ResourceQuotaStatus', 3) },
  ResourceQuotaSpec: { hard: map('Quantity', 1), scopes: list('string', 2) },
  ResourceQuotaStatus: { hard: map('Quantity', 1), used: map('Quantity', 2) },
  Service: { metadata: msg('ObjectMeta', 1), spec: msg('ServiceSpec', 2), status: msg('ServiceStatus', 3) },
  ServicePort: { name: str(1), protocol: str(2), port: { type: 'int32', id: 3 }, targetPort: msg('IntOrString', 4), nodePort: { type: 'int32', id: 5 } },
  ServiceSpec: {
    ports: list('ServicePort', 1),
    selector: map('string', 2),
    clusterIP: str(3),
    type: str(4),
    externalIPs: list('string', 5),
    sessionAffinity: str(7),
    loadBalancerIP: str(8),
    loadBalancerSourceRanges: list('string', 9),
    externalName: str(10),
    externalTrafficPolicy: str(11),
    healthCheckNodePort: { type: 'int32', id: 12 },
    publishNotReadyAddresses: { type: 'bool', id: 13 },
    sessionAffinityConfig: msg('SessionAffinityConfig', 14),
  },
  SessionAffinityConfig: { clientIP: msg('ClientIPConfig', 1) },
  ClientIPConfig: { timeoutSeconds: { type: 'int32', id: 1 } },
  ServiceStatus: { loadBalancer: msg('LoadBalancerStatus', 1) },
  LoadBalancerStatus: { ingress: list('LoadBalancerIngress', 1) },
  LoadBalancerIngress: { ip: str(1), hostname: str(2) },
};

/** Message types by name. */
export const PROTO_ROOT = protobuf.Root.fromJSON({
  nested: Object.fromEntries(Object.entries(definitions).map(([name, fields]) => [name, { fields }])),
});

/** Go pointer fields of the covered kinds: a zero value on the wire is still a value. */
export const POINTER_FIELDS = new Set(['automountServiceAccountToken', 'deletionGracePeriodSeconds', 'controller', 'blockOwnerDeletion']);

/** Fields whose messages become scalars in JSON. */
export const SPECIAL_TYPES = { time: 'Time', quantity: 'Quantity', intOrString: 'IntOrString' } as const;
