/**
 * ValidatingAdmissionPolicyBinding (admissionregistration.k8s.io/v1; k8s.io/kubernetes
 * pkg/registry/admissionregistration/validatingadmissionpolicybinding, 1.33): cluster-scoped,
 * category `api-extensions`, storage prefix `validatingadmissionpolicybindings`, no
 * subresources; served at v1 only, as upstream 1.33 by default. A write naming a paramRef is
 * also checked against what the writer may read (validatingadmissionpolicybindings.authz.ts).
 */
import { defineResource } from '../define.js';
import { ADMISSION_GROUP } from '../validatingadmissionpolicies/validatingadmissionpolicies.resource.js';
import { bindingMessages } from './validatingadmissionpolicybindings.protobuf.js';
import { validatingAdmissionPolicyBindingSchema } from './validatingadmissionpolicybindings.schema.js';
import { bindingStrategy } from './validatingadmissionpolicybindings.strategy.js';
import { bindingPrinter } from './validatingadmissionpolicybindings.table.js';

export const validatingAdmissionPolicyBindings = defineResource({
  group: ADMISSION_GROUP,
  version: 'v1',
  kind: 'ValidatingAdmissionPolicyBinding',
  description:
    'ValidatingAdmissionPolicyBinding binds a ValidatingAdmissionPolicy to parameter resources and to the requests it validates, and says how its failures are enforced.',
  plural: 'validatingadmissionpolicybindings',
  namespaced: false,
  categories: ['api-extensions'],
  schema: validatingAdmissionPolicyBindingSchema,
  printer: bindingPrinter,
  protobuf: bindingMessages(`${ADMISSION_GROUP}/v1`),
  strategy: bindingStrategy,
});
