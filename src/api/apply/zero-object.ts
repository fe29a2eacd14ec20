/**
 * A kind's zero object, the "before" of a create (upstream: `runtime.ObjectCreater.New(kind)`
 * converted to a typed value). What matters for field ownership is which maps and lists
 * already exist in the Go zero value: non-pointer structs (`spec`, `status`, a pod template's
 * `metadata` and `spec`) and lists without `omitempty` (a pod's `containers`) are present, so
 * a create records their fields but not the maps or lists themselves (no `".": {}` for
 * `f:spec` or `f:containers`, as kube-apiserver writes them), while pointers and omitempty
 * maps and lists are new (`f:labels: {".": {}, ...}`). Pure; k8s.io/api core/v1 types.go.
 */
import { isMap, type Json, type JsonMap } from '../json.js';

const META = { creationTimestamp: null };
const POD_SPEC = { containers: null };

/** Maps and lists of each kind's Go zero value (beyond `metadata`). */
const ZERO: Readonly<Record<string, JsonMap>> = {
  Pod: { spec: POD_SPEC, status: {} },
  PodTemplate: { template: { metadata: META, spec: POD_SPEC } },
  ReplicationController: { spec: {}, status: {} },
  Service: { spec: {}, status: { loadBalancer: {} } },
  Namespace: { spec: {}, status: {} },
  Node: { spec: {}, status: { daemonEndpoints: { kubeletEndpoint: {} }, nodeInfo: {} } },
  PersistentVolume: { spec: {}, status: {} },
  PersistentVolumeClaim: { spec: { resources: {} }, status: {} },
  LimitRange: { spec: { limits: null } },
  ResourceQuota: { spec: {}, status: {} },
  Event: { involvedObject: {}, source: {} },
  Binding: { target: {} },
};

/**
 * The zero object of `kind`: `metadata` with its null creationTimestamp, and the kind's
 * always-present maps and lists. Unknown kinds: `spec` and `status` as empty maps when
 * `like` has them as maps.
 */
export function zeroObject(kind: string, like: JsonMap = {}): JsonMap {
  const known = ZERO[kind];
  if (known) return { metadata: META, ...known };
  const out: Record<string, Json> = { metadata: META };
  for (const k of ['spec', 'status']) if (isMap(like[k])) out[k] = {};
  return out;
}
