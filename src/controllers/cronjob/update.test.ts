/** Port of upstream 1.33 cronjob_controllerv2_test.go TestControllerV2UpdateCronJob (now: 09:59:59). */
import { describe, expect, it } from 'vitest';
import type { CronJob } from '../../resources/cronjobs/cronjobs.schema.js';
import { at, iso, justBeforeTheHour, MINUTE, SECOND } from './fake-client.fixture.js';
import { delayAfterUpdate } from './update.js';
import { NEXT_SCHEDULE_DELTA_MS as DELTA } from './utils.js';

const now = at('2016-05-19T09:59:59Z');
const cj = (spec: object, labels: Record<string, string>, last?: number) =>
  ({
    metadata: { name: 'cj', namespace: 'default' },
    spec: { jobTemplate: { metadata: { labels, annotations: { x: 'y' } } }, ...spec },
    ...(last === undefined ? {} : { status: { lastScheduleTime: iso(last) } }),
  }) as CronJob;
const NY = { timeZone: 'America/New_York' };

describe('upstream TestControllerV2UpdateCronJob', () => {
  it.each([
    ['spec.template changed', cj({}, { a: 'b' }), cj({}, { a: 'foo' }), 0],
    [
      'spec.schedule changed',
      cj({ schedule: '30 * * * *' }, { a: 'b' }, justBeforeTheHour),
      cj({ schedule: '*/1 * * * *' }, { a: 'foo' }, justBeforeTheHour),
      SECOND + DELTA,
    ],
    [
      'spec.schedule with @every changed - cadence decrease',
      cj({ schedule: '@every 1m' }, { a: 'b' }, justBeforeTheHour),
      cj({ schedule: '@every 3m' }, { a: 'foo' }, justBeforeTheHour),
      2 * MINUTE + SECOND + DELTA,
    ],
    [
      'spec.schedule with @every changed - cadence increase',
      cj({ schedule: '@every 3m' }, { a: 'b' }, justBeforeTheHour),
      cj({ schedule: '@every 1m' }, { a: 'foo' }, justBeforeTheHour),
      SECOND + DELTA,
    ],
    ['spec.timeZone not changed', cj(NY, { a: 'b' }), cj(NY, { a: 'foo' }), 0],
  ])('%s', (_name, old, cur, expected) => {
    expect(delayAfterUpdate(old, cur, now, 'UTC')).toBe(expected);
  });

  it('spec.timeZone changed, the (empty) schedule does not parse: not queued', () => {
    expect(delayAfterUpdate(cj(NY, { a: 'b' }), cj({}, { a: 'foo' }), now, 'UTC')).toBe('unparseable');
  });
});
