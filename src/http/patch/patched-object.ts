/**
 * What a patch produced must still decode as the object it patched, as upstream decodes the
 * patched JSON into the kind's type again and checks its name (k8s.io/apiserver
 * pkg/endpoints/handlers/patch.go: runtime.DecodeInto, then checkName):
 * - a result that is not an object, or whose `metadata` is not an object, cannot be decoded:
 *   400 `<Kind> in version "<v>" cannot be handled as a <Kind>: ...`;
 * - a removed (or null) `metadata` decodes as empty metadata, so its name is "" and the answer
 *   is 400 `the name of the object () does not match the name on the URL (<name>)`, as is any
 *   other change of `metadata.name`;
 * - `kind` and `apiVersion` may be removed (the decoder defaults them from the type patched,
 *   and they are restored here), but another value is 400, with the messages create and
 *   update give for a body of another kind or version; except after a strategic merge patch,
 *   whose patched map upstream converts into the typed object without comparing them
 *   (patch.go applyPatchToObject: FromUnstructured), so any value there is replaced by the
 *   patched object's own (a `/scale` patch naming the controller's kind scales it).
 */
import type { ApiObject } from '../../api/object.js';
import { badRequest } from '../../errors/api-error.js';

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Go's name for the JSON type of a value, as encoding/json's UnmarshalTypeError says it. */
function jsonTypeName(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  return typeof value === 'boolean' ? 'bool' : typeof value;
}

/** A value in a message: strings as they are, others as (cut) JSON. */
function shown(value: unknown): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  return text.length > 200 ? `${text.slice(0, 200)}...` : text;
}

/**
 * Check the result of patching `original` (an object with a string `metadata.name`, the name
 * on the URL) and return it as an ApiObject with kind and apiVersion set (`ignoreTypeMeta`:
 * whatever the result says of them, as after a strategic merge patch). Throws ApiError 400 as
 * described above.
 */
export function checkPatchedObject(result: unknown, original: ApiObject, ignoreTypeMeta = false): ApiObject {
  const kind = typeof original.kind === 'string' ? original.kind : undefined;
  const apiVersion = typeof original.apiVersion === 'string' ? original.apiVersion : undefined;
  const cannotDecode = (why: string) =>
    badRequest(kind ? `${kind} in version "${apiVersion ?? ''}" cannot be handled as a ${kind}: ${why}` : `the patched object cannot be decoded: ${why}`);
  if (!isMap(result)) throw cannotDecode(`json: cannot unmarshal ${result === null ? 'null' : jsonTypeName(result)} into Go value of type ${kind ?? 'object'}`);
  const meta = result.metadata ?? {};
  if (!isMap(meta)) {
    throw cannotDecode(`json: cannot unmarshal ${jsonTypeName(meta)} into Go struct field ${kind ?? 'object'}.metadata of type v1.ObjectMeta`);
  }
  const name = meta.name ?? '';
  if (typeof name !== 'string') throw cannotDecode(`json: cannot unmarshal ${jsonTypeName(name)} into Go struct field ObjectMeta.metadata.name of type string`);
  const urlName = original.metadata?.name ?? '';
  if (name !== urlName) throw badRequest(`the name of the object (${shown(name)}) does not match the name on the URL (${urlName})`);
  const patchedKind = ignoreTypeMeta ? kind : (result.kind ?? kind);
  if (kind !== undefined && patchedKind !== kind) {
    throw badRequest(`the kind in the data (${shown(patchedKind)}) does not match the expected kind (${kind})`);
  }
  const patchedVersion = ignoreTypeMeta ? apiVersion : (result.apiVersion ?? apiVersion);
  if (apiVersion !== undefined && patchedVersion !== apiVersion) {
    throw badRequest(`the API version in the data (${shown(patchedVersion)}) does not match the expected API version (${apiVersion})`);
  }
  return { ...result, ...(kind !== undefined ? { kind } : {}), ...(apiVersion !== undefined ? { apiVersion } : {}), metadata: meta } as ApiObject;
}
