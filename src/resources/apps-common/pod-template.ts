/**
 * The pod template of a replicated workload, as upstream 1.10 pkg/apis/extensions/validation
 * ValidatePodTemplateSpecForReplicaSet checks it (Deployments and ReplicaSets): labels the
 * selector selects, a valid PodTemplateSpec (core validation), read-only GCE disks when there
 * is more than one replica, restartPolicy Always and no activeDeadlineSeconds.
 */
import { validatePodTemplateSpec } from '../../api/core/validation/pod-spec.js';
import { readOnlyPersistentDisks } from '../../api/core/validation/volumes.js';
import { invalidValue, notSupported, type FieldError } from '../../api/validation/field-errors.js';
import { goStringMap, invalidPrinted, NOTHING, selects, type Selector } from './label-selector.js';

/** A pod template as the workloads' schemas describe it. */
export interface PodTemplateLike {
  readonly metadata?: { readonly labels?: Readonly<Record<string, string>> | null } | null;
  readonly spec?: {
    readonly restartPolicy?: string | null;
    readonly activeDeadlineSeconds?: number | null;
    readonly volumes?: unknown;
  } | null;
}

/**
 * Upstream ValidatePodTemplateSpecForReplicaSet for the template at `path` (`spec.template`):
 * `selector` is the workload's (LabelSelectorAsSelector of `spec.selector`); an empty one
 * selects everything and is not compared, a nil one (labels.Nothing()) selects nothing.
 */
export function validatePodTemplateForReplicaSet(
  template: PodTemplateLike | null | undefined,
  selector: Selector,
  replicas: number,
  path: string,
): FieldError[] {
  const t: PodTemplateLike = template ?? {};
  const templateLabels = t.metadata?.labels;
  const spec = t.spec ?? {};
  const errs: FieldError[] = [];
  const empty = selector !== NOTHING && selector.length === 0;
  if (!empty && !selects(selector, templateLabels))
    errs.push(
      invalidPrinted(
        `${path}.metadata.labels`,
        goStringMap(templateLabels),
        '`selector` does not match template `labels`',
      ),
    );
  errs.push(...validatePodTemplateSpec(t, path));
  if (replicas > 1) errs.push(...readOnlyPersistentDisks(spec.volumes, `${path}.spec.volumes`));
  if (spec.restartPolicy !== 'Always')
    errs.push(notSupported(`${path}.spec.restartPolicy`, spec.restartPolicy ?? '', ['Always']));
  if (spec.activeDeadlineSeconds !== undefined && spec.activeDeadlineSeconds !== null)
    errs.push(invalidValue(`${path}.spec.activeDeadlineSeconds`, spec.activeDeadlineSeconds, 'must not be specified'));
  return errs;
}
