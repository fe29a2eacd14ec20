/**
 * One case per rule of docs/validation/events-k8s.md: the rules an events.k8s.io/v1 write adds
 * to core/v1's (ValidateEventCreate / ValidateEventUpdate with the request version
 * events.k8s.io/v1), reported at core/v1's paths as upstream's; and that v1beta1 writes get
 * only core/v1's (legacy) rules.
 */
import { useTestServer } from '../helpers/in-process.js';
import { invalid, invalidValue, merge, required, validationSuite, type Call } from '../helpers/validation-cases.js';

const srv = useTestServer();
const V1 = '/apis/events.k8s.io/v1/namespaces/default/events';
const V1BETA1 = '/apis/events.k8s.io/v1beta1/namespaces/default/events';
const base = {
  eventTime: '2024-01-02T03:04:05.123456Z',
  reportingController: 'example.com/ctl',
  reportingInstance: 'ctl-0',
  action: 'Sync',
  reason: 'Synced',
  type: 'Normal',
  regarding: { kind: 'Pod', namespace: 'default', name: 'p' },
  note: 'n',
};
const ev = (name: string, fields: object = {}, root = V1): Call => [
  'POST',
  root,
  { metadata: { name }, ...base, ...fields },
];
const unset = (field: string) => invalidValue(field, '""', 'needs to be unset');
const immutableAt = (n: number, field: string, patch: object, printed: string) => ({
  rule: `${n} ${field} immutable`,
  setup: [ev(`vek-${n}`)],
  call: ['PATCH', `${V1}/vek-${n}`, patch, merge] as Call,
  cause: invalid(field, `Invalid value: ${printed}: field is immutable`),
});

validationSuite(
  'events.k8s.io/v1 Event validation (one case per rule)',
  () => srv,
  [
    { rule: '1 eventTime required', call: ev('vek-1', { eventTime: null }), cause: required('eventTime') },
    {
      rule: '2 type Normal or Warning',
      call: ev('vek-2', { type: 'Info' }),
      cause: invalidValue('type', '""', 'has invalid value: Info'),
    },
    {
      rule: '3 deprecatedFirstTimestamp unset',
      call: ev('vek-3', { deprecatedFirstTimestamp: '2024-01-02T03:04:05Z' }),
      cause: unset('firstTimestamp'),
    },
    {
      rule: '4 deprecatedLastTimestamp unset',
      call: ev('vek-4', { deprecatedLastTimestamp: '2024-01-02T03:04:05Z' }),
      cause: unset('lastTimestamp'),
    },
    { rule: '5 deprecatedCount unset', call: ev('vek-5', { deprecatedCount: 2 }), cause: unset('count') },
    {
      rule: '6 deprecatedSource unset',
      call: ev('vek-6', { deprecatedSource: { component: 'kubelet' } }),
      cause: unset('source'),
    },
    {
      rule: '7 series count at least 2',
      call: ev('vek-7', { series: { count: 1, lastObservedTime: '2024-01-02T03:04:05.000000Z' } }),
      cause: invalidValue('series.count', '""', 'should be at least 2'),
    },
    {
      rule: '8 series lastObservedTime required',
      call: ev('vek-8', { series: { count: 2 } }),
      cause: required('series.lastObservedTime'),
    },
    {
      rule: '9 a changed series is checked on update',
      setup: [ev('vek-9')],
      call: ['PATCH', `${V1}/vek-9`, { series: { count: 1, lastObservedTime: '2024-01-02T03:04:05.000000Z' } }, merge],
      cause: invalidValue('series.count', '""', 'should be at least 2'),
    },
    immutableAt(
      10,
      'involvedObject',
      { regarding: { name: 'q' } },
      'core.ObjectReference{Kind:"Pod", Namespace:"default", Name:"q", UID:"", APIVersion:"", ResourceVersion:"", FieldPath:""}',
    ),
    immutableAt(11, 'reason', { reason: 'Other' }, '"Other"'),
    immutableAt(12, 'message', { note: 'other' }, '"other"'),
    immutableAt(13, 'type', { type: 'Warning' }, '"Warning"'),
    immutableAt(14, 'eventTime', { eventTime: '2024-01-02T03:04:06.5Z' }, '2024-01-02 03:04:06.5 +0000 UTC'),
    immutableAt(15, 'action', { action: 'Other' }, '"Other"'),
    immutableAt(
      16,
      'related',
      { related: { kind: 'Node', name: 'n' } },
      'core.ObjectReference{Kind:"Node", Namespace:"", Name:"n", UID:"", APIVersion:"", ResourceVersion:"", FieldPath:""}',
    ),
    immutableAt(17, 'reportingController', { reportingController: 'example.com/other' }, '"example.com/other"'),
    immutableAt(18, 'reportingInstance', { reportingInstance: 'ctl-1' }, '"ctl-1"'),
    immutableAt(19, 'source', { deprecatedSource: { component: 'x' } }, 'core.EventSource{Component:"x", Host:""}'),
    immutableAt(
      20,
      'firstTimestamp',
      { deprecatedFirstTimestamp: '2024-01-02T03:04:05Z' },
      '2024-01-02 03:04:05 +0000 UTC',
    ),
    immutableAt(
      21,
      'lastTimestamp',
      { deprecatedLastTimestamp: '2024-01-02T03:04:05Z' },
      '2024-01-02 03:04:05 +0000 UTC',
    ),
    immutableAt(22, 'count', { deprecatedCount: 4 }, '4'),
    {
      rule: '23 core/v1’s (legacy) rules apply to every version: reportingController required with eventTime',
      call: ev('vek-23', { reportingController: '' }, V1BETA1),
      cause: required('reportingController'),
    },
  ],
  [
    // events.k8s.io/v1beta1 has no strict rules: an old-style event without eventTime is fine there.
    [
      'POST',
      V1BETA1,
      {
        metadata: { name: 'vek-ok-1' },
        regarding: { kind: 'Pod', namespace: 'default', name: 'p' },
        reason: 'R',
        deprecatedCount: 2,
      },
    ],
    ev('vek-ok-2', { type: 'Warning', series: { count: 2, lastObservedTime: '2024-01-02T03:04:05.000000Z' } }),
    [
      'PATCH',
      `${V1}/vek-ok-2`,
      { metadata: { labels: { a: 'b' } }, series: { count: 3, lastObservedTime: '2024-01-02T03:04:09.000000Z' } },
      merge,
    ],
  ],
);
