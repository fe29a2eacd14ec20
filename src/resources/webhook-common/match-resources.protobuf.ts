/**
 * Protobuf messages the admission policy kinds share (notation in api/protobuf/messages.ts;
 * numbers from upstream's k8s.io/api admissionregistration/v1 generated.proto, 1.33): a
 * NamedRuleWithOperations inlines its RuleWithOperations (number 2), which inlines its Rule,
 * as the webhooks' rules do (same definitions as webhook.protobuf.ts, so the package merges).
 */
import type { MessageSet } from '../../api/protobuf/messages.js';

export const MATCH_RESOURCES_MESSAGES: MessageSet = {
  RuleWithOperations: 'operations=1:[]string rule=2:Rule~',
  Rule: 'apiGroups=1:[]string apiVersions=2:[]string resources=3:[]string scope=4',
  MatchCondition: 'name=1! expression=2!',
  NamedRuleWithOperations: 'resourceNames=1:[]string ruleWithOperations=2:RuleWithOperations~',
  MatchResources:
    'namespaceSelector=1:LabelSelector objectSelector=2:LabelSelector resourceRules=3:[]NamedRuleWithOperations excludeResourceRules=4:[]NamedRuleWithOperations matchPolicy=7!',
};
