/**
 * Wall-clock arithmetic in an IANA time zone with Intl (Node's ICU zone data), as much of Go's
 * time package as robfig's SpecSchedule.Next needs: an instant's wall clock in a zone (Go
 * t.In(loc) and its Year/Month/Day/Hour/Minute/Second/Weekday), and the instant of a wall clock
 * (Go time.Date, with its normalisation of out-of-range fields and its choice at a zone
 * transition), and RFC 3339 in a zone (Go time.RFC3339). Instants are epoch milliseconds. Pure.
 */

/** The fields of a wall clock (month 1-12, weekday 0 = Sunday). */
export interface WallClock {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
  readonly weekday: number;
}

const formats = new Map<string, Intl.DateTimeFormat>();

function formatOf(zone: string): Intl.DateTimeFormat {
  let f = formats.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      era: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formats.set(zone, f);
  }
  return f;
}

/** Whether `zone` is UTC (no Intl call needed). */
const isUtc = (zone: string) => zone === 'UTC' || zone === 'Etc/UTC' || zone === '';

/** The server's local zone (Go's time.Local): the process's zone as ICU reports it. */
export function localZone(): string {
  return new Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** Epoch ms of a proleptic-Gregorian UTC wall clock, any field out of range normalised (Go's time.Date). */
export function utcMs(year: number, month: number, day: number, hour = 0, minute = 0, second = 0): number {
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  d.setUTCHours(hour, minute, second, 0);
  return d.getTime();
}

/** The zone's offset from UTC at instant `ms`, in ms (east positive; whole seconds). */
export function zoneOffsetMs(zone: string, ms: number): number {
  if (isUtc(zone)) return 0;
  const parts: Record<string, string> = {};
  for (const p of formatOf(zone).formatToParts(new Date(ms))) parts[p.type] = p.value;
  const year = parts.era === 'BC' || parts.era === 'B' ? 1 - Number(parts.year) : Number(parts.year);
  const wall = utcMs(
    year,
    Number(parts.month),
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
  return wall - (ms - (((ms % 1000) + 1000) % 1000));
}

/** The wall clock in `zone` at instant `ms`. */
export function wallClock(zone: string, ms: number): WallClock {
  const d = new Date(ms + zoneOffsetMs(zone, ms));
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
    weekday: d.getUTCDay(),
  };
}

/**
 * The instant of a wall clock in `zone` (Go time.Date): fields out of range are normalised
 * (month 13 is January of the next year, day 0 the last of the previous month); a wall time
 * that a transition skips or repeats takes the offset Go's lookup finds: the offset in force at
 * the wall time read as UTC, unless the instant so computed falls in another zone period, then
 * the offset at that instant.
 */
export function zonedMs(
  zone: string,
  year: number,
  month: number,
  day: number,
  hour = 0,
  minute = 0,
  second = 0,
): number {
  const wall = utcMs(year, month, day, hour, minute, second);
  let offset = zoneOffsetMs(zone, wall);
  if (offset !== 0) {
    const utc = wall - offset;
    const there = zoneOffsetMs(zone, utc);
    if (there !== offset) offset = there;
  }
  return wall - offset;
}

const pad = (n: number, width = 2) => String(Math.abs(n)).padStart(width, '0');

/** Go's `t.In(zone).Format(time.RFC3339)`: `2016-05-19T06:01:00-04:00`, `Z` at offset 0; whole seconds. */
export function rfc3339InZone(zone: string, ms: number): string {
  const w = wallClock(zone, ms);
  const offset = Math.round(zoneOffsetMs(zone, ms) / 60_000);
  const sign = offset < 0 ? '-' : '+';
  const zonePart =
    offset === 0 ? 'Z' : `${sign}${pad(Math.trunc(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`;
  return `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}${zonePart}`;
}
