/**
 * ReplicaSet defaults per version (upstream pkg/apis/apps/v1, v1beta2 and
 * pkg/apis/extensions/v1beta1 SetDefaults_ReplicaSet) with the template's PodSpec defaults:
 * replicas 1; extensions/v1beta1 also takes the selector and the object's labels from the
 * template's labels.
 */
import { defaultPodSpec } from '../../api/core/pod-spec-defaults.js';
import { selectorFromTemplate } from '../deployments/deployments.defaults.js';
import type { ReplicaSet } from './replicasets.schema.js';

/** apps/v1 and apps/v1beta2 SetDefaults_ReplicaSet. */
export function defaultReplicaSetV1(obj: ReplicaSet): void {
  const spec = (obj.spec ??= {});
  spec.replicas ??= 1;
  defaultPodSpec(spec.template?.spec);
}

/** extensions/v1beta1 SetDefaults_ReplicaSet. */
export function defaultReplicaSetExtensions(rs: ReplicaSet): void {
  rs.spec ??= {};
  selectorFromTemplate(rs);
  defaultReplicaSetV1(rs);
}
