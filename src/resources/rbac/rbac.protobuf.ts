/**
 * Protobuf messages of the RBAC kinds (notation in api/protobuf/messages.ts; numbers from
 * upstream's k8s.io/api rbac/v1 generated.proto). Fields without `omitempty` keep their zero
 * value (`!`): PolicyRule.verbs, the rules of a role, Subject.kind and name, and every RoleRef
 * field. Both groups serve the same messages (the kinds are named alike).
 */
import { inVersions, listMessage, type MessageSet, type ProtoMessages } from '../../api/protobuf/messages.js';

/** The messages of the four kinds, their lists, PolicyRule, AggregationRule, Subject and RoleRef. */
const RBAC_MESSAGES: MessageSet = {
  ...listMessage('Role'),
  ...listMessage('ClusterRole'),
  ...listMessage('RoleBinding'),
  ...listMessage('ClusterRoleBinding'),
  AggregationRule: 'clusterRoleSelectors=1:[]LabelSelector',
  ClusterRole: 'metadata=1:ObjectMeta rules=2:[]PolicyRule! aggregationRule=3:AggregationRule',
  ClusterRoleBinding: 'metadata=1:ObjectMeta subjects=2:[]Subject roleRef=3:RoleRef!',
  PolicyRule:
    'verbs=1:[]string! apiGroups=2:[]string resources=3:[]string resourceNames=4:[]string nonResourceURLs=5:[]string',
  Role: 'metadata=1:ObjectMeta rules=2:[]PolicyRule!',
  RoleBinding: 'metadata=1:ObjectMeta subjects=2:[]Subject roleRef=3:RoleRef!',
  RoleRef: 'apiGroup=1! kind=2! name=3!',
  Subject: 'kind=1! apiGroup=2 name=3! namespace=4',
};

/** The RBAC messages in the v1 package of each of `groups`. */
export const rbacMessages = (...groups: readonly string[]): ProtoMessages =>
  inVersions(RBAC_MESSAGES, ...groups.map((group) => `${group}/v1`));
