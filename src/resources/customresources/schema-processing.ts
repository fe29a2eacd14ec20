/**
 * A version's `openAPIV3Schema` as its objects meet it (upstream crdHandler's
 * schemaCoercingDecoder, unstructuredDefaulter and customResourceValidator; the steps are in
 * api/crd-schema): on decode, unknown fields pruned (and reported for fieldValidation),
 * nulls of non-nullable fields without a default dropped, embedded resources' metadata
 * coerced, defaults filled; then the schema's validations. No schema (a version without one)
 * prunes everything but apiVersion, kind and metadata, as upstream's empty structural schema.
 */
import { decodeCustomObject, toStructural, validateCustomObject } from '../../api/crd-schema/index.js';
import type { JSONSchemaProps, Structural } from '../../api/crd-schema/types.js';
import { CelValidator } from '../../api/cel/index.js';
import type { ApiObject } from '../../api/object.js';
import type { FieldError } from '../../api/validation/field-errors.js';

/** What a version's schema does to its objects. */
export interface SchemaProcessor {
  /**
   * Prune, drop disallowed nulls, coerce embedded metadata and default `obj` in place; returns
   * the unknown fields' paths (`spec.foo`) and, when the object cannot be decoded (an embedded
   * resource's metadata of a wrong type), the problem.
   */
  decode(obj: ApiObject): { unknown: string[]; error?: FieldError };
  /** Schema problems of `obj` (`old` for an update: ratcheting), as 422 causes. */
  validate(obj: ApiObject, old?: ApiObject): FieldError[];
}

/**
 * The processor of a version's schema (absent: the empty schema). `preserveUnknownFields`: the
 * definition's (v1beta1 era): nothing is pruned, and a schema that is not structural is
 * served anyway (upstream crdHandler), validating by its OpenAPI keywords only.
 */
export function schemaProcessorFor(
  openAPIV3Schema: JSONSchemaProps | null | undefined,
  preserveUnknownFields = false,
): SchemaProcessor {
  const props: JSONSchemaProps = openAPIV3Schema ?? {};
  const structural = preserveUnknownFields ? structuralIfAny(props) : toStructural(props);
  const cel = celValidatorOf(structural);
  return {
    decode(obj: ApiObject) {
      const res = decodeCustomObject(obj, structural, { returnUnknownFieldPaths: true, preserveUnknownFields });
      return { unknown: res.unknownFieldPaths, error: res.error };
    },
    validate(obj: ApiObject, old?: ApiObject) {
      // x-kubernetes-validations (CEL), run once per object at its root, after the keywords.
      const nodeValidators = cel ? [cel.nodeValidator()] : undefined;
      return validateCustomObject(obj, props, { oldObj: old, structural, nodeValidators });
    },
  };
}

/** The rules of `structural` compiled, or undefined when it has none (or cannot be compiled). */
function celValidatorOf(structural: Structural | undefined): CelValidator | undefined {
  if (!structural || !JSON.stringify(structural).includes('"xValidations"')) return undefined;
  try {
    return new CelValidator(structural);
  } catch {
    return undefined; // refused when the definition was written; a stored one that no longer compiles is not enforced
  }
}

/** The structural form of `props`, or undefined when it has none. */
function structuralIfAny(props: JSONSchemaProps) {
  try {
    return toStructural(props);
  } catch {
    return undefined;
  }
}
