/**
 * Types of a CustomResourceDefinition version's schema: `JSONSchemaProps` as the v1 API carries
 * it (apiextensions.k8s.io/v1 types_jsonschema.go, every field including the x-kubernetes-*
 * extensions), and `Structural`, the reduced form the server prunes and defaults by
 * (apiextensions-apiserver pkg/apiserver/schema/structural.go). Plain JSON-compatible data.
 */

/** One `x-kubernetes-validations` rule (CEL; evaluated by a later part, carried here as data). */
export interface ValidationRule {
  rule: string;
  message?: string;
  messageExpression?: string;
  reason?: 'FieldValueInvalid' | 'FieldValueForbidden' | 'FieldValueRequired' | 'FieldValueDuplicate';
  fieldPath?: string;
  optionalOldSelf?: boolean;
}

/** The v1 `JSONSchemaProps` (OpenAPI v3.0 subset plus Kubernetes extensions), as on the wire. */
export interface JSONSchemaProps {
  id?: string;
  $schema?: string;
  $ref?: string;
  description?: string;
  type?: string;
  format?: string;
  title?: string;
  default?: unknown;
  maximum?: number;
  exclusiveMaximum?: boolean;
  minimum?: number;
  exclusiveMinimum?: boolean;
  maxLength?: number;
  minLength?: number;
  pattern?: string;
  maxItems?: number;
  minItems?: number;
  uniqueItems?: boolean;
  multipleOf?: number;
  enum?: unknown[];
  maxProperties?: number;
  minProperties?: number;
  required?: string[];
  /** A schema, or (rejected by CRD validation) an array of schemas. */
  items?: JSONSchemaProps | JSONSchemaProps[];
  allOf?: JSONSchemaProps[];
  oneOf?: JSONSchemaProps[];
  anyOf?: JSONSchemaProps[];
  not?: JSONSchemaProps;
  properties?: Record<string, JSONSchemaProps>;
  additionalProperties?: JSONSchemaProps | boolean;
  patternProperties?: Record<string, JSONSchemaProps>;
  dependencies?: Record<string, JSONSchemaProps | string[]>;
  additionalItems?: JSONSchemaProps | boolean;
  definitions?: Record<string, JSONSchemaProps>;
  externalDocs?: { description?: string; url?: string };
  example?: unknown;
  nullable?: boolean;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-list-type'?: string;
  'x-kubernetes-map-type'?: string;
  'x-kubernetes-validations'?: ValidationRule[];
}

/** A structural schema or a boolean (upstream StructuralOrBool): `additionalProperties`. */
export interface StructuralOrBool {
  structural?: Structural;
  /** `true` when a schema is given or `additionalProperties: true`. */
  bool: boolean;
}

/** Generic fields (upstream schema.Generic). `default` undefined = no default (a null default is none). */
export interface Generic {
  description?: string;
  type?: string;
  title?: string;
  default?: unknown;
  additionalProperties?: StructuralOrBool;
  nullable?: boolean;
}

/** The Kubernetes vendor extensions (upstream schema.Extensions). */
export interface Extensions {
  xPreserveUnknownFields?: boolean;
  xEmbeddedResource?: boolean;
  xIntOrString?: boolean;
  xListMapKeys?: string[];
  xListType?: string;
  xMapType?: string;
  xValidations?: ValidationRule[];
}

/** Value validations that do not shape the structure (upstream schema.ValueValidation). */
export interface ValueValidation {
  format?: string;
  maximum?: number;
  exclusiveMaximum?: boolean;
  minimum?: number;
  exclusiveMinimum?: boolean;
  maxLength?: number;
  minLength?: number;
  pattern?: string;
  maxItems?: number;
  minItems?: number;
  uniqueItems?: boolean;
  multipleOf?: number;
  enum?: unknown[];
  maxProperties?: number;
  minProperties?: number;
  required?: string[];
  allOf?: NestedValueValidation[];
  oneOf?: NestedValueValidation[];
  anyOf?: NestedValueValidation[];
  not?: NestedValueValidation;
}

/** Value validation under a junctor (allOf/anyOf/oneOf/not), upstream NestedValueValidation. */
export interface NestedValueValidation extends ValueValidation {
  items?: NestedValueValidation;
  properties?: Record<string, NestedValueValidation>;
  /** Set only in non-structural schemas (and the int-or-string patterns). */
  forbiddenGenerics: Generic;
  forbiddenExtensions: Extensions;
}

/**
 * A structural schema (upstream schema.Structural): every field optional, so `{}` is the empty
 * schema, as Go's zero value is.
 */
export interface Structural {
  items?: Structural;
  properties?: Record<string, Structural>;
  generic?: Generic;
  extensions?: Extensions;
  valueValidation?: ValueValidation;
}
