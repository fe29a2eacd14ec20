/**
 * RFC 6902 JSON patch within bounds (fast-json-patch applies each operation). Operations are
 * applied one at a time to one copy of the object; before each, the value it inserts (`value`
 * of add/replace, the `from` value of copy/move) is measured without recursion, so that the
 * document never nests deeper than MAX_NESTING_DEPTH (path depth + value depth) and `copy`
 * cannot double the object until memory runs out (at most MAX_VALUE_COUNT values in all).
 * Upstream applies JSON patches with evanphx/json-patch v4, which has no such bounds, and answers
 * a patch that cannot be applied with 422 (k8s.io/apiserver pkg/endpoints/handlers/patch.go);
 * where v4 is more lenient than RFC 6902 we follow it (asEvanphxV4).
 */
import fastJsonPatch from 'fast-json-patch';
import type { Operation } from 'fast-json-patch';
import { MAX_NESTING_DEPTH, MAX_VALUE_COUNT, measureValue } from '../../api/nesting.js';
import { deepCopy } from '../../api/object.js';
import { isRecord } from '../../api/json.js';
import { ApiError } from '../../errors/api-error.js';
import { errorMessage } from '../../api/error-message.js';

/** 422 for a JSON patch that cannot be applied, with upstream's message prefix. */
export function jsonPatchFailed(reason: string): ApiError {
  return new ApiError(
    422,
    'Invalid',
    `the server rejected our request due to an error in our request: ${reason.split('\n')[0]}`,
  );
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

/** The JSON pointer of `tokens` (each escaped: `~` as `~0`, `/` as `~1`). */
const pointerOf = (tokens: readonly string[]): string =>
  tokens.map((t) => `/${t.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');

/** The tokens of a JSON pointer, unescaped; undefined for one that does not start with `/`. */
function tokensOf(pointer: string): string[] | undefined {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) return undefined;
  return pointer
    .slice(1)
    .split('/')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** The value at `tokens` of `doc`, or undefined. */
function valueAt(doc: unknown, tokens: readonly string[]): unknown {
  let cur: unknown = doc;
  for (const t of tokens) {
    if (Array.isArray(cur)) cur = /^\d+$/.test(t) ? cur[Number(t)] : undefined;
    else if (cur && typeof cur === 'object' && Object.hasOwn(cur, t)) cur = Reflect.get(cur, t);
    else return undefined;
  }
  return cur;
}

/**
 * `pointer` with negative array indices counted from the end, as evanphx/json-patch v4
 * (upstream's JSON patch library, SupportNegativeIndices) reads them: `-1` is the last element;
 * for an `add` at the end of the pointer, the last insertion point is `-1` too (`len + 1 + i`).
 * Indices out of range are left for the patch to refuse.
 */
function withNegativeIndices(doc: unknown, pointer: string, add: boolean): string {
  const tokens = tokensOf(pointer);
  if (!tokens || !tokens.some((t) => /^-\d+$/.test(t))) return pointer;
  const out: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    const parent = valueAt(doc, out);
    if (Array.isArray(parent) && /^-\d+$/.test(token)) {
      const size = parent.length + (add && i === tokens.length - 1 ? 1 : 0);
      const index = size + Number(token);
      out.push(index >= 0 ? String(index) : token);
    } else out.push(token);
  }
  return pointerOf(out);
}

/**
 * An operation as evanphx/json-patch v4 applies it, where it is more lenient than RFC 6902
 * (kept by upstream on purpose: "out-of-spec behavior json-patch v4 allows, which Kubernetes
 * clients may depend on", handlers/rest_test.go TestJSONPatch): negative array indices, and a
 * `replace` of a key an object lacks, which adds it.
 */
function asEvanphxV4(doc: unknown, op: Record<string, unknown>): Record<string, unknown> {
  let out = op;
  if (typeof op.path === 'string') out = { ...out, path: withNegativeIndices(doc, op.path, op.op === 'add') };
  if (typeof op.from === 'string') out = { ...out, from: withNegativeIndices(doc, op.from, false) };
  if (out.op === 'replace' && typeof out.path === 'string') {
    const tokens = tokensOf(out.path);
    if (tokens?.length) {
      const parent = valueAt(doc, tokens.slice(0, -1));
      const key = tokens[tokens.length - 1]!;
      if (parent && typeof parent === 'object' && !Array.isArray(parent) && !Object.hasOwn(parent, key))
        out = { ...out, op: 'add' };
    }
  }
  return out;
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
    if (!isRecord(raw)) throw jsonPatchFailed(`operation ${index} is not an object`);
    const op = raw;
    const value = insertedValue(doc, op);
    if (value !== undefined) {
      const size = measureValue(value);
      if (pointerDepth(op.path) + size.depth > MAX_NESTING_DEPTH) {
        throw jsonPatchFailed(
          `operation ${index} (${String(op.op)} at ${String(op.path)}) would nest the object deeper than ${MAX_NESTING_DEPTH} levels`,
        );
      }
      if (op.op !== 'move') count += size.count;
      if (count > MAX_VALUE_COUNT)
        throw jsonPatchFailed(
          `operation ${index} (${String(op.op)}) would make the object hold more than ${MAX_VALUE_COUNT} values`,
        );
    }
    // The inserted value is copied: the patch may be applied again when the write is retried.
    const v4 = asEvanphxV4(doc, op);
    const applied = 'value' in v4 ? { ...v4, value: deepCopy(v4.value) } : v4;
    try {
      doc = fastJsonPatch.applyOperation(doc, applied as unknown as Operation, true, true, true, index).newDocument;
    } catch (err) {
      throw jsonPatchFailed(errorMessage(err));
    }
  });
  return doc;
}
