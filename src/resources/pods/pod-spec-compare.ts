/**
 * Comparing two pod specs as upstream does in ValidatePodUpdate:
 * `apiequality.Semantic.DeepEqual` on the internal Go types, where a nil and an empty slice or
 * map are equal, an absent non-pointer field is its zero value, and resource quantities compare
 * by value (`1` == `1000m`); and 1.33's report of a difference, `cmp.Diff` (go-cmp), in outline
 * (cmpDiff).
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

/** Go field names that are not the JSON name with its first letter capitalized. */
const GO_NAMES: Record<string, string> = {
  dnsPolicy: 'DNSPolicy',
  dnsConfig: 'DNSConfig',
  hostPID: 'HostPID',
  hostIPC: 'HostIPC',
  os: 'OS',
  tty: 'TTY',
};
const goName = (k: string) => GO_NAMES[k] ?? k.charAt(0).toUpperCase() + k.slice(1);

/**
 * A report in the shape of upstream's `cmp.Diff(old, new)` (github.com/google/go-cmp) of two
 * structs of Go type `type`: the header, a `-`/`+` pair per changed top-level field and a count of
 * the identical ones. Values are printed as JSON, not Go syntax, and nested changes are not
 * descended into (go-cmp prints the changed leaves).
 */
export function cmpDiff(type: string, old: unknown, next: unknown): string {
  const a = (comparable(old) ?? {}) as Record<string, unknown>;
  const b = (comparable(next) ?? {}) as Record<string, unknown>;
  const asWritten = [comparable(old, true), comparable(next, true)] as Record<string, unknown>[];
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  const lines = [`  ${type}{`];
  let same = 0;
  const flush = () => {
    if (same) lines.push(`  \t... // ${same} identical field${same > 1 ? 's' : ''}`);
    same = 0;
  };
  for (const k of keys) {
    if (isDeepStrictEqual(a[k], b[k])) {
      same++;
      continue;
    }
    flush();
    const show = (v: unknown) => (v === undefined ? 'nil' : JSON.stringify(v));
    lines.push(`- \t${goName(k)}: ${show(asWritten[0]?.[k])},`, `+ \t${goName(k)}: ${show(asWritten[1]?.[k])},`);
  }
  flush();
  lines.push('  }', '');
  return lines.join('\n');
}
