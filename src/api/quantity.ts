/**
 * resource.Quantity arithmetic (upstream k8s.io/apimachinery pkg/api/resource/quantity.go):
 * parse `<number><suffix>`, compare, add, subtract, and print in upstream's canonical form.
 * Values are kept exactly as a count of nano-units (bigint); digits beyond nano are rounded
 * up, as upstream rounds a parsed quantity to scale -9.
 */

/** How a quantity prints (upstream Format): the suffix family of the value it was parsed from. */
export type QuantityFormat = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';

/** An exact quantity: `nanos` × 10^-9 units, printed in `format`. */
export interface Quantity {
  readonly nanos: bigint;
  readonly format: QuantityFormat;
}

const NANO = 1_000_000_000n;
const PATTERN = /^([+-]?)(\d+(?:\.\d*)?|\.\d+)(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E|[eE][+-]?\d+)?$/;
const BINARY: Record<string, number> = { Ki: 1, Mi: 2, Gi: 3, Ti: 4, Pi: 5, Ei: 6 };
const DECIMAL: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const DECIMAL_SUFFIX = new Map(Object.entries(DECIMAL).map(([s, e]) => [e, s]));
const BINARY_SUFFIX = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];

/** Error thrown for a string that is not a quantity (upstream ErrFormatWrong). */
export class QuantityError extends Error {}

/**
 * Parse a quantity as it appears in JSON: a string such as `500m`, `1.5Gi`, `1e3`, or a number.
 * Throws QuantityError ("quantities must match the regular expression ...") when malformed
 * or when the exponent is out of range (|exponent| > 100, far beyond any real resource).
 */
export function parseQuantity(value: string | number): Quantity {
  const text = typeof value === 'number' ? numberText(value) : value.trim();
  const m = PATTERN.exec(text);
  if (!m) throw new QuantityError("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
  const [, sign, digits, suffix = ''] = m;
  const [whole, frac = ''] = digits!.split('.');
  let num = BigInt((whole || '0') + frac);
  let den = 10n ** BigInt(frac.length);
  let format: QuantityFormat;
  if (suffix in BINARY) {
    format = 'BinarySI';
    num *= 1024n ** BigInt(BINARY[suffix]!);
  } else {
    const exp = suffix in DECIMAL ? DECIMAL[suffix]! : Number(suffix.slice(1));
    if (Math.abs(exp) > 100) throw new QuantityError('quantity exponent out of range');
    format = suffix in DECIMAL ? 'DecimalSI' : 'DecimalExponent';
    if (exp >= 0) num *= 10n ** BigInt(exp);
    else den *= 10n ** BigInt(-exp);
  }
  num *= NANO;
  let nanos = num / den;
  if (nanos * den !== num) nanos += 1n; // round up beyond nano, as upstream
  return { nanos: sign === '-' ? -nanos : nanos, format };
}

/** A JSON number as upstream reads it: its decimal text (exponent form kept). */
function numberText(n: number): string {
  if (!Number.isFinite(n)) throw new QuantityError('quantities must be finite');
  return String(n).replace('e+', 'e');
}

/** A quantity of `count` whole units printed as a decimal (upstream NewQuantity(n, DecimalSI)). */
export function quantityOf(count: number | bigint, format: QuantityFormat = 'DecimalSI'): Quantity {
  return { nanos: BigInt(count) * NANO, format };
}

/** -1, 0 or 1 as `a` is less than, equal to or greater than `b` (upstream Quantity.Cmp). */
export function compareQuantities(a: Quantity, b: Quantity): number {
  return a.nanos < b.nanos ? -1 : a.nanos > b.nanos ? 1 : 0;
}

/** `a + b` in `a`'s format (upstream Quantity.Add). */
export function addQuantities(a: Quantity, b: Quantity): Quantity {
  return { nanos: a.nanos + b.nanos, format: a.format };
}

/** `a - b` in `a`'s format (upstream Quantity.Sub). */
export function subtractQuantities(a: Quantity, b: Quantity): Quantity {
  return { nanos: a.nanos - b.nanos, format: a.format };
}

/** The value in thousandths, rounded up (upstream MilliValue). */
export function milliValue(q: Quantity): bigint {
  return scaledUp(q, 1_000_000n);
}

/** The value in whole units, rounded up (upstream Value). */
export function wholeValue(q: Quantity): bigint {
  return scaledUp(q, NANO);
}

function scaledUp(q: Quantity, nanosPerUnit: bigint): bigint {
  const v = q.nanos / nanosPerUnit;
  return v * nanosPerUnit < q.nanos ? v + 1n : v;
}

/**
 * The canonical text of a quantity (upstream Quantity.String / CanonicalizeBytes): decimal
 * values with the largest SI suffix that keeps an integer mantissa (`1500m`, `2k`); binary
 * values with the largest power of 1024 dividing them (`192Mi`), shown as decimals when below
 * 1024 or fractional; exponent values as `<n>e<3k>`.
 */
export function formatQuantity(q: Quantity): string {
  const negative = q.nanos < 0n;
  const abs = negative ? -q.nanos : q.nanos;
  const sign = negative ? '-' : '';
  if (abs === 0n) return '0';
  if (q.format === 'BinarySI' && abs >= 1024n * NANO && abs % NANO === 0n) {
    let bytes = abs / NANO;
    let k = 0;
    while (k < 6 && bytes % 1024n === 0n) {
      bytes /= 1024n;
      k++;
    }
    return `${sign}${bytes}${BINARY_SUFFIX[k]}`;
  }
  // Decimal: mantissa × 10^exp with exp a multiple of 3 from -9, mantissa an integer; SI
  // suffixes end at E (10^18), exponent notation has no end.
  const exponential = q.format === 'DecimalExponent';
  let mantissa = abs;
  let exp = -9;
  while ((exp < 18 || exponential) && mantissa % 1000n === 0n) {
    mantissa /= 1000n;
    exp += 3;
  }
  if (q.format === 'DecimalExponent') return `${sign}${mantissa}${exp === 0 ? '' : `e${exp}`}`;
  return `${sign}${mantissa}${DECIMAL_SUFFIX.get(exp)}`;
}

/** The canonical text of a quantity given as JSON (a string or number). Throws QuantityError. */
export function canonicalQuantity(value: string | number): string {
  return formatQuantity(parseQuantity(value));
}
