/**
 * The mandatory configuration objects (upstream k8s.io/apiserver pkg/apis/flowcontrol/bootstrap
 * default.go): the dispatcher uses these when the stored configuration lacks them, as
 * upstream's config controller imagines them, so exempt and catch-all traffic always has a home.
 */
import type { FlowSchemaView, PriorityLevelView } from './types.js';

const ALL = ['*'];

/** PriorityLevelConfiguration `exempt`: requests are never queued or limited. */
export const MANDATORY_EXEMPT_LEVEL: PriorityLevelView = {
  metadata: { name: 'exempt' },
  spec: { type: 'Exempt', exempt: { nominalConcurrencyShares: 0, lendablePercent: 0 } },
};

/** PriorityLevelConfiguration `catch-all`: 5 shares, no lending, rejects instead of queuing. */
export const MANDATORY_CATCH_ALL_LEVEL: PriorityLevelView = {
  metadata: { name: 'catch-all' },
  spec: {
    type: 'Limited',
    limited: { nominalConcurrencyShares: 5, lendablePercent: 0, limitResponse: { type: 'Reject' } },
  },
};

/** FlowSchema `exempt` (precedence 1): the `system:masters` group, every request. */
export const MANDATORY_EXEMPT_SCHEMA: FlowSchemaView = {
  metadata: { name: 'exempt' },
  spec: {
    priorityLevelConfiguration: { name: 'exempt' },
    matchingPrecedence: 1,
    rules: [
      {
        subjects: [{ kind: 'Group', group: { name: 'system:masters' } }],
        resourceRules: [{ verbs: ALL, apiGroups: ALL, resources: ALL, clusterScope: true, namespaces: ALL }],
        nonResourceRules: [{ verbs: ALL, nonResourceURLs: ALL }],
      },
    ],
  },
};

/** FlowSchema `catch-all` (precedence 10000, by user): every authenticated and unauthenticated request. */
export const MANDATORY_CATCH_ALL_SCHEMA: FlowSchemaView = {
  metadata: { name: 'catch-all' },
  spec: {
    priorityLevelConfiguration: { name: 'catch-all' },
    matchingPrecedence: 10000,
    distinguisherMethod: { type: 'ByUser' },
    rules: [
      {
        subjects: [
          { kind: 'Group', group: { name: 'system:unauthenticated' } },
          { kind: 'Group', group: { name: 'system:authenticated' } },
        ],
        resourceRules: [{ verbs: ALL, apiGroups: ALL, resources: ALL, clusterScope: true, namespaces: ALL }],
        nonResourceRules: [{ verbs: ALL, nonResourceURLs: ALL }],
      },
    ],
  },
};
