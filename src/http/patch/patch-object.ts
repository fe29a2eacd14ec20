/**
 * PATCH bodies (upstream k8s.io/apiserver pkg/endpoints/handlers/patch.go): RFC 6902 JSON patch
 * (fast-json-patch), RFC 7386 JSON merge patch and strategic merge patch, applied to an
 * object by {@link patchObject}. Server-side apply (`application/apply-patch+yaml`) is only
 * named here (its media type); handlers/apply.ts serves it. Patch documents are bounded as
 * request bodies are (api/nesting.ts), and what a patch produces must still be the object
 * patched (patched-object.ts).
 */
import type { ApiObject } from '../../api/object.js';
import { setOwn } from '../../api/object.js';
import { isRecord } from '../../api/json.js';
import type { PatchMeta } from '../../api/core/patch-meta.js';
import { badRequest, unsupportedMediaType } from '../../errors/api-error.js';
import { parseJsonText } from '../negotiation/safe-decode.js';
import { applyJsonPatch } from './json-patch.js';
import { checkPatchedObject } from './patched-object.js';
import type { KnownKinds } from '../type-meta.js';
import { strategicMerge } from './strategic-merge.js';

export const JSON_PATCH = 'application/json-patch+json';
export const MERGE_PATCH = 'application/merge-patch+json';
export const STRATEGIC_MERGE_PATCH = 'application/strategic-merge-patch+json';
export const APPLY_PATCH = 'application/apply-patch+yaml';

/** The patch types this server applies. */
export const PATCH_TYPES = [JSON_PATCH, MERGE_PATCH, STRATEGIC_MERGE_PATCH] as const;
export type PatchType = (typeof PATCH_TYPES)[number];

/** Every media type a PATCH accepts, server-side apply's included, as upstream lists them in a 415. */
export const PATCH_MEDIA_TYPES = [JSON_PATCH, MERGE_PATCH, STRATEGIC_MERGE_PATCH, APPLY_PATCH] as const;

/**
 * The patch media type of a Content-Type header, as upstream patch.go reads it: the text
 * before the first `;` (when not at its start), compared exactly (no lower-casing or
 * trimming). Throws ApiError 415 listing PATCH_MEDIA_TYPES for anything else, a missing header
 * included.
 */
export function patchMediaType(contentType: string | undefined): (typeof PATCH_MEDIA_TYPES)[number] {
  const header = contentType ?? '';
  const semicolon = header.indexOf(';');
  const type = semicolon > 0 ? header.slice(0, semicolon) : header;
  const known = PATCH_MEDIA_TYPES.find((t) => t === type);
  if (known) return known;
  throw unsupportedMediaType(type, PATCH_MEDIA_TYPES);
}

/** Pick the patch type of a request. Throws ApiError 415 (with the accepted list) otherwise. */
export function patchTypeOf(mediaType: string): PatchType {
  const known = PATCH_TYPES.find((t) => t === mediaType);
  if (known) return known;
  throw unsupportedMediaType(mediaType, PATCH_MEDIA_TYPES);
}

/**
 * Parse a patch document. Throws ApiError 400 for malformed JSON, a wrong shape, nesting
 * deeper than MAX_NESTING_DEPTH or numbers out of range.
 */
export function parsePatch(type: PatchType, raw: string): unknown {
  const doc = parseJsonText(raw, 'the patch');
  if (type === JSON_PATCH && !Array.isArray(doc)) throw badRequest('json patch must be an array of operations');
  if (
    (type === MERGE_PATCH || type === STRATEGIC_MERGE_PATCH) &&
    (typeof doc !== 'object' || doc === null || Array.isArray(doc))
  ) {
    throw badRequest(`${type === MERGE_PATCH ? 'merge' : 'strategic merge'} patch must be a JSON object`);
  }
  return doc;
}

/** RFC 7386: objects merge recursively, null deletes, anything else replaces. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isRecord(patch)) return patch;
  const out: Record<string, unknown> = isRecord(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else setOwn(out, k, mergePatch(Object.hasOwn(out, k) ? out[k] : undefined, v));
  }
  return out;
}

/**
 * Apply a parsed patch to `obj` (the stored object, or a subresource's view of it), returning
 * a new object. Throws ApiError 422 for a JSON patch that cannot be applied (failed `test`,
 * missing path, a result deeper than MAX_NESTING_DEPTH), 400 for malformed strategic merge
 * directives and for a result that is no longer `obj`'s name, 422 for one (JSON and merge
 * patches) of another kind or of a version `knows` does not know (see checkPatchedObject).
 */
export function patchObject(
  type: PatchType,
  obj: ApiObject,
  patch: unknown,
  meta?: PatchMeta,
  knows?: KnownKinds,
): ApiObject {
  let result: unknown;
  if (type === MERGE_PATCH) result = mergePatch(obj, patch);
  else if (type === STRATEGIC_MERGE_PATCH) result = strategicMerge(obj, patch, meta);
  else if (Array.isArray(patch)) result = applyJsonPatch(obj, patch);
  else throw badRequest('json patch must be an array of operations');
  return checkPatchedObject(result, obj, type === STRATEGIC_MERGE_PATCH, knows);
}
