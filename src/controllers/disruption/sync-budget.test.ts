/**
 * Upstream 1.33 pkg/controller/disruption/disruption_test.go, the cases about the budget itself
 * rather than the counts: a missing budget, the disruptedPods map and its recheck, a status write
 * that conflicts with an eviction, invalid selectors (the fail-safe status), other conditions kept.
 */
import { describe, expect, it } from 'vitest';
import type { PodDisruptionBudget } from '../../resources/poddisruptionbudgets/poddisruptionbudgets.schema.js';
import { expectedStatus, FakeDisruptionClient, newPdb, newPod, writtenStatus } from './fake-client.fixture.js';
import { syncDisruptionBudget } from './sync.js';

const NAME = 'foobar';
const sync = (c: FakeDisruptionClient, now = Date.now()) => syncDisruptionBudget(c, 'default', NAME, now);
const verify = (c: FakeDisruptionClient, ...want: Parameters<typeof expectedStatus>) =>
  expect(writtenStatus(c)).toEqual(expectedStatus(...want));

describe('disruption controller sync: the budget (upstream disruption_test.go)', () => {
  it('TestPDBNotExist: syncing a missing budget is not an error', async () => {
    const c = new FakeDisruptionClient();
    c.pdbs.push(newPdb({ minAvailable: '67%' }));
    await expect(syncDisruptionBudget(c, 'default', 'notExist')).resolves.toEqual({});
    expect(c.written.size).toBe(0);
  });

  it('TestUpdateDisruptedPods: deleted, deleting and expired entries are dropped; a recheck is asked', async () => {
    const c = new FakeDisruptionClient();
    const now = Date.parse('2026-11-28T12:00:00Z');
    const at = (ms: number) => new Date(now + ms).toISOString().replace('.000Z', 'Z');
    const pdb: PodDisruptionBudget = newPdb({ minAvailable: 1 });
    pdb.status = { disruptedPods: { p1: at(0), p2: at(-3 * 60_000), p3: at(-60_000), notthere: at(0) } };
    c.pdbs.push(pdb);
    const p1 = newPod('p1');
    p1.metadata.deletionTimestamp = at(0);
    c.pods.push(p1, newPod('p2'), newPod('p3'));
    const result = await sync(c, now);
    verify(c, 0, 1, 1, 3, { p3: at(-60_000) });
    expect(result.recheckAfterMs).toBe(60_000);
    expect(c.events.filter((e) => e.event.reason === 'NotDeleted').map((e) => e.name)).toEqual(['p2']);
  });

  it('TestUpdatePDBStatusRetries: a conflicting write does not overwrite an eviction', async () => {
    const c = new FakeDisruptionClient();
    c.checkResourceVersion = true;
    c.pdbs.push(newPdb({ minAvailable: 1 }));
    c.pods.push(newPod('moe'), newPod('larry'), newPod('curly'));
    await sync(c);
    expect(c.pdbs[0].status?.disruptionsAllowed).toBe(2);
    // (B) While the controller writes, two pods are evicted: the budget goes down to 0.
    c.beforeWrite = () => {
      const cur = c.pdbs[0];
      const disruptedPods = { larry: new Date().toISOString(), curly: new Date().toISOString() };
      const status = { ...cur.status, disruptionsAllowed: (cur.status?.disruptionsAllowed ?? 0) - 2, disruptedPods };
      c.pdbs[0] = { ...cur, metadata: { ...cur.metadata, resourceVersion: 'evicted' }, status };
      c.pods = c.pods.filter((p) => p.metadata.name === 'moe');
    };
    // (A) One pod is deleted.
    c.pods = c.pods.filter((p) => p.metadata.name !== 'moe');
    await expect(sync(c)).rejects.toMatchObject({ code: 409 });
    // (C) The stale value (1) was not written over the eviction's 0.
    expect(c.pdbs[0].status?.disruptionsAllowed).toBe(0);
  });

  it('TestInvalidSelectors: an invalid selector writes the fail-safe status', async () => {
    for (const selector of [
      { matchLabels: { 'k8s.io/too/many/slashes': 'value' } },
      { matchExpressions: [{ key: 'foo', operator: 'illegal', values: ['bar'] }] },
    ]) {
      const c = new FakeDisruptionClient();
      const pdb = newPdb({ minAvailable: 3 });
      pdb.spec = { ...pdb.spec, selector };
      c.pdbs.push(pdb);
      await sync(c);
      verify(c, 0, 0, 0, 0);
      expect(c.written.get(NAME)?.status?.conditions?.[0]?.reason).toBe('SyncFailed');
    }
  });

  it('TestKeepExistingPDBConditionDuringSync: other conditions are kept', async () => {
    const c = new FakeDisruptionClient();
    const pdb = newPdb({ minAvailable: 3 });
    pdb.spec = { ...pdb.spec, selector: {} };
    const other = { type: 'ExistingTestCondition', status: 'True', message: 'test', reason: 'Test' };
    pdb.status = { conditions: [{ ...other, lastTransitionTime: '2026-01-01T00:00:00Z' }] };
    c.pdbs.push(pdb);
    await sync(c);
    verify(c, 0, 0, 3, 0);
    const types = (c.written.get(NAME)?.status?.conditions ?? []).map((x) => x.type);
    expect(types).toEqual(['ExistingTestCondition', 'DisruptionAllowed']);
  });
});
