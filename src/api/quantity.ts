/**
 * resource.Quantity as upstream k8s.io/apimachinery pkg/api/resource has it (quantity.go
 * ParseQuantity, parseQuantityString, CanonicalizeBytes, Value/MilliValue; suffix.go; amount.go;
 * math.go; scale_int.go; the same in 1.10 and today): what parses, with which error, how it
 * rounds (up to the nano, away from zero), how it compares, adds and prints.
 *
 * Huge exponents, as upstream: the exponent of `e<n>` is read as an int64 (ErrSuffix beyond)
 * and truncated to int32 (`1e4294967296` is 1); nothing is capped except BinarySI values (at
 * 2^63-1). So `1e400` and `1e99999` parse (int64Amount{1, 400}), compare exactly and print as
 * `10e399` and `1e99999`, while Value() and MilliValue() overflow to 0. Upstream builds
 * 10^shift to compare or add across scales, which for shifts near 2^31 never ends; here an
 * amount is `coef × 10^exp`, compared by magnitude first, and a sum whose terms are more than
 * EXACT_SHIFT decimal places apart keeps the larger term and rounds away from zero.
 */

/** How a quantity prints (upstream Format). */
export type QuantityFormat = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';

/** Upstream ErrFormatWrong, ErrNumeric and ErrSuffix. */
export const ERR_FORMAT_WRONG =
  "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
export const ERR_NUMERIC = 'unable to parse numeric part of quantity';
export const ERR_SUFFIX = "unable to parse quantity's suffix";

/** A text that is not a quantity; the message is upstream's error. */
export class QuantityError extends Error {}

/** Alignments (decimal places) done exactly; beyond, sums round and `nanos` clamps. */
const EXACT_SHIFT = 131_072;
const INT64_MAX = (1n << 63n) - 1n;
const INT64_MIN = -(1n << 63n);

/** An exact amount `coef × 10^exp` (exp ≥ -9) in a format. */
export class Quantity {
  constructor(
    readonly coef: bigint,
    readonly exp: number,
    readonly format: QuantityFormat,
    /** Held as upstream's int64Amount{coef, exp} (else an inf.Dec): decides how Value() overflows. */
    readonly int64 = false,
    /** The input, which upstream keeps when it is already canonical and prints verbatim. */
    readonly text?: string,
    /** The scale of upstream's inf.Dec: 9 once rounded, 0 for the BinarySI cap. */
    readonly infScale = 9,
  ) {}

  #printed?: string;

  /** Upstream String(): see formatQuantity (kept, as a long coefficient takes a while to write out). */
  toString(): string {
    return this.text ?? (this.#printed ??= canonicalText(this));
  }

  /** The amount in nano-units; beyond 10^EXACT_SHIFT nanos it clamps there (the sign kept). */
  get nanos(): bigint {
    const k = this.exp + 9;
    if (k <= EXACT_SHIFT) return k >= 0 ? this.coef * pow10(k) : this.coef / pow10(-k);
    return BigInt(signOf(this.coef)) * pow10(EXACT_SHIFT);
  }
}

const wrap32 = (n: number): number => ((((n + 2 ** 31) % 2 ** 32) + 2 ** 32) % 2 ** 32) - 2 ** 31;
const signOf = (n: bigint): number => (n > 0n ? 1 : n < 0n ? -1 : 0);
const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';
const hasNonZero = (s: string): boolean => /[1-9]/.test(s);

const POW10 = new Map<number, bigint>();
/** 10^n, the large ones cached (a few, they are up to ~55 KB each). */
function pow10(n: number): bigint {
  if (n < 64) return 10n ** BigInt(n);
  let p = POW10.get(n);
  if (p === undefined) {
    p = 10n ** BigInt(n);
    if (POW10.size >= 16) POW10.delete(POW10.keys().next().value!);
    POW10.set(n, p);
  }
  return p;
}

/** Upstream parseQuantityString: sign, number (leading zeros dropped), fraction, suffix. */
function scan(str: string): { positive: boolean; value: string; num: string; denom: string; suffix: string } {
  let positive = true;
  let pos = 0;
  const end = str.length;
  if (str[0] === '-') {
    positive = false;
    pos++;
  } else if (str[0] === '+') pos++;
  while (pos < end && str[pos] === '0') pos++;
  if (pos >= end) return { positive, value: '0', num: '0', denom: '', suffix: '' };
  let i = pos;
  while (i < end && isDigit(str[i])) i++;
  if (i >= end) return { positive, value: str, num: str.slice(pos), denom: '', suffix: '' };
  const num = str.slice(pos, i) || '0';
  pos = i;
  let denom = '';
  if (str[pos] === '.') {
    for (i = ++pos; i < end && isDigit(str[i]);) i++;
    denom = str.slice(pos, i);
    if (i >= end) return { positive, value: str, num, denom, suffix: '' };
    pos = i;
  }
  for (i = pos; i < end && 'eEinumkKMGTP'.includes(str[i]!);) i++;
  if (str[i] === '-' || str[i] === '+') i++;
  while (isDigit(str[i])) i++;
  if (i < end) throw new QuantityError(ERR_FORMAT_WRONG);
  return { positive, value: str.slice(0, pos), num, denom, suffix: str.slice(pos) };
}

const DECIMAL = new Map([
  ['', 0],
  ['n', -9],
  ['u', -6],
  ['m', -3],
  ['k', 3],
  ['M', 6],
  ['G', 9],
  ['T', 12],
  ['P', 15],
  ['E', 18],
]);
const BINARY = new Map([
  ['Ki', 10],
  ['Mi', 20],
  ['Gi', 30],
  ['Ti', 40],
  ['Pi', 50],
  ['Ei', 60],
]);
const DECIMAL_SUFFIX = new Map([...DECIMAL].map(([s, e]) => [e, s]));
const BINARY_SUFFIX = new Map([...BINARY].map(([s, e]) => [e, s]));

/** Upstream suffixer.interpret: base, exponent (`e<int64>` truncated to int32) and format. */
function interpret(suffix: string): { base: 2 | 10; exponent: number; format: QuantityFormat } {
  const dec = DECIMAL.get(suffix);
  if (dec !== undefined) return { base: 10, exponent: dec, format: 'DecimalSI' };
  const bin = BINARY.get(suffix);
  if (bin !== undefined) return { base: 2, exponent: bin, format: 'BinarySI' };
  const m = /^[eE]([+-]?)0*(\d+)$/.exec(suffix);
  if (m && m[2]!.length <= 19) {
    const n = BigInt(m[1] + m[2]!);
    if (n >= INT64_MIN && n <= INT64_MAX)
      return { base: 10, exponent: Number(BigInt.asIntN(32, n)), format: 'DecimalExponent' };
  }
  throw new QuantityError(ERR_SUFFIX);
}

/**
 * Upstream ParseQuantity: `str` exactly (no trimming). Throws QuantityError with upstream's
 * ErrFormatWrong, ErrSuffix or ErrNumeric message.
 */
export function parseQuantityText(str: string): Quantity {
  if (str.length < 256) return parseText(str);
  // Long texts are parsed once: LimitRanger and quota admission read the same ones on every write.
  let q = LONG_TEXTS.get(str);
  if (!q) {
    q = parseText(str);
    if (LONG_TEXTS.size >= 32) LONG_TEXTS.delete(LONG_TEXTS.keys().next().value!);
    LONG_TEXTS.set(str, q);
  }
  return q;
}

const LONG_TEXTS = new Map<string, Quantity>();

function parseText(str: string): Quantity {
  if (str.length === 0) throw new QuantityError(ERR_FORMAT_WRONG);
  if (str === '0') return new Quantity(0n, 0, 'DecimalSI', true, str);
  const { positive, value, num, denom, suffix } = scan(str);
  const { base, exponent, format } = interpret(suffix);
  // The int64Amount fast path (scale, precision and the kept string as upstream decides them).
  const precision =
    base === 10 ? 18 - num.length - denom.length : denom.length === 0 ? 15 - num.length - (exponent / 10) * 3 - 1 : -1;
  const scale = wrap32((base === 10 ? exponent : 0) - denom.length);
  if (precision >= 0 && scale >= -9) {
    const shifted = num + denom;
    const digits = BigInt(shifted);
    const v = base === 2 ? digits << BigInt(exponent) : digits;
    const canonical =
      base === 2 ? (digits & 7n) !== 0n : scale % 3 === 0 && !shifted.endsWith('000') && shifted[0] !== '0';
    return new Quantity(positive ? v : -v, scale, format, true, canonical ? str : undefined);
  }
  if (!/\d/.test(value)) throw new QuantityError(ERR_NUMERIC);
  const [coef, exp, fmt] =
    base === 10
      ? decimalAmount(num + denom, wrap32(denom.length + wrap32(-exponent)))
      : binaryAmount(num, denom, exponent);
  const capped = base === 2 && coef === INT64_MAX && exp === 0;
  return new Quantity(
    positive ? coef : -coef,
    exp,
    coef === 0n ? format : (fmt ?? format),
    false,
    undefined,
    capped ? 0 : 9,
  );
}

/** digits × 10^-scale rounded up to scale 9 (inf.Dec Round(9, RoundUp)), without a division. */
function decimalAmount(digits: string, scale: number): [bigint, number] {
  if (!hasNonZero(digits)) return [0n, 0];
  if (scale <= 9) {
    let end = digits.length; // trailing zeros go to the exponent: `1` and 10^6 zeros is a small bigint
    while (digits[end - 1] === '0') end--;
    return [BigInt(digits.slice(0, end)), digits.length - end - scale];
  }
  const keep = Math.max(digits.length - (scale - 9), 0);
  return [BigInt(digits.slice(0, keep) || '0') + (hasNonZero(digits.slice(keep)) ? 1n : 0n), -9];
}

/**
 * num.denom × 2^exponent rounded up to the nano, capped at 2^63-1, DecimalSI below 1. Fraction
 * digits past 69 (= 9 + 60) only ever round the nano up, so they are folded into one flag.
 */
function binaryAmount(num: string, denom: string, exponent: number): [bigint, number, QuantityFormat?] {
  if (num.length > 19) return [INT64_MAX, 0];
  const sticky = denom.length > 69 && hasNonZero(denom.slice(69));
  const frac = denom.slice(0, 69);
  const x = BigInt(num + frac) << BigInt(exponent);
  let [coef, exp] = [x, -frac.length];
  if (frac.length > 9) {
    const d = pow10(frac.length - 9);
    [coef, exp] = [x / d + (x % d !== 0n || sticky ? 1n : 0n), -9];
  }
  if (coef > INT64_MAX * pow10(-exp)) return [INT64_MAX, 0];
  return [coef, exp, coef !== 0n && coef < pow10(-exp) ? 'DecimalSI' : undefined];
}

/** unicode.IsSpace, which Go's strings.TrimSpace (applied by upstream's UnmarshalJSON) trims. */
const isGoSpace = (c: number): boolean =>
  (c >= 9 && c <= 13) ||
  c === 32 ||
  c === 0x85 ||
  c === 0xa0 ||
  c === 0x1680 ||
  (c >= 0x2000 && c <= 0x200a) ||
  [0x2028, 0x2029, 0x202f, 0x205f, 0x3000].includes(c);

/**
 * A quantity as JSON carries it (upstream UnmarshalJSON): a string, trimmed, or a number (its
 * decimal text, `1e+21` as `1e21`). Throws QuantityError.
 */
export function parseQuantity(value: string | number): Quantity {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new QuantityError(ERR_NUMERIC);
    return parseQuantityText(String(value).replace('e+', 'e'));
  }
  let [start, end] = [0, value.length];
  while (start < end && isGoSpace(value.charCodeAt(start))) start++;
  while (end > start && isGoSpace(value.charCodeAt(end - 1))) end--;
  return parseQuantityText(value.slice(start, end));
}

/** Upstream NewQuantity(count, format): an int64Amount. */
export const quantityOf = (count: number | bigint, format: QuantityFormat = 'DecimalSI'): Quantity =>
  new Quantity(BigInt(count), 0, format, true);

/** log10 |c| of a non-zero bigint lies in [lo, hi). */
function log10Range(c: bigint): [number, number] {
  const hex = (c < 0n ? -c : c).toString(16);
  const bits = (hex.length - 1) * 4 + 32 - Math.clz32(parseInt(hex[0]!, 16));
  return [(bits - 1) * Math.LOG10E * Math.LN2, bits * Math.LOG10E * Math.LN2];
}

/** -1, 0 or 1 as `a` < `b`, `a` = `b`, `a` > `b` (upstream Quantity.Cmp), without building 10^(a.exp-b.exp). */
export function compareQuantities(a: Quantity, b: Quantity): number {
  const sa = signOf(a.coef);
  const sb = signOf(b.coef);
  if (sa !== sb || sa === 0) return Math.sign(sa - sb);
  if (a.exp !== b.exp) {
    const [alo, ahi] = log10Range(a.coef);
    const [blo, bhi] = log10Range(b.coef);
    const diff = a.exp - b.exp; // |a| = 10^(diff + log a) relative to b's exponent
    if (diff < blo - ahi - 1e-6) return -sa;
    if (diff > bhi - alo + 1e-6) return sa;
  }
  const e = Math.min(a.exp, b.exp);
  const x = a.coef * pow10(a.exp - e);
  const y = b.coef * pow10(b.exp - e);
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * `a + b` (upstream Quantity.Add): exact, in `a`'s format (`b`'s when `a` is zero). When one
 * term lies more than EXACT_SHIFT places below the other's last digit, the result is the larger
 * term with one more digit, rounded away from zero (where upstream would never finish).
 */
export function addQuantities(a: Quantity, b: Quantity): Quantity {
  const format = a.coef === 0n ? b.format : a.format;
  const int64 = a.int64 && b.int64;
  if (b.coef === 0n) return new Quantity(a.coef, a.exp, format, int64);
  if (a.coef === 0n) return new Quantity(b.coef, b.exp, format, int64);
  const [hi, lo] = a.exp >= b.exp ? [a, b] : [b, a];
  const shift = hi.exp - lo.exp;
  if (shift > EXACT_SHIFT && log10Range(lo.coef)[1] - shift < -EXACT_SHIFT) {
    const up = signOf(lo.coef) === signOf(hi.coef) ? BigInt(signOf(hi.coef)) : 0n;
    return new Quantity(hi.coef * 10n + up, hi.exp - 1, format);
  }
  const coef = hi.coef * pow10(shift) + lo.coef;
  return new Quantity(coef, lo.exp, format, int64 && coef >= INT64_MIN && coef <= INT64_MAX);
}

/** `-q` (upstream Quantity.Neg). */
export const negateQuantity = (q: Quantity): Quantity =>
  new Quantity(-q.coef, q.exp, q.format, q.int64, undefined, q.infScale);

/** `a - b` (upstream Quantity.Sub), as addQuantities. */
export const subtractQuantities = (a: Quantity, b: Quantity): Quantity => addQuantities(a, negateQuantity(b));

/** big.Int.Int64() of `c × 10^k` (k ≥ 0): the low 64 bits of the magnitude, signed, then negated. */
function goInt64(c: bigint, k: number): bigint {
  const low = k >= 64 ? 0n : BigInt.asUintN(64, BigInt.asUintN(64, c < 0n ? -c : c) * 10n ** BigInt(k));
  const v = BigInt.asIntN(64, low);
  return c < 0n ? BigInt.asIntN(64, -v) : v;
}

/**
 * Upstream Quantity.ScaledValue(scale) for scale 0 or -3: ceil(q × 10^-scale) as an int64,
 * overflowing as upstream does: an int64Amount gives 0 (or, past an int32 wrap, its value), an
 * inf.Dec wraps to its low 64 bits (scale_int.go scaledValue, from the Dec's own scale).
 */
function scaledValue(q: Quantity, scale: 0 | -3): bigint {
  const { coef, exp } = q;
  if (coef === 0n) return 0n;
  if (q.int64) {
    if (exp < scale) {
      const d = 10n ** BigInt(scale - exp);
      return coef % d === 0n ? coef / d : coef / d + BigInt(signOf(coef)); // negativeScaleInt64
    }
    const n = wrap32(exp - scale);
    if (n <= 0) return coef; // positiveScaleInt64 of a negative (wrapped) scale loops zero times
    const v = n < 19 ? coef * 10n ** BigInt(n) : INT64_MAX + 1n;
    return v >= INT64_MIN && v <= INT64_MAX ? v : 0n;
  }
  const k = exp + q.infScale; // upstream's unscaled is coef × 10^k, scaled down by 10^dif
  const dif = q.infScale + scale;
  if (dif === 0) return goInt64(coef, k);
  if (dif < 0) return BigInt.asIntN(64, goInt64(coef, k) * 10n ** BigInt(-dif));
  if (coef < 0n || (k < 19 && coef < INT64_MAX && coef * 10n ** BigInt(k) < INT64_MAX)) {
    const u = goInt64(coef, k);
    const d = 10n ** BigInt(dif);
    return u % d !== 0n ? u / d + 1n : u / d;
  }
  const m = k - dif; // the quotient is coef × 10^m
  if (m >= 0) return goInt64(coef, m);
  const d = 10n ** BigInt(-m);
  return BigInt.asIntN(64, goInt64(coef / d, 0) + (coef % d !== 0n ? 1n : 0n));
}

/** Upstream MilliValue(): ceil(q × 1000) as an int64, overflowing as upstream (see scaledValue). */
export const milliValue = (q: Quantity): bigint => scaledValue(q, -3);

/** Upstream Value(): ceil(q) as an int64, overflowing as upstream (see scaledValue). */
export const wholeValue = (q: Quantity): bigint => scaledValue(q, 0);

/** The integer `|q|` when it has at most EXACT_SHIFT trailing zeros to build; else null. */
function integerMagnitude(q: Quantity): bigint | null {
  const c = q.coef < 0n ? -q.coef : q.coef;
  if (q.exp > EXACT_SHIFT) return null;
  if (q.exp >= 0) return c * pow10(q.exp);
  const d = pow10(-q.exp);
  return c % d === 0n ? c / d : null;
}

/**
 * Upstream Quantity.String (CanonicalizeBytes): the text kept from the parse if any; else
 * BinarySI values of at least 1024 that are whole as `<n><Ki..Ei>` with as many factors of
 * 1024 moved into the suffix as divide them (none left: no suffix, and past `Ei` none either,
 * as upstream); other values as `<n>` times a power of ten that is a multiple of three, written
 * `e<3k>` (DecimalExponent) or as an SI suffix `n`..`E` (DecimalSI; past `E` as `e<3k>`:
 * `1000E` prints `1e21`, where upstream drops the exponent and prints `1`, a different value).
 */
export function formatQuantity(q: Quantity): string {
  return q.toString();
}

function canonicalText(q: Quantity): string {
  if (q.coef === 0n) return '0';
  const sign = q.coef < 0n ? '-' : '';
  let format = q.format;
  if (format === 'BinarySI') {
    const whole =
      compareQuantities(new Quantity(q.coef < 0n ? -q.coef : q.coef, q.exp, format), quantityOf(1024)) >= 0
        ? integerMagnitude(q)
        : null;
    if (whole !== null) {
      const twos = (whole & -whole).toString(2).length - 1;
      const k = Math.floor(twos / 10);
      return `${sign}${whole >> BigInt(10 * k)}${BINARY_SUFFIX.get(10 * k) ?? ''}`;
    }
    format = q.exp > EXACT_SHIFT ? 'DecimalExponent' : 'DecimalSI';
  }
  let digits = (q.coef < 0n ? -q.coef : q.coef).toString();
  let end = digits.length;
  while (digits[end - 1] === '0') end--;
  let exp = q.exp + digits.length - end;
  const pad = ((exp % 3) + 3) % 3;
  digits = digits.slice(0, end) + '0'.repeat(pad);
  exp -= pad;
  // Past `E` there is no SI suffix: upstream then prints no suffix at all (`1000E` as `1`), which
  // changes the value; we print the exponent instead (`1e21`), as DecimalExponent does.
  const si = format === 'DecimalSI' ? DECIMAL_SUFFIX.get(exp) : undefined;
  const suffix = si ?? (exp === 0 ? '' : `e${exp}`);
  return `${sign}${digits}${suffix}`;
}

/** The canonical text of a quantity given as JSON (a string or number). Throws QuantityError. */
export const canonicalQuantity = (value: string | number): string => formatQuantity(parseQuantity(value));
