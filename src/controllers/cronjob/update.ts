/**
 * When a changed CronJob is synced (upstream 1.33 cronjob_controllerv2.go updateCronJob): at
 * once, unless its schedule or time zone changed; then at the next time of the new schedule
 * (so a schedule moved earlier is honoured; a later one makes the already queued sync a
 * no-op), or never while the new schedule does not parse (the caller records the
 * UnParseableCronJobSchedule warning). Pure.
 */
import { CronError, parseStandardSchedule } from '../../resources/cronjobs/cron-schedule.js';
import type { CronJob } from '../../resources/cronjobs/cronjobs.schema.js';
import { formatSchedule } from './sync.js';
import { nextScheduleTimeDuration } from './utils.js';

/** The delay (ms, 0 = now) before syncing `cur` after it changed from `old`, or 'unparseable'. */
export function delayAfterUpdate(old: CronJob, cur: CronJob, now: number, localZone?: string): number | 'unparseable' {
  if (old.spec?.schedule === cur.spec?.schedule && (old.spec?.timeZone ?? null) === (cur.spec?.timeZone ?? null))
    return 0;
  try {
    return nextScheduleTimeDuration(cur, now, parseStandardSchedule(formatSchedule(cur)), localZone);
  } catch (err) {
    if (err instanceof CronError) return 'unparseable';
    throw err;
  }
}
