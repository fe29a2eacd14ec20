// Ports upstream deployment/util/deployment_util_test.go: TestDeploymentComplete,
// TestDeploymentProgressing, TestDeploymentTimedOut.
import { describe, expect, it } from 'vitest';
import { currentDeployment } from '../../../test/helpers/deployment-fixtures.js';
import { deploymentComplete, deploymentProgressing, deploymentTimedOut } from './conditions.js';

const MAX_INT32 = 2147483647;

describe('DeploymentComplete / DeploymentProgressing / DeploymentTimedOut (upstream deployment_util_test.go)', () => {
  const dep = (desired: number, current: number, updated: number, available: number, maxSurge = 1) => {
    const d = currentDeployment(60, desired, current, updated, available);
    d.spec!.strategy = { type: 'RollingUpdate', rollingUpdate: { maxSurge, maxUnavailable: 0 } };
    return d;
  };
  it.each([
    ['not complete: min but not all pods become available', dep(5, 5, 5, 4), false],
    ['not complete: min availability is not honored', dep(5, 5, 5, 3), false],
    ['complete', dep(5, 5, 5, 5), true],
    ['not complete: all pods are available but not updated', dep(5, 5, 4, 5), false],
    ['not complete: still running old pods', dep(1, 2, 1, 1), false],
    ['not complete: one replica deployment never comes up', dep(1, 1, 1, 0), false],
  ])('%s', (_n, d, expected) => {
    expect(deploymentComplete(d, d.status!)).toBe(expected);
  });

  it.each([
    ['progressing: updated pods', [1, 1, 0, 0], [1, 1, 1, 0], true],
    ['not progressing', [1, 1, 1, 1], [1, 1, 1, 1], false],
    ['progressing: old pods removed', [4, 4, 2, 2], [4, 3, 2, 2], true],
    ['not progressing: less new pods', [4, 4, 2, 2], [4, 3, 1, 2], false],
    ['progressing: less overall but more new pods', [4, 4, 2, 2], [4, 3, 3, 2], true],
    ['progressing: more ready pods', [4, 4, 4, 3], [4, 4, 4, 4], true],
    ['progressing: more available pods', [4, 4, 4, 3], [4, 4, 4, 3, 4], true],
  ])('%s', (_n, before, after, expected) => {
    const d = currentDeployment(60, 4, before[1]!, before[2]!, before[3]!);
    d.status!.readyReplicas = before[3];
    const s = {
      replicas: after[1],
      updatedReplicas: after[2],
      readyReplicas: after[3],
      availableReplicas: after[4] ?? after[3],
    };
    expect(deploymentProgressing(d, s)).toBe(expected);
  });

  it.each([
    [
      'nil progressDeadlineSeconds specified - no timeout',
      undefined,
      '2017-02-15T18:49:00Z',
      '2017-02-15T18:48:00Z',
      false,
    ],
    [
      'infinite progressDeadlineSeconds specified - no timeout',
      MAX_INT32,
      '2017-02-15T18:49:00Z',
      '2017-02-15T18:48:00Z',
      false,
    ],
    [
      'progressDeadlineSeconds: 60s, now - started => 00:01:00 => 60s - no timeout',
      60,
      '2017-02-15T18:49:00Z',
      '2017-02-15T18:48:00Z',
      false,
    ],
    [
      'progressDeadlineSeconds: 60s, now - started => 00:01:01 => 61s - timeout',
      60,
      '2017-02-15T18:49:01Z',
      '2017-02-15T18:48:00Z',
      true,
    ],
    [
      'progressDeadlineSeconds: 60s, now - started => 00:00:59 => 59s - no timeout',
      60,
      '2017-02-15T18:48:59Z',
      '2017-02-15T18:48:00Z',
      false,
    ],
  ])('%s', (_n, pds, now, lastUpdate, expected) => {
    const d = currentDeployment(pds, 1, 1, 1, 0, [
      { type: 'Progressing', status: 'True', reason: 'ReplicaSetUpdated', lastUpdateTime: lastUpdate },
    ]);
    expect(deploymentTimedOut(d, d.status!, new Date(now))).toBe(expected);
  });
});
