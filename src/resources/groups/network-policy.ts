/**
 * Rows of the resource table added for issue 30 (see the comment at the end of
 * src/resources/table.ts for which groups each file serves); each row's kind lives in its own
 * folder under src/resources/. Here: networking (NetworkPolicy, Ingress, IngressClass) and
 * policy (PodDisruptionBudget, PodSecurityPolicy), storage rows first, then the versions served
 * over them; Eviction is a subresource of pods (resources/evictions).
 */
import type { ResourceDefinition } from '../../registry/types.js';
import { ingressClasses } from '../ingressclasses/ingressclasses.resource.js';
import { ingresses, ingressesExtensions } from '../ingresses/ingresses.resource.js';
import {
  networkPolicies,
  networkPoliciesCk,
  networkPoliciesExtensions,
} from '../networkpolicies/networkpolicies.resource.js';
import {
  podDisruptionBudgets,
  podDisruptionBudgetsV1beta1,
} from '../poddisruptionbudgets/poddisruptionbudgets.resource.js';
import {
  podSecurityPolicies,
  podSecurityPoliciesExtensions,
} from '../podsecuritypolicies/podsecuritypolicies.resource.js';

export const ROWS: readonly ResourceDefinition[] = [
  // networking.k8s.io/v1 (the storage version of all three) and networking.ck.io/v1
  ingressClasses,
  ingresses,
  networkPolicies,
  networkPoliciesCk,
  // policy/v1 (PodDisruptionBudget's storage) and policy/v1beta1 (PodSecurityPolicy's storage)
  podDisruptionBudgets,
  podDisruptionBudgetsV1beta1,
  podSecurityPolicies,
  // extensions/v1beta1 of 1.10
  ingressesExtensions,
  networkPoliciesExtensions,
  podSecurityPoliciesExtensions,
];
