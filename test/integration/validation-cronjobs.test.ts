/** One case per CronJob rule of docs/validation/cronjobs.md (rules CJ1-CJ15), and its generation semantics. */
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../helpers/in-process.js';
import {
  invalidValue,
  required,
  unsupported,
  validationSuite,
  type Call,
  type ValidationCase,
} from '../helpers/validation-cases.js';
import { MERGE, NEG, selectorOf } from '../helpers/apps-workloads.js';

const srv = useTestServer();

const CJ = '/apis/batch/v1/namespaces/default/cronjobs';
const jobSpec = (extra: object = {}) => ({
  template: { spec: { containers: [{ name: 'c', image: 'busybox' }], restartPolicy: 'OnFailure' } },
  ...extra,
});
const cronJob = (name: string, extra: object = {}, job: object = {}): Call => [
  'POST',
  CJ,
  { metadata: { name }, spec: { schedule: '*/5 * * * *', jobTemplate: { spec: jobSpec(job) }, ...extra } },
];
const patch = (name: string, spec: object): Call => ['PATCH', `${CJ}/${name}`, { spec }, MERGE];
const unknownZone = (zone: string) => `unknown time zone ${zone}`;

const cases: ValidationCase[] = [
  { rule: 'CJ1 schedule required', call: cronJob('vcj-1', { schedule: '' }), cause: required('spec.schedule') },
  {
    rule: 'CJ2 schedule a standard cron expression',
    call: cronJob('vcj-2', { schedule: '* * *' }),
    cause: invalidValue('spec.schedule', '"* * *"', 'expected exactly 5 fields, found 3: [* * *]'),
  },
  {
    rule: 'CJ3 no TZ or CRON_TZ in a new schedule',
    call: cronJob('vcj-3', { schedule: 'CRON_TZ=UTC 0 * * * *' }),
    cause: invalidValue(
      'spec.schedule',
      '"CRON_TZ=UTC 0 * * * *"',
      'cannot use TZ or CRON_TZ in schedule, use timeZone field instead',
    ),
  },
  {
    rule: 'CJ4 startingDeadlineSeconds non-negative',
    call: cronJob('vcj-4', { startingDeadlineSeconds: -1 }),
    cause: invalidValue('spec.startingDeadlineSeconds', '-1', NEG),
  },
  {
    rule: 'CJ5 timeZone not empty',
    call: cronJob('vcj-5', { timeZone: '' }),
    cause: invalidValue('spec.timeZone', '""', 'timeZone must be nil or non-empty string'),
  },
  {
    rule: 'CJ6 timeZone made of valid name parts',
    call: cronJob('vcj-6', { timeZone: 'Europe/../Paris' }),
    cause: invalidValue('spec.timeZone', '"Europe/../Paris"', unknownZone('Europe/../Paris')),
  },
  {
    rule: 'CJ7 timeZone not Local',
    call: cronJob('vcj-7', { timeZone: 'Local' }),
    cause: invalidValue(
      'spec.timeZone',
      '"Local"',
      'timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones',
    ),
  },
  {
    rule: 'CJ8 timeZone in the zone database',
    call: cronJob('vcj-8', { timeZone: 'Mars/Olympus_Mons' }),
    cause: invalidValue('spec.timeZone', '"Mars/Olympus_Mons"', unknownZone('Mars/Olympus_Mons')),
  },
  {
    rule: 'CJ9 concurrencyPolicy Allow, Forbid or Replace',
    call: cronJob('vcj-9', { concurrencyPolicy: 'Queue' }),
    cause: unsupported('spec.concurrencyPolicy', 'Queue', ['Allow', 'Forbid', 'Replace']),
  },
  {
    rule: 'CJ10 jobTemplate.spec a valid JobSpec (the Job rules J1-J52)',
    call: cronJob('vcj-10', {}, { parallelism: -1 }),
    cause: invalidValue('spec.jobTemplate.spec.parallelism', '-1', NEG),
  },
  {
    rule: 'CJ11 jobTemplate has no selector',
    call: cronJob('vcj-11', {}, { selector: { matchLabels: { app: 'x' } } }),
    cause: invalidValue(
      'spec.jobTemplate.spec.selector',
      selectorOf('map[string]string{"app":"x"}'),
      '`selector` will be auto-generated',
    ),
  },
  {
    rule: 'CJ12 jobTemplate manualSelector not true',
    call: cronJob('vcj-12', {}, { manualSelector: true }),
    cause: {
      field: 'spec.jobTemplate.spec.manualSelector',
      reason: 'FieldValueNotSupported',
      message: 'Unsupported value: true: supported values: "nil", "false"',
    },
  },
  {
    rule: 'CJ13 successfulJobsHistoryLimit non-negative',
    call: cronJob('vcj-13', { successfulJobsHistoryLimit: -1 }),
    cause: invalidValue('spec.successfulJobsHistoryLimit', '-1', NEG),
  },
  {
    rule: 'CJ14 failedJobsHistoryLimit non-negative',
    call: cronJob('vcj-14', { failedJobsHistoryLimit: -1 }),
    cause: invalidValue('spec.failedJobsHistoryLimit', '-1', NEG),
  },
  {
    rule: 'CJ15 name at most 52 characters (create)',
    call: cronJob('c'.repeat(53)),
    cause: invalidValue('metadata.name', `"${'c'.repeat(53)}"`, 'must be no more than 52 characters'),
  },
  {
    rule: 'CJ2 on update: the schedule is checked again',
    setup: [cronJob('vcj-u2')],
    call: patch('vcj-u2', { schedule: '61 * * * *' }),
    cause: invalidValue('spec.schedule', '"61 * * * *"', 'end of range (61) above maximum (59): 61'),
  },
  {
    rule: 'CJ8 on update: a changed timeZone is checked',
    setup: [cronJob('vcj-u8')],
    call: patch('vcj-u8', { timeZone: 'Nowhere/City' }),
    cause: invalidValue('spec.timeZone', '"Nowhere/City"', unknownZone('Nowhere/City')),
  },
];

const accepted: Call[] = [
  cronJob('vcj-ok', { schedule: '@every 1h30m', timeZone: 'Europe/Paris', startingDeadlineSeconds: 0 }),
  cronJob('vcj-ok2', { schedule: '0 9 * jan-mar mon-fri', timeZone: 'Etc/UTC', concurrencyPolicy: 'Forbid' }),
  patch('vcj-ok', { suspend: true, successfulJobsHistoryLimit: 0, timeZone: 'America/New_York' }),
];

validationSuite('CronJob validation (batch/v1)', () => srv, cases, accepted);

describe('CronJob generation and /status', () => {
  it('counts spec changes only; /status is not validated and leaves generation alone', async () => {
    const made = await srv.api(...cronJob('vcj-gen'));
    expect(made.status, made.text).toBe(201);
    expect(made.body.metadata.generation).toBe(1);
    const st = await srv.api(
      'PATCH',
      `${CJ}/vcj-gen/status`,
      { status: { lastScheduleTime: '2024-01-01T00:00:00Z' } },
      MERGE,
    );
    expect(st.status, st.text).toBe(200);
    expect(st.body.metadata.generation).toBe(1);
    const changed = await srv.api(...patch('vcj-gen', { schedule: '@hourly' }));
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.metadata.generation).toBe(2);
  });
});
