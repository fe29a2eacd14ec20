/**
 * The cron expressions a CronJob's schedule may hold, checked as upstream's validation does
 * with github.com/robfig/cron/v3 ParseStandard: five fields (minute, hour, day of month, month,
 * day of week; names such as `jan` and `mon` allowed), ranges `a-b`, steps `/n`, lists `,`,
 * `*` and `?`, the descriptors `@yearly`, `@annually`, `@monthly`, `@weekly`, `@daily`,
 * `@midnight`, `@hourly` and `@every <duration>`, and a leading `TZ=zone` or `CRON_TZ=zone`.
 * {@link parseStandardSchedule} answers the parsed schedule (robfig's SpecSchedule bit sets, or
 * its ConstantDelaySchedule for `@every`); cron-next.ts computes its activations. Each refusal
 * is robfig's error text. Pure.
 */
import { parseGoDurationNanos } from '../../api/go-duration.js';
import { loadLocationError } from './time-zone.js';

interface Bounds {
  readonly min: number;
  readonly max: number;
  readonly names?: Readonly<Record<string, number>>;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
const FIELDS: readonly Bounds[] = [
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31 },
  { min: 1, max: 12, names: Object.fromEntries(MONTHS.map((m, i) => [m, i + 1])) },
  { min: 0, max: 6, names: Object.fromEntries(DAYS.map((d, i) => [d, i])) },
];

/** The bit robfig sets in a field written `*` or `?` (without a step above 1): "star". */
export const STAR_BIT = 1n << 63n;

/**
 * A five-field schedule (robfig SpecSchedule): one bit set per field, bit `n` set when the
 * value `n` matches (seconds are always 0 in a standard spec), {@link STAR_BIT} when the field
 * was `*` or `?`. `zone` is the IANA zone of a `TZ=`/`CRON_TZ=` prefix; undefined means the
 * local zone (robfig's time.Local: the zone of the time Next is given).
 */
export interface SpecSchedule {
  readonly kind: 'spec';
  readonly second: bigint;
  readonly minute: bigint;
  readonly hour: bigint;
  readonly dom: bigint;
  readonly month: bigint;
  readonly dow: bigint;
  readonly zone?: string;
}

/** `@every <duration>` (robfig ConstantDelaySchedule): `delayMs` whole seconds, at least one. */
export interface ConstantDelaySchedule {
  readonly kind: 'every';
  readonly delayMs: number;
}

/** A parsed schedule. */
export type CronSchedule = SpecSchedule | ConstantDelaySchedule;

/** A schedule robfig refuses; `message` is its error text. */
export class CronError extends Error {}

/** robfig getBits: the values min..max every `step`. */
function getBits(min: number, max: number, step: number): bigint {
  let bits = 0n;
  for (let i = min; i <= max; i += step) bits |= 1n << BigInt(i);
  return bits;
}

/** robfig all(): every value of the field, and the star bit. */
const all = (b: Bounds) => getBits(b.min, b.max, 1) | STAR_BIT;

const [, HOURS, DOM, MONTHS_B, DOW] = FIELDS as [Bounds, Bounds, Bounds, Bounds, Bounds];

/** The descriptors' schedules (robfig parseDescriptor). */
const DESCRIPTORS: Readonly<Record<string, Omit<SpecSchedule, 'kind' | 'zone'>>> = (() => {
  const one = (n: number) => 1n << BigInt(n);
  const yearly = { second: one(0), minute: one(0), hour: one(0), dom: one(1), month: one(1), dow: all(DOW) };
  const daily = { ...yearly, dom: all(DOM), month: all(MONTHS_B) };
  return {
    '@yearly': yearly,
    '@annually': yearly,
    '@monthly': { ...yearly, month: all(MONTHS_B) },
    '@weekly': { ...daily, dom: all(DOM), dow: one(0) },
    '@daily': daily,
    '@midnight': daily,
    '@hourly': { ...daily, hour: all(HOURS) },
  };
})();

/** Go's `%s` of a []string: `[a b c]`. */
const goList = (fields: readonly string[]) => `[${fields.join(' ')}]`;

/** strconv.Atoi's refusal, as robfig wraps it. */
function mustParseInt(expr: string): number {
  if (!/^[+-]?\d+$/.test(expr))
    throw new CronError(
      `failed to parse int from ${expr}: strconv.Atoi: parsing ${JSON.stringify(expr)}: invalid syntax`,
    );
  const n = Number(expr);
  if (!Number.isSafeInteger(n) || Math.abs(n) > 2 ** 63)
    throw new CronError(
      `failed to parse int from ${expr}: strconv.Atoi: parsing ${JSON.stringify(expr)}: value out of range`,
    );
  if (n < 0) throw new CronError(`negative number (${n}) not allowed: ${expr}`);
  return n;
}

function parseIntOrName(expr: string, bounds: Bounds): number {
  const named = bounds.names?.[expr.toLowerCase()];
  return named ?? mustParseInt(expr);
}

/** robfig getRange: one `a`, `a-b`, `*`, `?`, each with an optional `/step`; its bits. */
function getRange(expr: string, bounds: Bounds): bigint {
  const rangeAndStep = expr.split('/');
  const lowAndHigh = rangeAndStep[0]!.split('-');
  let start: number;
  let end: number;
  let extra = 0n;
  if (lowAndHigh[0] === '*' || lowAndHigh[0] === '?') {
    start = bounds.min;
    end = bounds.max;
    extra = STAR_BIT;
  } else {
    start = parseIntOrName(lowAndHigh[0]!, bounds);
    if (lowAndHigh.length === 1) end = start;
    else if (lowAndHigh.length === 2) end = parseIntOrName(lowAndHigh[1]!, bounds);
    else throw new CronError(`too many hyphens: ${expr}`);
  }
  let step = 1;
  if (rangeAndStep.length === 2) {
    step = mustParseInt(rangeAndStep[1]!);
    if (lowAndHigh.length === 1) end = bounds.max;
    if (step > 1) extra = 0n;
  } else if (rangeAndStep.length > 2) throw new CronError(`too many slashes: ${expr}`);
  if (start < bounds.min) throw new CronError(`beginning of range (${start}) below minimum (${bounds.min}): ${expr}`);
  if (end > bounds.max) throw new CronError(`end of range (${end}) above maximum (${bounds.max}): ${expr}`);
  if (start > end) throw new CronError(`beginning of range (${start}) beyond end of range (${end}): ${expr}`);
  if (step === 0) throw new CronError(`step of range should be a positive number: ${expr}`);
  return getBits(start, end, step) | extra;
}

/** robfig parseDescriptor. */
function parseDescriptor(spec: string, zone: string | undefined): CronSchedule {
  const fixed = DESCRIPTORS[spec];
  if (fixed) return { kind: 'spec', ...fixed, zone };
  const every = '@every ';
  if (spec.startsWith(every)) {
    let nanos: bigint;
    try {
      nanos = parseGoDurationNanos(spec.slice(every.length));
    } catch (err) {
      throw new CronError(`failed to parse duration ${spec}: ${(err as Error).message}`, { cause: err });
    }
    // robfig Every: under a second counts as one; the rest is rounded down to whole seconds.
    const seconds = nanos < 1_000_000_000n ? 1n : nanos / 1_000_000_000n;
    return { kind: 'every', delayMs: Number(seconds) * 1000 };
  }
  throw new CronError(`unrecognized descriptor: ${spec}`);
}

/** Go's strings.Fields: split on runs of white space. */
const goFields = (s: string) => s.split(/[\t\n\v\f\r \u0085\u00a0]+/).filter(Boolean);

/**
 * robfig/cron/v3 ParseStandard: the schedule `schedule` describes. Throws {@link CronError}
 * with robfig's message when it does not parse.
 */
export function parseStandardSchedule(schedule: string): CronSchedule {
  const { zone, spec } = splitZone(schedule);
  if (spec.startsWith('@')) return parseDescriptor(spec, zone);
  const fields = goFields(spec);
  if (fields.length !== 5) throw new CronError(`expected exactly 5 fields, found ${fields.length}: ${goList(fields)}`);
  const [minute, hour, dom, month, dow] = fields.map((field, i) => fieldBits(field, FIELDS[i]!)) as [
    bigint,
    bigint,
    bigint,
    bigint,
    bigint,
  ];
  return { kind: 'spec', second: 1n, minute, hour, dom, month, dow, zone };
}

/** robfig Parse's first step: a leading `TZ=zone` or `CRON_TZ=zone`, checked, and the rest. */
function splitZone(schedule: string): { zone?: string; spec: string } {
  if (!schedule) throw new CronError('empty spec string');
  if (!schedule.startsWith('TZ=') && !schedule.startsWith('CRON_TZ=')) return { spec: schedule };
  const space = schedule.indexOf(' ');
  const eq = schedule.indexOf('=');
  const zone = schedule.slice(eq + 1, space < 0 ? undefined : space);
  const bad = loadLocationError(zone);
  if (bad) throw new CronError(`provided bad location ${zone}: ${bad}`);
  return { zone, spec: space < 0 ? '' : schedule.slice(space).trim() };
}

/**
 * robfig's parser with a seconds field (`Second | Minute | Hour | Dom | Month | DowOptional |
 * Descriptor`, the parser of robfig's own tests): six fields, or five with day of week `*`.
 * Kubernetes uses {@link parseStandardSchedule}; this one serves the ports of robfig's tests.
 */
export function parseWithSeconds(schedule: string): CronSchedule {
  const { zone, spec } = splitZone(schedule);
  if (spec.startsWith('@')) return parseDescriptor(spec, zone);
  const fields = goFields(spec);
  if (fields.length === 5) fields.push('*');
  if (fields.length !== 6) throw new CronError(`expected 5 to 6 fields, found ${fields.length}: ${goList(fields)}`);
  const bounds = [{ min: 0, max: 59 }, ...FIELDS];
  const [second, minute, hour, dom, month, dow] = fields.map((field, i) => fieldBits(field, bounds[i]!)) as [
    bigint,
    bigint,
    bigint,
    bigint,
    bigint,
    bigint,
  ];
  return { kind: 'spec', second, minute, hour, dom, month, dow, zone };
}

/** robfig getField: the union of a comma list's ranges. */
const fieldBits = (field: string, bounds: Bounds) =>
  field
    .split(',')
    .filter(Boolean)
    .reduce((bits, expr) => bits | getRange(expr, bounds), 0n);

/** robfig/cron/v3 ParseStandard's error for `schedule`, or undefined when it parses. */
export function cronScheduleError(schedule: string): string | undefined {
  try {
    parseStandardSchedule(schedule);
    return undefined;
  } catch (err) {
    if (err instanceof CronError) return err.message;
    throw err;
  }
}
