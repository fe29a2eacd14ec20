/**
 * Port of upstream 1.33 replica_set_test.go TestRelatedPodsLookup (with
 * TestGetReplicaSetsWithSameController's grouping): the pods of every ReplicaSet under the same
 * owner, which rank pods by colocation before deletion.
 */
import { describe, expect, it } from 'vitest';
import { FakeReplicaClient } from './fake-client.fixture.js';
import { newPod, newReplicaSet } from './replicaset.fixture.js';
import { relatedPods } from './sync.js';
import { REPLICA_SET_KIND, type Workload } from './workload.js';

describe('TestRelatedPodsLookup', () => {
  const someRS = named(newReplicaSet(1, { foo: 'bar' }), 'foo1');
  const relatedRS = named(newReplicaSet(1, { foo: 'baz' }), 'foo2');
  const unrelatedRS = named(newReplicaSet(1, { foo: 'quux' }), 'bar1', '456');
  const deletingRS = named(newReplicaSet(1, { foo: 'xyzzy' }), 'foo3', '789');
  deletingRS.metadata.deletionTimestamp = new Date().toISOString();
  const [pod1, pod2] = [
    newPod('pod1', someRS, 'Running', undefined, true),
    newPod('pod2', someRS, 'Running', undefined, true),
  ];
  const pod3 = newPod('pod3', relatedRS, 'Running', undefined, true);
  const pod4 = newPod('pod4', unrelatedRS, 'Running', undefined, true);
  it.each([
    {
      name: 'a pod even if its owner is pending deletion',
      rss: [deletingRS, unrelatedRS],
      rs: deletingRS,
      pods: [newPod('pod', deletingRS, 'Running', undefined, true)],
      want: ['pod'],
    },
    {
      name: "only the ReplicaSet's own pods with no related ReplicaSet",
      rss: [someRS, unrelatedRS],
      rs: someRS,
      pods: [pod1, pod2, pod4],
      want: ['pod1', 'pod2'],
    },
    {
      name: "own and related ReplicaSets' pods, not an unrelated one's",
      rss: [someRS, relatedRS, unrelatedRS],
      rs: someRS,
      pods: [pod1, pod2, pod3, pod4],
      want: ['pod1', 'pod2', 'pod3'],
    },
  ])('$name', async ({ rss, rs, pods, want }) => {
    const client = new FakeReplicaClient();
    for (const r of rss) client.controllers.set(r.metadata.name ?? '', r);
    client.pods = pods;
    const got = await relatedPods(rs, { kind: REPLICA_SET_KIND, client });
    expect(got.map((p) => p.metadata.name).sort()).toEqual(want);
  });
});

function named<T extends Workload>(rs: T, name: string, ownerUid?: string): T {
  rs.metadata.name = name;
  if (ownerUid) rs.metadata.ownerReferences = [{ ...rs.metadata.ownerReferences![0], uid: ownerUid }];
  return rs;
}
