import { describe, expect, it } from 'vitest';
import { kindPatch, podSpecPatch } from '../../api/core/patch-meta.js';
import { strategicMerge } from './strategic-merge.js';

const podMeta = kindPatch({ spec: podSpecPatch });
const pod = () => ({
  metadata: { name: 'applied', labels: { app: 'applied' }, finalizers: ['a', 'b'] },
  spec: {
    containers: [
      {
        name: 'nginx',
        image: 'nginx:1.25',
        env: [
          { name: 'A', value: '1' },
          { name: 'B', value: '2' },
        ],
      },
      { name: 'side', image: 'busybox' },
    ],
    volumes: [{ name: 'data', emptyDir: {} }],
    tolerations: [{ key: 'x', operator: 'Exists' }],
  },
});

describe('strategic merge patch', () => {
  it('applies the body kubectl apply sends for a changed image, a new label and a removed env var', () => {
    // clients.md 4.4, measured from kubectl 1.32
    const patch = {
      metadata: { annotations: { note: 'second' }, labels: { tier: 'frontend' } },
      spec: {
        '$setElementOrder/containers': [{ name: 'nginx' }, { name: 'side' }],
        containers: [
          {
            '$setElementOrder/env': [{ name: 'A' }],
            env: [{ $patch: 'delete', name: 'B' }],
            image: 'nginx:1.27',
            name: 'nginx',
          },
        ],
      },
    };
    const out = strategicMerge(pod(), patch, podMeta) as any;
    expect(out.metadata.labels).toEqual({ app: 'applied', tier: 'frontend' });
    expect(out.metadata.annotations).toEqual({ note: 'second' });
    expect(out.spec.containers).toEqual([
      { name: 'nginx', image: 'nginx:1.27', env: [{ name: 'A', value: '1' }] },
      { name: 'side', image: 'busybox' },
    ]);
  });

  it('merges list elements by key, appends new ones, and replaces lists without a strategy', () => {
    const out = strategicMerge(
      pod(),
      {
        spec: {
          containers: [
            { name: 'side', image: 'busybox:2' },
            { name: 'new', image: 'n' },
          ],
          tolerations: [{ key: 'y' }],
        },
      },
      podMeta,
    ) as any;
    expect(out.spec.containers.map((c: any) => `${c.name}=${c.image}`)).toEqual([
      'nginx=nginx:1.25',
      'side=busybox:2',
      'new=n',
    ]);
    expect(out.spec.tolerations).toEqual([{ key: 'y' }]);
  });

  it('merges owner references by uid and pending initializers by name, as ObjectMeta tags say', () => {
    const base = {
      metadata: { ownerReferences: [{ uid: 'u1', name: 'a' }], initializers: { pending: [{ name: 'one' }] } },
    };
    const out = strategicMerge(
      base,
      { metadata: { ownerReferences: [{ uid: 'u2', name: 'b' }], initializers: { pending: [{ name: 'two' }] } } },
      podMeta,
    ) as any;
    expect(out.metadata.ownerReferences.map((r: any) => r.uid)).toEqual(['u1', 'u2']);
    expect(out.metadata.initializers.pending).toEqual([{ name: 'one' }, { name: 'two' }]);
  });

  it('orders by $setElementOrder and treats finalizers as a set', () => {
    const out = strategicMerge(
      pod(),
      {
        metadata: { finalizers: ['b', 'c'], '$deleteFromPrimitiveList/finalizers': ['a'] },
        spec: { '$setElementOrder/containers': [{ name: 'side' }, { name: 'nginx' }] },
      },
      podMeta,
    ) as any;
    expect(out.metadata.finalizers).toEqual(['b', 'c']);
    expect(out.spec.containers.map((c: any) => c.name)).toEqual(['side', 'nginx']);
  });

  it('honours $retainKeys, $patch replace and delete in maps and lists, and null', () => {
    const retain = strategicMerge(
      pod(),
      { spec: { volumes: [{ name: 'data', $retainKeys: ['name', 'hostPath'], hostPath: { path: '/x' } }] } },
      podMeta,
    ) as any;
    expect(retain.spec.volumes).toEqual([{ name: 'data', hostPath: { path: '/x' } }]);
    const replaced = strategicMerge(
      pod(),
      { metadata: { labels: { $patch: 'replace', only: 'this' } } },
      podMeta,
    ) as any;
    expect(replaced.metadata.labels).toEqual({ only: 'this' });
    const deletedMap = strategicMerge(pod(), { metadata: { labels: { $patch: 'delete' } } }, podMeta) as any;
    expect(deletedMap.metadata.labels).toBeUndefined();
    const replacedList = strategicMerge(
      pod(),
      { spec: { containers: [{ $patch: 'replace' }, { name: 'solo', image: 's' }] } },
      podMeta,
    ) as any;
    expect(replacedList.spec.containers).toEqual([{ name: 'solo', image: 's' }]);
    const nulled = strategicMerge(pod(), { spec: { volumes: null } }, podMeta) as any;
    expect(nulled.spec.volumes).toBeUndefined();
  });

  it('rejects list elements without the merge key and unknown directives', () => {
    expect(() => strategicMerge(pod(), { spec: { containers: [{ image: 'x' }] } }, podMeta)).toThrow(
      /does not contain declared merge key: name/,
    );
    expect(() => strategicMerge(pod(), { metadata: { $patch: 'explode' } }, podMeta)).toThrow(/Unknown patch type/);
  });
});

describe('strategic merge patch on long lists', () => {
  it('merges a 50,000-element list by merge key in linear time', () => {
    const containers = Array.from({ length: 50_000 }, (_, i) => ({ name: `c${i}`, image: 'x' }));
    const started = Date.now();
    const out = strategicMerge(
      pod(),
      { spec: { containers, finalizers: containers.map((c) => c.name) } },
      podMeta,
    ) as any;
    expect(out.spec.containers).toHaveLength(50_002);
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
