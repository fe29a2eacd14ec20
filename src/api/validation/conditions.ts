/**
 * apimachinery's metav1 ValidateConditions (pkg/apis/meta/v1/validation): each condition's
 * `type` a unique qualified name, `status` True/False/Unknown, `observedGeneration` not
 * negative, `lastTransitionTime` and `reason` set, `reason` a CamelCase-like word of at most
 * 1024 bytes and `message` at most 32 KiB, with apimachinery's messages. Kinds whose status
 * carries metav1.Conditions (PodDisruptionBudget, ValidatingAdmissionPolicy) share it.
 */
import { labelName, regexError } from '../core/validation/strings.js';
import { duplicate, invalidValue, notSupported, required, type FieldError } from './field-errors.js';

/** A metav1.Condition as a status may hold it (fields optional: they are checked here). */
export interface MetaCondition {
  readonly type?: string | null;
  readonly status?: string | null;
  readonly observedGeneration?: number | null;
  readonly lastTransitionTime?: string | null;
  readonly reason?: string | null;
  readonly message?: string | null;
}

const STATUSES = ['False', 'True', 'Unknown'];
const REASON_FMT = '[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?';
const REASON_RE = new RegExp(`^${REASON_FMT}$`);

/** field.TooLong as today's apimachinery words it (bytes). */
const tooLong = (field: string, max: number): FieldError => ({
  reason: 'FieldValueTooLong',
  field,
  message: `Too long: may not be more than ${max} bytes`,
});

/** ValidateConditions of `conditions` at `path` (`status.conditions`). */
export function validateMetaConditions(
  conditions: readonly MetaCondition[] | null | undefined,
  path: string,
): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  (conditions ?? []).forEach((c, i) => {
    const at = `${path}[${i}]`;
    const type = c.type ?? '';
    if (seen.has(type)) errs.push(duplicate(`${at}.type`, type));
    seen.add(type);
    errs.push(...labelName(type, `${at}.type`));
    if (!STATUSES.includes(c.status ?? '')) errs.push(notSupported(`${at}.status`, c.status ?? '', STATUSES));
    if (typeof c.observedGeneration === 'number' && c.observedGeneration < 0)
      errs.push(
        invalidValue(`${at}.observedGeneration`, c.observedGeneration, 'must be greater than or equal to zero'),
      );
    if (!c.lastTransitionTime) errs.push(required(`${at}.lastTransitionTime`, 'must be set'));
    const reason = c.reason ?? '';
    if (!reason) errs.push(required(`${at}.reason`, 'must be set'));
    else {
      if (!REASON_RE.test(reason))
        errs.push(
          invalidValue(
            `${at}.reason`,
            reason,
            regexError(
              "a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_'",
              REASON_FMT,
              'my_name',
              'MY_NAME',
              'MyName',
              'ReasonA,ReasonB',
              'ReasonA:ReasonB',
            ),
          ),
        );
      if (Buffer.byteLength(reason) > 1024) errs.push(tooLong(`${at}.reason`, 1024));
    }
    if (Buffer.byteLength(c.message ?? '') > 32 * 1024) errs.push(tooLong(`${at}.message`, 32 * 1024));
  });
  return errs;
}
