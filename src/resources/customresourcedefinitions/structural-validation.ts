/**
 * Whether a CRD schema is structural (k8s.io/apiextensions-apiserver pkg/apiserver/schema
 * validation.go ValidateStructural and complete.go validateStructuralCompleteness, 1.33, with
 * the CRD options: no additionalProperties and no x-kubernetes-validations inside junctors):
 * every specified field has a `type` (except int-or-string and preserve-unknown-fields),
 * arrays have items, junctors (allOf/anyOf/oneOf/not) carry no type, description, title,
 * default, nullable or extensions and name only fields specified outside them, metadata at
 * the root restricts only name and generateName, embedded resources are objects. Errors are
 * sorted by their text, as upstream sorts them.
 */
import { forbidden, invalidValue, required, type FieldError } from '../../api/validation/field-errors.js';
import { goRegexpError } from '../../api/crd-schema/regex.js';
import type { Generic, NestedValueValidation, Structural, ValueValidation } from './structural.js';

type Level = 'root' | 'item' | 'field';

const key = (path: string, k: string) => `${path}[${k}]`;

/** The int-or-string junctor `[{type: integer}, {type: string}]` and nothing else. */
function isIntOrStringPair(anyOf: NestedValueValidation[]): boolean {
  if (anyOf.length !== 2) return false;
  return anyOf.every((n, i) => {
    const bare = JSON.stringify({ ...n, forbiddenGenerics: { ...n.forbiddenGenerics, type: '' } });
    return n.forbiddenGenerics.type === (i === 0 ? 'integer' : 'string') && bare === EMPTY_NESTED;
  });
}
const EMPTY_NESTED = JSON.stringify({
  valueValidation: { keywords: {}, pattern: '', required: [], allOf: [], anyOf: [], oneOf: [] },
  xValidations: [],
  forbiddenGenerics: { type: '', description: '', title: '', nullable: false, hasDefault: false },
  forbiddenExtensions: {
    preserveUnknownFields: false,
    embeddedResource: false,
    intOrString: false,
    listMapKeys: [],
    listType: null,
    mapType: null,
  },
});

function invariants(s: Structural | undefined, lvl: Level, at: string): FieldError[] {
  if (!s) return [];
  const errs: FieldError[] = [];
  const g = s.generic;
  const x = s.extensions;
  if (g.type === 'array' && !s.items) errs.push(required(`${at}.items`, 'must be specified'));
  errs.push(...invariants(s.items, 'item', `${at}.items`));
  for (const [k, p] of Object.entries(s.properties ?? {}))
    errs.push(...invariants(p, 'field', key(`${at}.properties`, k)));
  if (s.additionalProperties) {
    if (lvl === 'root') errs.push(forbidden(`${at}.additionalProperties`, 'must not be used at the root'));
    errs.push(...invariants(s.additionalProperties.structural, 'field', `${at}.additionalProperties`));
  }
  if (x.intOrString && x.preserveUnknownFields)
    errs.push(
      invalidValue(
        `${at}.x-kubernetes-preserve-unknown-fields`,
        true,
        'must be false if x-kubernetes-int-or-string is true',
      ),
    );
  if (x.intOrString && x.embeddedResource)
    errs.push(
      invalidValue(`${at}.x-kubernetes-embedded-resource`, true, 'must be false if x-kubernetes-int-or-string is true'),
    );
  const vv = s.valueValidation;
  const skipAnyOf = isIntOrStringPair(vv.anyOf);
  const skipFirstAllOfAnyOf = vv.allOf.length >= 1 && isIntOrStringPair(vv.allOf[0].valueValidation.anyOf);
  errs.push(...valueValidation(vv, skipAnyOf, skipFirstAllOfAnyOf, lvl, at));
  const checkMetadata = lvl === 'root' || x.embeddedResource;
  if (x.embeddedResource && g.type !== 'object') {
    const detail = 'must be object if x-kubernetes-embedded-resource is true';
    errs.push(g.type ? invalidValue(`${at}.type`, g.type, detail) : required(`${at}.type`, detail));
  } else if (!g.type && !x.intOrString && !x.preserveUnknownFields) {
    const where = { root: 'at the root', item: 'for specified array items', field: 'for specified object fields' }[lvl];
    errs.push(required(`${at}.type`, `must not be empty ${where}`));
  }
  if (x.embeddedResource && s.additionalProperties)
    errs.push(forbidden(`${at}.additionalProperties`, 'must not be used if x-kubernetes-embedded-resource is set'));
  if (lvl === 'root' && g.type && g.type !== 'object')
    errs.push(invalidValue(`${at}.type`, g.type, 'must be object at the root'));
  for (const name of ['kind', 'apiVersion']) {
    const p = s.properties?.[name];
    if (p && checkMetadata && p.generic.type !== 'string')
      errs.push(invalidValue(`${key(`${at}.properties`, name)}.type`, p.generic.type, 'must be string'));
  }
  const metadata = s.properties?.metadata;
  if (metadata) errs.push(...metadataInvariants(metadata, checkMetadata, lvl, key(`${at}.properties`, 'metadata')));
  if (x.embeddedResource && !x.preserveUnknownFields && !Object.keys(s.properties ?? {}).length)
    errs.push(
      required(
        `${at}.properties`,
        'must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields',
      ),
    );
  return errs;
}

/** validateStructuralMetadataInvariants. */
function metadataInvariants(s: Structural, checkMetadata: boolean, lvl: Level, at: string): FieldError[] {
  const errs: FieldError[] = [];
  if (checkMetadata && s.generic.type !== 'object')
    errs.push(invalidValue(`${at}.type`, s.generic.type, 'must be object'));
  if (lvl !== 'root') return errs;
  const props = Object.keys(s.properties ?? {});
  const onlyNames = props.length > 0 && props.every((p) => p === 'name' || p === 'generateName');
  const g = s.generic;
  const x = s.extensions;
  const vv = s.valueValidation;
  const restricted =
    (!onlyNames && props.length > 0) ||
    !!g.description ||
    !!g.title ||
    g.nullable ||
    x.preserveUnknownFields ||
    x.embeddedResource ||
    x.intOrString ||
    x.listMapKeys.length > 0 ||
    x.listType !== null ||
    x.mapType !== null ||
    Object.keys(vv.keywords).length > 0 ||
    !!vv.pattern ||
    vv.required.length > 0 ||
    vv.allOf.length + vv.anyOf.length + vv.oneOf.length > 0 ||
    !!vv.not ||
    s.xValidations.length > 0 ||
    !!s.items ||
    !!s.additionalProperties;
  if (restricted)
    errs.push(
      forbidden(at, 'must not specify anything other than name and generateName, but metadata is implicitly specified'),
    );
  return errs;
}

function valueValidation(
  v: ValueValidation,
  skipAnyOf: boolean,
  skipFirstAllOfAnyOf: boolean,
  lvl: Level,
  at: string,
): FieldError[] {
  const errs: FieldError[] = [];
  if (!skipAnyOf) v.anyOf.forEach((n, i) => errs.push(...nestedValidation(n, false, lvl, `${at}.anyOf[${i}]`)));
  v.allOf.forEach((n, i) =>
    errs.push(...nestedValidation(n, skipFirstAllOfAnyOf && i === 0, lvl, `${at}.allOf[${i}]`)),
  );
  v.oneOf.forEach((n, i) => errs.push(...nestedValidation(n, false, lvl, `${at}.oneOf[${i}]`)));
  if (v.not) errs.push(...nestedValidation(v.not, false, lvl, `${at}.not`));
  if (v.pattern) {
    const problem = goRegexpError(v.pattern);
    if (problem)
      errs.push(invalidValue(`${at}.pattern`, v.pattern, `must be a valid regular expression, but isn't: ${problem}`));
  }
  return errs;
}

function forbiddenGenerics(g: Generic, at: string): FieldError[] {
  const errs: FieldError[] = [];
  if (g.type) errs.push(forbidden(`${at}.type`, 'must be empty to be structural'));
  return errs;
}

/** validateNestedValueValidation (junctor contents), with the CRD options. */
function nestedValidation(v: NestedValueValidation, skipAnyOf: boolean, lvl: Level, at: string): FieldError[] {
  const errs = valueValidation(v.valueValidation, skipAnyOf, false, lvl, at);
  if (v.items) errs.push(...nestedValidation(v.items, false, lvl, `${at}.items`));
  for (const [k, p] of Object.entries(v.properties ?? {}))
    errs.push(...nestedValidation(p, false, 'field', key(`${at}.properties`, k)));
  errs.push(...forbiddenGenerics(v.forbiddenGenerics, at));
  if (v.additionalProperties) errs.push(forbidden(`${at}.additionalProperties`, 'must be undefined to be structural'));
  const g = v.forbiddenGenerics;
  const x = v.forbiddenExtensions;
  if (g.hasDefault && g.default !== null) errs.push(forbidden(`${at}.default`, 'must be undefined to be structural'));
  if (g.title) errs.push(forbidden(`${at}.title`, 'must be empty to be structural'));
  if (g.description) errs.push(forbidden(`${at}.description`, 'must be empty to be structural'));
  if (g.nullable) errs.push(forbidden(`${at}.nullable`, 'must be false to be structural'));
  if (x.preserveUnknownFields)
    errs.push(forbidden(`${at}.x-kubernetes-preserve-unknown-fields`, 'must be false to be structural'));
  if (x.embeddedResource)
    errs.push(forbidden(`${at}.x-kubernetes-embedded-resource`, 'must be false to be structural'));
  if (x.intOrString) errs.push(forbidden(`${at}.x-kubernetes-int-or-string`, 'must be false to be structural'));
  if (x.listMapKeys.length) errs.push(forbidden(`${at}.x-kubernetes-list-map-keys`, 'must be empty to be structural'));
  if (x.listType !== null) errs.push(forbidden(`${at}.x-kubernetes-list-type`, 'must be undefined to be structural'));
  if (x.mapType !== null) errs.push(forbidden(`${at}.x-kubernetes-map-type`, 'must be undefined to be structural'));
  if (v.xValidations.length) errs.push(forbidden(`${at}.x-kubernetes-validations`, 'must be empty to be structural'));
  if (v.properties?.metadata)
    errs.push(forbidden(key(`${at}.properties`, 'metadata'), 'must not be specified in a nested context'));
  return errs;
}

/** validateValueValidationCompleteness / validateNestedValueValidationCompleteness. */
function completeness(v: ValueValidation, s: Structural | undefined, sPath: string, vPath: string): FieldError[] {
  if (!s) return [required(sPath, `because it is defined in ${vPath}`)];
  const errs: FieldError[] = [];
  if (v.not) errs.push(...nestedCompleteness(v.not, s, sPath, `${vPath}.not`));
  v.allOf.forEach((n, i) => errs.push(...nestedCompleteness(n, s, sPath, `${vPath}.allOf[${i}]`)));
  v.anyOf.forEach((n, i) => errs.push(...nestedCompleteness(n, s, sPath, `${vPath}.anyOf[${i}]`)));
  v.oneOf.forEach((n, i) => errs.push(...nestedCompleteness(n, s, sPath, `${vPath}.oneOf[${i}]`)));
  return errs;
}

function nestedCompleteness(
  v: NestedValueValidation,
  s: Structural | undefined,
  sPath: string,
  vPath: string,
): FieldError[] {
  if (!s) return [required(sPath, `because it is defined in ${vPath}`)];
  const errs = completeness(v.valueValidation, s, sPath, vPath);
  if (v.items) errs.push(...nestedCompleteness(v.items, s.items, `${sPath}.items`, `${vPath}.items`));
  for (const [k, p] of Object.entries(v.properties ?? {})) {
    const sField = s.properties?.[k];
    const fieldPath = key(`${sPath}.properties`, k);
    if (!sField) errs.push(required(fieldPath, `because it is defined in ${key(`${vPath}.properties`, k)}`));
    else errs.push(...nestedCompleteness(p, sField, fieldPath, key(`${vPath}.properties`, k)));
  }
  return errs;
}

/** `<field>: <message>`, the text upstream sorts errors by. */
export const errorText = (e: FieldError) => `${e.field}: ${e.message}`;

/**
 * ValidateStructural of a schema at `at` (`spec.validation.openAPIV3Schema`): the problems
 * that make it non-structural, sorted by their text; empty when it is structural.
 */
export function validateStructural(s: Structural, at: string): FieldError[] {
  const errs = [...invariants(s, 'root', at), ...completeness(s.valueValidation, s, at, at)];
  return errs.sort((a, b) => (errorText(a) < errorText(b) ? -1 : errorText(a) > errorText(b) ? 1 : 0));
}
