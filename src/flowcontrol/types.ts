/**
 * What API Priority and Fairness reads of its configuration objects and of a request
 * (upstream k8s.io/api flowcontrol/v1 types.go; k8s.io/apiserver pkg/util/flowcontrol
 * RequestDigest). Structural views: the FlowSchema and PriorityLevelConfiguration objects the
 * server stores (resources/flowschemas, resources/prioritylevelconfigurations) fit them.
 */
import type { UserInfo } from '../auth/user-info.js';

/** A subject of a policy rule: a user, a group or a service account (`*` is every name). */
export interface Subject {
  readonly kind: string;
  readonly user?: { readonly name: string };
  readonly group?: { readonly name: string };
  readonly serviceAccount?: { readonly namespace: string; readonly name: string };
}

/** Resource requests a rule matches: `*` alone in a list is every value. */
export interface ResourcePolicyRule {
  readonly verbs: readonly string[];
  readonly apiGroups: readonly string[];
  readonly resources: readonly string[];
  /** Whether requests without a namespace (cluster-scoped, or across namespaces) match. */
  readonly clusterScope?: boolean;
  readonly namespaces?: readonly string[];
}

/** Non-resource requests a rule matches; a URL ending in `/*` matches its subtree. */
export interface NonResourcePolicyRule {
  readonly verbs: readonly string[];
  readonly nonResourceURLs: readonly string[];
}

export interface PolicyRulesWithSubjects {
  readonly subjects: readonly Subject[];
  readonly resourceRules?: readonly ResourcePolicyRule[];
  readonly nonResourceRules?: readonly NonResourcePolicyRule[];
}

interface Meta {
  readonly name?: string | null;
  readonly uid?: string | null;
}

/** An object's name ('' when it has none). */
export function nameOf(o: { readonly metadata: Meta }): string {
  return o.metadata.name ?? '';
}

/** A FlowSchema: which requests go to which priority level, split into flows how. */
export interface FlowSchemaView {
  readonly metadata: Meta;
  readonly spec: {
    readonly priorityLevelConfiguration: { readonly name: string };
    /** Lower matches first (1..10000; default 1000). */
    readonly matchingPrecedence?: number;
    /** ByUser or ByNamespace; absent: one flow for the whole schema. */
    readonly distinguisherMethod?: { readonly type: string };
    readonly rules?: readonly PolicyRulesWithSubjects[];
  };
  readonly status?: {
    readonly conditions?: readonly {
      readonly type?: string;
      readonly status?: string;
      readonly reason?: string;
      readonly message?: string;
      readonly lastTransitionTime?: string;
    }[];
  };
}

/** The queuing parameters of a Limited level that queues. */
export interface QueuingConfiguration {
  readonly queues?: number;
  readonly handSize?: number;
  readonly queueLengthLimit?: number;
}

/** A PriorityLevelConfiguration: Exempt (never limited) or Limited (a share of the server's concurrency). */
export interface PriorityLevelView {
  readonly metadata: Meta;
  readonly spec: {
    readonly type: string;
    readonly limited?: {
      readonly nominalConcurrencyShares?: number;
      readonly lendablePercent?: number;
      readonly borrowingLimitPercent?: number;
      readonly limitResponse?: { readonly type: string; readonly queuing?: QueuingConfiguration };
    };
    readonly exempt?: { readonly nominalConcurrencyShares?: number; readonly lendablePercent?: number };
  };
}

/** The parts of a request classification and work estimation read (upstream RequestDigest). */
export interface RequestDigest {
  readonly user: UserInfo;
  readonly isResourceRequest: boolean;
  /** Lowercase Kubernetes verb: get, list, watch, create, update, patch, delete, deletecollection, or an HTTP verb for non-resource paths. */
  readonly verb: string;
  readonly group: string;
  readonly resource: string;
  readonly subresource: string;
  readonly namespace: string;
  readonly name: string;
  readonly path: string;
}

export const EXEMPT = 'exempt';
export const CATCH_ALL = 'catch-all';
