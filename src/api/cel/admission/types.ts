/**
 * The declared types of the admission variables `request` and `namespaceObject` (upstream
 * k8s.io/apiserver pkg/admission/plugin/cel/compile.go BuildRequestType, BuildNamespaceType).
 * They type-check expressions (`request.foo` is `undefined field 'foo'`); at run time both are
 * the JSON of the AdmissionRequest and the Namespace as maps, as upstream's
 * SchemalessTypedToVal makes them, so an absent field is `no such key`.
 */
import { BOOL, type CelType, DYN, INT, STRING, TIMESTAMP, listOf, mapOf } from '../types.js';

const object = (name: string, fields: Record<string, CelType>): CelType => ({
  kind: 'object',
  name,
  fields: new Map(Object.entries(fields)),
});

const gvk = object('kubernetes.GroupVersionKind', { group: STRING, version: STRING, kind: STRING });
const gvr = object('kubernetes.GroupVersionResource', { group: STRING, version: STRING, resource: STRING });
const userInfo = object('kubernetes.UserInfo', {
  username: STRING,
  uid: STRING,
  groups: listOf(STRING),
  extra: mapOf(STRING, listOf(STRING)),
});

/** `request`: kubernetes.AdmissionRequest. */
export const REQUEST_TYPE = object('kubernetes.AdmissionRequest', {
  kind: gvk,
  resource: gvr,
  subResource: STRING,
  requestKind: gvk,
  requestResource: gvr,
  requestSubResource: STRING,
  name: STRING,
  namespace: STRING,
  operation: STRING,
  userInfo,
  dryRun: BOOL,
  options: DYN,
});

const condition = object('kubernetes.NamespaceCondition', {
  status: STRING,
  type: STRING,
  lastTransitionTime: TIMESTAMP,
  message: STRING,
  reason: STRING,
});

/** `namespaceObject`: kubernetes.Namespace (the fields upstream declares). */
export const NAMESPACE_TYPE = object('kubernetes.Namespace', {
  metadata: object('kubernetes.NamespaceMetadata', {
    name: STRING,
    generateName: STRING,
    namespace: STRING,
    labels: mapOf(STRING, STRING),
    annotations: mapOf(STRING, STRING),
    UID: STRING,
    creationTimestamp: TIMESTAMP,
    deletionGracePeriodSeconds: INT,
    deletionTimestamp: TIMESTAMP,
    generation: INT,
    resourceVersion: STRING,
    finalizers: listOf(STRING),
  }),
  spec: object('kubernetes.NamespaceSpec', { finalizers: listOf(STRING) }),
  status: object('kubernetes.NamespaceStatus', { conditions: listOf(condition), phase: STRING }),
});
