/**
 * Go's duration syntax (`time.ParseDuration`, which upstream's duration flags and the
 * `timeout` query parameter use): an optional sign, then one or more decimal numbers each with
 * a unit (`ns`, `us`, `µs`, `μs`, `ms`, `s`, `m`, `h`), e.g. `300ms`, `-1.5h`, `2h45m`; `0`
 * alone needs no unit. Errors carry Go's messages (`time: invalid duration "x"`,
 * `time: missing unit in duration "5"`, `time: unknown unit "d" in duration "5d"`), quoting
 * as Go's `quote` does. Pure; no I/O.
 */

const NS_PER: Record<string, bigint> = {
  ns: 1n,
  us: 1_000n,
  µs: 1_000n,
  μs: 1_000n,
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
};
const MAX = 1n << 63n;

/** Go's `quote`: double quotes, `\"` and `\\`, bytes of control and non-ASCII characters as `\xNN`. */
function quote(bytes: Buffer): string {
  let out = '"';
  for (const b of bytes) {
    if (b >= 0x80 || b < 0x20) out += `\\x${b.toString(16).padStart(2, '0')}`;
    else out += (b === 0x22 || b === 0x5c ? '\\' : '') + String.fromCharCode(b);
  }
  return `${out}"`;
}

const isDigit = (b: number | undefined) => b !== undefined && b >= 0x30 && b <= 0x39;

/**
 * Parse a Go duration into nanoseconds (a bigint within Go's int64 range). Throws Error with
 * Go's message for anything `time.ParseDuration` refuses, including overflow.
 */
export function parseGoDurationNanos(text: string): bigint {
  const s = Buffer.from(text, 'utf8');
  const invalid = () => new Error(`time: invalid duration ${quote(s)}`);
  let i = 0;
  let neg = false;
  if (s[0] === 0x2d || s[0] === 0x2b) {
    neg = s[0] === 0x2d;
    i = 1;
  }
  if (s.length - i === 1 && s[i] === 0x30) return 0n;
  if (i === s.length) throw invalid();
  let total = 0n;
  while (i < s.length) {
    if (!(s[i] === 0x2e || isDigit(s[i]))) throw invalid();
    let whole = 0n;
    const start = i;
    for (; isDigit(s[i]); i++) {
      if (whole > MAX / 10n) throw invalid(); // Go's leadingInt overflow
      whole = whole * 10n + BigInt(s[i] - 0x30);
      if (whole > MAX) throw invalid();
    }
    const pre = i !== start;
    let fraction = 0n;
    let scale = 1n;
    let post = false;
    if (s[i] === 0x2e) {
      i++;
      const fracStart = i;
      let overflow = false;
      for (; isDigit(s[i]); i++) {
        if (overflow) continue;
        if (fraction > (MAX - 1n) / 10n) {
          overflow = true; // Go's leadingFraction ignores digits past int64 precision
          continue;
        }
        fraction = fraction * 10n + BigInt(s[i] - 0x30);
        scale *= 10n;
      }
      post = i !== fracStart;
    }
    if (!pre && !post) throw invalid();
    const unitStart = i;
    while (i < s.length && s[i] !== 0x2e && !isDigit(s[i])) i++;
    if (i === unitStart) throw new Error(`time: missing unit in duration ${quote(s)}`);
    const unitBytes = s.subarray(unitStart, i);
    const unit = NS_PER[unitBytes.toString('utf8')];
    if (unit === undefined) throw new Error(`time: unknown unit ${quote(unitBytes)} in duration ${quote(s)}`);
    if (whole > MAX / unit) throw invalid();
    let value = whole * unit;
    // Go computes the fraction in float64 (exact to the nanosecond for every unit up to hours).
    if (fraction > 0n) value += BigInt(Math.floor(Number(fraction) * (Number(unit) / Number(scale))));
    if (value > MAX) throw invalid();
    total += value;
    if (total > MAX) throw invalid();
  }
  if (neg) return -total;
  if (total > MAX - 1n) throw invalid();
  return total;
}

/** A Go duration in milliseconds (fractions kept). Throws as {@link parseGoDurationNanos}. */
export function parseGoDurationMs(text: string): number {
  return Number(parseGoDurationNanos(text)) / 1e6;
}
