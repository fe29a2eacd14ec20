/**
 * Deployments served over the apps/v1 storage (upstream pkg/apis/apps/v1 conversion.go):
 * apps/v1beta2 has apps/v1's fields; apps/v1beta1 and extensions/v1beta1 also have the
 * deprecated `spec.rollbackTo`, which apps/v1 keeps, as upstream does, in the annotation
 * `deprecated.deployment.rollback.to` (the revision as a decimal string). Reading such an object
 * at apps/v1 or apps/v1beta2 shows the annotation; at apps/v1beta1 or extensions/v1beta1 it shows
 * `spec.rollbackTo` and not the annotation. A write at an older version without rollbackTo
 * removes the annotation. An annotation that is not an integer (set by hand at apps/v1) is left
 * as it is (upstream fails the conversion).
 */
import type { ApiObject } from '../../api/object.js';
import type { VersionConversion } from '../../registry/types.js';
import { defaultDeploymentExtensions, defaultDeploymentV1, defaultDeploymentV1beta1 } from './deployments.defaults.js';

/** apps/v1's annotation for the deprecated spec.rollbackTo (appsv1.DeprecatedRollbackTo). */
export const ROLLBACK_TO_ANNOTATION = 'deprecated.deployment.rollback.to';

const STORAGE_VERSION = 'apps/v1';

type Spec = Record<string, unknown> & { rollbackTo?: { revision?: number | null } | null };

/** apps/v1beta2: the same fields as apps/v1. */
export const deploymentV1beta2Conversion: VersionConversion = {
  defaults: defaultDeploymentV1,
  toStorage: (obj) => ({ ...obj, apiVersion: STORAGE_VERSION }),
  fromStorage: (obj) => ({ ...obj, apiVersion: 'apps/v1beta2' }),
};

/** A request of apps/v1beta1 or extensions/v1beta1 in apps/v1: spec.rollbackTo into the annotation. */
function rollbackToAnnotation(obj: ApiObject): ApiObject {
  const { rollbackTo, ...spec } = (obj.spec ?? {}) as Spec;
  const annotations: Record<string, string> = { ...(obj.metadata.annotations ?? {}) };
  if (rollbackTo) annotations[ROLLBACK_TO_ANNOTATION] = String(rollbackTo.revision ?? 0);
  else delete annotations[ROLLBACK_TO_ANNOTATION];
  const metadata = { ...obj.metadata };
  if (Object.keys(annotations).length) metadata.annotations = annotations;
  else delete metadata.annotations;
  return { ...obj, apiVersion: STORAGE_VERSION, metadata, ...(obj.spec ? { spec } : {}) };
}

/** A stored apps/v1 Deployment at apps/v1beta1 or extensions/v1beta1: the annotation as spec.rollbackTo. */
function annotationToRollbackTo(obj: ApiObject, apiVersion: string): ApiObject {
  const revision = obj.metadata.annotations?.[ROLLBACK_TO_ANNOTATION];
  if (!revision || !/^[+-]?\d+$/.test(revision)) return { ...obj, apiVersion };
  const { [ROLLBACK_TO_ANNOTATION]: _gone, ...annotations } = obj.metadata.annotations ?? {};
  const metadata = { ...obj.metadata };
  if (Object.keys(annotations).length) metadata.annotations = annotations;
  else delete metadata.annotations;
  // RollbackConfig's revision is omitempty: revision 0 reads as `rollbackTo: {}`.
  const n = Number(revision);
  const spec = { ...((obj.spec ?? {}) as Spec), rollbackTo: n ? { revision: n } : {} };
  return { ...obj, apiVersion, metadata, spec };
}

/** apps/v1beta1 over apps/v1. */
export const deploymentV1beta1Conversion: VersionConversion = {
  defaults: defaultDeploymentV1beta1,
  toStorage: rollbackToAnnotation,
  fromStorage: (obj) => annotationToRollbackTo(obj, 'apps/v1beta1'),
};

/** extensions/v1beta1 over apps/v1. */
export const deploymentExtensionsConversion: VersionConversion = {
  defaults: defaultDeploymentExtensions,
  toStorage: rollbackToAnnotation,
  fromStorage: (obj) => annotationToRollbackTo(obj, 'extensions/v1beta1'),
};
