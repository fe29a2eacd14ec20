import { describe, expect, it } from 'vitest';
import { FlowControl } from './flow-control.js';
import type { FlowSchemaView, PriorityLevelView, RequestDigest } from './types.js';

const limited = (name: string, shares: number, lendable = 0, queuing = true): PriorityLevelView => ({
  metadata: { name, uid: `uid-${name}` },
  spec: {
    type: 'Limited',
    limited: {
      nominalConcurrencyShares: shares,
      lendablePercent: lendable,
      limitResponse: queuing
        ? { type: 'Queue', queuing: { queues: 64, handSize: 6, queueLengthLimit: 50 } }
        : { type: 'Reject' },
    },
  },
});
const exempt: PriorityLevelView = {
  metadata: { name: 'exempt' },
  spec: { type: 'Exempt', exempt: { nominalConcurrencyShares: 0, lendablePercent: 0 } },
};
/** Upstream 1.33's bootstrap levels: shares and lendable percents. */
const upstreamLevels = [
  exempt,
  limited('catch-all', 5, 0, false),
  limited('system', 30, 33),
  limited('node-high', 40, 25),
  limited('leader-election', 10, 0),
  limited('workload-high', 40, 50),
  limited('workload-low', 100, 90),
  limited('global-default', 20, 50),
];
const schema = (
  name: string,
  level: string,
  precedence: number,
  group = 'system:authenticated',
  extra: Partial<FlowSchemaView['spec']> = {},
): FlowSchemaView => ({
  metadata: { name, uid: `uid-${name}` },
  spec: {
    priorityLevelConfiguration: { name: level },
    matchingPrecedence: precedence,
    distinguisherMethod: { type: 'ByUser' },
    rules: [
      {
        subjects: [{ kind: 'Group', group: { name: group } }],
        resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], clusterScope: true, namespaces: ['*'] }],
      },
    ],
    ...extra,
  },
});
const request = (name: string, groups: string[]): RequestDigest => ({
  user: { name, uid: '', groups },
  isResourceRequest: true,
  verb: 'list',
  group: '',
  resource: 'pods',
  subresource: '',
  namespace: 'default',
  name: '',
  path: '/api/v1/namespaces/default/pods',
});

describe('FlowControl', () => {
  it("gives upstream's default levels their nominal seats out of 600", () => {
    const fc = new FlowControl({ serverConcurrencyLimit: 600 });
    fc.configure(upstreamLevels, []);
    const nominal = Object.fromEntries([...fc.priorityLevels].map(([n, s]) => [n, s.nominalCL]));
    expect(nominal).toEqual({
      exempt: 0,
      'catch-all': 13,
      system: 74,
      'node-high': 98,
      'leader-election': 25,
      'workload-high': 98,
      'workload-low': 245,
      'global-default': 49,
    });
    // Lower limits: nominal minus the lendable part.
    expect(fc.priorityLevels.get('workload-low')?.minCL).toBe(245 - Math.round(245 * 0.9));
  });

  it('classifies by precedence then name, falls back to catch-all, and splits flows by user', () => {
    const fc = new FlowControl({ serverConcurrencyLimit: 600 });
    fc.configure(upstreamLevels, [
      schema('b-wide', 'global-default', 9000),
      schema('a-wide', 'workload-low', 9000),
      schema('team', 'workload-high', 500, 'team'),
    ]);
    expect(fc.classify(request('alice', ['system:authenticated'])).schema.metadata.name).toBe('a-wide');
    expect(fc.classify(request('bob', ['team', 'system:authenticated'])).level.name).toBe('workload-high');
    expect(fc.classify(request('root', ['system:masters'])).level.name).toBe('exempt');
    // Neither authenticated nor unauthenticated: no schema matches; catch-all takes it.
    expect(fc.classify(request('odd', [])).schema.metadata.name).toBe('catch-all');
    const a = fc.classify(request('alice', ['system:authenticated']));
    const c = fc.classify(request('carol', ['system:authenticated']));
    expect(a.distinguisher).toBe('alice');
    expect(a.hash).not.toBe(c.hash);
  });

  it('ignores a schema whose level does not exist and reports it Dangling; reports Found once it does', () => {
    const fc = new FlowControl({ serverConcurrencyLimit: 600 });
    const orphan = schema('orphan', 'missing', 100);
    const updates = fc.configure(upstreamLevels, [orphan]);
    expect(updates).toEqual([
      {
        schema: orphan,
        condition: {
          type: 'Dangling',
          status: 'True',
          reason: 'NotFound',
          message:
            'This FlowSchema references the PriorityLevelConfiguration object named "missing" but there is no such object',
        },
      },
    ]);
    expect(fc.flowSchemas.map((s) => s.metadata.name)).toEqual(['exempt', 'catch-all']);
    const settled = { ...orphan, status: { conditions: [{ ...updates[0].condition }] } };
    // Still dangling, and its status already says so: nothing to write.
    expect(fc.configure(upstreamLevels, [settled])).toEqual([]);
    const found = fc.configure([...upstreamLevels, limited('missing', 10)], [settled]);
    expect(found[0].condition).toMatchObject({ status: 'False', reason: 'Found' });
  });

  it('imagines the mandatory levels and schemas a configuration lacks, and skips a broken level', () => {
    const fc = new FlowControl({ serverConcurrencyLimit: 100, onBrokenLevel: () => undefined });
    const broken: PriorityLevelView = { metadata: { name: 'odd' }, spec: { type: 'Exempt', exempt: {} } };
    fc.configure([limited('only', 10), broken], [schema('mine', 'only', 50)]);
    expect([...fc.priorityLevels.keys()].sort()).toEqual(['catch-all', 'exempt', 'only']);
    expect(fc.flowSchemas.map((s) => s.metadata.name)).toEqual(['exempt', 'mine', 'catch-all']);
  });

  it('lends the seats of an idle level to a busy one', () => {
    let now = 0;
    const fc = new FlowControl({ serverConcurrencyLimit: 100, now: () => now });
    fc.configure([exempt, limited('catch-all', 5, 0, false), limited('idle', 50, 100), limited('busy', 45, 0)], []);
    const busy = fc.priorityLevels.get('busy')!;
    const before = busy.currentCL;
    // Keep the busy level asking for far more seats than it has for a whole period.
    for (let i = 0; i < 200; i++)
      busy.queues.startRequest({ initialSeats: 1, finalSeats: 0, additionalLatencyMs: 0 }, BigInt(i));
    now += 10_000;
    fc.updateBorrowing();
    now += 10_000;
    fc.updateBorrowing();
    expect(busy.currentCL).toBeGreaterThan(before);
    expect(fc.priorityLevels.get('idle')!.currentCL).toBeLessThan(fc.priorityLevels.get('idle')!.nominalCL);
  });
});
