/**
 * CustomResourceDefinition conditions and API approval (k8s.io/apiextensions-apiserver
 * pkg/apihelpers helpers.go, 1.33): find, test, set and remove status conditions (setting keeps
 * `lastTransitionTime` while the status does not change), the condition types controllers
 * maintain, and the approval state of the `api-approved.kubernetes.io` annotation that groups
 * under `k8s.io` and `kubernetes.io` need.
 */

/** The condition types of a CRD (v1 CustomResourceDefinitionConditionType). */
export const CRD_CONDITION_TYPES = [
  'Established',
  'NamesAccepted',
  'NonStructuralSchema',
  'Terminating',
  'KubernetesAPIApprovalPolicyConformant',
] as const;
export type CrdConditionType = (typeof CRD_CONDITION_TYPES)[number];

/** The annotation carrying API approval (KubeAPIApprovedAnnotation). */
export const KUBE_API_APPROVED_ANNOTATION = 'api-approved.kubernetes.io';
/** The finalizer that removes every custom object before its definition goes (CustomResourceCleanupFinalizer). */
export const CUSTOM_RESOURCE_CLEANUP_FINALIZER = 'customresourcecleanup.apiextensions.k8s.io';

/** A condition as stored. */
export interface CrdCondition {
  type: string;
  status: string;
  lastTransitionTime?: string | null;
  reason?: string | null;
  message?: string | null;
}

/** A condition as clients may have written it: upstream does not require its type or status. */
export type StoredCrdCondition = Omit<CrdCondition, 'type' | 'status'> & {
  type?: string | null;
  status?: string | null;
};

/** What these helpers read and write: an object with status conditions. */
interface WithConditions {
  status?: { conditions?: StoredCrdCondition[] | null } | null;
}

/** FindCRDCondition: the condition of `type`, or undefined. */
export function findCrdCondition(crd: WithConditions, type: string): StoredCrdCondition | undefined {
  return (crd.status?.conditions ?? []).find((c) => c.type === type);
}

/** IsCRDConditionPresentAndEqual. */
export function isCrdConditionPresentAndEqual(crd: WithConditions, type: string, status: string): boolean {
  return findCrdCondition(crd, type)?.status === status;
}

/** IsCRDConditionTrue: present and strictly `True`. */
export function isCrdConditionTrue(crd: WithConditions, type: string): boolean {
  return isCrdConditionPresentAndEqual(crd, type, 'True');
}

/** IsCRDConditionFalse: present and `False`. */
export function isCrdConditionFalse(crd: WithConditions, type: string): boolean {
  return isCrdConditionPresentAndEqual(crd, type, 'False');
}

/** IsCRDConditionEquivalent: equal but for times. */
export function isCrdConditionEquivalent(
  a: StoredCrdCondition | undefined,
  b: StoredCrdCondition | undefined,
): boolean {
  if (!a || !b) return a === b;
  return (
    (a.message ?? '') === (b.message ?? '') &&
    (a.reason ?? '') === (b.reason ?? '') &&
    a.status === b.status &&
    a.type === b.type
  );
}

/** RFC 3339 at second precision, as metav1.Time serializes. */
const rfc3339 = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * SetCRDCondition, in place: adds `condition` (stamped `now`), or updates the one of its type;
 * its lastTransitionTime changes only when the status changes (or had none).
 */
export function setCrdCondition(
  crd: WithConditions,
  condition: Omit<CrdCondition, 'lastTransitionTime'>,
  now = new Date(),
): void {
  const stamped: CrdCondition = { ...condition, lastTransitionTime: rfc3339(now) };
  const status = (crd.status ??= {});
  const existing = findCrdCondition(crd, condition.type);
  if (!existing) {
    (status.conditions ??= []).push(stamped);
    return;
  }
  if (existing.status !== condition.status || !existing.lastTransitionTime)
    existing.lastTransitionTime = stamped.lastTransitionTime;
  existing.status = condition.status;
  existing.reason = condition.reason;
  existing.message = condition.message;
}

/** RemoveCRDCondition, in place. */
export function removeCrdCondition(crd: WithConditions, type: string): void {
  const status = (crd.status ??= {});
  status.conditions = (status.conditions ?? []).filter((c) => c.type !== type);
}

/** IsProtectedCommunityGroup: `k8s.io`, `kubernetes.io` and their subdomains. */
export function isProtectedCommunityGroup(group: string): boolean {
  return (
    group === 'k8s.io' || group.endsWith('.k8s.io') || group === 'kubernetes.io' || group.endsWith('.kubernetes.io')
  );
}

/** APIApprovalState. */
export type ApiApprovalState = 'Invalid' | 'Approved' | 'Bypassed' | 'Missing';

/** Go's url.ParseRequestURI accepting `value` with a scheme and a host. */
function isApprovalUrl(value: string): boolean {
  const hasControl = [...value].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f);
  return !hasControl && !/\s/.test(value) && /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]+/.test(value);
}

/** GetAPIApprovalState: the state of the approval annotation and upstream's reason text. */
export function apiApprovalState(annotations: Record<string, string> | null | undefined): {
  state: ApiApprovalState;
  reason: string;
} {
  const value = annotations?.[KUBE_API_APPROVED_ANNOTATION] ?? '';
  const link = 'see https://github.com/kubernetes/enhancements/pull/1111';
  if (!value)
    return {
      state: 'Missing',
      reason: `protected groups must have approval annotation "${KUBE_API_APPROVED_ANNOTATION}", ${link}`,
    };
  if (value.startsWith('unapproved')) return { state: 'Bypassed', reason: `not approved: ${JSON.stringify(value)}` };
  if (isApprovalUrl(value)) return { state: 'Approved', reason: `approved in ${value}` };
  return {
    state: 'Invalid',
    reason: `protected groups must have approval annotation "${KUBE_API_APPROVED_ANNOTATION}" with either a URL or a reason starting with "unapproved", ${link}`,
  };
}

const APPROVAL_CONDITIONS: Record<ApiApprovalState, { status: 'True' | 'False'; reason: string }> = {
  Invalid: { status: 'False', reason: 'InvalidAnnotation' },
  Missing: { status: 'False', reason: 'MissingAnnotation' },
  Approved: { status: 'True', reason: 'ApprovedAnnotation' },
  Bypassed: { status: 'False', reason: 'UnapprovedAnnotation' },
};

/**
 * The KubernetesAPIApprovalPolicyConformant condition of a definition in a protected group
 * (`*.k8s.io`, `*.kubernetes.io`), undefined for other groups (upstream
 * pkg/controller/apiapproval calculateCondition).
 */
export function apiApprovalCondition(crd: {
  metadata: { annotations?: Record<string, string> | null };
  spec: { group: string };
}): CrdCondition | undefined {
  if (!isProtectedCommunityGroup(crd.spec.group)) return undefined;
  const { state, reason } = apiApprovalState(crd.metadata.annotations);
  return { type: 'KubernetesAPIApprovalPolicyConformant', ...APPROVAL_CONDITIONS[state], message: reason };
}

/** The storage version of a definition's spec (GetCRDStorageVersion), or undefined. */
export function storageVersionOf(crd: {
  spec?: { versions?: readonly { name: string; storage: boolean }[] };
}): string | undefined {
  return crd.spec?.versions?.find((v) => v.storage)?.name;
}
