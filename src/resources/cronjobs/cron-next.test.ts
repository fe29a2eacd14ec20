/**
 * Ports of robfig/cron/v3 spec_test.go (TestActivation, TestNext, with its daylight-saving rows
 * in America/New_York) and of the descriptors and `@every` (constantdelay_test.go), against
 * nextActivation. Times without a zone are UTC, as Go's time.Parse reads them; robfig's
 * schedules carry time.Local, i.e. the zone of the time given, so the DST rows pass New York as
 * the local zone.
 */
import { describe, expect, it } from 'vitest';
import { parseStandardSchedule, parseWithSeconds } from './cron-schedule.js';
import { GO_ZERO_TIME_MS, nextActivation } from './cron-next.js';
import { rfc3339InZone } from './zone-clock.js';

const NY = 'America/New_York';

/** robfig getTime: "Mon Jul 9 15:00 2012" (UTC) or "2012-03-11T00:00:00-0500"; "" is the zero time. */
function getTime(value: string): number {
  if (value === '') return GO_ZERO_TIME_MS;
  const iso = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)([+-]\d\d)(\d\d)$/.exec(value);
  if (iso) return Date.parse(`${iso[1]}-${iso[2]}-${iso[3]}T${iso[4]}:${iso[5]}:${iso[6]}${iso[7]}:${iso[8]}`);
  const m = /^\w{3} (\w{3}) (\d+) (\d\d):(\d\d)(?::(\d\d))? (\d{4})$/.exec(value);
  if (!m) throw new Error(`bad test time ${value}`);
  return Date.parse(`${m[1]} ${m[2]} ${m[6]} ${m[3]}:${m[4]}:${m[5] ?? '00'} UTC`);
}

describe('robfig TestActivation', () => {
  const cases: [string, string, boolean][] = [
    ['Mon Jul 9 15:00 2012', '0/15 * * * *', true],
    ['Mon Jul 9 15:45 2012', '0/15 * * * *', true],
    ['Mon Jul 9 15:40 2012', '0/15 * * * *', false],
    ['Mon Jul 9 15:05 2012', '5/15 * * * *', true],
    ['Mon Jul 9 15:20 2012', '5/15 * * * *', true],
    ['Mon Jul 9 15:50 2012', '5/15 * * * *', true],
    ['Sun Jul 15 15:00 2012', '0/15 * * Jul *', true],
    ['Sun Jul 15 15:00 2012', '0/15 * * Jun *', false],
    ['Sun Jul 15 08:30 2012', '30 08 ? Jul Sun', true],
    ['Sun Jul 15 08:30 2012', '30 08 15 Jul ?', true],
    ['Mon Jul 16 08:30 2012', '30 08 ? Jul Sun', false],
    ['Mon Jul 16 08:30 2012', '30 08 15 Jul ?', false],
    ['Mon Jul 9 15:00 2012', '@hourly', true],
    ['Mon Jul 9 15:04 2012', '@hourly', false],
    ['Mon Jul 9 15:00 2012', '@daily', false],
    ['Mon Jul 9 00:00 2012', '@daily', true],
    ['Mon Jul 9 00:00 2012', '@weekly', false],
    ['Sun Jul 8 00:00 2012', '@weekly', true],
    ['Sun Jul 8 01:00 2012', '@weekly', false],
    ['Sun Jul 8 00:00 2012', '@monthly', false],
    ['Sun Jul 1 00:00 2012', '@monthly', true],
    // Day of month and day of week both restricted: either matches (a `*/n` step restricts).
    ['Sun Jul 15 00:00 2012', '* * 1,15 * Sun', true],
    ['Fri Jun 15 00:00 2012', '* * 1,15 * Sun', true],
    ['Wed Aug 1 00:00 2012', '* * 1,15 * Sun', true],
    ['Sun Jul 15 00:00 2012', '* * */10 * Sun', true],
    // One of them a star: both must match.
    ['Sun Jul 15 00:00 2012', '* * * * Mon', false],
    ['Mon Jul 9 00:00 2012', '* * 1,15 * *', false],
    ['Sun Jul 15 00:00 2012', '* * 1,15 * *', true],
    ['Sun Jul 15 00:00 2012', '* * */2 * Sun', true],
  ];
  it.each(cases)('%s, %s → %s', (time, spec, expected) => {
    const at = getTime(time);
    expect(nextActivation(parseStandardSchedule(spec), at - 1000, 'UTC') === at).toBe(expected);
  });
});

describe('robfig TestNext', () => {
  const tz = 'TZ=America/New_York ';
  const cases: [string, string, string][] = [
    ['Mon Jul 9 14:45 2012', '0 0/15 * * * *', 'Mon Jul 9 15:00 2012'],
    ['Mon Jul 9 14:59 2012', '0 0/15 * * * *', 'Mon Jul 9 15:00 2012'],
    ['Mon Jul 9 14:59:59 2012', '0 0/15 * * * *', 'Mon Jul 9 15:00 2012'],
    ['Mon Jul 9 15:45 2012', '0 20-35/15 * * * *', 'Mon Jul 9 16:20 2012'],
    ['Mon Jul 9 23:46 2012', '0 */15 * * * *', 'Tue Jul 10 00:00 2012'],
    ['Mon Jul 9 23:45 2012', '0 20-35/15 * * * *', 'Tue Jul 10 00:20 2012'],
    ['Mon Jul 9 23:35:51 2012', '15/35 20-35/15 * * * *', 'Tue Jul 10 00:20:15 2012'],
    ['Mon Jul 9 23:35:51 2012', '15/35 20-35/15 1/2 * * *', 'Tue Jul 10 01:20:15 2012'],
    ['Mon Jul 9 23:35:51 2012', '15/35 20-35/15 10-12 * * *', 'Tue Jul 10 10:20:15 2012'],
    ['Mon Jul 9 23:35:51 2012', '15/35 20-35/15 1/2 */2 * *', 'Thu Jul 11 01:20:15 2012'],
    ['Mon Jul 9 23:35:51 2012', '15/35 20-35/15 * 9-20 * *', 'Wed Jul 10 00:20:15 2012'],
    ['Mon Jul 9 23:35:51 2012', '15/35 20-35/15 * 9-20 Jul *', 'Wed Jul 10 00:20:15 2012'],
    ['Mon Jul 9 23:35 2012', '0 0 0 9 Apr-Oct ?', 'Thu Aug 9 00:00 2012'],
    ['Mon Jul 9 23:35 2012', '0 0 0 */5 Apr,Aug,Oct Mon', 'Wed Aug 1 00:00 2012'],
    ['Mon Jul 9 23:35 2012', '0 0 0 */5 Oct Mon', 'Mon Oct 1 00:00 2012'],
    ['Mon Jul 9 23:35 2012', '0 0 0 * Feb Mon', 'Mon Feb 4 00:00 2013'],
    ['Mon Jul 9 23:35 2012', '0 0 0 * Feb Mon/2', 'Fri Feb 1 00:00 2013'],
    ['Mon Dec 31 23:59:45 2012', '0 * * * * *', 'Tue Jan 1 00:00:00 2013'],
    ['Mon Jul 9 23:35 2012', '0 0 0 29 Feb ?', 'Mon Feb 29 00:00 2016'],
    // Daylight saving time 2am EST (-5) -> 3am EDT (-4): a skipped wall time waits for the next day it exists.
    ['2012-03-11T00:00:00-0500', `${tz}0 30 2 11 Mar ?`, '2013-03-11T02:30:00-0400'],
    ['2012-03-11T00:00:00-0500', `${tz}0 0 * * * ?`, '2012-03-11T01:00:00-0500'],
    ['2012-03-11T01:00:00-0500', `${tz}0 0 * * * ?`, '2012-03-11T03:00:00-0400'],
    ['2012-03-11T03:00:00-0400', `${tz}0 0 * * * ?`, '2012-03-11T04:00:00-0400'],
    ['2012-03-11T04:00:00-0400', `${tz}0 0 * * * ?`, '2012-03-11T05:00:00-0400'],
    ['2012-03-11T00:00:00-0500', 'CRON_TZ=America/New_York 0 0 * * * ?', '2012-03-11T01:00:00-0500'],
    ['2012-03-11T01:00:00-0500', 'CRON_TZ=America/New_York 0 0 * * * ?', '2012-03-11T03:00:00-0400'],
    ['2012-03-11T00:00:00-0500', `${tz}0 0 1 * * ?`, '2012-03-11T01:00:00-0500'],
    ['2012-03-11T01:00:00-0500', `${tz}0 0 1 * * ?`, '2012-03-12T01:00:00-0400'],
    ['2012-03-11T00:00:00-0500', `${tz}0 0 2 * * ?`, '2012-03-12T02:00:00-0400'],
    // Daylight saving time 2am EDT (-4) -> 1am EST (-5): the repeated hour runs twice.
    ['2012-11-04T00:00:00-0400', `${tz}0 30 2 04 Nov ?`, '2012-11-04T02:30:00-0500'],
    ['2012-11-04T01:45:00-0400', `${tz}0 30 1 04 Nov ?`, '2012-11-04T01:30:00-0500'],
    ['2012-11-04T00:00:00-0400', `${tz}0 0 * * * ?`, '2012-11-04T01:00:00-0400'],
    ['2012-11-04T01:00:00-0400', `${tz}0 0 * * * ?`, '2012-11-04T01:00:00-0500'],
    ['2012-11-04T01:00:00-0500', `${tz}0 0 * * * ?`, '2012-11-04T02:00:00-0500'],
    ['2012-11-04T00:00:00-0400', `${tz}0 0 1 * * ?`, '2012-11-04T01:00:00-0400'],
    ['2012-11-04T01:00:00-0400', `${tz}0 0 1 * * ?`, '2012-11-04T01:00:00-0500'],
    ['2012-11-04T01:00:00-0500', `${tz}0 0 1 * * ?`, '2012-11-05T01:00:00-0500'],
    ['2012-11-04T00:00:00-0400', `${tz}0 0 2 * * ?`, '2012-11-04T02:00:00-0500'],
    ['2012-11-04T02:00:00-0500', `${tz}0 0 2 * * ?`, '2012-11-05T02:00:00-0500'],
    ['2012-11-04T00:00:00-0400', `${tz}0 0 3 * * ?`, '2012-11-04T03:00:00-0500'],
    ['2012-11-04T03:00:00-0500', `${tz}0 0 3 * * ?`, '2012-11-05T03:00:00-0500'],
    // The time's own zone when the schedule has none (robfig's time.Local).
    ['TZ=America/New_York 2012-11-04T01:00:00-0400', '0 0 * * * ?', '2012-11-04T01:00:00-0500'],
    ['TZ=America/New_York 2012-11-04T01:00:00-0400', '0 0 1 * * ?', '2012-11-04T01:00:00-0500'],
    ['TZ=America/New_York 2012-11-04T00:00:00-0400', '0 0 3 3 * ?', '2012-12-03T03:00:00-0500'],
    // Unsatisfiable.
    ['Mon Jul 9 23:35 2012', '0 0 0 30 Feb ?', ''],
    ['Mon Jul 9 23:35 2012', '0 0 0 31 Apr ?', ''],
    // Midnight skipped by DST (robfig issue 157).
    ['2018-10-17T05:00:00-0400', 'TZ=America/Sao_Paulo 0 0 9 10 * ?', '2018-11-10T06:00:00-0500'],
    ['2018-02-14T05:00:00-0500', 'TZ=America/Sao_Paulo 0 0 9 22 * ?', '2018-02-22T07:00:00-0500'],
  ];
  it.each(cases)('%s, %s → %s', (time, spec, expected) => {
    const local = time.startsWith('TZ=') ? NY : 'UTC';
    const got = nextActivation(parseWithSeconds(spec), getTime(time.replace(/^TZ=\S+ /, '')), local);
    expect(rfc3339InZone(NY, got)).toBe(rfc3339InZone(NY, getTime(expected)));
  });
});

describe('standard schedules (ParseStandard) in a time zone', () => {
  it('reads the fields in the schedule’s TZ=, and in the local zone given otherwise', () => {
    const from = Date.parse('2016-05-19T10:01:00Z');
    expect(new Date(nextActivation(parseStandardSchedule('TZ=America/New_York 0 9 * * *'), from)).toISOString()).toBe(
      '2016-05-19T13:00:00.000Z',
    );
    expect(new Date(nextActivation(parseStandardSchedule('0 9 * * *'), from, 'Asia/Kolkata')).toISOString()).toBe(
      '2016-05-20T03:30:00.000Z',
    );
    expect(new Date(nextActivation(parseStandardSchedule('0 9 * * *'), from, 'UTC')).toISOString()).toBe(
      '2016-05-20T09:00:00.000Z',
    );
  });

  it('skips a wall time a spring-forward removes to the next day it exists', () => {
    // 02:30 does not exist in New York on 2021-03-14.
    const from = Date.parse('2021-03-13T12:00:00Z');
    const next = nextActivation(parseStandardSchedule('TZ=America/New_York 30 2 * * *'), from);
    expect(rfc3339InZone(NY, next)).toBe('2021-03-15T02:30:00-04:00');
  });
});

describe('robfig constant delay (@every)', () => {
  it.each([
    ['@every 1h', '2016-05-19T10:00:00.250Z', '2016-05-19T11:00:00.000Z'],
    ['@every 90s', '2016-05-19T10:00:00Z', '2016-05-19T10:01:30.000Z'],
    ['@every 1500ms', '2016-05-19T10:00:00Z', '2016-05-19T10:00:01.000Z'],
    ['@every 100ms', '2016-05-19T10:00:00Z', '2016-05-19T10:00:01.000Z'],
  ])('%s after %s → %s', (spec, from, expected) => {
    expect(new Date(nextActivation(parseStandardSchedule(spec), Date.parse(from))).toISOString()).toBe(expected);
  });
});
