/**
 * The scheduler's cache: a pod bound by the scheduler counts on its node at once (assumed), an
 * older unassigned event of it does not undo that, the assigned event replaces the assumption,
 * and a finished or deleted pod frees its node.
 */
import { describe, expect, it } from 'vitest';
import type { Node } from '../../resources/nodes/nodes.schema.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import { SchedulerCache } from './scheduler-cache.js';

const node = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' } } as Node;
const pod = (nodeName?: string, phase?: string): Pod =>
  ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', namespace: 'ns', uid: 'u1' },
    spec: { containers: [], nodeName },
    status: phase ? { phase } : undefined,
  }) as Pod;
const podsOn = (cache: SchedulerCache) => cache.view().nodes[0].pods.map((p) => p.spec?.nodeName);

describe('SchedulerCache', () => {
  it('counts an assumed pod until its assigned event arrives, ignoring older unassigned events', () => {
    const cache = new SchedulerCache();
    cache.setNode(node);
    cache.setPod(pod(), 'n1');
    expect(podsOn(cache)).toEqual(['n1']);
    expect(cache.setPod(pod())).toBe(false);
    expect(podsOn(cache)).toEqual(['n1']);
    expect(cache.setPod(pod('n1'))).toBe(false);
    expect(cache.isAssumed(pod())).toBe(false);
    expect(podsOn(cache)).toEqual(['n1']);
  });

  it('forgets an assumption whose binding failed', () => {
    const cache = new SchedulerCache();
    cache.setNode(node);
    cache.setPod(pod(), 'n1');
    cache.forget(pod());
    expect(podsOn(cache)).toEqual([]);
  });

  it('frees the node when a pod finishes or is deleted', () => {
    const cache = new SchedulerCache();
    cache.setNode(node);
    cache.setPod(pod('n1'));
    expect(cache.setPod(pod('n1', 'Succeeded'))).toBe(true);
    expect(podsOn(cache)).toEqual([]);
    cache.setPod(pod('n1'));
    expect(cache.removePod('ns/p')).toBe(true);
    expect(podsOn(cache)).toEqual([]);
  });
});
