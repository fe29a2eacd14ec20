/**
 * The cron expressions a CronJob's schedule may hold, checked as upstream's validation does
 * with github.com/robfig/cron/v3 ParseStandard: five fields (minute, hour, day of month, month,
 * day of week; names such as `jan` and `mon` allowed), ranges `a-b`, steps `/n`, lists `,`,
 * `*` and `?`, the descriptors `@yearly`, `@annually`, `@monthly`, `@weekly`, `@daily`,
 * `@midnight`, `@hourly` and `@every <duration>`, and a leading `TZ=zone` or `CRON_TZ=zone`.
 * Each refusal is robfig's error text. Pure.
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
const DESCRIPTORS = ['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly'];

/** Go's `%s` of a []string: `[a b c]`. */
const goList = (fields: readonly string[]) => `[${fields.join(' ')}]`;

class CronError extends Error {}

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

/** getRange: one `a`, `a-b`, `*`, `?`, each with an optional `/step`. */
function checkRange(expr: string, bounds: Bounds): void {
  const rangeAndStep = expr.split('/');
  const lowAndHigh = rangeAndStep[0]!.split('-');
  let start: number;
  let end: number;
  if (lowAndHigh[0] === '*' || lowAndHigh[0] === '?') {
    start = bounds.min;
    end = bounds.max;
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
  } else if (rangeAndStep.length > 2) throw new CronError(`too many slashes: ${expr}`);
  if (start < bounds.min) throw new CronError(`beginning of range (${start}) below minimum (${bounds.min}): ${expr}`);
  if (end > bounds.max) throw new CronError(`end of range (${end}) above maximum (${bounds.max}): ${expr}`);
  if (start > end) throw new CronError(`beginning of range (${start}) beyond end of range (${end}): ${expr}`);
  if (step === 0) throw new CronError(`step of range should be a positive number: ${expr}`);
}

function checkDescriptor(spec: string): void {
  if (DESCRIPTORS.includes(spec)) return;
  const every = '@every ';
  if (spec.startsWith(every)) {
    try {
      parseGoDurationNanos(spec.slice(every.length));
      return;
    } catch (err) {
      throw new CronError(`failed to parse duration ${spec}: ${(err as Error).message}`, { cause: err });
    }
  }
  throw new CronError(`unrecognized descriptor: ${spec}`);
}

/** Go's strings.Fields: split on runs of white space. */
const goFields = (s: string) => s.split(/[\t\n\v\f\r \u0085\u00a0]+/).filter(Boolean);

/** robfig/cron/v3 ParseStandard's error for `schedule`, or undefined when it parses. */
export function cronScheduleError(schedule: string): string | undefined {
  try {
    let spec = schedule;
    if (!spec) throw new CronError('empty spec string');
    if (spec.startsWith('TZ=') || spec.startsWith('CRON_TZ=')) {
      const space = spec.indexOf(' ');
      const eq = spec.indexOf('=');
      const zone = spec.slice(eq + 1, space < 0 ? undefined : space);
      const bad = loadLocationError(zone);
      if (bad) throw new CronError(`provided bad location ${zone}: ${bad}`);
      spec = space < 0 ? '' : spec.slice(space).trim();
    }
    if (spec.startsWith('@')) {
      checkDescriptor(spec);
      return undefined;
    }
    const fields = goFields(spec);
    if (fields.length !== 5)
      throw new CronError(`expected exactly 5 fields, found ${fields.length}: ${goList(fields)}`);
    fields.forEach((field, i) => {
      for (const expr of field.split(',').filter(Boolean)) checkRange(expr, FIELDS[i]!);
    });
    return undefined;
  } catch (err) {
    if (err instanceof CronError) return err.message;
    throw err;
  }
}
