/**
 * A pod's own field rules, as upstream ValidatePod / 1.33 validatePodMetadataAndSpec
 * (pkg/apis/core/validation/validation.go) beyond the common metadata rules: the pod-specific
 * annotations, ValidatePodSpec (api/core/validation), image whitespace
 * (validateContainersOnlyForPod), ephemeral containers (validateEphemeralContainers) and a single
 * huge page size. The pod strategy runs it on create and, with ValidatePodUpdate, on update.
 */
import { containersOnlyForPod, validateEphemeralContainers } from '../../api/core/validation/containers.js';
import { validateVolumes } from '../../api/core/validation/volumes.js';
import { validatePodSpec, validatePodSpecificAnnotations } from '../../api/core/validation/pod-spec.js';
import { hugePageSizes } from '../../api/core/validation/resources.js';
import { forbidden, type FieldError } from '../../api/validation/field-errors.js';
import type { Pod } from './pods.schema.js';

type PodSpec = NonNullable<Pod['spec']>;

/** Upstream ValidatePod without ValidateObjectMeta (registry/metadata.ts). */
export function validatePod(pod: Pod): FieldError[] {
  const spec: Partial<PodSpec> = pod.spec ?? {};
  const errs = [
    ...validatePodSpecificAnnotations(pod.metadata?.annotations, spec, 'metadata.annotations'),
    ...validatePodSpec(spec, 'spec'),
    ...containersOnlyForPod(spec.containers, 'spec.containers'),
    ...containersOnlyForPod(spec.initContainers, 'spec.initContainers'),
  ];
  if ((spec.ephemeralContainers ?? []).length > 0) {
    const { byName } = validateVolumes(spec.volumes, 'spec.volumes');
    errs.push(
      ...validateEphemeralContainers(
        spec.ephemeralContainers,
        spec.containers,
        spec.initContainers,
        byName,
        'spec.ephemeralContainers',
      ),
    );
  }
  const sizes = hugePageSizes(spec.containers);
  if (sizes.length > 1) {
    // Upstream prints the set as Go's %#v of a sets.String.
    const value = `sets.String{${sizes.map((s) => `${JSON.stringify(s)}:sets.Empty{}`).join(', ')}}`;
    errs.push({
      reason: 'FieldValueInvalid',
      field: 'spec',
      message: `Invalid value: ${value}: must use a single hugepage size in a pod spec`,
    });
  }
  return errs;
}

/**
 * Upstream 1.33 ValidatePodCreate: ValidatePod, then ephemeral containers only through the
 * `ephemeralcontainers` subresource and no node before every scheduling gate is removed.
 */
export function validatePodCreate(pod: Pod): FieldError[] {
  const spec: Partial<PodSpec> = pod.spec ?? {};
  const errs = validatePod(pod);
  if ((spec.ephemeralContainers ?? []).length > 0)
    errs.push(forbidden('spec.ephemeralContainers', 'cannot be set on create'));
  if (spec.nodeName && (spec.schedulingGates ?? []).length > 0)
    errs.push(forbidden('spec.nodeName', 'cannot be set until all schedulingGates have been cleared'));
  return errs;
}
