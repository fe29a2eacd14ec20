/**
 * The spec rules of a CustomResourceDefinition (k8s.io/apiextensions-apiserver
 * pkg/apis/apiextensions/validation/validation.go validateCustomResourceDefinitionSpec,
 * ValidateCustomResourceDefinitionNames, validateCustomResourceConversion and
 * validateConversionReviewVersions, 1.33), on the internal form (internal.ts): group with a
 * dot, scope, schemas required, versions (exactly one storage version, unique DNS-1035 names),
 * top-level and per-version fields exclusive, names, printer columns, selectable fields and
 * the conversion strategy. Problems carry upstream's paths and messages.
 */
import { validateDns1035Label, validateDns1123Subdomain } from '../../api/names.js';
import { forbidden, invalidValue, required, type FieldError } from '../../api/validation/field-errors.js';
import { invalidGo } from '../../api/validation/resources.js';
import type { CustomResourceDefinitionNames } from './customresourcedefinitions.schema.js';
import { goEqual, type InternalSpec, type InternalVersion } from './internal.js';
import { hasSchemaWith, listOf, schemaHasDefaults, schemaHasKubernetesExtensions } from './schema-walk.js';
import { toStructural } from './structural.js';
import {
  deprecationWarningProblems,
  validateColumn,
  validateSchemaOf,
  validateSelectableFields,
  validateSubresources,
  type VersionRuleOptions,
} from './version-validation.js';
import { enumString, validateConversion, type ConversionRuleOptions } from './conversion-validation.js';

/** validationOptions of the spec rules. */
export interface SpecRuleOptions extends VersionRuleOptions, ConversionRuleOptions {
  readonly requireOpenAPISchema: boolean;
}

/** The internal versions as upstream prints them (`%#v` of a slice of structs), shortened. */
const goVersions = (versions: readonly InternalVersion[]) =>
  `[]apiextensions.CustomResourceDefinitionVersion{${versions.map((v) => JSON.stringify(v)).join(', ')}}`;

/** ValidateCustomResourceDefinitionNames (spec.names and status.acceptedNames). */
export function validateNames(
  names: Partial<CustomResourceDefinitionNames> | null | undefined,
  at: string,
): FieldError[] {
  const errs: FieldError[] = [];
  const n = names ?? {};
  const label = (field: string, value: string | null | undefined) => {
    if (!value) return;
    const problems = validateDns1035Label(value);
    if (problems.length) errs.push(invalidValue(`${at}.${field}`, value, problems.join(',')));
  };
  const mixedCase = (field: string, value: string | null | undefined) => {
    if (!value) return;
    const problems = validateDns1035Label(value.toLowerCase());
    if (problems.length)
      errs.push(
        invalidValue(`${at}.${field}`, value, `may have mixed case, but should otherwise match: ${problems.join(',')}`),
      );
  };
  label('plural', n.plural);
  label('singular', n.singular);
  mixedCase('kind', n.kind);
  mixedCase('listKind', n.listKind);
  listOf(n.shortNames).forEach((s, i) => {
    const problems = validateDns1035Label(s);
    if (problems.length) errs.push(invalidValue(`${at}.shortNames[${i}]`, s, problems.join(',')));
  });
  if (n.kind && n.kind === n.listKind)
    errs.push(invalidValue(`${at}.listKind`, n.listKind, 'kind and listKind may not be the same'));
  listOf(n.categories).forEach((c, i) => {
    const problems = validateDns1035Label(c);
    if (problems.length) errs.push(invalidValue(`${at}.categories[${i}]`, c, problems.join(',')));
  });
  return errs;
}

/** Whether every version sets `field` to the same non-empty value (hasIdenticalPerVersion*). */
function identicalPerVersion(
  versions: readonly InternalVersion[],
  field: 'schema' | 'subresources' | 'additionalPrinterColumns',
): boolean {
  if (!versions.length) return false;
  const first = versions[0][field];
  return versions.every((v) => {
    const value = v[field];
    return value != null && !(Array.isArray(value) && !value.length) && goEqual(value, first);
  });
}

/** validateCustomResourceDefinitionVersion: one version's own fields. */
function validateVersion(v: InternalVersion, at: string, statusEnabled: boolean, opts: SpecRuleOptions): FieldError[] {
  const errs = deprecationWarningProblems(!!v.deprecated, v.deprecationWarning).map((m) =>
    invalidValue(`${at}.deprecationWarning`, v.deprecationWarning, m),
  );
  errs.push(...validateSchemaOf(v.schema, statusEnabled, opts, `${at}.schema`));
  errs.push(...validateSubresources(v.subresources, `${at}.subresources`));
  listOf(v.additionalPrinterColumns).forEach((c, i) =>
    errs.push(...validateColumn(c, `${at}.additionalPrinterColumns[${i}]`)),
  );
  const selectable = listOf(v.selectableFields);
  if (selectable.length) {
    const schema = v.schema?.openAPIV3Schema;
    if (!schema)
      errs.push(
        invalidValue(
          `${at}.selectableFields`,
          '',
          'selectableFields may only be set when version.schema.openAPIV3Schema is not included',
        ),
      );
    else {
      const ss = toStructural(schema);
      if ('error' in ss) errs.push(invalidValue(`${at}.schema.openAPIV3Schema`, '', ss.error));
      errs.push(
        ...validateSelectableFields(selectable, 'error' in ss ? undefined : ss.structural, `${at}.selectableFields`),
      );
    }
  }
  return errs;
}

/** validateCustomResourceDefinitionSpec of the internal `spec` (at `spec`). */
export function validateSpec(spec: InternalSpec, options: SpecRuleOptions): FieldError[] {
  const errs: FieldError[] = [];
  let opts = options;
  if (!spec.group) errs.push(required('spec.group'));
  else {
    const problems = validateDns1123Subdomain(spec.group);
    if (problems.length) errs.push(invalidValue('spec.group', spec.group, problems.join(',')));
    else if (spec.group.split('.').length < 2)
      errs.push(invalidValue('spec.group', spec.group, 'should be a domain with at least one dot'));
  }
  errs.push(...enumString('spec.scope', spec.scope, ['Cluster', 'Namespaced']));
  const preserve = spec.preserveUnknownFields;
  if (!preserve) opts = { ...opts, requireStructuralSchema: true };
  const topSchema = spec.validation?.openAPIV3Schema;
  if (!topSchema && (opts.requireOpenAPISchema || !preserve))
    spec.versions.forEach((v, i) => {
      const missing = !v.schema?.openAPIV3Schema;
      const at = `spec.versions[${i}].schema.openAPIV3Schema`;
      if (opts.requireOpenAPISchema && missing) errs.push(required(at, 'schemas are required'));
      else if (!opts.requireOpenAPISchema && v.served && missing)
        errs.push(required(at, 'because otherwise all fields are pruned'));
    });
  if (opts.allowDefaults && hasSchemaWith(spec, schemaHasDefaults)) {
    opts = { ...opts, requireStructuralSchema: true };
    if (preserve == null || preserve)
      errs.push(
        invalidValue('spec.preserveUnknownFields', true, 'must be false in order to use defaults in the schema'),
      );
  }
  if (hasSchemaWith(spec, schemaHasKubernetesExtensions)) opts = { ...opts, requireStructuralSchema: true };
  const perVersionSubresources = spec.versions.some((v) => v.subresources != null);
  const names = new Set<string>();
  let unique = true;
  let storage = 0;
  spec.versions.forEach((v, i) => {
    if (v.storage) storage++;
    if (names.has(v.name)) unique = false;
    names.add(v.name);
    const problems = validateDns1035Label(v.name);
    if (problems.length) errs.push(invalidValue(`spec.versions[${i}].name`, v.name, problems.join(',')));
    const subresources = perVersionSubresources ? v.subresources : spec.subresources;
    errs.push(...validateVersion(v, `spec.versions[${i}]`, subresources?.status != null, opts));
  });
  if (spec.validation != null && spec.versions.some((v) => v.schema != null))
    errs.push(forbidden('spec.validation', 'top-level and per-version schemas are mutually exclusive'));
  if (spec.subresources != null && perVersionSubresources)
    errs.push(forbidden('spec.subresources', 'top-level and per-version subresources are mutually exclusive'));
  if (
    listOf(spec.additionalPrinterColumns).length &&
    spec.versions.some((v) => listOf(v.additionalPrinterColumns).length)
  )
    errs.push(
      forbidden(
        'spec.additionalPrinterColumns',
        'top-level and per-version additionalPrinterColumns are mutually exclusive',
      ),
    );
  const versions = goVersions(spec.versions);
  const identical = (field: 'schema' | 'subresources' | 'additionalPrinterColumns', what: string, top: string) => {
    if (identicalPerVersion(spec.versions, field))
      errs.push(
        invalidGo(
          'spec.versions',
          versions,
          `per-version ${what} may not all be set to identical values (top-level ${top} should be used instead)`,
        ),
      );
  };
  identical('schema', 'schemas', 'validation');
  identical('subresources', 'subresources', 'subresources');
  identical('additionalPrinterColumns', 'additionalPrinterColumns', 'additionalPrinterColumns');
  if (!unique) errs.push(invalidGo('spec.versions', versions, 'must contain unique version names'));
  if (storage !== 1)
    errs.push(invalidGo('spec.versions', versions, 'must have exactly one version marked as storage version'));
  if (spec.version) {
    const problems = validateDns1035Label(spec.version);
    if (problems.length) errs.push(invalidValue('spec.version', spec.version, problems.join(',')));
    if (spec.versions.length && spec.versions[0].name !== spec.version)
      errs.push(invalidValue('spec.version', spec.version, 'must match the first version in spec.versions'));
  }
  for (const field of ['plural', 'singular', 'kind', 'listKind'] as const)
    if (!spec.names?.[field]) errs.push(required(`spec.names.${field}`));
  errs.push(...validateNames(spec.names, 'spec.names'));
  const anyStatus = spec.subresources?.status != null || spec.versions.some((v) => v.subresources?.status != null);
  errs.push(...validateSchemaOf(spec.validation, anyStatus, opts, 'spec.validation'));
  errs.push(...validateSubresources(spec.subresources, 'spec.subresources'));
  listOf(spec.additionalPrinterColumns).forEach((c, i) =>
    errs.push(...validateColumn(c, `spec.additionalPrinterColumns[${i}]`)),
  );
  const selectable = listOf(spec.selectableFields);
  if (selectable.length) {
    if (spec.validation == null)
      errs.push(
        invalidValue(
          'spec.selectableFields',
          '',
          'selectableFields may only be set when validations.schema is included',
        ),
      );
    else {
      const ss = topSchema ? toStructural(topSchema) : undefined;
      if (ss && 'error' in ss) errs.push(invalidValue('spec.schema.openAPIV3Schema', '', ss.error));
      errs.push(
        ...validateSelectableFields(
          selectable,
          ss && 'structural' in ss ? ss.structural : undefined,
          'spec.selectableFields',
        ),
      );
    }
  }
  if (spec.conversion && spec.conversion.strategy !== 'None' && (preserve == null || preserve))
    errs.push(
      invalidValue(
        'spec.conversion.strategy',
        spec.conversion.strategy,
        'must be None if spec.preserveUnknownFields is true',
      ),
    );
  errs.push(...validateConversion(spec.conversion, opts, 'spec.conversion'));
  return errs;
}
