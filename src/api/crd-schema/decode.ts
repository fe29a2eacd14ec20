/**
 * What upstream does to a custom object on decode, in its order (apiextensions-apiserver
 * pkg/apiserver/customresource_handler.go: schemaCoercingDecoder -> unstructuredSchemaCoercer.apply,
 * then the versioning codec's unstructuredDefaulter): prune unknown fields (the root's
 * apiVersion/kind/metadata kept), drop non-nullable nulls that have no default, coerce embedded
 * resources' TypeMeta and ObjectMeta, then apply defaults. Reads from storage go through the same
 * steps (with invalid embedded metadata dropped instead of refused).
 */
import type { FieldError } from '../validation/field-errors.js';
import { applyDefaults, pruneNonNullableNulls } from './defaults.js';
import { coerceEmbeddedResources } from './object-meta.js';
import { prune } from './prune.js';
import type { Structural } from './types.js';

/** Options of {@link decodeCustomObject}. */
export interface DecodeOptions {
  /** Collect unknown field paths (fieldValidation Strict or Warn). */
  returnUnknownFieldPaths?: boolean;
  /** The CRD's `preserveUnknownFields: true` (v1beta1 era): nothing is pruned. */
  preserveUnknownFields?: boolean;
  /** Drop embedded metadata of a wrong type instead of failing (reads from storage). */
  dropInvalidMetadata?: boolean;
}

/** The outcome: unknown fields (`spec.foo`, upstream's `unknown field "spec.foo"`) and a refusal, if any. */
export interface DecodeResult {
  unknownFieldPaths: string[];
  /** Upstream fails the decode with this (e.g. `spec.template.kind: Invalid value: 1: must be a string`). */
  error?: FieldError;
}

/**
 * Prune, drop disallowed nulls, coerce embedded resources and default `obj` in place, by its
 * version's structural schema. Unknown paths come sorted, pruned ones first, then embedded
 * metadata ones, as upstream appends them. Never throws.
 */
export function decodeCustomObject(
  obj: unknown,
  schema: Structural | undefined,
  opts: DecodeOptions = {},
): DecodeResult {
  const unknownFieldPaths: string[] = [];
  if (!opts.preserveUnknownFields) {
    unknownFieldPaths.push(...prune(obj, schema, { isResourceRoot: true, returnPruned: opts.returnUnknownFieldPaths }));
    pruneNonNullableNulls(obj, schema);
  }
  const coerced = coerceEmbeddedResources(obj, schema, {
    dropInvalidFields: opts.dropInvalidMetadata,
    returnUnknownFieldPaths: opts.returnUnknownFieldPaths,
  });
  unknownFieldPaths.push(...coerced.unknownFieldPaths);
  if (coerced.error) return { unknownFieldPaths, error: coerced.error };
  applyDefaults(obj, schema);
  return { unknownFieldPaths };
}
