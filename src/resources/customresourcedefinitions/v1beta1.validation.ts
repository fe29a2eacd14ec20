/**
 * CustomResourceDefinition rules of a request through apiextensions.k8s.io/v1beta1: upstream
 * 1.21's ValidateCustomResourceDefinition(obj, requestGV) and ValidateCustomResourceDefinitionUpdate
 * with requestGV v1beta1 (k8s.io/apiextensions-apiserver pkg/apis/apiextensions/validation
 * validation.go: requireOpenAPISchema, requireValidPropertyType, requireStructuralSchema false
 * "for compatibility"; allowDefaults false "(cannot set default values in
 * apiextensions.k8s.io/v1beta1 CRDs, must use apiextensions.k8s.io/v1)" unless the stored
 * definition has defaults; validateAPIApproval and validatePreserveUnknownFields no-ops), over
 * 1.33's rules otherwise (spec-validation.ts). So a v1beta1 definition may keep unknown fields
 * (`preserveUnknownFields` true), have no schema, or a non-structural one (a schema with
 * defaults, Kubernetes extensions or pruning still needs a structural one, as upstream). The
 * form validated is the internal one converted from the request (v1beta1.conversion.ts), so the
 * paths and the v1beta1-only rules are upstream's; an update's options come from the stored
 * definition.
 */
import { invalidValue, type FieldError } from '../../api/validation/field-errors.js';
import { isCrdConditionTrue } from './conditions.js';
import { ACCEPTED_CONVERSION_REVIEW_VERSIONS } from './conversion-validation.js';
import type { CustomResourceDefinition } from './customresourcedefinitions.schema.js';
import { validateStoredVersions, type SchemaDefaultsCheck } from './customresourcedefinitions.validation.js';
import { goEqual, toInternal, type InternalCrd } from './internal.js';
import { validateMapListKeysMapSet } from './openapi-schema-validation.js';
import { hasNonAtomicSetType, hasSchemaWith, schemaHas, schemaHasDefaults } from './schema-walk.js';
import { validateNames, validateSpec, type SpecRuleOptions } from './spec-validation.js';
import { validateCABundle } from './webhook-client-validation.js';
import { requestedInternal } from './v1beta1.conversion.js';

/** Why a v1beta1 request may not add defaults (allowDefaults' reason). */
export const V1BETA1_DEFAULTS_REASON =
  '(cannot set default values in apiextensions.k8s.io/v1beta1 CRDs, must use apiextensions.k8s.io/v1)';

/** The options of a v1beta1 create. */
function createOptions(defaults?: SchemaDefaultsCheck): SpecRuleOptions {
  return {
    allowDefaults: false,
    requireRecognizedConversionReviewVersion: true,
    requireOpenAPISchema: false,
    requireValidPropertyType: false,
    requireStructuralSchema: false,
    requirePrunedDefaults: true,
    requireAtomicSetType: true,
    requireMapListKeysMapSetValidation: true,
    allowInvalidCABundle: true,
    defaults,
  };
}

/** The options of a v1beta1 update: what the stored definition already breaks stays allowed. */
function updateOptions(old: InternalCrd, defaults?: SchemaDefaultsCheck): SpecRuleOptions {
  const spec = old.spec;
  const reviewVersions = spec.conversion?.conversionReviewVersions ?? [];
  const bundle = spec.conversion?.webhookClientConfig?.caBundle;
  return {
    allowDefaults: hasSchemaWith(spec, schemaHasDefaults),
    requireRecognizedConversionReviewVersion:
      !spec.conversion ||
      !reviewVersions.length ||
      reviewVersions.some((v) => ACCEPTED_CONVERSION_REVIEW_VERSIONS.includes(v)),
    requireOpenAPISchema: false,
    requireValidPropertyType: false,
    requireStructuralSchema: false,
    requirePrunedDefaults: !defaults || !hasSchemaWith(spec, (s) => defaults.hasUnprunedDefaults(s)),
    requireAtomicSetType: !hasSchemaWith(spec, hasNonAtomicSetType),
    requireMapListKeysMapSetValidation: !hasSchemaWith(spec, (s) =>
      schemaHas(s, (n) => validateMapListKeysMapSet(n, '').length > 0),
    ),
    allowInvalidCABundle:
      !isCrdConditionTrue(old, 'Established') || (!!bundle && validateCABundle('caBundle', bundle).length > 0),
    defaults,
  };
}

/**
 * The spec rules give a default they refuse no reason; upstream's validator starts with the
 * request version's (withForbiddenDefaults keeps the more precise ones, such as metadata's).
 */
function withDefaultsReason(errs: FieldError[]): FieldError[] {
  return errs.map((e) =>
    e.reason === 'FieldValueForbidden' && e.field.endsWith('.default') && e.message === 'Forbidden: must not be set'
      ? { ...e, message: `${e.message} ${V1BETA1_DEFAULTS_REASON}` }
      : e,
  );
}

/** The internal form upstream validates: the request's own when `crd` is an unchanged v1beta1 request. */
function internalOf(crd: CustomResourceDefinition): InternalCrd {
  const internal = toInternal(crd);
  return { ...internal, spec: requestedInternal(crd) ?? internal.spec };
}

/** ValidateCustomResourceDefinition(obj, v1beta1) of a request converted to v1 (defaulted, prepared for create). */
export function validateCustomResourceDefinitionV1beta1(
  obj: CustomResourceDefinition,
  defaults?: SchemaDefaultsCheck,
): FieldError[] {
  const crd = internalOf(obj);
  const name = crd.metadata.name ?? '';
  const errs: FieldError[] = [];
  if (name !== `${crd.spec.names?.plural ?? ''}.${crd.spec.group}`)
    errs.push(invalidValue('metadata.name', name, 'must be spec.names.plural+"."+spec.group'));
  errs.push(...withDefaultsReason(validateSpec(crd.spec, createOptions(defaults))));
  errs.push(...validateNames(crd.status.acceptedNames, 'status.acceptedNames'), ...validateStoredVersions(crd));
  return errs;
}

/** ValidateCustomResourceDefinitionUpdate(obj, old, v1beta1) of a request converted to v1 and the stored definition. */
export function validateCustomResourceDefinitionUpdateV1beta1(
  obj: CustomResourceDefinition,
  old: CustomResourceDefinition,
  defaults?: SchemaDefaultsCheck,
): FieldError[] {
  const crd = internalOf(obj);
  const prev = toInternal(old);
  const errs = withDefaultsReason(validateSpec(crd.spec, updateOptions(prev, defaults)));
  const immutable = (at: string, now: unknown, before: unknown) => {
    if (!goEqual(now, before)) errs.push(invalidValue(at, now, 'field is immutable'));
  };
  if (isCrdConditionTrue(prev, 'Established')) {
    immutable('spec.scope', crd.spec.scope, prev.spec.scope);
    immutable('spec.names.kind', crd.spec.names?.kind, prev.spec.names?.kind);
  }
  immutable('spec.group', crd.spec.group, prev.spec.group);
  immutable('spec.names.plural', crd.spec.names?.plural, prev.spec.names?.plural);
  errs.push(...validateNames(crd.status.acceptedNames, 'status.acceptedNames'), ...validateStoredVersions(crd));
  return errs;
}
