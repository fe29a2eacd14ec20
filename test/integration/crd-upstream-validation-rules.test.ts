/**
 * Upstream's e2e test/e2e/apimachinery/crd_validation_rules.go (1.33): "[sig-api-machinery]
 * CustomResourceValidationRules [Privileged:ClusterAdmin]". A definition whose schema carries
 * `x-kubernetes-validations` rules (Kubernetes CEL list functions among them) is accepted, and
 * so is a custom object satisfying them.
 *
 * Upstream's six other cases need the rules evaluated (a refused object's "failed rule", a
 * refused definition's "undefined field 'z'", "Syntax error" and "exceeds budget", the runtime
 * "call cost exceeds limit", a transition rule on update); this server does not evaluate
 * `x-kubernetes-validations` yet, so they are not here.
 */
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../helpers/in-process.js';
import { createCrd, deleteCrd, generateName, randomCrd, resourcePath } from '../helpers/upstream-crds.js';

const srv = useTestServer();

/** schemaWithValidationExpression */
const SCHEMA = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      'x-kubernetes-validations': [
        { rule: 'self.x + self.y > 0' },
        {
          rule: 'self.firstArray.isSorted() && self.secondArray.isSorted() && ((self.firstArray.sum() + self.secondArray.sum()) % 2 == 0)',
        },
        { rule: 'self.largeArray.all(x, self.largeArray.all(y, y == x))' },
      ],
      properties: {
        x: { type: 'integer' },
        y: { type: 'integer' },
        firstArray: { type: 'array', maxItems: 1000, items: { type: 'integer' } },
        secondArray: { type: 'array', maxItems: 1000, items: { type: 'integer' } },
        largeArray: { type: 'array', maxItems: 725, items: { type: 'integer' } },
      },
    },
    status: {
      type: 'object',
      'x-kubernetes-validations': [{ rule: "self.health == 'ok' || self.health == 'unhealthy'" }],
      properties: { health: { type: 'string' } },
    },
  },
};

describe('CustomResourceValidationRules [Privileged:ClusterAdmin]', () => {
  it('MUST NOT fail validation for create of a custom resource that satisfies the x-kubernetes-validations rules', async () => {
    const def = randomCrd('Namespaced');
    def.spec.versions[0]!.schema = { openAPIV3Schema: SCHEMA };
    await createCrd(srv, def);
    const created = await srv.api('POST', resourcePath(def, 'v1beta1'), {
      apiVersion: `${def.spec.group}/v1beta1`,
      kind: def.spec.names.kind,
      metadata: { name: generateName('cr-1'), namespace: 'default' },
      spec: { x: 1, y: 0, firstArray: [3, 4], secondArray: [5, 10], largeArray: [2, 2] },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.spec).toEqual({ x: 1, y: 0, firstArray: [3, 4], secondArray: [5, 10], largeArray: [2, 2] });
    await deleteCrd(srv, def);
  });
});
