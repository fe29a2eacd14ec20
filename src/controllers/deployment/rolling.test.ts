// Ports upstream pkg/controller/deployment/rolling_test.go (today's): TestDeploymentController_reconcileNewReplicaSet,
// _reconcileOldReplicaSets, _cleanupUnhealthyReplicas, _scaleDownOldReplicaSetsForRollingUpdate.
import { describe, expect, it } from 'vitest';
import { FakeClient, newDeployment, rs, syncContext } from '../../../test/helpers/deployment-fixtures.js';
import {
  cleanupUnhealthyReplicas,
  reconcileNewReplicaSet,
  reconcileOldReplicaSets,
  scaleDownOldReplicaSetsForRollingUpdate,
} from './rolling.js';

const T = '2016-05-20T00:00:00Z';

describe('reconcileNewReplicaSet (upstream TestDeploymentController_reconcileNewReplicaSet)', () => {
  it.each([
    ['Should not scale up', 10, 0, 10, 0, false, 0],
    ['surge 2 with 10 old', 10, 2, 10, 0, true, 2],
    ['surge 2 with 5 old', 10, 2, 5, 0, true, 7],
    ['already surged', 10, 2, 10, 2, false, 0],
    ['Should scale down', 10, 2, 2, 11, true, 10],
  ])('%s', async (_n, deploymentReplicas, surge, oldReplicas, newReplicas, scaleExpected, expectedNew) => {
    const newRS = rs('foo-v2', newReplicas, undefined, T);
    const oldRS = rs('foo-v2', oldReplicas, undefined, T);
    const d = newDeployment('foo', deploymentReplicas, { maxSurge: surge, maxUnavailable: 0 });
    const client = new FakeClient();
    const scaled = await reconcileNewReplicaSet(syncContext(client), [newRS, oldRS], newRS, d);
    expect(scaled).toBe(scaleExpected);
    if (!scaleExpected) return expect(client.actions).toEqual([]);
    expect(client.actions).toHaveLength(1);
    expect(client.updatedReplicaSets()[0]!.spec?.replicas).toBe(expectedNew);
  });
});

describe('reconcileOldReplicaSets (upstream TestDeploymentController_reconcileOldReplicaSets)', () => {
  it.each([
    ['maxUnavailable 0', 10, 0, 10, 0, 10, 0, true, 9],
    ['maxUnavailable 2', 10, 2, 10, 0, 10, 0, true, 8],
    ['expect unhealthy replicas from old replica sets been cleaned up', 10, 2, 10, 0, 8, 0, true, 8],
    [
      'expect 1 unhealthy replica from old replica sets been cleaned up, and 1 ready pod been scaled down',
      10,
      2,
      10,
      0,
      9,
      0,
      true,
      8,
    ],
    [
      'the unavailable pods from the newRS would not make us scale down old RSs in a further step',
      10,
      2,
      8,
      2,
      8,
      0,
      false,
      8,
    ],
  ])(
    '%s',
    async (_n, dReplicas, unavailable, oldReplicas, newReplicas, readyOld, readyNew, scaleExpected, expectedOld) => {
      const newRS = rs('foo-new', newReplicas, { foo: 'new' }, T);
      newRS.status = { availableReplicas: readyNew };
      const oldRS = rs('foo-old', oldReplicas, { foo: 'old' }, T);
      oldRS.status = { availableReplicas: readyOld };
      const d = newDeployment('foo', dReplicas, { maxSurge: 0, maxUnavailable: unavailable, selector: { foo: 'new' } });
      const client = new FakeClient();
      const scaled = await reconcileOldReplicaSets(syncContext(client), [oldRS, newRS], [oldRS], newRS, d);
      expect(scaled).toBe(scaleExpected);
      const updates = client.updatedReplicaSets();
      expect(updates.length ? updates.at(-1)!.spec?.replicas : oldReplicas).toBe(expectedOld);
    },
  );
});

describe('cleanupUnhealthyReplicas (upstream TestDeploymentController_cleanupUnhealthyReplicas)', () => {
  it.each([
    [10, 8, 1, 1],
    [10, 8, 3, 2],
    [10, 8, 0, 0],
    [10, 10, 3, 0],
  ])('old %d, ready %d, max cleanup %d: cleans %d', async (oldReplicas, readyPods, maxCleanup, expected) => {
    const oldRS = rs('foo-v2', oldReplicas, undefined, T);
    oldRS.status = { availableReplicas: readyPods };
    const d = newDeployment('foo', 10, { maxSurge: 2, maxUnavailable: 2 });
    const client = new FakeClient();
    const { count } = await cleanupUnhealthyReplicas(syncContext(client), [oldRS], d, maxCleanup);
    expect(count).toBe(expected);
    if (expected) expect(client.updatedReplicaSets()[0]!.spec?.replicas).toBe(oldReplicas - expected);
  });
});

describe('scaleDownOldReplicaSetsForRollingUpdate (upstream TestDeploymentController_scaleDownOldReplicaSetsForRollingUpdate)', () => {
  it.each([
    [10, 0, 10, 10, true, 9],
    [10, 2, 10, 10, true, 8],
    [10, 2, 8, 10, false, 0],
    [10, 2, 10, 0, false, 0],
    [10, 2, 1, 10, false, 0],
  ])(
    'replicas %d maxUnavailable %d ready %d old %d',
    async (dReplicas, unavailable, ready, oldReplicas, scaleExpected, expectedOld) => {
      const oldRS = rs('foo-v2', oldReplicas, undefined, T);
      oldRS.status = { availableReplicas: ready };
      const d = newDeployment('foo', dReplicas, { maxSurge: 0, maxUnavailable: unavailable, selector: { foo: 'bar' } });
      const client = new FakeClient();
      const scaled = await scaleDownOldReplicaSetsForRollingUpdate(syncContext(client), [oldRS], [oldRS], d);
      if (!scaleExpected) return expect(scaled).toBe(0);
      expect(scaled).toBeGreaterThan(0);
      expect(client.updatedReplicaSets()).toHaveLength(1);
      expect(client.updatedReplicaSets()[0]!.spec?.replicas).toBe(expectedOld);
    },
  );
});
