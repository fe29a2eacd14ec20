/**
 * Upstream's e2e test/e2e/apimachinery/crd_validation_rules.go (1.33): "[sig-api-machinery]
 * CustomResourceValidationRules [Privileged:ClusterAdmin]". A definition whose schema carries
 * `x-kubernetes-validations` rules (Kubernetes CEL list functions among them) is accepted, and
 * so is a custom object satisfying them; an object breaking a rule is refused ("failed rule"),
 * as is one whose evaluation exceeds the per-call cost limit ("call cost exceeds limit") and an
 * update breaking a transition rule (`oldSelf`); a definition whose rule names an undefined
 * field, has a syntax error, or exceeds the estimated cost budget is refused.
 *
 * Upstream checks only that the request fails and the message substring; the status codes
 * asserted here are those upstream answers with (422 Invalid for each).
 */
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../helpers/in-process.js';
import {
  CRDS,
  createCrd,
  deleteCrd,
  generateName,
  randomCrd,
  resourcePath,
  type CrdJson,
} from '../helpers/upstream-crds.js';

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

/** NewRandomNameV1CustomResourceDefinitionWithSchema(NamespaceScoped, schema, false). */
function crdWithSchema(schema: unknown): CrdJson {
  const def = randomCrd('Namespaced');
  def.spec.versions[0]!.schema = { openAPIV3Schema: schema };
  return def;
}

/** A custom object of `def` named `cr-1<random>` in `default` with `spec`. */
function customObject(def: CrdJson, spec: unknown, name = generateName('cr-1')) {
  return {
    apiVersion: `${def.spec.group}/v1beta1`,
    kind: def.spec.names.kind,
    metadata: { name, namespace: 'default' },
    spec,
  };
}

/** Create `def` expecting refusal: answers the response (deleting the definition if it was made). */
async function createRefusedCrd(def: CrdJson) {
  const res = await srv.api('POST', CRDS, def);
  if (res.status === 201) await deleteCrd(srv, def);
  return res;
}

describe('CustomResourceValidationRules [Privileged:ClusterAdmin]', () => {
  it('MUST NOT fail validation for create of a custom resource that satisfies the x-kubernetes-validations rules', async () => {
    const def = crdWithSchema(SCHEMA);
    await createCrd(srv, def);
    const spec = { x: 1, y: 0, firstArray: [3, 4], secondArray: [5, 10], largeArray: [2, 2] };
    const created = await srv.api('POST', resourcePath(def, 'v1beta1'), customObject(def, spec));
    expect(created.status, created.text).toBe(201);
    expect(created.body.spec).toEqual(spec);
    await deleteCrd(srv, def);
  });

  it('MUST fail validation for create of a custom resource that does not satisfy the x-kubernetes-validations rules', async () => {
    const def = crdWithSchema(SCHEMA);
    await createCrd(srv, def);
    const name = generateName('cr-1');
    const refused = await srv.api('POST', resourcePath(def, 'v1beta1'), customObject(def, { x: 0, y: 0 }, name));
    expect(refused.status, refused.text).toBe(422);
    expect(refused.body.message).toContain('failed rule');
    expect((await srv.api('GET', `${resourcePath(def, 'v1beta1')}/${name}`)).status).toBe(404);
    await deleteCrd(srv, def);
  });

  it('MUST fail create of a custom resource definition that contains a x-kubernetes-validations rule that refers to a property that do not exist', async () => {
    const def = crdWithSchema({
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          'x-kubernetes-validations': [{ rule: 'self.z == 100' }],
          properties: { x: { type: 'integer' } },
        },
      },
    });
    const refused = await createRefusedCrd(def);
    expect(refused.status, refused.text).toBe(422);
    expect(refused.body.message).toContain("undefined field 'z'");
  });

  it('MUST fail create of a custom resource definition that contains an x-kubernetes-validations rule that contains a syntax error', async () => {
    const def = crdWithSchema({
      type: 'object',
      properties: { spec: { type: 'object', 'x-kubernetes-validations': [{ rule: 'self = 42' }] } },
    });
    const refused = await createRefusedCrd(def);
    expect(refused.status, refused.text).toBe(422);
    expect(refused.body.message).toContain('Syntax error');
  });

  it('MUST fail create of a custom resource definition that contains an x-kubernetes-validations rule that exceeds the estimated cost limit', async () => {
    const def = crdWithSchema({
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: {
            x: {
              type: 'array',
              items: {
                type: 'array',
                items: { type: 'string' },
                'x-kubernetes-validations': [{ rule: "self.all(s, s == 'string constant')" }],
              },
            },
          },
        },
      },
    });
    const refused = await createRefusedCrd(def);
    expect(refused.status, refused.text).toBe(422);
    expect(refused.body.message).toContain('exceeds budget');
  });

  it('MUST fail create of a custom resource that exceeds the runtime cost limit for x-kubernetes-validations rule execution', async () => {
    const def = crdWithSchema(SCHEMA);
    await createCrd(srv, def);
    const largeArray = Array.from({ length: 725 }, () => 20); // genLargeArray(725, 20)
    const refused = await srv.api('POST', resourcePath(def, 'v1beta1'), customObject(def, { largeArray }));
    expect(refused.status, refused.text).toBe(422);
    expect(refused.body.message).toContain('call cost exceeds limit');
    await deleteCrd(srv, def);
  });

  it('MUST fail update of a custom resource that does not satisfy a x-kubernetes-validations transition rule', async () => {
    const def = crdWithSchema({
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: { num: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self > oldSelf' }] } },
        },
      },
    });
    await createCrd(srv, def);
    const name = generateName('cr-1');
    const path = `${resourcePath(def, 'v1beta1')}/${name}`;
    const created = await srv.api('POST', resourcePath(def, 'v1beta1'), customObject(def, { num: 10 }, name));
    expect(created.status, `transition rules do not apply to create operations: ${created.text}`).toBe(201);
    const update = customObject(def, { num: 9 }, name);
    const refused = await srv.api('PUT', path, {
      ...update,
      metadata: { ...update.metadata, resourceVersion: created.body.metadata.resourceVersion },
    });
    expect(refused.status, refused.text).toBe(422);
    expect(refused.body.message).toContain('failed rule');
    expect((await srv.api('GET', path)).body.spec).toEqual({ num: 10 });
    await deleteCrd(srv, def);
  });
});
