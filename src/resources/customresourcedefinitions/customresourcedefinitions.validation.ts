/**
 * CustomResourceDefinition rules of k8s.io/apiextensions-apiserver
 * pkg/apis/apiextensions/validation/validation.go (1.33): ValidateCustomResourceDefinition,
 * ValidateCustomResourceDefinitionUpdate (the options an update gets from the stored object:
 * what it already breaks stays allowed; names and scope immutable once Established; group and
 * plural always), ValidateCustomResourceDefinitionStoredVersions,
 * ValidateUpdateCustomResourceDefinitionStatus, validateAPIApproval (`*.k8s.io` and
 * `*.kubernetes.io` groups need the `api-approved.kubernetes.io` annotation) and
 * validatePreserveUnknownFields. Both validate the internal form (internal.ts), so the paths
 * are upstream's. The name must be `<plural>.<group>` besides the common DNS-subdomain rule
 * (the registry checks that one). Not here: CEL compilation and cost of
 * x-kubernetes-validations (a later part) and the defaults check, given as `defaults`.
 */
import { invalidValue, required, type FieldError } from '../../api/validation/field-errors.js';
import { goSlice, invalidGo } from '../../api/validation/resources.js';
import {
  apiApprovalState,
  isCrdConditionTrue,
  isProtectedCommunityGroup,
  KUBE_API_APPROVED_ANNOTATION,
} from './conditions.js';
import type { CustomResourceDefinition } from './customresourcedefinitions.schema.js';
import { goEqual, toInternal, type InternalCrd, type InternalSpec } from './internal.js';
import { hasNonAtomicSetType, hasSchemaWith, schemaHas, schemaHasInvalidTypes } from './schema-walk.js';
import { ACCEPTED_CONVERSION_REVIEW_VERSIONS } from './conversion-validation.js';
import { validateNames, validateSpec, type SpecRuleOptions } from './spec-validation.js';
import { toStructural } from './structural.js';
import { validateStructural } from './structural-validation.js';
import { validateMapListKeysMapSet } from './openapi-schema-validation.js';
import type { SchemaDefaultsCheck } from './version-validation.js';
import { validateCABundle } from './webhook-client-validation.js';

export type { SchemaDefaultsCheck } from './version-validation.js';

/** The options of a create (ValidateCustomResourceDefinition). */
function createOptions(defaults?: SchemaDefaultsCheck): SpecRuleOptions {
  return {
    allowDefaults: true,
    requireRecognizedConversionReviewVersion: true,
    requireOpenAPISchema: true,
    requireValidPropertyType: true,
    requireStructuralSchema: true,
    requirePrunedDefaults: true,
    requireAtomicSetType: true,
    requireMapListKeysMapSetValidation: true,
    allowInvalidCABundle: true,
    defaults,
  };
}

/** Whether some schema of `spec` is not structural (specHasNonStructuralSchema). */
function hasNonStructuralSchema(spec: InternalSpec): boolean {
  return hasSchemaWith(spec, (s) => {
    const ss = toStructural(s);
    return 'error' in ss || validateStructural(ss.structural, '').length > 0;
  });
}

/** allowInvalidCABundle: before Established, or when the stored bundle is itself invalid. */
function allowInvalidCABundle(old: InternalCrd): boolean {
  if (!isCrdConditionTrue(old, 'Established')) return true;
  const bundle = old.spec.conversion?.webhookClientConfig?.caBundle;
  return !!bundle && validateCABundle('caBundle', bundle).length > 0;
}

/** The options of an update: what the stored definition already breaks stays allowed. */
function updateOptions(old: InternalCrd, defaults?: SchemaDefaultsCheck): SpecRuleOptions {
  const spec = old.spec;
  const reviewVersions = spec.conversion?.conversionReviewVersions ?? [];
  const allSchemas = !!spec.validation?.openAPIV3Schema || spec.versions.every((v) => !!v.schema?.openAPIV3Schema);
  return {
    allowDefaults: true,
    requireRecognizedConversionReviewVersion:
      !spec.conversion ||
      !reviewVersions.length ||
      reviewVersions.some((v) => ACCEPTED_CONVERSION_REVIEW_VERSIONS.includes(v)),
    requireOpenAPISchema: allSchemas,
    requireValidPropertyType: !hasSchemaWith(spec, schemaHasInvalidTypes),
    requireStructuralSchema: !hasNonStructuralSchema(spec),
    requirePrunedDefaults: !defaults || !hasSchemaWith(spec, (s) => defaults.hasUnprunedDefaults(s)),
    requireAtomicSetType: !hasSchemaWith(spec, hasNonAtomicSetType),
    requireMapListKeysMapSetValidation: !hasSchemaWith(spec, (s) =>
      schemaHas(s, (n) => validateMapListKeysMapSet(n, '').length > 0),
    ),
    allowInvalidCABundle: allowInvalidCABundle(old),
    defaults,
    preexistingExpressions: preexisting(spec),
  };
}

/** The rules and message expressions of a stored spec (upstream's StoredExpressions set). */
function preexisting(spec: InternalSpec): ReadonlySet<string> {
  const found = new Set<string>();
  // Visits every node of every schema (the predicate never holds).
  hasSchemaWith(spec, (node) => {
    for (const rule of node['x-kubernetes-validations'] ?? []) {
      if (rule.rule) found.add(rule.rule);
      if (rule.messageExpression) found.add(rule.messageExpression);
    }
    return false;
  });
  return found;
}

/** ValidateCustomResourceDefinitionStoredVersions. */
export function validateStoredVersions(crd: InternalCrd): FieldError[] {
  const at = 'status.storedVersions';
  const stored = crd.status.storedVersions ?? [];
  if (!stored.length)
    return [
      invalidGo(at, goSlice('string', crd.status.storedVersions ?? undefined), 'must have at least one stored version'),
    ];
  const errs: FieldError[] = [];
  const remaining = new Map<string, number>();
  stored.forEach((v, i) => remaining.set(v, i));
  for (const v of crd.spec.versions) {
    const has = remaining.has(v.name);
    if (v.storage && !has)
      errs.push(invalidGo(at, goSlice('string', stored), `must have the storage version ${v.name}`));
    remaining.delete(v.name);
  }
  for (const [v, i] of remaining)
    errs.push(
      invalidValue(
        `${at}[${i}]`,
        v,
        `missing from spec.versions; ${v} was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in ${v} and removes ${v} from status.storedVersions`,
      ),
    );
  return errs;
}

/** validateAPIApproval of `crd` (an update when `old` is given). */
function validateApiApproval(crd: InternalCrd, old?: InternalCrd): FieldError[] {
  if (!isProtectedCommunityGroup(crd.spec.group)) return [];
  const now = apiApprovalState(crd.metadata.annotations);
  if (old && apiApprovalState(old.metadata.annotations).state === now.state) return [];
  const at = `metadata.annotations[${KUBE_API_APPROVED_ANNOTATION}]`;
  switch (now.state) {
    case 'Missing':
      return [required(at, now.reason)];
    case 'Approved':
    case 'Bypassed':
      return [];
    default:
      return [invalidValue(at, crd.metadata.annotations?.[KUBE_API_APPROVED_ANNOTATION] ?? '', now.reason)];
  }
}

/** validatePreserveUnknownFields: v1 cannot turn it on (a stored true may stay). */
function validatePreserveUnknownFields(crd: InternalCrd, old?: InternalCrd): FieldError[] {
  if (old?.spec.preserveUnknownFields) return [];
  return crd.spec.preserveUnknownFields
    ? [
        invalidValue(
          'spec.preserveUnknownFields',
          true,
          'cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead',
        ),
      ]
    : [];
}

/** ValidateCustomResourceDefinitionStatus: the accepted names. */
function validateStatus(crd: InternalCrd): FieldError[] {
  return validateNames(crd.status.acceptedNames, 'status.acceptedNames');
}

/** ValidateCustomResourceDefinition of the internal form (see validateCustomResourceDefinition). */
export function validateInternalCreate(crd: InternalCrd, defaults?: SchemaDefaultsCheck): FieldError[] {
  const name = crd.metadata.name ?? '';
  const errs: FieldError[] = [];
  if (name !== `${crd.spec.names?.plural ?? ''}.${crd.spec.group}`)
    errs.push(invalidValue('metadata.name', name, 'must be spec.names.plural+"."+spec.group'));
  errs.push(...validateSpec(crd.spec, createOptions(defaults)), ...validateStatus(crd), ...validateStoredVersions(crd));
  errs.push(...validateApiApproval(crd), ...validatePreserveUnknownFields(crd));
  return errs;
}

/** ValidateCustomResourceDefinitionUpdate of the internal forms (see validateCustomResourceDefinitionUpdate). */
export function validateInternalUpdate(
  crd: InternalCrd,
  prev: InternalCrd,
  defaults?: SchemaDefaultsCheck,
): FieldError[] {
  const errs = validateSpec(crd.spec, updateOptions(prev, defaults));
  const immutable = (at: string, now: unknown, before: unknown) => {
    if (!goEqual(now, before)) errs.push(invalidValue(at, now, 'field is immutable'));
  };
  if (isCrdConditionTrue(prev, 'Established')) {
    immutable('spec.scope', crd.spec.scope, prev.spec.scope);
    immutable('spec.names.kind', crd.spec.names?.kind, prev.spec.names?.kind);
  }
  immutable('spec.group', crd.spec.group, prev.spec.group);
  immutable('spec.names.plural', crd.spec.names?.plural, prev.spec.names?.plural);
  errs.push(...validateStatus(crd), ...validateStoredVersions(crd));
  errs.push(...validateApiApproval(crd, prev), ...validatePreserveUnknownFields(crd, prev));
  return errs;
}

/**
 * ValidateCustomResourceDefinition of a v1 object (defaulted), with upstream's paths (those of
 * the internal form); `defaults` checks schema defaults once a schema is structural (skipped
 * without it).
 */
export function validateCustomResourceDefinition(
  obj: CustomResourceDefinition,
  defaults?: SchemaDefaultsCheck,
): FieldError[] {
  return validateInternalCreate(toInternal(obj), defaults);
}

/** ValidateCustomResourceDefinitionUpdate of v1 objects (both defaulted; `obj` prepared for update). */
export function validateCustomResourceDefinitionUpdate(
  obj: CustomResourceDefinition,
  old: CustomResourceDefinition,
  defaults?: SchemaDefaultsCheck,
): FieldError[] {
  return validateInternalUpdate(toInternal(obj), toInternal(old), defaults);
}

/** ValidateUpdateCustomResourceDefinitionStatus: the accepted names (metadata rules are the registry's). */
export function validateCustomResourceDefinitionStatusUpdate(obj: CustomResourceDefinition): FieldError[] {
  return validateStatus(toInternal(obj));
}
