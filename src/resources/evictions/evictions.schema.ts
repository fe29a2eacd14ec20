/**
 * Eviction (k8s.io/api policy/v1 and policy/v1beta1 types.go, the same in both): the body of
 * `POST .../pods/{name}/eviction`, naming the pod and carrying the DeleteOptions of its deletion.
 */
import type { KindObject } from '../../registry/types.js';
import { kindSchema } from '../../api/meta-schema.js';
import { bool, int, obj, str, strList } from '../../api/core/schema-kit.js';

export const evictionSchema = kindSchema({
  deleteOptions: obj({
    apiVersion: str.describe('Versioned schema of the options (meta.k8s.io/v1).'),
    dryRun: strList.describe('["All"]: check everything and delete nothing (the query dryRun must agree).'),
    gracePeriodSeconds: int.describe(
      'Seconds the pod has to terminate; default its own terminationGracePeriodSeconds.',
    ),
    kind: str.describe('DeleteOptions.'),
    orphanDependents: bool.describe('Deprecated: whether dependents are orphaned; use propagationPolicy.'),
    preconditions: obj({
      resourceVersion: str.describe('The pod must have this resourceVersion.'),
      uid: str.describe('The pod must have this UID.'),
    }).describe('Conditions the pod must meet to be evicted.'),
    propagationPolicy: str.describe('Orphan, Background or Foreground: how dependents are garbage collected.'),
  }).describe('The DeleteOptions of the pod deletion.'),
});

/** An Eviction as its schema describes it. */
export type Eviction = KindObject<typeof evictionSchema>;
