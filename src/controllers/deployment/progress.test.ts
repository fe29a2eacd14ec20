// Ports upstream pkg/controller/deployment/progress_test.go (TestRequeueStuckDeployment,
// TestSyncRolloutStatus).
import { describe, expect, it } from 'vitest';
import { currentDeployment, FakeClient, syncContext } from '../../../test/helpers/deployment-fixtures.js';
import { requeueStuckDeployment, syncRolloutStatus } from './progress.js';
import type { Deployment, DeploymentCondition, ReplicaSet } from './types.js';

const MAX_INT32 = 2147483647;
const TEST_TIME = '2017-02-15T18:49:00Z';

const status = (replicas: number, updated: number, available: number) => ({
  replicas,
  updatedReplicas: updated,
  availableReplicas: available,
});

describe('requeueStuckDeployment (upstream TestRequeueStuckDeployment)', () => {
  const failed = [{ type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded' }];
  const stuck = [{ type: 'Progressing', status: 'True', lastUpdateTime: TEST_TIME }];
  const at = (s: string) => new Date(s);
  it.each([
    ['nil progressDeadlineSeconds specified', currentDeployment(undefined, 4, 3, 3, 2), status(3, 3, 2), undefined, -1],
    [
      'infinite progressDeadlineSeconds specified',
      currentDeployment(MAX_INT32, 4, 3, 3, 2),
      status(3, 3, 2),
      undefined,
      -1,
    ],
    ['no progressing condition found', currentDeployment(60, 4, 3, 3, 2), status(3, 3, 2), undefined, -1],
    [
      'complete deployment does not need to be requeued',
      currentDeployment(60, 3, 3, 3, 3),
      status(3, 3, 3),
      undefined,
      -1,
    ],
    [
      'already failed deployment does not need to be requeued',
      currentDeployment(60, 3, 3, 3, 0, failed),
      status(3, 3, 0),
      undefined,
      -1,
    ],
    [
      'stuck deployment - 30s',
      currentDeployment(60, 3, 3, 3, 1, stuck),
      status(3, 3, 1),
      at('2017-02-15T18:49:30Z'),
      30_000,
    ],
    [
      'stuck deployment - 1s',
      currentDeployment(60, 3, 3, 3, 1, stuck),
      status(3, 3, 1),
      at('2017-02-15T18:49:59Z'),
      1_000,
    ],
    [
      'failed deployment - less than a second => now',
      currentDeployment(60, 3, 3, 3, 1, stuck),
      status(3, 3, 1),
      at('2017-02-15T18:49:59.500Z'),
      0,
    ],
    [
      'failed deployment - now',
      currentDeployment(60, 3, 3, 3, 1, stuck),
      status(3, 3, 1),
      at('2017-02-15T18:50:00Z'),
      0,
    ],
    [
      'failed deployment - 1s after deadline',
      currentDeployment(60, 3, 3, 3, 1, stuck),
      status(3, 3, 1),
      at('2017-02-15T18:50:01Z'),
      0,
    ],
    [
      'failed deployment - 60s after deadline',
      currentDeployment(60, 3, 3, 3, 1, stuck),
      status(3, 3, 1),
      at('2017-02-15T18:51:00Z'),
      0,
    ],
  ] as const)('%s', (_n, d, s, now, expected) => {
    const ctx = syncContext(new FakeClient(), now ?? new Date());
    expect(requeueStuckDeployment(ctx, d, s)).toBe(expected);
    expect(ctx.requeues).toEqual(expected < 0 ? [] : [expected === 0 ? 0 : expected + 1000]);
  });
});

/** Upstream newRSWithAvailable. */
function rsWithAvailable(name: string, spec: number, replicas: number, available: number): ReplicaSet {
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name, namespace: 'default' },
    spec: { replicas: spec },
    status: { replicas, availableReplicas: available },
  };
}

describe('syncRolloutStatus (upstream TestSyncRolloutStatus)', () => {
  const cond = (status: string, reason: string): DeploymentCondition => ({
    type: 'Progressing',
    status,
    reason,
    lastUpdateTime: TEST_TIME,
    lastTransitionTime: TEST_TIME,
  });
  const replicaSetUpdated = cond('True', 'ReplicaSetUpdated');
  const newRSAvailable = cond('True', 'NewReplicaSetAvailable');
  const failedTimedOut = cond('False', 'ProgressDeadlineExceeded');
  const falseCond = cond('False', '');
  const now = new Date('2017-02-15T19:00:00Z');
  const NOW = '2017-02-15T19:00:00Z';
  it.each([
    [
      'General: remove Progressing condition and do not estimate progress if deployment has no Progress Deadline',
      currentDeployment(undefined, 3, 2, 2, 2, [replicaSetUpdated]),
      [rsWithAvailable('bar', 0, 1, 1)],
      rsWithAvailable('foo', 3, 2, 2),
      undefined,
    ],
    [
      'General: do not estimate progress of deployment with only one active ReplicaSet',
      currentDeployment(60, 3, 3, 3, 3, [newRSAvailable]),
      [rsWithAvailable('bar', 3, 3, 3)],
      undefined,
      { ...newRSAvailable },
    ],
    [
      'DeploymentProgressing: dont update lastTransitionTime if deployment already has Progressing=True',
      currentDeployment(60, 3, 2, 2, 2, [replicaSetUpdated]),
      [rsWithAvailable('bar', 0, 1, 1)],
      rsWithAvailable('foo', 3, 2, 2),
      {
        status: 'True',
        reason: 'ReplicaSetUpdated',
        lastTransitionTime: TEST_TIME,
        lastUpdateTime: NOW,
        message: 'ReplicaSet "foo" is progressing.',
      },
    ],
    [
      'DeploymentProgressing: update everything if deployment has Progressing=False',
      currentDeployment(60, 3, 2, 2, 2, [falseCond]),
      [rsWithAvailable('bar', 0, 1, 1)],
      rsWithAvailable('foo', 3, 2, 2),
      { status: 'True', reason: 'ReplicaSetUpdated', lastTransitionTime: NOW, lastUpdateTime: NOW },
    ],
    [
      'DeploymentProgressing: create Progressing condition if it does not exist',
      currentDeployment(60, 3, 2, 2, 2),
      [rsWithAvailable('bar', 0, 1, 1)],
      rsWithAvailable('foo', 3, 2, 2),
      { status: 'True', reason: 'ReplicaSetUpdated', lastTransitionTime: NOW },
    ],
    [
      'DeploymentComplete: dont update lastTransitionTime if deployment already has Progressing=True',
      currentDeployment(60, 3, 2, 2, 2, [replicaSetUpdated]),
      [],
      rsWithAvailable('foo', 3, 3, 3),
      {
        status: 'True',
        reason: 'NewReplicaSetAvailable',
        lastTransitionTime: TEST_TIME,
        message: 'ReplicaSet "foo" has successfully progressed.',
      },
    ],
    [
      'DeploymentComplete: update everything if deployment has Progressing=False',
      currentDeployment(60, 3, 2, 2, 2, [falseCond]),
      [],
      rsWithAvailable('foo', 3, 3, 3),
      { status: 'True', reason: 'NewReplicaSetAvailable', lastTransitionTime: NOW },
    ],
    [
      'DeploymentComplete: create Progressing condition if it does not exist',
      currentDeployment(60, 3, 2, 2, 2),
      [],
      rsWithAvailable('foo', 3, 3, 3),
      { status: 'True', reason: 'NewReplicaSetAvailable', lastTransitionTime: NOW },
    ],
    [
      'DeploymentTimedOut: update status if rollout exceeds Progress Deadline',
      currentDeployment(60, 3, 2, 2, 2, [replicaSetUpdated]),
      [],
      rsWithAvailable('foo', 3, 2, 2),
      {
        status: 'False',
        reason: 'ProgressDeadlineExceeded',
        lastTransitionTime: NOW,
        message: 'ReplicaSet "foo" has timed out progressing.',
      },
    ],
    [
      'DeploymentTimedOut: do not update status if deployment has existing timedOut condition',
      currentDeployment(60, 3, 2, 2, 2, [failedTimedOut]),
      [],
      rsWithAvailable('foo', 3, 2, 2),
      { ...failedTimedOut },
    ],
  ] as const)('%s', async (_n, d, allRSs, newRS, expected) => {
    const client = new FakeClient();
    await syncRolloutStatus(syncContext(client, now), [...allRSs, newRS], newRS, structuredClone(d) as Deployment);
    const written = client.actions.find((a) => a.resource === 'deployments/status')?.object as Deployment | undefined;
    const progressing = (written ?? d).status?.conditions?.find((c) => c.type === 'Progressing');
    if (!expected) return expect(progressing).toBeUndefined();
    expect(progressing).toMatchObject(expected);
  });

  it('sets Available from minimum availability and copies a ReplicaFailure of the new ReplicaSet', async () => {
    const client = new FakeClient();
    const d = currentDeployment(60, 3, 0, 0, 0);
    const newRS = rsWithAvailable('foo', 3, 1, 1);
    newRS.status!.conditions = [
      {
        type: 'ReplicaFailure',
        status: 'True',
        reason: 'FailedCreate',
        message: 'quota',
        lastTransitionTime: TEST_TIME,
      },
    ];
    await syncRolloutStatus(syncContext(client, now), [newRS], newRS, d);
    const written = client.actions[0]!.object as Deployment;
    expect(written.status).toMatchObject({
      replicas: 1,
      updatedReplicas: 1,
      availableReplicas: 1,
      unavailableReplicas: 2,
    });
    const byType = Object.fromEntries((written.status?.conditions ?? []).map((c) => [c.type, c]));
    expect(byType.Available).toMatchObject({
      status: 'False',
      reason: 'MinimumReplicasUnavailable',
      message: 'Deployment does not have minimum availability.',
    });
    expect(byType.ReplicaFailure).toMatchObject({ status: 'True', reason: 'FailedCreate', lastUpdateTime: TEST_TIME });
  });
});
