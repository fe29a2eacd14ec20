/**
 * Upstream 1.33 disruption_test.go TestBasicFinderFunctions and TestDeploymentFinderFunction
 * (which controllerRef each finder follows, and the scale it answers), and
 * GetScaledValueFromIntOrPercent with roundUp as the controller uses it.
 */
import { describe, expect, it } from 'vitest';
import {
  FakeDisruptionClient,
  newDeployment,
  newReplicaSet,
  newReplicationController,
  newStatefulSet,
} from './fake-client.fixture.js';
import {
  getPodDeployment,
  getPodReplicaSet,
  getPodReplicationController,
  getPodStatefulSet,
  scaledValueRoundUp,
  type PodControllerFinder,
} from './expected-pods.js';

describe('TestBasicFinderFunctions', () => {
  const c = new FakeDisruptionClient();
  const rs = newReplicaSet(10);
  const rc = newReplicationController(12);
  const ss = newStatefulSet(14);
  c.replicaSets.push(rs);
  c.replicationControllers.push(rc);
  c.statefulSets.push(ss);
  const cases: [string, PodControllerFinder, string, string, typeof rs, number | undefined][] = [
    ['replicaset controller with apps group', getPodReplicaSet, 'apps/v1', 'ReplicaSet', rs, 10],
    ['replicaset controller with invalid group', getPodReplicaSet, 'invalid/v1', 'ReplicaSet', rs, undefined],
    ['replicationcontroller with empty group', getPodReplicationController, '/v1', 'ReplicationController', rc, 12],
    [
      'replicationcontroller with invalid group',
      getPodReplicationController,
      'apps/v1',
      'ReplicationController',
      rc,
      undefined,
    ],
    ['statefulset controller with extensions group', getPodStatefulSet, 'apps/v1', 'StatefulSet', ss, 14],
    ['statefulset controller with invalid kind', getPodStatefulSet, 'apps/v1', 'ReplicaSet', ss, undefined],
  ];
  it.each(cases)('%s', async (_name, finder, apiVersion, kind, owner, scale) => {
    const ref = { apiVersion, kind, name: owner.metadata.name ?? '', uid: owner.metadata.uid ?? '' };
    const found = await finder(c, ref, 'default');
    expect(found).toEqual(scale === undefined ? undefined : { uid: owner.metadata.uid, scale });
  });

  it('a ref whose uid is not the object found (a re-created controller) finds nothing', async () => {
    const ref = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: rs.metadata.name ?? '', uid: 'other' };
    expect(await getPodReplicaSet(c, ref, 'default')).toBeUndefined();
  });
});

describe('TestDeploymentFinderFunction', () => {
  it.each([
    ['happy path', 'apps/v1', 'ReplicaSet', 'extensions/v1', 'Deployment', true],
    ['invalid rs apiVersion', 'invalid/v1', 'ReplicaSet', 'apps/v1', 'Deployment', false],
    ['invalid rs kind', 'apps/v1', 'InvalidKind', 'apps/v1', 'Deployment', false],
    ['invalid deployment apiVersion', 'extensions/v1', 'ReplicaSet', 'deployment/v1', 'Deployment', false],
    ['invalid deployment kind', 'apps/v1', 'ReplicaSet', 'extensions/v1', 'InvalidKind', false],
  ])('%s', async (_name, rsApiVersion, rsKind, depApiVersion, depKind, finds) => {
    const c = new FakeDisruptionClient();
    const dep = newDeployment(10);
    c.deployments.push(dep);
    const rs = newReplicaSet(5);
    rs.metadata.ownerReferences = [
      {
        apiVersion: depApiVersion,
        kind: depKind,
        name: dep.metadata.name ?? '',
        uid: dep.metadata.uid ?? '',
        controller: true,
      },
    ];
    c.replicaSets.push(rs);
    const ref = { apiVersion: rsApiVersion, kind: rsKind, name: rs.metadata.name ?? '', uid: rs.metadata.uid ?? '' };
    const found = await getPodDeployment(c, ref, 'default');
    expect(found).toEqual(finds ? { uid: dep.metadata.uid, scale: 10 } : undefined);
    // A ReplicaSet a Deployment controls is not counted on its own.
    if (finds) expect(await getPodReplicaSet(c, ref, 'default')).toBeUndefined();
  });
});

describe('GetScaledValueFromIntOrPercent (roundUp)', () => {
  it.each([
    [3, 10, 3],
    ['34%', 3, 2],
    ['28%', 11, 4],
    ['28%', 22, 7],
    ['30%', 7, 3],
    ['1%', 1, 1],
    ['0%', 5, 0],
  ] as const)('%s of %d is %d', (value, total, want) => {
    expect(scaledValueRoundUp(value, total)).toBe(want);
  });

  it('refuses a string that is not a percent', () => {
    expect(() => scaledValueRoundUp('3', 10)).toThrow('invalid type: string is not a percentage');
    expect(() => scaledValueRoundUp('x%', 10)).toThrow('invalid value');
  });
});
