/**
 * What a policy's expressions see of a request beside the objects (upstream k8s.io/apiserver
 * pkg/admission/plugin/cel/condition.go CreateAdmissionRequest and CreateNamespaceObject, and
 * the authorizer values of activation.go): `request` as an AdmissionRequest with the matched
 * kind and resource (the requested ones as requestKind and requestResource), `namespaceObject`
 * as the namespace with only the metadata upstream copies, and the writer for `authorizer`.
 */
import type { ApiObject } from '../../api/object.js';
import type { AdmissionActivationInput, CelAuthorizer } from '../../api/cel/admission/index.js';
import { SERVER_WRITER, type GroupVersionKind, type GroupVersionResource } from '../../registry/hooks.js';
import type { AdmissionRequest } from '../webhooks/types.js';

/** The AdmissionRequest as JSON (without uid, object and oldObject), fields in upstream's order. */
export function celRequest(
  req: AdmissionRequest,
  resource: GroupVersionResource,
  kind: GroupVersionKind,
): Record<string, unknown> {
  const out: Record<string, unknown> = {
    uid: '',
    kind: { group: kind.group, version: kind.version, kind: kind.kind },
    resource: { group: resource.group, version: resource.version, resource: resource.resource },
  };
  if (req.subresource) out.subResource = req.subresource;
  out.requestKind = { group: req.kind.group, version: req.kind.version, kind: req.kind.kind };
  out.requestResource = { group: req.resource.group, version: req.resource.version, resource: req.resource.resource };
  if (req.subresource) out.requestSubResource = req.subresource;
  if (req.name) out.name = req.name;
  if (req.namespace) out.namespace = req.namespace;
  out.operation = req.operation;
  out.userInfo = userInfo(req);
  out.object = null;
  out.oldObject = null;
  out.dryRun = req.attrs.dryRun;
  out.options = req.attrs.options ?? null;
  return out;
}

/** authentication.k8s.io/v1 UserInfo of the writer (empty fields left out). */
function userInfo(req: AdmissionRequest): Record<string, unknown> {
  const user = req.attrs.user;
  const out: Record<string, unknown> = {};
  if (!user) return out;
  if (user.name) out.username = user.name;
  if (user.uid) out.uid = user.uid;
  if (user.groups.length) out.groups = [...user.groups];
  const extra = Object.entries(user.extra ?? {});
  if (extra.length) out.extra = Object.fromEntries(extra.map(([k, v]) => [k, [...v]]));
  return out;
}

const META_FIELDS = [
  'name',
  'generateName',
  'namespace',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'labels',
  'annotations',
  'finalizers',
] as const;

/** `namespaceObject`: the namespace's spec, status and the metadata upstream copies. */
export function namespaceObject(ns: ApiObject): Record<string, unknown> {
  const metadata: Record<string, unknown> = {};
  const source: Readonly<Record<string, unknown>> = ns.metadata;
  for (const f of META_FIELDS) if (source[f] !== undefined) metadata[f] = source[f];
  const out: Record<string, unknown> = { metadata };
  if (ns.spec !== undefined) out.spec = ns.spec;
  if (ns.status !== undefined) out.status = ns.status;
  return out;
}

/** The `authorizer` binding for `req` (the writer, the requested resource); the server's own writes ask as system:apiserver. */
export function celAuthorizer(
  authorizer: CelAuthorizer,
  req: AdmissionRequest,
): AdmissionActivationInput['authorizer'] {
  const user = req.attrs.user ?? SERVER_WRITER;
  return {
    authorizer,
    user: { name: user.name, uid: user.uid, groups: user.groups, extra: user.extra },
    requestResource: {
      group: req.resource.group,
      resource: req.resource.resource,
      subresource: req.subresource,
      namespace: req.namespace,
      name: req.name,
    },
  };
}
