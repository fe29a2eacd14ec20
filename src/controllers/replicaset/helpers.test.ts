/**
 * Ports of upstream 1.33 replica_set_test.go TestSlowStartBatch, TestGetCondition,
 * TestSetCondition, TestRemoveCondition; controller_utils_test.go TestCreatePodsWithGenerateName
 * (GetPodFromTemplate's shape) and the ControllerExpectations tests
 * (TestControllerExpectations, TestUIDExpectations); the Events RealPodControl records.
 */
import { describe, expect, it } from 'vitest';
import { ControllerExpectations, EXPECTATIONS_TIMEOUT_MS } from './expectations.js';
import { podFromTemplate, podsPrefix, slowStartBatch } from './pod-template.js';
import { removeCondition, setCondition } from './status.js';
import { replicaEvent } from './events.js';
import { REPLICATION_CONTROLLER_KIND, type WorkloadCondition, type WorkloadStatus } from './workload.js';

describe('TestSlowStartBatch', () => {
  it.each([
    { name: 'callLimit = 0 (all fail)', count: 10, limit: 0, successes: 0, failed: true, calls: 1 },
    { name: 'callLimit = count (all succeed)', count: 10, limit: 10, successes: 10, failed: false, calls: 10 },
    { name: 'callLimit < count (some succeed)', count: 10, limit: 5, successes: 5, failed: true, calls: 7 },
  ])('$name', async ({ count, limit, successes, failed, calls }) => {
    const fakeErr = new Error('fake error');
    let callCnt = 0;
    const got = await slowStartBatch(count, 1, async () => {
      callCnt++;
      if (callCnt > limit) throw fakeErr;
    });
    expect(got.successes).toBe(successes);
    expect(got.error).toBe(failed ? fakeErr : undefined);
    expect(callCnt).toBe(calls);
  });
});

describe('conditions', () => {
  const imagePullBackOff = (): WorkloadCondition => ({
    type: 'ImagePullBackOff',
    status: 'True',
    reason: 'NonExistentImage',
  });
  const failure = (): WorkloadCondition => ({ type: 'ReplicaFailure', status: 'True', reason: 'OtherFailure' });
  const failure2 = (): WorkloadCondition => ({ type: 'ReplicaFailure', status: 'True', reason: 'AnotherFailure' });
  it.each([
    { name: 'set for the first time', status: {}, cond: failure(), want: [failure()] },
    {
      name: 'simple set',
      status: { conditions: [imagePullBackOff()] },
      cond: failure(),
      want: [imagePullBackOff(), failure()],
    },
    { name: 'overwrite', status: { conditions: [failure()] }, cond: failure2(), want: [failure2()] },
  ])('TestSetCondition: $name', ({ status, cond, want }) => {
    const s: WorkloadStatus = structuredClone(status);
    setCondition(s, cond);
    expect(s.conditions).toEqual(want);
  });

  it('TestSetCondition: same status and reason keep the first transition time', () => {
    const s: WorkloadStatus = { conditions: [{ ...failure(), lastTransitionTime: '2020-01-01T00:00:00Z' }] };
    setCondition(s, { ...failure(), lastTransitionTime: '2026-01-01T00:00:00Z', message: 'new' });
    expect(s.conditions).toEqual([{ ...failure(), lastTransitionTime: '2020-01-01T00:00:00Z' }]);
  });

  it.each([
    { name: 'remove from empty status', status: {}, type: 'ReplicaFailure', want: [] },
    { name: 'simple remove', status: { conditions: [failure()] }, type: 'ReplicaFailure', want: [] },
    {
      name: "doesn't remove anything",
      status: { conditions: [failure()] },
      type: 'ImagePullBackOff',
      want: [failure()],
    },
  ])('TestRemoveCondition: $name', ({ status, type, want }) => {
    const s: WorkloadStatus = structuredClone(status);
    removeCondition(s, type);
    expect(s.conditions ?? []).toEqual(want);
  });
});

describe('podFromTemplate', () => {
  const ref = {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    name: 'rs',
    uid: 'u',
    controller: true,
    blockOwnerDeletion: true,
  };
  it("copies the template's labels, annotations, finalizers and spec, names by prefix and owns by controllerRef", () => {
    const template = {
      metadata: { labels: { a: 'b' }, annotations: { x: 'y' }, finalizers: ['f'], name: 'ignored' },
      spec: { containers: [{ name: 'c', image: 'i' }] },
    };
    const pod = podFromTemplate(template, 'ns', 'rs', ref);
    expect(pod).toEqual({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        generateName: 'rs-',
        namespace: 'ns',
        labels: { a: 'b' },
        annotations: { x: 'y' },
        finalizers: ['f'],
        ownerReferences: [ref],
      },
      spec: { containers: [{ name: 'c', image: 'i' }] },
    });
    pod.spec!.containers[0].image = 'changed';
    expect(template.spec.containers[0].image).toBe('i');
  });

  it('refuses a template without labels', () => {
    expect(() => podFromTemplate({ metadata: {}, spec: { containers: [] } }, 'ns', 'rs', ref)).toThrow(
      'unable to create pods, no labels',
    );
  });

  it('drops the dash from a prefix that would be too long', () => {
    expect(podsPrefix('a'.repeat(253))).toBe('a'.repeat(253));
    expect(podsPrefix('web')).toBe('web-');
  });
});

describe('ControllerExpectations', () => {
  it('TestControllerExpectations: satisfied once every add is observed, or after the timeout', () => {
    let now = 1_000_000;
    const e = new ControllerExpectations(() => now);
    expect(e.satisfied('ns/rs')).toBe(true);
    e.expectCreations('ns/rs', 3);
    for (let i = 0; i < 2; i++) {
      e.creationObserved('ns/rs');
      expect(e.satisfied('ns/rs')).toBe(false);
    }
    e.creationObserved('ns/rs');
    expect(e.satisfied('ns/rs')).toBe(true);
    e.expectCreations('ns/rs', 1);
    now += EXPECTATIONS_TIMEOUT_MS + 1;
    expect(e.satisfied('ns/rs')).toBe(true);
  });

  it('TestUIDExpectations: each expected pod key counts once; others not at all', () => {
    const e = new ControllerExpectations();
    e.expectDeletions('ns/rs', ['ns/a', 'ns/b']);
    e.deletionObserved('ns/rs', 'ns/a');
    e.deletionObserved('ns/rs', 'ns/a');
    e.deletionObserved('ns/rs', 'ns/other');
    expect(e.pending('ns/rs')).toEqual({ add: 0, del: 1 });
    expect(e.satisfied('ns/rs')).toBe(false);
    e.deletionObserved('ns/rs', 'ns/b');
    expect(e.satisfied('ns/rs')).toBe(true);
    e.delete('ns/rs');
    expect(e.pending('ns/rs')).toBeUndefined();
  });
});

describe('replicaEvent', () => {
  it("is a core/v1 Event about the controller, Warning for failures, from the controller's component", () => {
    const rc = { metadata: { name: 'rc', namespace: 'ns', uid: 'u', resourceVersion: '7' } };
    const now = new Date('2026-01-02T03:04:05.678Z');
    expect(replicaEvent(rc, REPLICATION_CONTROLLER_KIND, 'FailedCreate', 'Error creating: quota', now)).toMatchObject({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: expect.stringMatching(/^rc\.[0-9a-f]+$/), namespace: 'ns' },
      involvedObject: {
        apiVersion: 'v1',
        kind: 'ReplicationController',
        name: 'rc',
        namespace: 'ns',
        uid: 'u',
        resourceVersion: '7',
      },
      reason: 'FailedCreate',
      message: 'Error creating: quota',
      type: 'Warning',
      source: { component: 'replication-controller' },
      firstTimestamp: '2026-01-02T03:04:05Z',
      count: 1,
    });
  });
});
