/**
 * IANA time zone names as Go's time.LoadLocation finds them in the zone database (Node's ICU
 * data stands in for the server's tzdata), and Kubernetes 1.33's validateTimeZone rules for a
 * CronJob's `spec.timeZone`. Pure.
 */
import { invalidValue, type FieldError } from '../../api/validation/field-errors.js';

/** Whether the zone database knows `name` exactly as spelled (Go's lookup is case-sensitive). */
function known(name: string): boolean {
  let resolved: string;
  try {
    resolved = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return false;
  }
  // ICU accepts any letter case; an alias resolves to another name, a known name to itself.
  return resolved === name || resolved.toLowerCase() !== name.toLowerCase() || /^(Etc\/)?(UTC|GMT)$/.test(name);
}

/** time.LoadLocation's error for `name`, or undefined when it loads (`""` and `UTC` are UTC, `Local` the local zone). */
export function loadLocationError(name: string): string | undefined {
  if (name === '' || name === 'UTC' || name === 'Local') return undefined;
  if (name.includes('..') || name.startsWith('/') || name.includes('\\')) return 'time: invalid location name';
  return known(name) ? undefined : `unknown time zone ${name}`;
}

const VALID_PART = /^[A-Za-z.\-_0-9+]{1,14}$/;

/** Upstream validateTimeZone (run on create, and on update when the zone changed). */
export function validateTimeZone(zone: string | null | undefined, field: string): FieldError[] {
  if (zone === undefined || zone === null) return [];
  if (zone === '') return [invalidValue(field, zone, 'timeZone must be nil or non-empty string')];
  for (const part of zone.split('/'))
    if (part === '.' || part === '..' || part.startsWith('-') || !VALID_PART.test(part))
      return [invalidValue(field, zone, `unknown time zone ${zone}`)];
  const errs: FieldError[] = [];
  if (zone.toLowerCase() === 'local')
    errs.push(
      invalidValue(field, zone, 'timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones'),
    );
  const bad = loadLocationError(zone);
  if (bad) errs.push(invalidValue(field, zone, bad));
  return errs;
}
