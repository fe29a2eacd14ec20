/**
 * The parts the admission policy kinds share (k8s.io/api admissionregistration/v1 types.go,
 * 1.33): MatchResources (which requests a ValidatingAdmissionPolicy or its binding selects:
 * namespace and object selectors, resource rules with optional resource names, exclusions and
 * the match policy; `+structType=atomic`, so server-side apply owns it whole), its
 * NamedRuleWithOperations, and the policy's match conditions.
 */
import type { z } from 'zod';
import { declared } from '../../api/core/patch-info.js';
import { atomic, list, mergedList, obj, reqObj, reqStr, str, strList } from '../../api/core/schema-kit.js';
import { labelSelectorSchema } from '../apps-common/label-selector.js';

/** A list server-side apply replaces whole (`+listType=atomic`). */
export const atomicList = <T extends z.ZodType>(item: T) => declared(list(item), { listType: 'atomic' });

/** NamedRuleWithOperations: a RuleWithOperations (inlined) with optional resource names. */
export const namedRuleWithOperationsSchema = atomic(
  reqObj({
    resourceNames: strList.describe(
      'Names of the objects the rule applies to; empty means every object of the resources.',
    ),
    operations: strList.describe(
      'The operations the rule matches: CREATE, UPDATE, DELETE, CONNECT, or * for all of them (then alone).',
    ),
    apiGroups: strList.describe('The API groups of the resources; * is every group (then alone).'),
    apiVersions: strList.describe('The API versions of the resources; * is every version (then alone).'),
    resources: strList.describe(
      "The resources the rule matches: 'pods', 'pods/log' for a subresource, 'pods/*' for every subresource of pods, '*' for every resource, '*/*' for every resource and subresource, '*/scale' for the scale of every resource.",
    ),
    scope: str.describe(
      'The scope of the resources: "Cluster", "Namespaced" or "*" (any; the default). A subresource has the scope of its resource.',
    ),
  }),
);

/** MatchResources. */
export const matchResourcesSchema = atomic(
  obj({
    namespaceSelector: labelSelectorSchema.describe(
      'Runs the policy only for objects whose namespace has matching labels (for a Namespace, its own labels); objects of cluster-scoped resources always match. Defaults to the empty selector, which matches every namespace.',
    ),
    objectSelector: labelSelectorSchema.describe(
      'Runs the policy only when the new or the old object has matching labels (an absent object, or one that cannot carry labels, does not match). Defaults to the empty selector, which matches everything.',
    ),
    resourceRules: atomicList(namedRuleWithOperationsSchema).describe(
      'The operations on resources and subresources the policy cares about: a request matching any rule matches.',
    ),
    excludeResourceRules: atomicList(namedRuleWithOperationsSchema).describe(
      'The operations on resources and subresources the policy must not care about; exclusion wins over inclusion.',
    ),
    matchPolicy: str.describe(
      'How the rules match requests: Exact (only the group and version listed) or Equivalent (also the same resource through another group or version, converted; the default).',
    ),
  }),
);

/** MatchCondition of an admission policy (merged by name). */
export const policyMatchConditionSchema = reqObj({
  name: reqStr.describe(
    "An identifier for this condition, unique among the policy's conditions: a qualified name (an optional DNS subdomain prefix and '/', then at most 63 characters). Required.",
  ),
  expression: reqStr.describe(
    'A CEL expression that must evaluate to bool; it sees object, oldObject, request, authorizer and (with a paramKind) params. Required.',
  ),
});

/** The match conditions of a policy: at most 64, merged by name. */
export const policyMatchConditionsSchema = mergedList(policyMatchConditionSchema, { key: 'name' }).describe(
  'Conditions a request must all meet to be validated, after the rules and selectors matched (at most 64). Any false: the policy is skipped; all true: it runs; an error and none false: the failure policy decides.',
);

export type MatchResources = NonNullable<z.infer<typeof matchResourcesSchema>>;
export type NamedRuleWithOperations = z.infer<typeof namedRuleWithOperationsSchema>;
export type PolicyMatchCondition = z.infer<typeof policyMatchConditionSchema>;
