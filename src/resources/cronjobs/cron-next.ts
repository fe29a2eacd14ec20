/**
 * When a parsed schedule (cron-schedule.ts) next fires: robfig/cron/v3's Schedule.Next, on
 * epoch milliseconds. A five-field schedule follows SpecSchedule.Next: from the next whole
 * second, find the first month, day, hour, minute and second whose bits are set, resetting the
 * smaller fields when a larger one moves and starting over when one wraps; give up (Go's zero
 * time) after five years. Days match as robfig's dayMatches: when day of month or day of week
 * was written `*`/`?`, both must match, otherwise either. The fields are read in the schedule's
 * `TZ=` zone, else in `localZone` (robfig's time.Local); a day starting at 23:00 or 01:00 after
 * a daylight-saving change is moved back to midnight as robfig does. `@every d` fires `d` after
 * the given time's whole second (ConstantDelaySchedule.Next). Pure.
 */
import type { CronSchedule, SpecSchedule } from './cron-schedule.js';
import { STAR_BIT } from './cron-schedule.js';
import { localZone as processZone, utcMs, wallClock, zonedMs, type WallClock } from './zone-clock.js';

/** Go's zero time.Time (0001-01-01T00:00:00Z) in epoch ms: what Next answers when nothing matches. */
export const GO_ZERO_TIME_MS = utcMs(1, 1, 1);

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

const has = (bits: bigint, n: number) => ((bits >> BigInt(n)) & 1n) === 1n;

/** robfig dayMatches. */
function dayMatches(s: SpecSchedule, w: WallClock): boolean {
  const domMatch = has(s.dom, w.day);
  const dowMatch = has(s.dow, w.weekday);
  if ((s.dom & STAR_BIT) !== 0n || (s.dow & STAR_BIT) !== 0n) return domMatch && dowMatch;
  return domMatch || dowMatch;
}

/** Go's floor of `ms` to a multiple of `unit` since the zero time (t.Truncate). */
const truncate = (ms: number, unit: number) => Math.floor(ms / unit) * unit;

/** SpecSchedule.Next in `zone`. */
function specNext(s: SpecSchedule, from: number, zone: string): number {
  const at = (ms: number) => wallClock(zone, ms);
  const addDate = (ms: number, months: number, days: number) => {
    const w = at(ms);
    return zonedMs(zone, w.year, w.month + months, w.day + days, w.hour, w.minute, w.second);
  };
  let t = truncate(from, SECOND) + SECOND;
  let added = false;
  const yearLimit = at(t).year + 5;
  wrap: for (;;) {
    if (at(t).year > yearLimit) return GO_ZERO_TIME_MS;
    while (!has(s.month, at(t).month)) {
      if (!added) {
        added = true;
        const w = at(t);
        t = zonedMs(zone, w.year, w.month, 1);
      }
      t = addDate(t, 1, 0);
      if (at(t).month === 1) continue wrap;
    }
    while (!dayMatches(s, at(t))) {
      if (!added) {
        added = true;
        const w = at(t);
        t = zonedMs(zone, w.year, w.month, w.day);
      }
      t = addDate(t, 0, 1);
      const hour = at(t).hour;
      if (hour !== 0) t += hour > 12 ? (24 - hour) * HOUR : -hour * HOUR;
      if (at(t).day === 1) continue wrap;
    }
    while (!has(s.hour, at(t).hour)) {
      if (!added) {
        added = true;
        const w = at(t);
        t = zonedMs(zone, w.year, w.month, w.day, w.hour);
      }
      t += HOUR;
      if (at(t).hour === 0) continue wrap;
    }
    while (!has(s.minute, at(t).minute)) {
      if (!added) {
        added = true;
        t = truncate(t, MINUTE);
      }
      t += MINUTE;
      if (at(t).minute === 0) continue wrap;
    }
    while (!has(s.second, at(t).second)) {
      if (!added) {
        added = true;
        t = truncate(t, SECOND);
      }
      t += SECOND;
      if (at(t).second === 0) continue wrap;
    }
    return t;
  }
}

/**
 * robfig Schedule.Next: the first activation of `schedule` strictly after `from` (epoch ms),
 * or {@link GO_ZERO_TIME_MS} when none comes within five years. A schedule without `TZ=` is
 * read in `localZone` (default: the process's zone).
 */
export function nextActivation(schedule: CronSchedule, from: number, localZone: string = processZone()): number {
  if (schedule.kind === 'every') return truncate(from, SECOND) + schedule.delayMs;
  return specNext(schedule, from, schedule.zone ?? localZone);
}
