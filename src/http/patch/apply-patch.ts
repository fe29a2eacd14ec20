/**
 * PATCH bodies (upstream k8s.io/apiserver pkg/endpoints/handlers/patch.go): RFC 6902 JSON patch
 * (fast-json-patch), RFC 7386 JSON merge patch and strategic merge patch. Server-side apply
 * (`application/apply-patch+yaml`) is answered 415 until it is implemented.
 */
import fastJsonPatch from 'fast-json-patch';
import type { Operation } from 'fast-json-patch';
import type { ApiObject } from '../../api/object.js';
import type { PatchMeta } from '../../api/core/patch-meta.js';
import { ApiError, badRequest, unsupportedMediaType } from '../../errors/api-error.js';
import { strategicMerge } from './strategic-merge.js';

export const JSON_PATCH = 'application/json-patch+json';
export const MERGE_PATCH = 'application/merge-patch+json';
export const STRATEGIC_MERGE_PATCH = 'application/strategic-merge-patch+json';
export const APPLY_PATCH = 'application/apply-patch+yaml';

/** The patch types this server applies. */
export const PATCH_TYPES = [JSON_PATCH, MERGE_PATCH, STRATEGIC_MERGE_PATCH] as const;
export type PatchType = (typeof PATCH_TYPES)[number];

/** Pick the patch type of a request. Throws ApiError 415 (with the accepted list) otherwise. */
export function patchTypeOf(mediaType: string): PatchType {
  if ((PATCH_TYPES as readonly string[]).includes(mediaType)) return mediaType as PatchType;
  throw unsupportedMediaType(mediaType, PATCH_TYPES);
}

/** Parse a patch document. Throws ApiError 400 for malformed JSON or a wrong shape. */
export function parsePatch(type: PatchType, raw: string): unknown {
  let doc: unknown;
  try {
    doc = JSON.parse(raw);
  } catch (err) {
    throw badRequest(`couldn't decode the patch: ${(err as Error).message}`);
  }
  if (type === JSON_PATCH && !Array.isArray(doc)) throw badRequest('json patch must be an array of operations');
  if ((type === MERGE_PATCH || type === STRATEGIC_MERGE_PATCH) && (typeof doc !== 'object' || doc === null || Array.isArray(doc))) {
    throw badRequest(`${type === MERGE_PATCH ? 'merge' : 'strategic merge'} patch must be a JSON object`);
  }
  return doc;
}

/** RFC 7386: objects merge recursively, null deletes, anything else replaces. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) return patch;
  const out: Record<string, unknown> =
    typeof target === 'object' && target !== null && !Array.isArray(target) ? { ...(target as Record<string, unknown>) } : {};
  for (const [k, v] of Object.entries(patch as Record<string, unknown>)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}

/**
 * Apply a parsed patch to `obj`, returning a new object. A JSON patch that cannot be applied
 * (failed `test`, missing path) throws ApiError 422 with the reason.
 */
export function applyPatch(type: PatchType, obj: ApiObject, patch: unknown, meta?: PatchMeta): ApiObject {
  if (type === MERGE_PATCH) return mergePatch(obj, patch) as ApiObject;
  if (type === STRATEGIC_MERGE_PATCH) return strategicMerge(obj, patch, meta) as ApiObject;
  try {
    const res = fastJsonPatch.applyPatch(structuredClone(obj), patch as Operation[], true, false);
    return res.newDocument as ApiObject;
  } catch (err) {
    const e = err as { name?: string; message: string };
    throw new ApiError(422, 'Invalid', `the server rejected our request due to an error in our request: ${e.message.split('\n')[0]}`);
  }
}
