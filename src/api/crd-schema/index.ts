/**
 * What the server does to a custom object with its CRD version's `openAPIV3Schema`, as upstream
 * 1.33's apiextensions-apiserver does it. A custom-resource strategy calls, on create and update:
 * `decodeCustomObject` (prune -> drop disallowed nulls -> coerce embedded metadata -> default,
 * collecting unknown fields for fieldValidation) and then `validateCustomObject`; the pieces are
 * exported for callers that need one step (defaulting on read, pruning a default).
 *
 * - `toStructural(props)`: the structural schema (throws Error on what CRD validation rejects).
 * - `prune(obj, structural, { isResourceRoot, returnPruned })`: in place; sorted unknown paths.
 * - `pruneNonNullableNulls(obj, structural)`, `applyDefaults(obj, structural)`: in place.
 * - `validateCustomObject(obj, props, { oldObj?, fieldPath?, nodeValidators? })`: FieldError[].
 */
export { toStructural } from './structural.js';
export { prune, type PruneOptions } from './prune.js';
export { applyDefaults, pruneNonNullableNulls } from './defaults.js';
export { decodeCustomObject, type DecodeOptions, type DecodeResult } from './decode.js';
export { coerceEmbeddedResources, validateEmbeddedResources } from './object-meta.js';
export { validateListSetsAndMaps } from './listtype.js';
export * from './defaults-validation.js';
export {
  validateCustomObject,
  visitNodes,
  type NodeValidator,
  type SchemaNode,
  type ValidateOptions,
} from './validate.js';
export type { JSONSchemaProps, Structural, ValidationRule } from './types.js';
