/**
 * The ValidatingAdmissionPolicy plugin as one store's hooks (upstream k8s.io/apiserver
 * pkg/admission/plugin/policy/generic/plugin.go Dispatch and validating/plugin.go): it
 * validates creates and updates after the kind's validation (`beforeCreate`, `beforeUpdate`)
 * and deletes with the stored object as oldObject (`beforeDelete`), dry runs included. The
 * policy kinds themselves (validatingadmissionpolicies, validatingadmissionpolicybindings,
 * mutatingadmissionpolicies, mutatingadmissionpolicybindings) and the review kinds that are
 * never stored (kube-apiserver's exclusion list: tokenreviews, selfsubjectreviews,
 * subjectaccessreviews, selfsubjectaccessreviews, localsubjectaccessreviews,
 * selfsubjectrulesreviews) are exempt. A request arriving before the policies were read waits
 * for them (up to 10 s, then 403 `not yet ready to handle request`).
 */
import type { ApiObject } from '../../api/object.js';
import { ApiError, forbidden } from '../../errors/api-error.js';
import type { AdmissionAttributes, GroupVersionResource, StoreHooks } from '../../registry/hooks.js';
import type { ResourceDefinition } from '../../registry/types.js';
import { requestOf } from '../webhooks/plugin.js';
import type { AdmissionRequest } from '../webhooks/types.js';
import { dispatchPolicies, type PolicyDispatchDeps } from './dispatcher.js';
import type { PolicySource } from './source.js';

/** Group/resource pairs no policy applies to (upstream admissionResources and exclusion.Excluded()). */
const EXCLUDED = new Set([
  'admissionregistration.k8s.io/validatingadmissionpolicies',
  'admissionregistration.k8s.io/validatingadmissionpolicybindings',
  'admissionregistration.k8s.io/mutatingadmissionpolicies',
  'admissionregistration.k8s.io/mutatingadmissionpolicybindings',
  'authentication.k8s.io/selfsubjectreviews',
  'authentication.k8s.io/tokenreviews',
  'authorization.k8s.io/localsubjectaccessreviews',
  'authorization.k8s.io/selfsubjectaccessreviews',
  'authorization.k8s.io/selfsubjectrulesreviews',
  'authorization.k8s.io/subjectaccessreviews',
]);

/** Whether no policy applies to requests for `resource` (upstream shouldIgnoreResource). */
export function isExcludedResource(resource: GroupVersionResource): boolean {
  return EXCLUDED.has(`${resource.group}/${resource.resource}`);
}

/** The plugin as hooks of the store serving `def`. */
export function policyAdmission(def: ResourceDefinition, source: PolicySource, deps: PolicyDispatchDeps): StoreHooks {
  // The exempt resources get no hooks; the request is built only when a policy may apply.
  if (isExcludedResource({ group: def.group, version: def.version, resource: def.plural })) return {};
  const validate = async (request: () => AdmissionRequest) => {
    if (!(await source.ready())) {
      const req = request();
      const failure = source.failureOfFirstRead?.();
      if (failure instanceof ApiError) throw failure;
      throw forbidden(req.resource.resource, req.name, 'not yet ready to handle request', req.resource.group);
    }
    const hooks = source.hooks();
    if (!hooks.length) return;
    await dispatchPolicies(hooks, request(), deps);
  };
  return {
    beforeCreate: (obj: ApiObject, attrs: AdmissionAttributes) =>
      validate(() => requestOf(def, 'CREATE', obj, null, attrs)),
    beforeUpdate: (obj, old, attrs) => validate(() => requestOf(def, 'UPDATE', obj, old, attrs)),
    beforeDelete: (obj, attrs) => validate(() => requestOf(def, 'DELETE', null, obj, attrs)),
  };
}
