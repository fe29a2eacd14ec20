// Ports upstream pkg/controller/deployment/sync_test.go: TestScale (proportional scaling) and
// TestDeploymentController_cleanupDeployment.
import { describe, expect, it } from 'vitest';
import {
  FakeClient,
  newDeployment,
  newRSWithStatus,
  rs,
  syncContext,
} from '../../../test/helpers/deployment-fixtures.js';
import { maxSurge } from './replicas.js';
import { setReplicasAnnotations } from './revisions.js';
import { cleanupDeployment, scale } from './sync.js';
import type { Deployment, ReplicaSet } from './types.js';

const NEW = '2016-05-20T02:00:00Z';
const OLD = '2016-05-20T01:00:00Z';
const OLDER = '2016-05-20T00:00:00Z';

const updatedTemplate = (replicas: number) => {
  const d = newDeployment('foo', replicas, { selector: { foo: 'bar' } });
  d.spec!.template!.metadata!.labels!.another = 'label';
  return d;
};
const brokenNew = () => {
  const r = rs('foo-v2', 2, undefined, NEW);
  r.status = { availableReplicas: 0 };
  return r;
};

interface ScaleCase {
  name: string;
  deployment: Deployment;
  oldDeployment: Deployment;
  newRS: ReplicaSet | null;
  oldRSs: ReplicaSet[];
  expectedNew: number | null;
  expectedOld: number[];
  wasntUpdated?: Record<string, boolean>;
  desiredReplicasAnnotations?: Record<string, number>;
}

const d = (replicas: number, surge?: number, unavailable?: number) =>
  newDeployment('foo', replicas, { maxSurge: surge, maxUnavailable: unavailable });
const SCALE_CASES: ScaleCase[] = [
  {
    name: 'normal scaling event: 10 -> 12',
    deployment: d(12),
    oldDeployment: d(10),
    newRS: rs('foo-v1', 10, undefined, NEW),
    oldRSs: [],
    expectedNew: 12,
    expectedOld: [],
  },
  {
    name: 'normal scaling event: 10 -> 5',
    deployment: d(5),
    oldDeployment: d(10),
    newRS: rs('foo-v1', 10, undefined, NEW),
    oldRSs: [],
    expectedNew: 5,
    expectedOld: [],
  },
  {
    name: 'proportional scaling: 5 -> 10',
    deployment: d(10),
    oldDeployment: d(5),
    newRS: rs('foo-v2', 2, undefined, NEW),
    oldRSs: [rs('foo-v1', 3, undefined, OLD)],
    expectedNew: 4,
    expectedOld: [6],
  },
  {
    name: 'proportional scaling: 5 -> 3',
    deployment: d(3),
    oldDeployment: d(5),
    newRS: rs('foo-v2', 2, undefined, NEW),
    oldRSs: [rs('foo-v1', 3, undefined, OLD)],
    expectedNew: 1,
    expectedOld: [2],
  },
  {
    name: 'proportional scaling: 9 -> 4',
    deployment: d(4),
    oldDeployment: d(9),
    newRS: rs('foo-v2', 8, undefined, NEW),
    oldRSs: [rs('foo-v1', 1, undefined, OLD)],
    expectedNew: 4,
    expectedOld: [0],
  },
  {
    name: 'proportional scaling: 7 -> 10',
    deployment: d(10),
    oldDeployment: d(7),
    newRS: rs('foo-v3', 2, undefined, NEW),
    oldRSs: [rs('foo-v2', 3, undefined, OLD), rs('foo-v1', 2, undefined, OLDER)],
    expectedNew: 3,
    expectedOld: [4, 3],
  },
  {
    name: 'proportional scaling: 13 -> 8',
    deployment: d(8),
    oldDeployment: d(13),
    newRS: rs('foo-v3', 2, undefined, NEW),
    oldRSs: [rs('foo-v2', 8, undefined, OLD), rs('foo-v1', 3, undefined, OLDER)],
    expectedNew: 1,
    expectedOld: [5, 2],
  },
  {
    name: 'leftover distribution: 3 -> 4',
    deployment: d(4),
    oldDeployment: d(3),
    newRS: rs('foo-v3', 1, undefined, NEW),
    oldRSs: [rs('foo-v2', 1, undefined, OLD), rs('foo-v1', 1, undefined, OLDER)],
    expectedNew: 2,
    expectedOld: [1, 1],
  },
  {
    name: 'leftover distribution: 3 -> 2',
    deployment: d(2),
    oldDeployment: d(3),
    newRS: rs('foo-v3', 1, undefined, NEW),
    oldRSs: [rs('foo-v2', 1, undefined, OLD), rs('foo-v1', 1, undefined, OLDER)],
    expectedNew: 1,
    expectedOld: [1, 0],
  },
  {
    name: 'proportional scaling (no new rs): 4 -> 5',
    deployment: d(5),
    oldDeployment: d(4),
    newRS: null,
    oldRSs: [rs('foo-v2', 2, undefined, OLD), rs('foo-v1', 2, undefined, OLDER)],
    expectedNew: null,
    expectedOld: [3, 2],
  },
  {
    name: 'proportional scaling: 6 -> 0',
    deployment: d(0),
    oldDeployment: d(6),
    newRS: rs('foo-v3', 3, undefined, NEW),
    oldRSs: [rs('foo-v2', 2, undefined, OLD), rs('foo-v1', 1, undefined, OLDER)],
    expectedNew: 0,
    expectedOld: [0, 0],
  },
  {
    name: 'proportional scaling: 0 -> 6',
    deployment: d(6),
    oldDeployment: d(6),
    newRS: rs('foo-v3', 0, undefined, NEW),
    oldRSs: [rs('foo-v2', 0, undefined, OLD), rs('foo-v1', 0, undefined, OLDER)],
    expectedNew: 6,
    expectedOld: [0, 0],
    wasntUpdated: { 'foo-v2': true, 'foo-v1': true },
  },
  {
    name: 'failed rs update',
    deployment: d(5),
    oldDeployment: d(5),
    newRS: rs('foo-v3', 2, undefined, NEW),
    oldRSs: [rs('foo-v2', 1, undefined, OLD), rs('foo-v1', 1, undefined, OLDER)],
    expectedNew: 2,
    expectedOld: [2, 1],
    wasntUpdated: { 'foo-v3': true, 'foo-v1': true },
    desiredReplicasAnnotations: { 'foo-v2': 3 },
  },
  {
    name: 'deployment with surge pods',
    deployment: d(20, 2),
    oldDeployment: d(10, 2),
    newRS: rs('foo-v2', 6, undefined, NEW),
    oldRSs: [rs('foo-v1', 6, undefined, OLD)],
    expectedNew: 11,
    expectedOld: [11],
  },
  {
    name: 'change both surge and size',
    deployment: d(50, 6),
    oldDeployment: d(10, 3),
    newRS: rs('foo-v2', 5, undefined, NEW),
    oldRSs: [rs('foo-v1', 8, undefined, OLD)],
    expectedNew: 22,
    expectedOld: [34],
  },
  {
    name: 'change both size and template',
    deployment: updatedTemplate(14),
    oldDeployment: newDeployment('foo', 10, { selector: { foo: 'bar' } }),
    newRS: null,
    oldRSs: [rs('foo-v2', 7, undefined, NEW), rs('foo-v1', 3, undefined, OLD)],
    expectedNew: null,
    expectedOld: [10, 4],
  },
  {
    name: 'saturated but broken new replica set does not affect old pods',
    deployment: d(2, 1, 1),
    oldDeployment: d(2, 1, 1),
    newRS: brokenNew(),
    oldRSs: [rs('foo-v1', 1, undefined, OLD)],
    expectedNew: 2,
    expectedOld: [1],
  },
];

describe('scale (upstream TestScale)', () => {
  it.each(SCALE_CASES.map((c) => [c.name, c] as const))('%s', async (_n, c) => {
    const annotate = (r: ReplicaSet) => {
      const desired = c.desiredReplicasAnnotations?.[r.metadata.name ?? ''] ?? c.oldDeployment.spec!.replicas!;
      setReplicasAnnotations(r, desired, desired + maxSurge(c.oldDeployment));
    };
    if (c.newRS) annotate(c.newRS);
    c.oldRSs.forEach(annotate);
    const client = new FakeClient();
    await scale(syncContext(client), c.deployment, c.newRS, c.oldRSs);
    const sizes = new Map<string, number>();
    for (const r of [...(c.newRS ? [c.newRS] : []), ...c.oldRSs]) sizes.set(r.metadata.name!, r.spec!.replicas!);
    for (const r of client.updatedReplicaSets())
      if (!c.wasntUpdated?.[r.metadata.name!]) sizes.set(r.metadata.name!, r.spec!.replicas!);
    if (c.newRS && c.expectedNew !== null) expect(sizes.get(c.newRS.metadata.name!)).toBe(c.expectedNew);
    expect(c.oldRSs.map((r) => sizes.get(r.metadata.name!))).toEqual(c.expectedOld);
  });
});

describe('cleanupDeployment (upstream TestDeploymentController_cleanupDeployment)', () => {
  const sel = { foo: 'bar' };
  const alreadyDeleted = newRSWithStatus('foo-1', 0, 0, sel);
  alreadyDeleted.metadata.deletionTimestamp = '2017-01-01T00:00:00Z';
  it.each([
    [
      [newRSWithStatus('foo-1', 0, 0, sel), newRSWithStatus('foo-2', 0, 0, sel), newRSWithStatus('foo-3', 0, 0, sel)],
      1,
      2,
    ],
    [
      [
        newRSWithStatus('foo-1', 0, 0, sel),
        newRSWithStatus('foo-2', 0, 1, sel),
        newRSWithStatus('foo-3', 1, 0, sel),
        newRSWithStatus('foo-4', 1, 1, sel),
      ],
      0,
      1,
    ],
    [[newRSWithStatus('foo-1', 0, 0, sel), newRSWithStatus('foo-2', 0, 0, sel)], 0, 2],
    [[newRSWithStatus('foo-1', 1, 1, sel), newRSWithStatus('foo-2', 1, 1, sel)], 0, 0],
    [[alreadyDeleted], 0, 0],
    [
      [newRSWithStatus('foo-1', 0, 0, sel), newRSWithStatus('foo-2', 0, 0, sel), newRSWithStatus('foo-3', 0, 0, sel)],
      2147483647,
      0,
    ],
  ])('case %#: limit %d', async (oldRSs, limit, deletions) => {
    const client = new FakeClient();
    await cleanupDeployment(
      syncContext(client),
      oldRSs,
      newDeployment('foo', 1, { revisionHistoryLimit: limit, selector: sel }),
    );
    expect(client.actions.filter((a) => a.verb === 'delete')).toHaveLength(deletions);
  });
});
