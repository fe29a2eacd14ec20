/**
 * Comparing two pod specs as upstream 1.10 does in ValidatePodUpdate:
 * `apiequality.Semantic.DeepEqual` on the internal Go types, where a nil and an empty slice or
 * map are equal, an absent non-pointer field is its zero value, and resource quantities compare
 * by value (`1` == `1000m`); and `diff.ObjectDiff` (apimachinery pkg/util/diff), which prints
 * the common JSON prefix of both, then `A: ` and the rest of the first, `B: ` and the rest of
 * the second.
 *
 * Here JSON has no types, so every empty value (null, '', false, 0, [], {}) counts as absent.
 * This is looser than Go only for pointer fields set to their zero value (e.g.
 * `automountServiceAccountToken: false` added), which upstream would report as a change.
 */
import { isDeepStrictEqual } from 'node:util';
import { isRecord } from '../../api/json.js';
import { parseQuantity } from '../../api/quantity.js';

/**
 * A resource quantity's value as a canonical string `<integer>e<exponent>` (trailing zeros
 * folded into the exponent), so equal amounts compare equal (upstream Quantity.Cmp, after the
 * parse's rounding); values that are not quantities are returned as is. Linear in the text.
 */
export function quantityKey(value: unknown): unknown {
  if (typeof value !== 'string' && typeof value !== 'number') return value;
  let q;
  try {
    q = parseQuantity(value);
  } catch {
    return value;
  }
  if (q.coef === 0n) return '0';
  const text = q.coef.toString();
  const digits = text.replace(/0+$/, '');
  return `${digits}e${q.exp + text.length - digits.length}`;
}

const isEmpty = (v: unknown) =>
  v === undefined ||
  v === null ||
  v === '' ||
  v === false ||
  v === 0 ||
  (Array.isArray(v) && v.length === 0) ||
  (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0);

/**
 * The comparable form of a spec (or any part of one): object keys sorted, empty values
 * dropped from objects (kept in arrays, so positions still line up), and unless `asWritten`,
 * the values of `limits`, `requests` and `sizeLimit` replaced by quantityKey.
 */
export function comparable(value: unknown, asWritten = false, key = ''): unknown {
  if (Array.isArray(value)) return value.map((v) => comparable(v, asWritten));
  if (isRecord(value)) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) {
      let v = value[k];
      if (!asWritten && (key === 'limits' || key === 'requests' || k === 'sizeLimit')) v = quantityKey(v);
      else v = comparable(v, asWritten, k);
      if (!isEmpty(v)) out[k] = v;
    }
    return out;
  }
  return value;
}

/** Semantic equality of two spec parts (see comparable). */
export function semanticEqual(a: unknown, b: unknown): boolean {
  return isDeepStrictEqual(comparable(a) ?? {}, comparable(b) ?? {});
}

/** Upstream diff.ObjectDiff over the comparable JSON of `a` and `b`, quantities as written. */
export function objectDiff(a: unknown, b: unknown): string {
  const ja = JSON.stringify(comparable(a, true) ?? {});
  const jb = JSON.stringify(comparable(b, true) ?? {});
  let i = 0;
  while (i < ja.length && i < jb.length && ja[i] === jb[i]) i++;
  return `${ja.slice(0, i)}\n\nA: ${ja.slice(i)}\n\nB: ${jb.slice(i)}\n\n`;
}
