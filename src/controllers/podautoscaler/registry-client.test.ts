/**
 * The autoscaler's scale client over this server's registry (upstream's RESTMapper plus scale
 * client as reconcileAutoscaler uses them): a kind with a `scale` subresource answers its
 * Scale (spec.replicas, status.replicas, status.selector) and takes spec.replicas at the
 * resourceVersion read; a missing object, an unknown kind and a kind without `scale` fail with
 * upstream's texts.
 */
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResourceRegistry } from '../../registry/resource-registry.js';
import type { ResourceDefinition } from '../../registry/types.js';
import { customResourceScale } from '../../resources/customresources/scale.js';
import { events } from '../../resources/events/events.resource.js';
import { horizontalPodAutoscalers } from '../../resources/horizontalpodautoscalers/hpa.resource.js';
import { pods } from '../../resources/pods/pods.resource.js';
import { replicationControllers } from '../../resources/replicationcontrollers/replicationcontrollers.resource.js';
import { MemoryKvStore } from '../../storage/kv/memory/memory-store.js';
import { ObjectStore } from '../../storage/object-store.js';
import { registryHpaClient } from './registry-client.js';
import type { HpaClient } from './types.js';

const GROUP = 'custom.k8s.io';
const KIND = 'Worker';

function row(plural: string, kind: string, subresources: ResourceDefinition['subresources']): ResourceDefinition {
  return {
    ...(replicationControllers as unknown as ResourceDefinition),
    group: GROUP,
    version: 'v1',
    kind,
    plural,
    storagePrefix: `${GROUP}/${plural}`,
    strategy: {},
    subresources,
  };
}

const scale = customResourceScale({
  specReplicasPath: '.spec.replicas',
  statusReplicasPath: '.status.replicas',
  // The borrowed replication controller schema keeps no status.selector: an annotation holds it.
  labelSelectorPath: '.metadata.annotations.selector',
});
let kv: MemoryKvStore;
let registry: ResourceRegistry;
let client: HpaClient;

beforeAll(async () => {
  kv = new MemoryKvStore();
  const table = [horizontalPodAutoscalers, pods, events] as unknown as ResourceDefinition[];
  registry = new ResourceRegistry(table, new ObjectStore(kv, '/registry'));
  await registry.serve('test', [row('workers', KIND, [scale]), row('plains', 'Plain', [])]);
  await registry.lookup(GROUP, 'v1', 'workers')!.create('default', {
    apiVersion: `${GROUP}/v1`,
    kind: KIND,
    metadata: { name: 'foo', annotations: { selector: 'app=foo' } },
    spec: { replicas: 2 },
    status: { replicas: 2 },
  });
  client = registryHpaClient(registry, pino({ level: 'silent' }));
});
afterAll(() => kv.close());

describe('registryHpaClient scale', () => {
  it('reads the Scale of a custom resource and writes its spec.replicas', async () => {
    const view = await client.getScale(`${GROUP}/v1`, KIND, 'default', 'foo');
    expect(view).toMatchObject({ replicas: 2, statusReplicas: 2, selector: 'app=foo', resource: `workers.${GROUP}` });
    await client.updateScale('default', 'foo', view, 5);
    const stored = await registry.lookup(GROUP, 'v1', 'workers')!.get('default', 'foo');
    expect((stored as unknown as { spec: { replicas: number } }).spec.replicas).toBe(5);
    // The Scale read before that write is stale now: upstream's conflict.
    await expect(client.updateScale('default', 'foo', view, 6)).rejects.toMatchObject({ code: 409 });
  });

  it('fails as upstream for a missing object, an unknown kind and a kind without scale', async () => {
    await expect(client.getScale(`${GROUP}/v1`, KIND, 'default', 'bar')).rejects.toThrow(
      `workers.${GROUP} "bar" not found`,
    );
    await expect(client.getScale(`${GROUP}/v1`, 'Nothing', 'default', 'bar')).rejects.toThrow(
      `no matches for kind "Nothing" in group "${GROUP}"`,
    );
    await expect(client.getScale(`${GROUP}/v1`, 'Plain', 'default', 'bar')).rejects.toThrow(
      'the server could not find the requested resource',
    );
    await expect(client.getScale('a/b/c', KIND, 'default', 'bar')).rejects.toThrow(
      'unexpected GroupVersion string: a/b/c',
    );
  });
});
