/**
 * ValidatingAdmissionPolicy (admissionregistration.k8s.io/v1; k8s.io/kubernetes
 * pkg/registry/admissionregistration/validatingadmissionpolicy, 1.33): cluster-scoped, category
 * `api-extensions`, storage prefix `validatingadmissionpolicies`, with `/status`. Upstream 1.33
 * serves it at v1 only by default (v1beta1 and v1alpha1 are off), so this row is the only one.
 * The policies are enforced by admission/policy/; a write naming a paramKind is also checked
 * against what the writer may read (validatingadmissionpolicies.authz.ts).
 */
import { defineResource } from '../define.js';
import { policyMessages } from './validatingadmissionpolicies.protobuf.js';
import { validatingAdmissionPolicySchema } from './validatingadmissionpolicies.schema.js';
import { policyStatusSubresource } from './validatingadmissionpolicies.status.js';
import { policyStrategy } from './validatingadmissionpolicies.strategy.js';
import { policyPrinter } from './validatingadmissionpolicies.table.js';

export const ADMISSION_GROUP = 'admissionregistration.k8s.io';

export const validatingAdmissionPolicies = defineResource({
  group: ADMISSION_GROUP,
  version: 'v1',
  kind: 'ValidatingAdmissionPolicy',
  description:
    'ValidatingAdmissionPolicy describes an admission validation policy: CEL expressions that accept or reject an object without changing it.',
  plural: 'validatingadmissionpolicies',
  namespaced: false,
  categories: ['api-extensions'],
  schema: validatingAdmissionPolicySchema,
  printer: policyPrinter,
  protobuf: policyMessages(`${ADMISSION_GROUP}/v1`),
  subresources: [policyStatusSubresource],
  strategy: policyStrategy,
});
