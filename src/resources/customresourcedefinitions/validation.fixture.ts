/**
 * Test helpers for the CustomResourceDefinition rules: a valid internal definition to start
 * cases from, and upstream's error matching (validation_test.go validationMatch: each expected
 * (reason, field, text) matches a distinct error, and no error is left over).
 */
import type { FieldError } from '../../api/validation/field-errors.js';
import type { InternalCrd } from './internal.js';

/** upstream's matchers by field.ErrorType. */
export type Expected = readonly [reason: FieldError['reason'], field: string, contains?: string];

export const required = (field: string, contains?: string): Expected => ['FieldValueRequired', field, contains];
export const invalid = (field: string, contains?: string): Expected => ['FieldValueInvalid', field, contains];
export const unsupported = (field: string, contains?: string): Expected => ['FieldValueNotSupported', field, contains];
export const forbidden = (field: string, contains?: string): Expected => ['FieldValueForbidden', field, contains];
export const duplicate = (field: string, contains?: string): Expected => ['FieldValueDuplicate', field, contains];
export const tooMany = (field: string, contains?: string): Expected => ['FieldValueTooMany', field, contains];

/** The expected errors not found and the errors not expected (both empty when they match). */
export function unmatched(
  errs: readonly FieldError[],
  expected: readonly Expected[],
): { missing: Expected[]; extra: FieldError[] } {
  const seen = errs.map(() => false);
  const missing: Expected[] = [];
  for (const e of expected) {
    const i = errs.findIndex(
      (err, j) =>
        !seen[j] &&
        err.reason === e[0] &&
        err.field === e[1] &&
        (!e[2] || `${err.field}: ${err.message}`.includes(e[2])),
    );
    if (i < 0) missing.push(e);
    else seen[i] = true;
  }
  return { missing, extra: errs.filter((_, j) => !seen[j]) };
}

/** A valid internal definition (upstream's test fixture shape), changed by `change`. */
export function internalCrd(change: (crd: InternalCrd) => void = () => {}): InternalCrd {
  const crd: InternalCrd = {
    metadata: { name: 'plural.group.com' },
    spec: {
      group: 'group.com',
      version: 'version',
      scope: 'Cluster',
      names: { plural: 'plural', singular: 'singular', kind: 'Plural', listKind: 'PluralList' },
      versions: [{ name: 'version', served: true, storage: true }],
      validation: { openAPIV3Schema: { type: 'object' } },
      conversion: { strategy: 'None' },
      preserveUnknownFields: false,
    },
    status: { storedVersions: ['version'] },
  };
  change(crd);
  return crd;
}

/** Two versions, `version` stored (upstream's webhook fixtures). */
export function twoVersions(crd: InternalCrd): void {
  crd.spec.versions = [
    { name: 'version', served: true, storage: true },
    { name: 'version2', served: true, storage: false },
  ];
}
