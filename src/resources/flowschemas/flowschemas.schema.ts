/**
 * FlowSchema fields (k8s.io/api flowcontrol/v1 types.go, 1.33). Required fields are those
 * upstream's OpenAPI requires; `rules` and each rule's `subjects`, `resourceRules` and
 * `nonResourceRules` are atomic lists (`+listType=atomic`, replaced whole by every patch), a
 * rule's verbs, API groups, resources, namespaces and URLs are sets (`+listType=set`, replaced
 * by strategic merge, which has no strategy for them), and status conditions merge by `type`.
 */
import { z } from 'zod';
import { declared } from '../../api/core/patch-info.js';
import { bool, int, list, obj, reqList, reqObj, reqStr } from '../../api/core/schema-kit.js';
import { kindSchema } from '../../api/meta-schema.js';
import type { KindObject } from '../../registry/types.js';
import { conditionsStatus } from '../flowcontrol-common/status.js';

/** A required list of strings that server-side apply treats as a set. */
const stringSet = () => declared(reqList(z.string()), { listType: 'set' });
/** A list that every patch replaces whole. */
const atomicList = <T extends z.ZodType>(item: T) => declared(list(item), { listType: 'atomic' });

const subject = reqObj({
  kind: reqStr.describe('Which of user, group and serviceAccount this subject sets: User, Group or ServiceAccount.'),
  user: obj({ name: reqStr.describe('The user name matched, or "*" for every user.') }).describe(
    'The user matched (kind User).',
  ),
  group: obj({
    name: reqStr.describe('The group matched (system:authenticated, ...), or "*" for every group.'),
  }).describe('The group matched (kind Group).'),
  serviceAccount: obj({
    namespace: reqStr.describe('The namespace of the service accounts matched.'),
    name: reqStr.describe('The name of the service account matched, or "*" for every one of the namespace.'),
  }).describe('The service accounts matched (kind ServiceAccount).'),
}).describe('Who a request comes from: a user, a group or a service account.');

const resourcePolicyRule = reqObj({
  verbs: stringSet().describe('The verbs matched; "*" (alone) matches every verb.'),
  apiGroups: stringSet().describe('The API groups matched; "*" (alone) matches every group.'),
  resources: stringSet().describe(
    'The resources matched, lower-case plural, with a subresource if wanted ("nodes/status"); "*" (alone) matches every resource.',
  ),
  clusterScope: bool.describe(
    'Whether requests that name no namespace (a cluster-scoped resource, or a request across namespaces) match; when false, namespaces must list at least one.',
  ),
  namespaces: declared(list(z.string()), { listType: 'set' }).describe(
    'The namespaces of requests matched; "*" matches every namespace but not a request that names none.',
  ),
}).describe('Resource requests matched: by verb, API group, resource and namespace, all of which must match.');

const nonResourcePolicyRule = reqObj({
  verbs: stringSet().describe('The verbs matched; "*" (alone) matches every verb.'),
  nonResourceURLs: stringSet().describe(
    'URL paths matched: exact ("/healthz"), or a subtree ending in "/*" ("/healthz/*"); "*" (alone) matches every path.',
  ),
}).describe('Non-resource requests matched: by verb and URL path, both of which must match.');

const policyRulesWithSubjects = reqObj({
  subjects: declared(reqList(subject), { listType: 'atomic' }).describe(
    'Who the rule applies to; at least one. The groups system:authenticated and system:unauthenticated together match everyone.',
  ),
  resourceRules: atomicList(resourcePolicyRule).describe(
    'Resource requests matched; this or nonResourceRules must be non-empty.',
  ),
  nonResourceRules: atomicList(nonResourcePolicyRule).describe('Non-resource requests matched.'),
}).describe('A rule: requests from one of the subjects that match one of the resource or non-resource rules.');

export const flowSchemaSchema = kindSchema({
  spec: obj({
    priorityLevelConfiguration: reqObj({
      name: reqStr.describe('The name of the PriorityLevelConfiguration.'),
    }).describe(
      'The priority level requests matching this schema go to; a schema whose level does not exist is ignored and marked Dangling.',
    ),
    matchingPrecedence: int.describe(
      'Among the schemas matching a request, the one with the lowest value is chosen (ties by name); 1 to 10000, default 1000, and 1 only for the schema named exempt.',
    ),
    distinguisherMethod: obj({
      type: reqStr.describe('ByUser (the user name) or ByNamespace (the namespace of the object acted on).'),
    }).describe(
      'How requests are split into flows, the unit of fair queuing; absent: every request of the schema is in one flow.',
    ),
    rules: atomicList(policyRulesWithSubjects).describe(
      'The requests this schema matches: those matching at least one rule; none when empty.',
    ),
  }).describe('Which requests the schema matches and where they go.'),
  status: conditionsStatus('FlowSchema', 'Dangling'),
});

/** A FlowSchema as its schema describes it. */
export type FlowSchema = KindObject<typeof flowSchemaSchema>;
/** The spec of a FlowSchema. */
export type FlowSchemaSpec = NonNullable<FlowSchema['spec']>;
/** One rule of a FlowSchema. */
export type PolicyRulesWithSubjects = NonNullable<FlowSchemaSpec['rules']>[number];
/** A subject of a rule. */
export type Subject = PolicyRulesWithSubjects['subjects'][number];
/** A resource rule. */
export type ResourcePolicyRule = NonNullable<PolicyRulesWithSubjects['resourceRules']>[number];
/** A non-resource rule. */
export type NonResourcePolicyRule = NonNullable<PolicyRulesWithSubjects['nonResourceRules']>[number];
