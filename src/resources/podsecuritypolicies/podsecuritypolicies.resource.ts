/**
 * PodSecurityPolicy of 1.10: cluster-scoped, one storage (upstream's prefix
 * `podsecuritypolicy`) served as policy/v1beta1 and extensions/v1beta1 with the same schema,
 * as RBAC's two groups. Short name `psp`. Defaults as upstream's SetDefaults_PodSecurityPolicySpec
 * (allowPrivilegeEscalation true when unset); validation podsecuritypolicies.validation.ts.
 * Stored and validated only: no admission plugin enforces policies on pods.
 */
import { defineResource } from '../define.js';
import { podSecurityPolicyMessages } from './podsecuritypolicies.protobuf.js';
import { podSecurityPolicySchema } from './podsecuritypolicies.schema.js';
import { podSecurityPolicyPrinter } from './podsecuritypolicies.table.js';
import { validatePodSecurityPolicy } from './podsecuritypolicies.validation.js';

const common = {
  version: 'v1beta1',
  kind: 'PodSecurityPolicy',
  description:
    'PodSecurityPolicy governs the ability to make requests that affect the security context applied to a pod and container (removed upstream in 1.25).',
  plural: 'podsecuritypolicies',
  namespaced: false,
  shortNames: ['psp'],
  storagePrefix: 'podsecuritypolicy',
  schema: podSecurityPolicySchema,
  printer: podSecurityPolicyPrinter,
  protobuf: podSecurityPolicyMessages,
  strategy: {
    defaults(obj: { spec?: { allowPrivilegeEscalation?: boolean | null } | null }) {
      const spec = (obj.spec ??= {});
      if (spec.allowPrivilegeEscalation === undefined || spec.allowPrivilegeEscalation === null)
        spec.allowPrivilegeEscalation = true;
    },
    validate: validatePodSecurityPolicy,
    validateUpdate: validatePodSecurityPolicy,
  },
} as const;

/** policy/v1beta1: the storage version. */
export const podSecurityPolicies = defineResource({ ...common, group: 'policy' });

/** extensions/v1beta1, over the same storage. */
export const podSecurityPoliciesExtensions = defineResource({ ...common, group: 'extensions' });
