/**
 * The scale finder over this server's registry (upstream 1.33 disruption_test.go
 * TestScaleFinderNoResource and TestScaleResource's lookup): a kind served with an
 * autoscaling/v1 Scale subresource answers its spec.replicas and uid (nothing, and no error,
 * when the object is missing); a kind whose `scale` subresource is not a Scale, or that has
 * none, is an error naming the resource; a kind not served at the ref's version is upstream's
 * `no matches for kind` error.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResourceRegistry } from '../../registry/resource-registry.js';
import type { ResourceDefinition } from '../../registry/types.js';
import { customResourceScale } from '../../resources/customresources/scale.js';
import { replicationControllers } from '../../resources/replicationcontrollers/replicationcontrollers.resource.js';
import { MemoryKvStore } from '../../storage/kv/memory/memory-store.js';
import { ObjectStore } from '../../storage/object-store.js';
import { scaleOf } from './registry-client.js';

const GROUP = 'custom.k8s.io';
const API_VERSION = `${GROUP}/v1`;
const KIND = 'CustomResource';

/** A kind of the custom group with replication controllers' schema, no validation, and the given subresources. */
function row(plural: string, subresources: ResourceDefinition['subresources']): ResourceDefinition {
  return {
    ...(replicationControllers as unknown as ResourceDefinition),
    group: GROUP,
    version: 'v1',
    kind: KIND,
    plural,
    storagePrefix: `${GROUP}/${plural}`,
    strategy: {},
    subresources,
  };
}

const scale = customResourceScale({ specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' });
let kv: MemoryKvStore;
let registry: ResourceRegistry;
beforeAll(() => {
  kv = new MemoryKvStore();
  registry = new ResourceRegistry([], new ObjectStore(kv, '/registry'));
});
afterAll(() => kv.close());

/** Serve only `def` and look its `foo` up through the scale finder. */
async function lookUp(def: ResourceDefinition, create = false) {
  await registry.serve('test', [def]);
  if (create)
    await registry
      .lookup(GROUP, 'v1', def.plural)!
      .create('default', { apiVersion: API_VERSION, kind: KIND, metadata: { name: 'foo' }, spec: { replicas: 7 } });
  return scaleOf(registry, API_VERSION, KIND, 'default', 'foo');
}

describe('scale finder (TestScaleFinderNoResource)', () => {
  it('resource implements scale: a missing object is no error', async () => {
    await expect(lookUp(row('customresources', [scale]))).resolves.toBeUndefined();
  });

  it('resource implements unsupported data format for scale subresource', async () => {
    const notScale = { name: 'scale', kind: KIND, verbs: ['get'] } as const;
    await expect(lookUp(row('others', [notScale]))).rejects.toThrow(
      'others.custom.k8s.io does not implement the scale subresource',
    );
  });

  it('resource does not implement scale', async () => {
    await expect(lookUp(row('plain', []))).rejects.toThrow(
      'plain.custom.k8s.io does not implement the scale subresource',
    );
  });

  it('an existing object answers its uid and spec.replicas (TestScaleResource)', async () => {
    const found = await lookUp(row('scaled', [scale]), true);
    const stored = await registry.lookup(GROUP, 'v1', 'scaled')!.get('default', 'foo');
    expect(found).toEqual({ uid: stored.metadata.uid, scale: 7 });
  });

  it('a kind not served at the version is a RESTMapping error', async () => {
    await expect(scaleOf(registry, 'apps.test.io/v1', 'TestWorkload', 'default', 'x')).rejects.toThrow(
      'no matches for kind "TestWorkload" in version "apps.test.io/v1"',
    );
  });
});
