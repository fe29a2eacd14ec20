/**
 * StatefulSet defaults per served version (upstream pkg/apis/apps/v1/defaults.go,
 * v1beta2/defaults.go and v1beta1/defaults.go SetDefaults_StatefulSet, with the feature gates at
 * today's defaults: StatefulSetAutoDeletePVC GA, MaxUnavailableStatefulSet beta and on since
 * 1.35), plus the defaults of the embedded types (core/v1 PodSpec, PersistentVolumeClaim).
 */
import { defaultPodSpec } from '../../api/core/pod-spec-defaults.js';
import type { ApiObject } from '../../api/object.js';
import { persistentVolumeClaims } from '../persistentvolumeclaims/persistentvolumeclaims.resource.js';
import type { PersistentVolumeClaim } from '../persistentvolumeclaims/persistentvolumeclaims.schema.js';
import type { StatefulSet } from './statefulsets.schema.js';

/** The MaxUnavailableStatefulSet gate (beta, on by default since 1.35): maxUnavailable defaults to 1. */
export const MAX_UNAVAILABLE_STATEFULSET = true;

type Claim = NonNullable<NonNullable<StatefulSet['spec']>['volumeClaimTemplates']>[number];

/**
 * A claim template's defaults, as the generated defaulters apply them to the embedded
 * PersistentVolumeClaim (SetDefaults_PersistentVolumeClaim: status.phase Pending), then what the
 * PersistentVolumeClaim kind defaults on its own requests.
 */
function defaultClaim(claim: Claim): void {
  claim.metadata ??= {};
  claim.status ??= {};
  claim.status.phase ||= 'Pending';
  persistentVolumeClaims.strategy.defaults?.(claim as PersistentVolumeClaim);
}

/** The defaults every version applies: the embedded pod spec and claim templates. */
function defaultEmbedded(obj: StatefulSet): void {
  defaultPodSpec(obj.spec?.template?.spec);
  for (const claim of obj.spec?.volumeClaimTemplates ?? []) defaultClaim(claim);
}

/** What apps/v1 and apps/v1beta2 (and, for the rest, apps/v1beta1) default after the update strategy. */
function defaultCommon(obj: StatefulSet): void {
  const spec = (obj.spec ??= {});
  const rolling = spec.updateStrategy?.type === 'RollingUpdate' ? spec.updateStrategy.rollingUpdate : undefined;
  if (rolling) {
    rolling.partition ??= 0;
    if (MAX_UNAVAILABLE_STATEFULSET) rolling.maxUnavailable ??= 1;
  }
  const policy = (spec.persistentVolumeClaimRetentionPolicy ??= {});
  policy.whenDeleted ||= 'Retain';
  policy.whenScaled ||= 'Retain';
  spec.replicas ??= 1;
  spec.revisionHistoryLimit ??= 10;
  defaultEmbedded(obj);
}

/**
 * apps/v1 (and apps/v1beta2) SetDefaults_StatefulSet: OrderedReady pod management, a
 * RollingUpdate strategy with partition 0, Retain claims, 1 replica, 10 revisions kept.
 */
export function defaultStatefulSetV1(obj: StatefulSet): void {
  const spec = (obj.spec ??= {});
  spec.podManagementPolicy ||= 'OrderedReady';
  const strategy = (spec.updateStrategy ??= {});
  if (!strategy.type) {
    strategy.type = 'RollingUpdate';
    strategy.rollingUpdate ??= {};
  }
  defaultCommon(obj);
}

/**
 * apps/v1beta1 SetDefaults_StatefulSet: the OnDelete strategy, and the selector (and the
 * object's labels, when it has none) from the template's labels.
 */
export function defaultStatefulSetV1beta1(obj: StatefulSet): void {
  const spec = (obj.spec ??= {});
  spec.podManagementPolicy ||= 'OrderedReady';
  const strategy = (spec.updateStrategy ??= {});
  strategy.type ||= 'OnDelete';
  const labels = spec.template?.metadata?.labels;
  if (labels !== undefined && labels !== null) {
    spec.selector ??= { matchLabels: { ...labels } };
    if (!Object.keys(obj.metadata.labels ?? {}).length) obj.metadata.labels = { ...labels };
  }
  defaultCommon(obj);
}

/** An object's apiVersion set to `apiVersion` (a new object; `obj` is left alone). */
export const withApiVersion = <T extends ApiObject>(obj: T, apiVersion: string): T => ({ ...obj, apiVersion });
