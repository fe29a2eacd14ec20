/**
 * FlowSchema and PriorityLevelConfiguration as clients see them beyond validation: discovery
 * (v1 only, cluster-scoped, `/status`, no short names), the v1 defaults (precedence 1000; shares
 * 30 unless 0 is given; queuing 64/8/50; lendablePercent 0) and generation semantics (a spec
 * change bumps it, a label or status write or a spec equal as Go compares it does not).
 */
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../helpers/in-process.js';

const srv = useTestServer();
const FC = '/apis/flowcontrol.apiserver.k8s.io/v1';
const MERGE = { 'content-type': 'application/merge-patch+json' };
const RULE = {
  subjects: [{ kind: 'User', user: { name: 'u' } }],
  nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/x'] }],
};

describe('discovery', () => {
  it('serves flowcontrol.apiserver.k8s.io v1 only, both kinds cluster-scoped with /status and no short names', async () => {
    const group = (await srv.api('GET', '/apis/flowcontrol.apiserver.k8s.io')).body;
    expect(group.versions).toEqual([{ groupVersion: 'flowcontrol.apiserver.k8s.io/v1', version: 'v1' }]);
    const resources = (await srv.api('GET', FC)).body.resources as any[];
    expect(resources.map((r) => [r.name, r.kind, r.namespaced, r.shortNames ?? []])).toEqual([
      ['flowschemas', 'FlowSchema', false, []],
      ['flowschemas/status', 'FlowSchema', false, []],
      ['prioritylevelconfigurations', 'PriorityLevelConfiguration', false, []],
      ['prioritylevelconfigurations/status', 'PriorityLevelConfiguration', false, []],
    ]);
    expect((await srv.api('GET', '/apis/flowcontrol.apiserver.k8s.io/v1beta3')).status).toBe(404);
  });
});

describe('v1 defaults', () => {
  it('gives a FlowSchema precedence 1000 when it names none or 0', async () => {
    for (const [name, spec] of [
      ['fs-none', {}],
      ['fs-zero', { matchingPrecedence: 0 }],
    ] as const) {
      const res = await srv.api('POST', `${FC}/flowschemas`, {
        metadata: { name },
        spec: { priorityLevelConfiguration: { name: 'global-default' }, rules: [RULE], ...spec },
      });
      expect(res.status, res.text).toBe(201);
      expect(res.body.spec.matchingPrecedence).toBe(1000);
    }
  });

  it('gives a Limited level 30 shares when it names none, keeps 0, and fills queuing and lendablePercent', async () => {
    const make = async (name: string, limited: object) =>
      (
        await srv.api('POST', `${FC}/prioritylevelconfigurations`, {
          metadata: { name },
          spec: { type: 'Limited', limited },
        })
      ).body.spec.limited;
    expect(await make('pl-none', { limitResponse: { type: 'Queue', queuing: { queues: 0 } } })).toEqual({
      nominalConcurrencyShares: 30,
      lendablePercent: 0,
      limitResponse: { type: 'Queue', queuing: { queues: 64, handSize: 8, queueLengthLimit: 50 } },
    });
    expect(await make('pl-jail', { nominalConcurrencyShares: 0, limitResponse: { type: 'Reject' } })).toEqual({
      nominalConcurrencyShares: 0,
      lendablePercent: 0,
      limitResponse: { type: 'Reject' },
    });
  });
});

describe('generation', () => {
  it('counts spec changes only, compared as Go compares the decoded specs', async () => {
    const path = `${FC}/flowschemas/fs-gen`;
    const spec = { priorityLevelConfiguration: { name: 'global-default' }, matchingPrecedence: 500, rules: [RULE] };
    const created = await srv.api('POST', `${FC}/flowschemas`, { metadata: { name: 'fs-gen' }, spec });
    expect(created.body.metadata.generation).toBe(1);
    const labelled = await srv.api('PATCH', path, { metadata: { labels: { a: 'b' } } }, MERGE);
    expect(labelled.body.metadata.generation).toBe(1);
    // Explicit zero values where Go holds no pointer are no change.
    const same = await srv.api(
      'PATCH',
      path,
      { spec: { distinguisherMethod: null, rules: [{ ...RULE, resourceRules: [] }] } },
      MERGE,
    );
    expect(same.status, same.text).toBe(200);
    expect(same.body.metadata.generation).toBe(1);
    const status = await srv.api(
      'PATCH',
      `${path}/status`,
      { status: { conditions: [{ type: 'Example', status: 'True' }] } },
      MERGE,
    );
    expect(status.body.metadata.generation).toBe(1);
    const changed = await srv.api('PATCH', path, { spec: { matchingPrecedence: 600 } }, MERGE);
    expect(changed.body.metadata.generation).toBe(2);
    // The main resource keeps the status it does not write.
    expect(changed.body.status.conditions).toContainEqual({ type: 'Example', status: 'True' });
  });
});
