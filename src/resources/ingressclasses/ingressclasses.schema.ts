/** IngressClass fields (k8s.io/api networking/v1 types.go). */
import type { KindObject } from '../../registry/types.js';
import { kindSchema } from '../../api/meta-schema.js';
import { obj, reqStr, str } from '../../api/core/schema-kit.js';

export const ingressClassSchema = kindSchema({
  spec: obj({
    controller: str.describe(
      'Name of the controller that handles this class: a domain-prefixed path of at most 250 characters, e.g. "acme.io/ingress-controller". Immutable.',
    ),
    parameters: obj({
      apiGroup: str.describe('Group of the resource referenced; unset: the core group. Required for other types.'),
      kind: reqStr.describe('Kind of the resource referenced.'),
      name: reqStr.describe('Name of the resource referenced.'),
      namespace: str.describe(
        'Namespace of the resource referenced: required with scope Namespace, unset with Cluster.',
      ),
      scope: str.describe(
        'Whether the resource referenced is cluster-scoped ("Cluster", the default) or namespaced ("Namespace").',
      ),
    }).describe('A resource with further configuration for the controller; optional.'),
  }).describe(
    'The class of an Ingress. The annotation ingressclass.kubernetes.io/is-default-class: "true" marks the class new Ingresses without one get.',
  ),
});

/** An IngressClass as its schema describes it. */
export type IngressClass = KindObject<typeof ingressClassSchema>;
