/**
 * Objects in the version a webhook is called with (upstream admission.VersionedAttributes and
 * the Equivalent match policy): admission sees stored objects; a webhook gets them as the row it
 * matched serves them (converted from storage, with that row's apiVersion and kind), and what a
 * mutating webhook returns is decoded as that row's object (checked against its schema,
 * unknown fields dropped as a typed decode drops them, defaulted) and converted back.
 *
 * Equivalent resources: rows served over the same storage (another group or version of one
 * resource), as upstream's EquivalentResourceMapper finds them.
 */
import { checkSchema } from '../../api/field-validation.js';
import { deepCopy, isApiObject, type ApiObject } from '../../api/object.js';
import { internalError } from '../../errors/api-error.js';
import { apiVersionOf, type ResourceDefinition } from '../../registry/types.js';

/** `obj` (as stored) as `def` serves it: a new object, `kind` and `apiVersion` first. */
export function toVersion(def: ResourceDefinition, obj: ApiObject): ApiObject {
  const served = def.conversion ? def.conversion.fromStorage(obj) : obj;
  const { kind: _k, apiVersion: _a, ...rest } = deepCopy(served);
  return { kind: def.kind, apiVersion: apiVersionOf(def), ...rest };
}

/**
 * A patched object of `def`'s version back as stored: checked against the row's schema (a
 * type error is a 500, as upstream's decode of the patched JSON fails), defaulted, converted.
 * Throws ApiError 500.
 */
export function fromVersion(def: ResourceDefinition, patched: unknown): ApiObject {
  if (!isApiObject(patched)) throw internalError('the patched object is not an object with metadata');
  const obj = deepCopy(patched);
  const checked = def.fieldCheck ? def.fieldCheck(obj) : checkSchema(def.schema, obj);
  // A missing required field is the kind's validation's to report (422), as after upstream's decode.
  const errors = checked.errors.filter((e) => e.reason !== 'FieldValueRequired');
  if (errors.length) throw internalError(errors.map((e) => `${e.field}: ${e.message}`).join(', '));
  if (def.conversion) {
    def.conversion.defaults?.(obj);
    return def.conversion.toStorage(obj);
  }
  def.strategy.defaults?.(obj);
  return obj;
}

/** Replace the contents of `target` with those of `source` (the store holds `target`). */
export function replaceContents(target: ApiObject, source: ApiObject): void {
  const { kind, apiVersion } = target;
  for (const k of Object.keys(target)) Reflect.deleteProperty(target, k);
  Object.assign(target, source, { kind, apiVersion });
  if (kind === undefined) delete target.kind;
  if (apiVersion === undefined) delete target.apiVersion;
}

/** The rows served over the same storage as `def`, `def` excluded, in the registry's order. */
export function equivalentRows(
  rows: readonly ResourceDefinition[],
  def: ResourceDefinition,
  subresource: string,
): ResourceDefinition[] {
  return rows.filter(
    (r) =>
      r !== def &&
      r.storagePrefix === def.storagePrefix &&
      r.namespaced === def.namespaced &&
      (!subresource || r.subresources.some((s) => s.name === subresource)),
  );
}
