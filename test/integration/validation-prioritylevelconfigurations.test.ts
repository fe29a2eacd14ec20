/**
 * One case per rule of docs/validation/prioritylevelconfigurations.md
 * (PriorityLevelConfiguration, flowcontrol.apiserver.k8s.io/v1).
 */
import { beforeAll, expect, vi } from 'vitest';
import { useTestServer } from '../helpers/in-process.js';
import {
  duplicate,
  forbidden,
  invalidValue,
  required,
  unsupported,
  validationSuite,
  type Call,
} from '../helpers/validation-cases.js';

const srv = useTestServer();
const PL = '/apis/flowcontrol.apiserver.k8s.io/v1/prioritylevelconfigurations';
const REJECT = { limitResponse: { type: 'Reject' } };

const level = (name: string, spec: object): Call => ['POST', PL, { metadata: { name }, spec }];
const limited = (name: string, over: object): Call => level(name, { type: 'Limited', limited: { ...REJECT, ...over } });
const queued = (name: string, queuing: object): Call => limited(name, { limitResponse: { type: 'Queue', queuing } });
const status = (name: string, conditions: object[]): Call => [
  'PUT',
  `${PL}/${name}/status`,
  { metadata: { name }, spec: { type: 'Limited', limited: REJECT }, status: { conditions } },
];
const QUEUING = 'spec.limited.limitResponse.queuing';

/** Specs of the mandatory levels other than the fixed ones, every default given (as the server prints them back). */
const EXEMPT_CHANGED = {
  type: 'Exempt',
  exempt: { nominalConcurrencyShares: 0, lendablePercent: 0 },
  limited: { nominalConcurrencyShares: 30, limitResponse: { type: 'Reject' }, lendablePercent: 0 },
};
const CATCH_ALL_CHANGED = {
  type: 'Limited',
  limited: { nominalConcurrencyShares: 50, limitResponse: { type: 'Reject' }, lendablePercent: 0 },
};

// The accepted tuning of `exempt` updates the mandatory level the server creates at start.
beforeAll(async () => {
  await vi.waitFor(async () => expect((await srv.api('GET', `${PL}/exempt`)).status).toBe(200), { timeout: 20_000 });
});

validationSuite(
  'PriorityLevelConfiguration validation (one case per rule)',
  () => srv,
  [
    {
      rule: "1 type Exempt if and only if the name is 'exempt'",
      call: level('pl1', { type: 'Exempt' }),
      cause: invalidValue('spec.type', '"Exempt"', "type must be 'Exempt' if and only if name is 'exempt'"),
    },
    {
      rule: '2 type Exempt or Limited',
      call: level('pl2', { type: 'Sometimes' }),
      cause: unsupported('spec.type', 'Sometimes', ['Exempt', 'Limited']),
    },
    {
      rule: '3 no limited for type Exempt',
      call: level('exempt', { type: 'Exempt', limited: REJECT }),
      cause: forbidden('spec.limited', 'must be nil if the type is not Limited'),
    },
    {
      rule: '4 no exempt for type Limited',
      call: level('pl4', { type: 'Limited', limited: REJECT, exempt: {} }),
      cause: forbidden('spec.exempt', 'must be nil if the type is Limited'),
    },
    {
      rule: '5 limited required for type Limited',
      call: level('pl5', { type: 'Limited' }),
      cause: required('spec.limited', 'must not be empty when type is Limited'),
    },
    {
      rule: '6 exempt nominalConcurrencyShares not negative',
      call: level('exempt', { type: 'Exempt', exempt: { nominalConcurrencyShares: -1 } }),
      cause: invalidValue('spec.exempt.nominalConcurrencyShares', '-1', 'must be a non-negative integer'),
    },
    {
      rule: '7 exempt lendablePercent 0 to 100',
      call: level('exempt', { type: 'Exempt', exempt: { lendablePercent: 101 } }),
      cause: invalidValue('spec.exempt.lendablePercent', '101', 'must be between 0 and 100, inclusive'),
    },
    {
      rule: '8 limited nominalConcurrencyShares not negative',
      call: limited('pl8', { nominalConcurrencyShares: -1 }),
      cause: invalidValue('spec.limited.nominalConcurrencyShares', '-1', 'must be a non-negative integer'),
    },
    {
      rule: '9 limited lendablePercent 0 to 100',
      call: limited('pl9', { lendablePercent: -1 }),
      cause: invalidValue('spec.limited.lendablePercent', '-1', 'must be between 0 and 100, inclusive'),
    },
    {
      rule: '10 borrowingLimitPercent not negative',
      call: limited('pl10', { borrowingLimitPercent: -1 }),
      cause: invalidValue('spec.limited.borrowingLimitPercent', '-1', 'if specified, must be a non-negative integer'),
    },
    {
      rule: '11 limitResponse type Queue or Reject',
      call: limited('pl11', { limitResponse: { type: 'Drop' } }),
      cause: unsupported('spec.limited.limitResponse.type', 'Drop', ['Queue', 'Reject']),
    },
    {
      rule: '12 no queuing for Reject',
      call: limited('pl12', { limitResponse: { type: 'Reject', queuing: {} } }),
      cause: forbidden(QUEUING, 'must be nil if limited.limitResponse.type is not Limited'),
    },
    {
      rule: '13 queuing required for Queue',
      call: limited('pl13', { limitResponse: { type: 'Queue' } }),
      cause: required(QUEUING, 'must not be empty if limited.limitResponse.type is Limited'),
    },
    {
      rule: '14 queueLengthLimit positive',
      call: queued('pl14', { queueLengthLimit: -1 }),
      cause: invalidValue(`${QUEUING}.queueLengthLimit`, '-1', 'must be positive'),
    },
    {
      rule: '15 queues positive',
      call: queued('pl15', { queues: -1 }),
      cause: invalidValue(`${QUEUING}.queues`, '-1', 'must be positive'),
    },
    {
      rule: '16 queues at most 10^7',
      call: queued('pl16', { queues: 10_000_001, handSize: 1 }),
      cause: invalidValue(`${QUEUING}.queues`, '10000001', 'must not be greater than 10000000'),
    },
    {
      rule: '17 handSize positive',
      call: queued('pl17', { handSize: -1 }),
      cause: invalidValue(`${QUEUING}.handSize`, '-1', 'must be positive'),
    },
    {
      rule: '18 handSize at most queues',
      call: queued('pl18', { queues: 4, handSize: 5 }),
      cause: invalidValue(`${QUEUING}.handSize`, '5', 'should not be greater than queues (4)'),
    },
    {
      rule: '19 shuffle sharding needs at most 60 bits of entropy',
      call: queued('pl19', { queues: 128, handSize: 9 }),
      cause: invalidValue(
        `${QUEUING}.handSize`,
        '9',
        'required entropy bits of deckSize 128 and handSize 9 should not be greater than 60',
      ),
    },
    {
      rule: "20 exempt keeps its fixed spec but for 'spec.exempt'",
      call: level('exempt', EXEMPT_CHANGED),
      cause: invalidValue(
        'spec',
        JSON.stringify(EXEMPT_CHANGED),
        "spec of 'exempt' except the 'spec.exempt' field must equal the fixed value",
      ),
    },
    {
      rule: '21 catch-all keeps its fixed spec',
      call: level('catch-all', CATCH_ALL_CHANGED),
      cause: invalidValue('spec', JSON.stringify(CATCH_ALL_CHANGED), "spec of 'catch-all' must equal the fixed value"),
    },
    {
      rule: '22 status condition type required',
      setup: [limited('pl22', {})],
      call: status('pl22', [{ type: '', status: 'True' }]),
      cause: required('status.conditions[0].type', 'must not be empty'),
    },
    {
      rule: '23 status condition types unique',
      setup: [limited('pl23', {})],
      call: status('pl23', [
        { type: 'ConcurrencyShared', status: 'True' },
        { type: 'ConcurrencyShared', status: 'False' },
      ]),
      cause: duplicate('status.conditions[1].type', 'Duplicate value: "ConcurrencyShared"'),
    },
    {
      rule: '24 the same rules on update',
      setup: [limited('pl24', {})],
      call: [
        'PUT',
        `${PL}/pl24`,
        { metadata: { name: 'pl24' }, spec: { type: 'Limited', limited: { lendablePercent: 200, ...REJECT } } },
      ],
      cause: invalidValue('spec.limited.lendablePercent', '200', 'must be between 0 and 100, inclusive'),
    },
  ],
  [
    // A Limited level may hold no shares (1.32+), lend all, borrow without limit or up to any percentage.
    limited('ok-jail', { nominalConcurrencyShares: 0, lendablePercent: 100, borrowingLimitPercent: 500 }),
    queued('ok-bounds', { queues: 1, handSize: 1, queueLengthLimit: 1 }),
    queued('ok-entropy', { queues: 1024, handSize: 6 }),
    // An operator may tune the exempt level's `spec.exempt`.
    [
      'PUT',
      `${PL}/exempt`,
      {
        metadata: { name: 'exempt' },
        spec: { type: 'Exempt', exempt: { nominalConcurrencyShares: 10, lendablePercent: 50 } },
      },
    ],
  ],
);
