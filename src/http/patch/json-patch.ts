/**
 * RFC 6902 JSON patch within bounds (fast-json-patch applies each operation). Operations are
 * applied one at a time to one copy of the object; before each, the value it inserts (`value`
 * of add/replace, the `from` value of copy/move) is measured without recursion, so that the
 * document never nests deeper than MAX_NESTING_DEPTH (path depth + value depth) and `copy`
 * cannot double the object until memory runs out (at most MAX_VALUE_COUNT values in all).
 * Upstream applies JSON patches with evanphx/json-patch, which has no such bounds, and answers
 * a patch that cannot be applied with 422 (k8s.io/apiserver pkg/endpoints/handlers/patch.go).
 */
import fastJsonPatch from 'fast-json-patch';
import type { Operation } from 'fast-json-patch';
import { MAX_NESTING_DEPTH, MAX_VALUE_COUNT, measureValue } from '../../api/nesting.js';
import { deepCopy } from '../../api/object.js';
import { ApiError } from '../../errors/api-error.js';

/** 422 for a JSON patch that cannot be applied, with upstream's message prefix. */
export function jsonPatchFailed(reason: string): ApiError {
  return new ApiError(422, 'Invalid', `the server rejected our request due to an error in our request: ${reason.split('\n')[0]}`);
}

/** Number of levels a JSON pointer descends (`/a/b` is 2, `` is 0). */
function pointerDepth(pointer: unknown): number {
  if (typeof pointer !== 'string' || pointer === '') return 0;
  let n = 0;
  for (let i = 0; i < pointer.length; i++) if (pointer.charCodeAt(i) === 0x2f /* / */) n++;
  return n;
}

/** The value an operation inserts, or undefined (remove, test, or an unresolvable `from`). */
function insertedValue(doc: unknown, op: Record<string, unknown>): unknown {
  if (op.op === 'add' || op.op === 'replace') return op.value;
  if ((op.op === 'copy' || op.op === 'move') && typeof op.from === 'string') {
    try {
      return fastJsonPatch.getValueByPointer(doc, op.from);
    } catch {
      return undefined; // fast-json-patch reports the bad pointer when it applies the operation
    }
  }
  return undefined;
}

/**
 * Apply `ops` to a copy of `obj` and return the result (any JSON value: a patch may replace
 * the root). Throws ApiError 422 for an operation that cannot be applied (failed `test`,
 * missing path, malformed operation) or that would nest deeper than MAX_NESTING_DEPTH or hold
 * more than MAX_VALUE_COUNT values.
 */
export function applyJsonPatch(obj: unknown, ops: readonly unknown[]): unknown {
  let doc = deepCopy(obj);
  let count = measureValue(doc).count;
  ops.forEach((raw, index) => {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw jsonPatchFailed(`operation ${index} is not an object`);
    const op = raw as Record<string, unknown>;
    const value = insertedValue(doc, op);
    if (value !== undefined) {
      const size = measureValue(value);
      if (pointerDepth(op.path) + size.depth > MAX_NESTING_DEPTH) {
        throw jsonPatchFailed(`operation ${index} (${String(op.op)} at ${String(op.path)}) would nest the object deeper than ${MAX_NESTING_DEPTH} levels`);
      }
      if (op.op !== 'move') count += size.count;
      if (count > MAX_VALUE_COUNT) throw jsonPatchFailed(`operation ${index} (${String(op.op)}) would make the object hold more than ${MAX_VALUE_COUNT} values`);
    }
    // The inserted value is copied: the patch may be applied again when the write is retried.
    const applied = 'value' in op ? { ...op, value: deepCopy(op.value) } : op;
    try {
      doc = fastJsonPatch.applyOperation(doc, applied as unknown as Operation, true, true, true, index).newDocument;
    } catch (err) {
      throw jsonPatchFailed((err as Error).message);
    }
  });
  return doc;
}
