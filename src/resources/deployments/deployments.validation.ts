/**
 * Deployment rules of upstream 1.10 pkg/apis/extensions/validation (ValidateDeploymentSpec,
 * ValidateDeploymentStrategy, ValidateRollingUpdateDeployment, ValidateRollback,
 * ValidateDeploymentStatus, ValidateDeploymentStatusUpdate, ValidateDeploymentRollback), on the
 * stored (apps/v1) form, plus today's rule for a field added since (status.terminatingReplicas
 * non-negative). The deprecated spec.rollbackTo is checked where apps/v1 keeps it (its
 * annotation), at upstream's path `spec.rollback.version`. Values in messages are printed as
 * upstream's internal types print them (Go's `%#v`, package `extensions` as in 1.10).
 */
import { TOTAL_ANNOTATION_SIZE_LIMIT } from '../../api/apply/last-applied.js';
import { annotationKeys, nonNegative } from '../../api/core/validation/strings.js';
import { forbidden, invalidValue, required, tooLong, type FieldError } from '../../api/validation/field-errors.js';
import {
  intOrPercentValue,
  goIntOrString,
  notMoreThan100Percent,
  validatePositiveIntOrPercent,
} from '../apps-common/int-or-percent.js';
import {
  asSelector,
  goLabelSelector,
  invalidPrinted,
  InvalidSelectorError,
  isEmptySelector,
  sameSelector,
  validateLabelSelector,
  type SelectorObject,
} from '../apps-common/label-selector.js';
import { validatePodTemplateForReplicaSet } from '../apps-common/pod-template.js';
import { ROLLBACK_TO_ANNOTATION } from './deployments.conversion.js';
import type { Deployment } from './deployments.schema.js';

type Spec = NonNullable<Deployment['spec']>;
type Strategy = NonNullable<Spec['strategy']>;
type RollingUpdate = NonNullable<Strategy['rollingUpdate']>;
type Status = NonNullable<Deployment['status']>;

/**
 * A workload's selector and template (ValidateDeploymentSpec's and ValidateReplicaSetSpec's
 * common part): required, valid, not empty (upstream's message names deployments for both
 * kinds), buildable, and the template it must select.
 */
export function validateSelectorAndTemplate(
  spec: { readonly selector?: SelectorObject | null; readonly template?: unknown; readonly replicas?: number | null },
  path: string,
): FieldError[] {
  const errs: FieldError[] = [];
  const sel = spec.selector;
  if (!sel) errs.push(required(`${path}.selector`));
  else {
    errs.push(...validateLabelSelector(sel, `${path}.selector`));
    if (isEmptySelector(sel))
      errs.push(
        invalidPrinted(`${path}.selector`, goLabelSelector(sel), 'empty selector is not valid for deployment.'),
      );
  }
  try {
    const selector = asSelector(sel);
    errs.push(
      ...validatePodTemplateForReplicaSet(
        spec.template as Parameters<typeof validatePodTemplateForReplicaSet>[0],
        selector,
        spec.replicas ?? 0,
        `${path}.template`,
      ),
    );
  } catch (err) {
    if (!(err instanceof InvalidSelectorError)) throw err;
    errs.push(invalidPrinted(`${path}.selector`, goLabelSelector(sel), 'invalid label selector.'));
  }
  return errs;
}

/** Upstream ValidateRollingUpdateDeployment. */
function validateRollingUpdate(rolling: RollingUpdate, path: string): FieldError[] {
  const errs = [
    ...validatePositiveIntOrPercent(rolling.maxUnavailable, `${path}.maxUnavailable`),
    ...validatePositiveIntOrPercent(rolling.maxSurge, `${path}.maxSurge`),
  ];
  if (intOrPercentValue(rolling.maxUnavailable) === 0 && intOrPercentValue(rolling.maxSurge) === 0)
    errs.push(
      invalidPrinted(
        `${path}.maxUnavailable`,
        goIntOrString(rolling.maxUnavailable),
        'may not be 0 when `maxSurge` is 0',
      ),
    );
  errs.push(...notMoreThan100Percent(rolling.maxUnavailable, `${path}.maxUnavailable`));
  return errs;
}

/** Go's `%#v` of the internal DeploymentStrategy (a set rollingUpdate prints as some pointer). */
const goStrategy = (s: Strategy): string =>
  `extensions.DeploymentStrategy{Type:${JSON.stringify(s.type ?? '')}, RollingUpdate:(*extensions.RollingUpdateDeployment)(${s.rollingUpdate ? '0xc420000000' : 'nil'})}`;

/** Upstream ValidateDeploymentStrategy. */
function validateStrategy(strategy: Strategy, path: string): FieldError[] {
  switch (strategy.type) {
    case 'Recreate':
      return strategy.rollingUpdate
        ? [forbidden(`${path}.rollingUpdate`, "may not be specified when strategy `type` is 'Recreate'")]
        : [];
    case 'RollingUpdate':
      return strategy.rollingUpdate
        ? validateRollingUpdate(strategy.rollingUpdate, `${path}.rollingUpdate`)
        : [required(`${path}.rollingUpdate`, 'this should be defaulted and never be nil')];
    default:
      return [
        {
          reason: 'FieldValueNotSupported',
          field: path,
          message: `Unsupported value: ${goStrategy(strategy)}: supported values: "Recreate", "RollingUpdate"`,
        },
      ];
  }
}

/** Upstream ValidateDeploymentSpec on a stored Deployment (rollbackTo read from its annotation). */
export function validateDeploymentSpec(obj: Deployment): FieldError[] {
  const spec: Spec = obj.spec ?? {};
  const errs = [
    ...nonNegative(spec.replicas ?? 0, 'spec.replicas'),
    ...validateSelectorAndTemplate(spec, 'spec'),
    ...validateStrategy(spec.strategy ?? {}, 'spec.strategy'),
    ...nonNegative(spec.minReadySeconds ?? 0, 'spec.minReadySeconds'),
    ...nonNegative(spec.revisionHistoryLimit, 'spec.revisionHistoryLimit'),
  ];
  const rollbackTo = obj.metadata.annotations?.[ROLLBACK_TO_ANNOTATION];
  if (rollbackTo && /^[+-]?\d+$/.test(rollbackTo))
    errs.push(...nonNegative(Number(rollbackTo), 'spec.rollback.version'));
  const deadline = spec.progressDeadlineSeconds;
  if (deadline !== undefined && deadline !== null) {
    errs.push(...nonNegative(deadline, 'spec.progressDeadlineSeconds'));
    if (deadline <= (spec.minReadySeconds ?? 0))
      errs.push(invalidValue('spec.progressDeadlineSeconds', deadline, 'must be greater than minReadySeconds.'));
  }
  return errs;
}

/** Upstream ValidateDeploymentStatus (1.10), with today's terminatingReplicas. */
function validateStatus(status: Status): FieldError[] {
  const n = (v: number | null | undefined) => v ?? 0;
  const errs = [
    ...nonNegative(n(status.observedGeneration), 'status.observedGeneration'),
    ...nonNegative(n(status.replicas), 'status.replicas'),
    ...nonNegative(n(status.updatedReplicas), 'status.updatedReplicas'),
    ...nonNegative(n(status.readyReplicas), 'status.readyReplicas'),
    ...nonNegative(n(status.availableReplicas), 'status.availableReplicas'),
    ...nonNegative(n(status.unavailableReplicas), 'status.unavailableReplicas'),
    ...nonNegative(status.terminatingReplicas, 'status.terminatingReplicas'),
    ...nonNegative(status.collisionCount, 'status.collisionCount'),
  ];
  const msg = 'cannot be greater than status.replicas';
  const replicas = n(status.replicas);
  if (n(status.updatedReplicas) > replicas)
    errs.push(invalidValue('status.updatedReplicas', status.updatedReplicas, msg));
  if (n(status.readyReplicas) > replicas) errs.push(invalidValue('status.readyReplicas', status.readyReplicas, msg));
  if (n(status.availableReplicas) > replicas)
    errs.push(invalidValue('status.availableReplicas', status.availableReplicas, msg));
  // 1.10 compares with readyReplicas only once it is set (a pre-1.6 controller left it at 0).
  if (n(status.readyReplicas) > 0 && n(status.availableReplicas) > n(status.readyReplicas))
    errs.push(
      invalidValue('status.availableReplicas', status.availableReplicas, 'cannot be greater than readyReplicas'),
    );
  return errs;
}

/** Upstream ValidateDeployment (the metadata rules are common: registry/metadata.ts). */
export const validateDeployment = (obj: Deployment): FieldError[] => validateDeploymentSpec(obj);

/**
 * Upstream ValidateDeploymentUpdate, the selector's immutability (apps/v1 and apps/v1beta2
 * only: `immutableSelector`), and for a `/status` write ValidateDeploymentStatusUpdate (the
 * main resource keeps the stored status, which passed these rules).
 */
export function validateDeploymentUpdate(obj: Deployment, old: Deployment, immutableSelector: boolean): FieldError[] {
  const errs = validateDeploymentSpec(obj);
  if (immutableSelector && !sameSelector(obj.spec?.selector, old.spec?.selector))
    errs.push(invalidPrinted('spec.selector', goLabelSelector(obj.spec?.selector), 'field is immutable'));
  errs.push(...validateStatus(obj.status ?? {}));
  const was = old.status?.collisionCount;
  const now = obj.status?.collisionCount;
  if (was !== undefined && was !== null && (now === undefined || now === null || now < was))
    errs.push(invalidValue('status.collisionCount', now ?? 0, 'cannot be decremented'));
  return errs;
}

/** Upstream ValidateAnnotations: qualified-name keys, 256 KiB in all. */
function validateAnnotations(map: Readonly<Record<string, string>> | null | undefined, path: string): FieldError[] {
  const errs = annotationKeys(map, path);
  const bytes = Object.entries(map ?? {}).reduce((n, [k, v]) => n + Buffer.byteLength(k) + Buffer.byteLength(v), 0);
  if (bytes > TOTAL_ANNOTATION_SIZE_LIMIT) errs.push(tooLong(path, '', TOTAL_ANNOTATION_SIZE_LIMIT));
  return errs;
}

/** Upstream ValidateDeploymentRollback: annotations, a name, a non-negative revision. */
export function validateDeploymentRollback(body: {
  readonly name?: string | null;
  readonly updatedAnnotations?: Readonly<Record<string, string>> | null;
  readonly rollbackTo?: { readonly revision?: number | null } | null;
}): FieldError[] {
  const errs = validateAnnotations(body.updatedAnnotations, 'updatedAnnotations');
  if (!body.name) errs.push(required('name', 'name is required'));
  errs.push(...nonNegative(body.rollbackTo?.revision ?? 0, 'rollback.version'));
  return errs;
}
