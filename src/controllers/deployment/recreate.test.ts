// Ports upstream pkg/controller/deployment/recreate_test.go: TestScaleDownOldReplicaSets and
// TestOldPodsRunning; and the Recreate rollout's order (old to 0 before the new one appears).
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../resources/pods/pods.schema.js';
import {
  FakeClient,
  newDeployment,
  newReplicaSet,
  newRSWithStatus,
  syncContext,
} from '../../../test/helpers/deployment-fixtures.js';
import { oldPodsRunning, rolloutRecreate, scaleDownOldReplicaSetsForRecreate } from './recreate.js';

const pod = (phase?: string): Pod => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: `p-${phase}` },
  status: phase ? { phase } : {},
});
const rsWithUID = (uid: string) => {
  const r = newRSWithStatus('foo', 0, 0);
  r.metadata.uid = uid;
  return r;
};

describe('scaleDownOldReplicaSetsForRecreate (upstream TestScaleDownOldReplicaSets)', () => {
  it('scales an old ReplicaSet of 3 to 0 in one update', async () => {
    const d = newDeployment('foo', 3, { selector: { foo: 'bar' } });
    const old = newReplicaSet(d, 'foo-0', 3);
    old.status = { availableReplicas: 3 };
    const client = new FakeClient();
    expect(await scaleDownOldReplicaSetsForRecreate(syncContext(client), [old], d)).toBe(true);
    expect(client.actions.map((a) => `${a.verb} ${a.resource}`)).toEqual(['update replicasets']);
    expect(client.updatedReplicaSets()[0]!.spec?.replicas).toBe(0);
  });
});

describe('oldPodsRunning (upstream TestOldPodsRunning)', () => {
  it.each([
    ['no old RSs', undefined, [], new Map(), false],
    [
      'old RSs with running pods',
      undefined,
      [rsWithUID('some-uid'), rsWithUID('other-uid')],
      new Map([
        ['some-uid', [pod('Running')]],
        ['other-uid', [pod('Running')]],
      ]),
      true,
    ],
    [
      'old RSs without pods but with non-zero status replicas',
      undefined,
      [newRSWithStatus('rs-1', 0, 1)],
      new Map(),
      true,
    ],
    ['old RSs without pods or non-zero status replicas', undefined, [newRSWithStatus('rs-1', 0, 0)], new Map(), false],
    [
      'old RSs with zero status replicas but pods in terminal state are present',
      undefined,
      [newRSWithStatus('rs-1', 0, 0)],
      new Map([['uid-1', [pod('Failed'), pod('Succeeded')]]]),
      false,
    ],
    [
      'old RSs with zero status replicas but pod in unknown phase present',
      undefined,
      [newRSWithStatus('rs-1', 0, 0)],
      new Map([['uid-1', [pod('Unknown')]]]),
      true,
    ],
    [
      'old RSs with zero status replicas with pending pod present',
      undefined,
      [newRSWithStatus('rs-1', 0, 0)],
      new Map([['uid-1', [pod('Pending')]]]),
      true,
    ],
    [
      'old RSs with zero status replicas with running pod present',
      undefined,
      [newRSWithStatus('rs-1', 0, 0)],
      new Map([['uid-1', [pod('Running')]]]),
      true,
    ],
    [
      'old RSs with zero status replicas but pods in terminal state and pending are present',
      undefined,
      [newRSWithStatus('rs-1', 0, 0)],
      new Map([['uid-1', [pod('Failed'), pod('Succeeded'), pod('Pending')]]]),
      true,
    ],
    ['pods of the new RS do not count', rsWithUID('new-uid'), [], new Map([['new-uid', [pod('Running')]]]), false],
  ])('%s', (_n, newRS, oldRSs, podMap, expected) => {
    expect(oldPodsRunning(newRS, oldRSs, podMap)).toBe(expected);
  });
});

describe('rolloutRecreate', () => {
  it('scales the old ReplicaSet down first and creates the new one only once no old pod runs', async () => {
    const d = newDeployment('foo', 2, { selector: { foo: 'bar' } });
    d.spec!.strategy = { type: 'Recreate' };
    const old = newReplicaSet(d, 'foo-old', 2);
    old.spec!.template!.spec!.containers![0]!.image = 'foo/old';
    old.status = { replicas: 2, availableReplicas: 2 };
    const client = new FakeClient();
    await rolloutRecreate(syncContext(client), d, [old], new Map([[old.metadata.uid!, [pod('Running')]]]));
    expect(client.actions.filter((a) => a.resource === 'replicasets').map((a) => a.verb)).toEqual(['update']);
    expect(client.updatedReplicaSets()[0]!.spec?.replicas).toBe(0);

    const scaledDown = { ...old, spec: { ...old.spec, replicas: 0 }, status: { replicas: 0 } };
    const next = new FakeClient();
    await rolloutRecreate(syncContext(next), d, [scaledDown], new Map([[old.metadata.uid!, [pod('Running')]]]));
    expect(next.actions.some((a) => a.verb === 'create')).toBe(false);

    const done = new FakeClient();
    await rolloutRecreate(syncContext(done), d, [scaledDown], new Map([[old.metadata.uid!, []]]));
    const created = done.actions.find((a) => a.verb === 'create');
    expect(created?.object?.spec).toMatchObject({ replicas: 2 });
  });
});
