/**
 * CEL's timestamp and duration functions (cel-go standard library, with Kubernetes'
 * DefaultUTCTimeZone): `duration(s)` (Go syntax), `timestamp(s)` (RFC 3339), arithmetic,
 * comparisons, `int(ts)`, `string(ts|d)` and the getters in UTC or a fixed `±hh:mm` offset.
 * IANA zone names in getters are not supported (docs/cel.md).
 */
import { parseGoDurationNanos } from '../go-duration.js';
import { type Overload, global, member } from './functions.js';
import { parseTimestamp } from './to-value.js';
import { BOOL, DURATION, INT, STRING, TIMESTAMP } from './types.js';
import { CelDuration, CelErr, CelTimestamp, type Result } from './values.js';

const NS = 1_000_000_000n;
const MIN_TS = -62135596800n * NS; // 0001-01-01
const MAX_TS = 253402300799n * NS + (NS - 1n); // 9999-12-31T23:59:59.999999999

const ts = (ns: bigint): Result =>
  ns < MIN_TS || ns > MAX_TS ? new CelErr('timestamp out of range') : new CelTimestamp(ns);
const dur = (ns: bigint): Result =>
  ns < -(1n << 63n) || ns >= 1n << 63n ? new CelErr('integer overflow') : new CelDuration(ns);

/** A duration as Go's time.Duration.String() prints it, as cel-go's string(duration) does (seconds). */
function durationString(ns: bigint): string {
  const sec = Number(ns) / 1e9;
  return `${sec}s`;
}

/** Go's RFC3339Nano in the timestamp's own offset. */
function timestampString(t: CelTimestamp): string {
  const local = t.ns + BigInt(t.offsetMin) * 60_000_000_000n;
  const frac = ((local % NS) + NS) % NS;
  const secs = (local - frac) / 1_000_000n;
  const d = new Date(Number(secs));
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  const base = `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  const f = frac === 0n ? '' : `.${frac.toString().padStart(9, '0').replace(/0+$/, '')}`;
  const o = Math.abs(t.offsetMin);
  const zone = t.offsetMin === 0 ? 'Z' : `${t.offsetMin < 0 ? '-' : '+'}${pad(Math.trunc(o / 60))}:${pad(o % 60)}`;
  return `${base}${f}${zone}`;
}

function parts(t: CelTimestamp, tz?: string): Date | CelErr {
  let offsetMin = 0;
  if (tz !== undefined && tz !== 'UTC') {
    const m = /^([+-])?(\d{1,2}):(\d{2})$/.exec(tz);
    if (!m) return new CelErr(`unknown time zone ${tz}`);
    offsetMin = (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
  }
  return new Date(Number(t.ns / 1_000_000n) + offsetMin * 60_000);
}

const getter = (name: string, f: (d: Date, t: CelTimestamp) => number): Overload[] => [
  member(name, `timestamp_to_${name}`, [TIMESTAMP], INT, (t: CelTimestamp) => {
    const d = parts(t);
    return d instanceof CelErr ? d : BigInt(f(d, t));
  }),
  member(name, `timestamp_to_${name}_with_tz`, [TIMESTAMP, STRING], INT, (t: CelTimestamp, tz: string) => {
    const d = parts(t, tz);
    return d instanceof CelErr ? d : BigInt(f(d, t));
  }),
];

const dayOfYear = (d: Date): number =>
  Math.floor(
    (Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()) - Date.UTC(d.getUTCFullYear(), 0, 1)) / 864e5,
  );

const cmp = (fn: string, name: string, ok: (c: number) => boolean): Overload[] => [
  global(fn, `${name}_timestamp`, [TIMESTAMP, TIMESTAMP], BOOL, (a: CelTimestamp, b: CelTimestamp) =>
    ok(a.ns < b.ns ? -1 : a.ns > b.ns ? 1 : 0),
  ),
  global(fn, `${name}_duration`, [DURATION, DURATION], BOOL, (a: CelDuration, b: CelDuration) =>
    ok(a.ns < b.ns ? -1 : a.ns > b.ns ? 1 : 0),
  ),
];

/** Time overloads. */
export const TIME: readonly Overload[] = [
  global('duration', 'string_to_duration', [STRING], DURATION, (s: string) => {
    try {
      return dur(parseGoDurationNanos(s));
    } catch (e) {
      return new CelErr(e instanceof Error ? e.message : String(e));
    }
  }),
  global('duration', 'duration_to_duration', [DURATION], DURATION, (d: CelDuration) => d),
  global('timestamp', 'string_to_timestamp', [STRING], TIMESTAMP, (s: string) => {
    const t = parseTimestamp(s);
    if (t instanceof CelErr) return t;
    const r = ts(t.ns);
    return r instanceof CelTimestamp ? t : r;
  }),
  global('timestamp', 'timestamp_to_timestamp', [TIMESTAMP], TIMESTAMP, (t: CelTimestamp) => t),
  global('timestamp', 'int64_to_timestamp', [INT], TIMESTAMP, (s: bigint) => ts(s * NS)),
  global('int', 'timestamp_to_int64', [TIMESTAMP], INT, (t: CelTimestamp) => t.ns / NS),
  global('string', 'timestamp_to_string', [TIMESTAMP], STRING, (t: CelTimestamp) => timestampString(t)),
  global('string', 'duration_to_string', [DURATION], STRING, (d: CelDuration) => durationString(d.ns)),
  global('_+_', 'add_timestamp_duration', [TIMESTAMP, DURATION], TIMESTAMP, (t: CelTimestamp, d: CelDuration) =>
    ts(t.ns + d.ns),
  ),
  global('_+_', 'add_duration_timestamp', [DURATION, TIMESTAMP], TIMESTAMP, (d: CelDuration, t: CelTimestamp) =>
    ts(t.ns + d.ns),
  ),
  global('_+_', 'add_duration_duration', [DURATION, DURATION], DURATION, (a: CelDuration, b: CelDuration) =>
    dur(a.ns + b.ns),
  ),
  global('_-_', 'subtract_timestamp_timestamp', [TIMESTAMP, TIMESTAMP], DURATION, (a: CelTimestamp, b: CelTimestamp) =>
    dur(a.ns - b.ns),
  ),
  global('_-_', 'subtract_timestamp_duration', [TIMESTAMP, DURATION], TIMESTAMP, (t: CelTimestamp, d: CelDuration) =>
    ts(t.ns - d.ns),
  ),
  global('_-_', 'subtract_duration_duration', [DURATION, DURATION], DURATION, (a: CelDuration, b: CelDuration) =>
    dur(a.ns - b.ns),
  ),
  ...cmp('_<_', 'less', (c) => c < 0),
  ...cmp('_<=_', 'less_equals', (c) => c <= 0),
  ...cmp('_>_', 'greater', (c) => c > 0),
  ...cmp('_>=_', 'greater_equals', (c) => c >= 0),
  member('getHours', 'duration_to_hours', [DURATION], INT, (d: CelDuration) => d.ns / (3600n * NS)),
  member('getMinutes', 'duration_to_minutes', [DURATION], INT, (d: CelDuration) => d.ns / (60n * NS)),
  member('getSeconds', 'duration_to_seconds', [DURATION], INT, (d: CelDuration) => d.ns / NS),
  member('getMilliseconds', 'duration_to_milliseconds', [DURATION], INT, (d: CelDuration) => d.ns / 1_000_000n),
  ...getter('getFullYear', (d) => d.getUTCFullYear()),
  ...getter('getMonth', (d) => d.getUTCMonth()),
  ...getter('getDate', (d) => d.getUTCDate()),
  ...getter('getDayOfMonth', (d) => d.getUTCDate() - 1),
  ...getter('getDayOfWeek', (d) => d.getUTCDay()),
  ...getter('getDayOfYear', dayOfYear),
  ...getter('getHours', (d) => d.getUTCHours()),
  ...getter('getMinutes', (d) => d.getUTCMinutes()),
  ...getter('getSeconds', (d) => d.getUTCSeconds()),
  ...getter('getMilliseconds', (_d, t) => Number((((t.ns % NS) + NS) % NS) / 1_000_000n)),
];
