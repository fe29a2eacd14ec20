/**
 * Upstream's e2e test/e2e/apimachinery/crd_publish_openapi.go (1.33), the cases about what is
 * published: "[sig-api-machinery] CustomResourcePublishOpenAPI [Privileged:ClusterAdmin]".
 * Definitions across groups, versions and kinds each publish their schema under their own
 * definition name in `/openapi/v2` (and in their group version's `/openapi/v3` document);
 * renaming a version or no longer serving it changes what is published.
 */
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../helpers/in-process.js';
import {
  cleanupCrd,
  schemaFoo,
  schemaWaldo,
  setupCrd,
  testCrd,
  waitForDefinition,
  waitForDefinitionCleanup,
} from '../helpers/upstream-crd-openapi.js';
import { CRDS } from '../helpers/upstream-crds.js';

const srv = useTestServer();

/** Each definition: its schema, group suffix and versions. */
type Setup = { schema: Record<string, unknown>; suffix: string; versions: string[] };

describe('CustomResourcePublishOpenAPI [Privileged:ClusterAdmin]', () => {
  it.each([
    {
      name: 'works for multiple CRDs of different groups [Conformance]',
      steps: [
        [
          { schema: schemaFoo, suffix: 'foo', versions: ['v1'] },
          { schema: schemaWaldo, suffix: 'waldo', versions: ['v1beta1'] },
        ],
      ],
      sameGroup: false,
    },
    {
      name: 'works for multiple CRDs of same group but different versions [Conformance]',
      steps: [
        // one multiversion definition, then two definitions
        [{ schema: schemaFoo, suffix: 'multi-ver', versions: ['v2', 'v3'] }],
        [
          { schema: schemaFoo, suffix: 'common-group', versions: ['v4'] },
          { schema: schemaWaldo, suffix: 'common-group', versions: ['v5'] },
        ],
      ],
      sameGroup: true,
    },
    {
      name: 'works for multiple CRDs of same group and version but different kinds [Conformance]',
      steps: [
        [
          { schema: schemaFoo, suffix: 'common-group', versions: ['v6'] },
          { schema: schemaWaldo, suffix: 'common-group', versions: ['v6'] },
        ],
      ],
      sameGroup: true,
    },
  ] as { name: string; steps: Setup[][]; sameGroup: boolean }[])('$name', async ({ steps, sameGroup }) => {
    for (const setups of steps) {
      const defs = [];
      for (const { schema, suffix, versions } of setups)
        defs.push({ schema, def: await setupCrd(srv, testCrd(schema, suffix, versions), schema, schema) });
      if (defs.length === 2) expect(defs[0]!.def.spec.group === defs[1]!.def.spec.group).toBe(sameGroup);
      // Each definition keeps its own schema under its own name while the other is served.
      for (const { schema, def } of [...defs].reverse())
        for (const v of def.spec.versions) await waitForDefinition(srv, def, v.name, schema, schema);
      for (const { def } of defs) await cleanupCrd(srv, def);
    }
  });

  it('updates the published spec when one version gets renamed [Conformance]', async () => {
    const def = await setupCrd(srv, testCrd(schemaFoo, 'multi-ver', ['v2', 'v3']), schemaFoo, schemaFoo);
    const renamed = await srv.api(
      'PATCH',
      `${CRDS}/${def.metadata.name}`,
      [
        { op: 'test', path: '/spec/versions/1/name', value: 'v3' },
        { op: 'replace', path: '/spec/versions/1/name', value: 'v4' },
      ],
      { 'content-type': 'application/json-patch+json' },
    );
    expect(renamed.status, renamed.text).toBe(200);
    await waitForDefinition(srv, def, 'v4', schemaFoo, schemaFoo);
    await waitForDefinitionCleanup(srv, def, 'v3');
    await waitForDefinition(srv, def, 'v2', schemaFoo, schemaFoo);
    def.spec.versions[1]!.name = 'v4';
    await cleanupCrd(srv, def);
  });

  it('removes definition from spec when one version gets changed to not be served [Conformance]', async () => {
    const def = await setupCrd(
      srv,
      testCrd(schemaFoo, 'multi-to-single-ver', ['v5', 'v6alpha1']),
      schemaFoo,
      schemaFoo,
    );
    const got = await srv.api('GET', `${CRDS}/${def.metadata.name}`);
    got.body.spec.versions[1].served = false;
    const updated = await srv.api('PUT', `${CRDS}/${def.metadata.name}`, got.body);
    expect(updated.status, updated.text).toBe(200);
    await waitForDefinitionCleanup(srv, def, 'v6alpha1');
    await waitForDefinition(srv, def, 'v5', schemaFoo, schemaFoo);
    await cleanupCrd(srv, def);
  });
});
