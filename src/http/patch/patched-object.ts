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
 *   and they are restored here); after a JSON or merge patch, another kind, or a version the
 *   server does not know, cannot be decoded into the type patched: 422 Invalid on `patch`
 *   with the patched document and the decoder's error (upstream patch.go
 *   jsonPatcher.applyPatchToCurrentObject, `"" is invalid: patch: Invalid value: ...`), while
 *   the same kind in another known version converts; after a strategic merge patch, whose
 *   patched map upstream converts into the typed object without comparing them
 *   (applyPatchToObject: FromUnstructured), any value is replaced by the patched object's own
 *   (a `/scale` patch naming the controller's kind scales it).
 */
import { isRecord } from '../../api/json.js';
import { isApiObject, type ApiObject } from '../../api/object.js';
import { ApiError, badRequest } from '../../errors/api-error.js';
import { decodeAs, type KnownKinds } from '../type-meta.js';

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
 * whatever the result says of them, as after a strategic merge patch; else `knows` tells which
 * kinds and versions decode). Throws ApiError 400 and 422 as described above.
 */
export function checkPatchedObject(
  result: unknown,
  original: ApiObject,
  ignoreTypeMeta = false,
  knows: KnownKinds = () => false,
): ApiObject {
  const kind = typeof original.kind === 'string' ? original.kind : undefined;
  const apiVersion = typeof original.apiVersion === 'string' ? original.apiVersion : undefined;
  const cannotDecode = (why: string) =>
    badRequest(
      kind
        ? `${kind} in version "${apiVersion ?? ''}" cannot be handled as a ${kind}: ${why}`
        : `the patched object cannot be decoded: ${why}`,
    );
  if (!isRecord(result))
    throw cannotDecode(
      `json: cannot unmarshal ${result === null ? 'null' : jsonTypeName(result)} into Go value of type ${kind ?? 'object'}`,
    );
  const meta = result.metadata ?? {};
  if (!isRecord(meta)) {
    throw cannotDecode(
      `json: cannot unmarshal ${jsonTypeName(meta)} into Go struct field ${kind ?? 'object'}.metadata of type v1.ObjectMeta`,
    );
  }
  const name = meta.name ?? '';
  if (typeof name !== 'string')
    throw cannotDecode(
      `json: cannot unmarshal ${jsonTypeName(name)} into Go struct field ObjectMeta.metadata.name of type string`,
    );
  if (!ignoreTypeMeta && kind !== undefined && apiVersion !== undefined) {
    const dataKind =
      typeof result.kind === 'string'
        ? result.kind
        : result.kind === undefined || result.kind === null
          ? ''
          : undefined;
    const dataVersion =
      typeof result.apiVersion === 'string'
        ? result.apiVersion
        : result.apiVersion === undefined || result.apiVersion === null
          ? ''
          : undefined;
    const decoded =
      dataKind === undefined || dataVersion === undefined
        ? {
            outcome: 'failed' as const,
            error: "couldn't get version/kind; json parse error: kind and apiVersion must be strings",
          }
        : decodeAs(dataKind, dataVersion, kind, apiVersion, knows);
    if (decoded.outcome === 'failed') throw undecodablePatch(result, decoded.error);
  }
  const urlName = original.metadata?.name ?? '';
  if (name !== urlName)
    throw badRequest(`the name of the object (${shown(name)}) does not match the name on the URL (${urlName})`);
  const patched = {
    ...result,
    ...(kind !== undefined ? { kind } : {}),
    ...(apiVersion !== undefined ? { apiVersion } : {}),
    metadata: meta,
  };
  if (!isApiObject(patched))
    throw cannotDecode(
      `json: cannot unmarshal ${jsonTypeName(meta)} into Go struct field ${kind ?? 'object'}.metadata of type v1.ObjectMeta`,
    );
  return patched;
}

/** Upstream's 422 for a patched document that does not decode: `"" is invalid: patch: Invalid value: "<json>": <error>`. */
function undecodablePatch(result: unknown, error: string): ApiError {
  const message = `Invalid value: ${JSON.stringify(JSON.stringify(result))}: ${error}`;
  return new ApiError(422, 'Invalid', ` "" is invalid: patch: ${message}`, {
    causes: [{ reason: 'FieldValueInvalid', message, field: 'patch' }],
  });
}
