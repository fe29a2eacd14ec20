/**
 * The `eviction` subresource of pods (upstream EvictionREST): `POST .../pods/{name}/eviction`
 * with an Eviction of policy/v1 (what discovery names, as upstream's GroupVersionKind) or of
 * policy/v1beta1 (upstream's AcceptsGroupVersion takes both). The rules are in evict-pod.ts.
 */
import type { SubresourceDefinition } from '../../registry/types.js';
import type { Pod } from '../pods/pods.schema.js';
import { evictPod } from './evict-pod.js';
import { evictionSchema, type Eviction } from './evictions.schema.js';

export const evictionSubresource: SubresourceDefinition<Pod, Eviction> = {
  name: 'eviction',
  kind: 'Eviction',
  apiVersion: 'policy/v1',
  acceptedVersions: ['policy/v1beta1'],
  verbs: ['create'],
  schema: evictionSchema,
  create: evictPod,
};
