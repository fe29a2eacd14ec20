/**
 * Upstream 1.33 pkg/controller/util/node/controller_utils_test.go TestMarkPodsNotReady essentials:
 * which pods are written, what they get, and which failures count.
 */
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../resources/pods/pods.schema.js';
import { testPod } from './lifecycle.fixture.js';
import { markPodsNotReady } from './mark-pods.js';

const NOW = new Date('2017-01-01T12:00:00Z');

function client(fail?: number) {
  const written: Pod[] = [];
  const events: string[] = [];
  return {
    written,
    events,
    writePodStatus: async (pod: Pod, status: NonNullable<Pod['status']>) => {
      if (fail) throw Object.assign(new Error('boom'), { code: fail });
      written.push({ ...pod, status });
    },
    podNotReadyEvent: (pod: Pod) => void events.push(pod.metadata.name!),
  };
}

const withReady = (pod: Pod, status: string | undefined): Pod => ({
  ...pod,
  status: { conditions: status ? [{ type: 'Ready', status, reason: 'r', message: 'm' }] : [] },
});

describe('TestMarkPodsNotReady', () => {
  it('a Ready pod on the node: Ready False, reason and message kept, transition now, an Event', async () => {
    const c = client();
    await markPodsNotReady(c, [withReady(testPod('pod0', 'node1'), 'True')], 'node1', NOW);
    expect(c.written[0]!.status?.conditions).toEqual([
      { type: 'Ready', status: 'False', reason: 'r', message: 'm', lastTransitionTime: '2017-01-01T12:00:00Z' },
    ]);
    expect(c.events).toEqual(['pod0']);
  });

  it('a pod on another node is left alone', async () => {
    const c = client();
    await markPodsNotReady(c, [testPod('pod0', 'node2')], 'node1', NOW);
    expect(c.written).toEqual([]);
  });

  it('a pod already not Ready, or without a Ready condition, is left alone', async () => {
    const c = client();
    await markPodsNotReady(
      c,
      [withReady(testPod('a', 'node1'), 'False'), withReady(testPod('b', 'node1'), undefined)],
      'node1',
      NOW,
    );
    expect(c.written).toEqual([]);
  });

  it('a pod gone (404) is not a failure', async () => {
    await expect(markPodsNotReady(client(404), [testPod('pod0', 'node1')], 'node1', NOW)).resolves.toBeUndefined();
  });

  it('another failure is thrown after trying every pod', async () => {
    const c = client(500);
    await expect(markPodsNotReady(c, [testPod('a', 'node1'), testPod('b', 'node1')], 'node1', NOW)).rejects.toThrow(
      AggregateError,
    );
    expect(c.events).toEqual(['a', 'b']);
  });
});
