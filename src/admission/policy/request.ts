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
import { admissionRequest } from '../webhooks/review.js';
import type { AdmissionRequest } from '../webhooks/types.js';

/** The AdmissionRequest as JSON (uid empty, objects null), as a webhook called for `resource` and `kind` receives it. */
export function celRequest(
  req: AdmissionRequest,
  resource: GroupVersionResource,
  kind: GroupVersionKind,
): Record<string, unknown> {
  return admissionRequest('', { resource, kind, subresource: req.subresource }, req, NO_OBJECTS);
}

const NO_OBJECTS = { object: null, oldObject: null };

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
