/**
 * One case per rule of docs/validation/priorityclasses.md (PriorityClass, scheduling.k8s.io/v1),
 * the global-default admission check, the defaults and the system classes created at start.
 */
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../helpers/in-process.js';
import {
  forbidden,
  immutable,
  merge,
  required,
  unsupported,
  validationSuite,
  type Call,
} from '../helpers/validation-cases.js';

const srv = useTestServer();
const PCS = '/apis/scheduling.k8s.io/v1/priorityclasses';
const pc = (name: string, fields: object = {}): Call => ['POST', PCS, { metadata: { name }, value: 10, ...fields }];
const reserved = (why: string) =>
  forbidden(
    'metadata.name',
    `priority class names with 'system-' prefix are reserved for system use only. error: ${why}`,
  );

validationSuite(
  'PriorityClass validation (one case per rule)',
  () => srv,
  [
    {
      rule: '1 system- names reserved for the system classes',
      call: pc('system-mine'),
      cause: reserved('system-mine is not a known system priority class'),
    },
    {
      rule: '2 a system class has its value',
      call: pc('system-node-critical', { value: 5 }),
      cause: reserved('value of system-node-critical PriorityClass must be 2000001000'),
    },
    {
      rule: '3 a system class is not the global default',
      call: pc('system-cluster-critical', { value: 2000000000, globalDefault: true }),
      cause: reserved('globalDefault of system-cluster-critical PriorityClass must be false'),
    },
    {
      rule: '4 user classes at most 1000000000',
      call: pc('vpc-4', { value: 1000000001 }),
      cause: forbidden('value', 'maximum allowed value of a user defined priority is 1000000000'),
    },
    {
      rule: '5 preemptionPolicy supported',
      call: pc('vpc-5', { preemptionPolicy: 'Sometimes' }),
      cause: unsupported('preemptionPolicy', 'Sometimes', ['PreemptLowerPriority', 'Never']),
    },
    {
      rule: '6 preemptionPolicy not empty',
      call: pc('vpc-6', { preemptionPolicy: '' }),
      cause: required('preemptionPolicy'),
    },
    {
      rule: '7 value immutable',
      setup: [pc('vpc-7')],
      call: ['PATCH', `${PCS}/vpc-7`, { value: 11 }, merge],
      cause: forbidden('value', 'may not be changed in an update.'),
    },
    {
      rule: '8 preemptionPolicy immutable',
      setup: [pc('vpc-8')],
      call: ['PATCH', `${PCS}/vpc-8`, { preemptionPolicy: 'Never' }, merge],
      cause: immutable('preemptionPolicy', '"Never"'),
    },
  ],
  [pc('vpc-ok-1', { value: 1000000000, preemptionPolicy: 'Never', description: 'd' }), pc('vpc-ok-2', { value: -5 })],
);

describe('PriorityClass defaults, admission and system classes', () => {
  it('defaults preemptionPolicy and value, sets generation 1, and keeps it on updates', async () => {
    const created = await srv.api('POST', PCS, { metadata: { name: 'vpc-defaults' } });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({
      value: 0,
      preemptionPolicy: 'PreemptLowerPriority',
      metadata: { generation: 1 },
    });
    const patched = await srv.api('PATCH', `${PCS}/vpc-defaults`, { description: 'changed' }, merge);
    expect(patched.body).toMatchObject({ description: 'changed', metadata: { generation: 1 } });
  });

  it('allows one global default (403 for a second, as upstream’s Priority admission)', async () => {
    expect((await srv.api(...pc('vpc-default', { globalDefault: true }))).status).toBe(201);
    const second = await srv.api(...pc('vpc-second', { globalDefault: true }));
    expect(second.status).toBe(403);
    expect(second.body.message).toBe(
      'priorityclasses.scheduling.k8s.io "vpc-second" is forbidden: PriorityClass vpc-default is already marked as default. Only one default can exist',
    );
    expect((await srv.api(...pc('vpc-second'))).status).toBe(201);
    const marked = await srv.api('PATCH', `${PCS}/vpc-second`, { globalDefault: true }, merge);
    expect(marked.status).toBe(403);
    const again = await srv.api('PATCH', `${PCS}/vpc-default`, { globalDefault: true, description: 'd' }, merge);
    expect(again.status, again.text).toBe(200);
    expect((await srv.api('DELETE', `${PCS}/vpc-default`)).status).toBe(200);
  });

  it('serves the system classes from the start, and kubectl get columns', async () => {
    const node = await srv.api('GET', `${PCS}/system-node-critical`);
    expect(node.body).toMatchObject({
      value: 2000001000,
      preemptionPolicy: 'PreemptLowerPriority',
      description: 'Used for system critical pods that must not be moved from their current node.',
    });
    const cluster = await srv.api('GET', `${PCS}/system-cluster-critical`);
    expect(cluster.body).toMatchObject({ value: 2000000000 });
    const table = await srv.api('GET', `${PCS}/system-cluster-critical`, undefined, {
      accept: 'application/json;as=Table;v=v1;g=meta.k8s.io',
    });
    expect(table.body.columnDefinitions.map((c: { name: string }) => c.name)).toEqual([
      'Name',
      'Value',
      'Global-Default',
      'Age',
      'PreemptionPolicy',
    ]);
    expect(table.body.rows[0].cells).toEqual([
      'system-cluster-critical',
      2000000000,
      false,
      expect.any(String),
      'PreemptLowerPriority',
    ]);
  });
});
