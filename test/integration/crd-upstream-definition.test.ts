/**
 * Upstream's e2e test/e2e/apimachinery/custom_resource_definition.go (1.33), case by case:
 * "[sig-api-machinery] CustomResourceDefinition resources [Privileged:ClusterAdmin]". Each `it`
 * carries the upstream name and asserts what upstream asserts, through the HTTP API as
 * client-go's typed and dynamic clients call it.
 */
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../helpers/in-process.js';
import {
  CRDS,
  createCrd,
  deleteCrd,
  eventually,
  generateName,
  randomCrd,
  resourcePath,
  waitGoneFromDiscovery,
} from '../helpers/upstream-crds.js';

const srv = useTestServer();
const JSON_PATCH = { 'content-type': 'application/json-patch+json' };
const MERGE_PATCH = { 'content-type': 'application/merge-patch+json' };

/** equality.Semantic.DeepEqual of two conditions as Go decodes them (absent strings are ""). */
const sameCondition = (c: any, want: { message: string }) =>
  (c.type ?? '') === '' &&
  (c.status ?? '') === '' &&
  (c.reason ?? '') === '' &&
  c.lastTransitionTime == null &&
  c.message === want.message;

describe('CustomResourceDefinition resources [Privileged:ClusterAdmin] Simple CustomResourceDefinition', () => {
  it('creating/deleting custom resource definition objects works [Conformance]', async () => {
    const def = randomCrd('Cluster');
    const created = await createCrd(srv, def);
    expect(created.metadata.name).toBe(def.metadata.name);
    expect((await srv.api('GET', resourcePath(def, 'v1beta1'))).status).toBe(200);
    await deleteCrd(srv, def);
    await eventually(async () => (await srv.api('GET', `${CRDS}/${def.metadata.name}`)).status === 404, 'deleted');
    expect((await srv.api('GET', resourcePath(def, 'v1beta1'))).status).toBe(404);
  });

  it('listing custom resource definition objects works [Conformance]', async () => {
    const uuid = crypto.randomUUID();
    const labelled = [];
    for (let i = 0; i < 10; i++) {
      const def = randomCrd('Cluster');
      def.metadata.labels = { 'e2e-list-test-uuid': uuid };
      labelled.push({ def, created: await createCrd(srv, def) });
    }
    const other = randomCrd('Cluster');
    await createCrd(srv, other);

    const selector = `labelSelector=${encodeURIComponent(`e2e-list-test-uuid=${uuid}`)}`;
    const list = await srv.api('GET', `${CRDS}?${selector}`);
    expect(list.status).toBe(200);
    expect(list.body.items).toHaveLength(10);
    for (const actual of list.body.items) {
      const expected = labelled.find((l) => l.created.metadata.name === actual.metadata.name);
      expect(expected, actual.metadata.name).toBeDefined();
      expect(actual.spec).toEqual(expected!.created.spec);
    }

    // fixtures.DeleteV1CustomResourceDefinitions: delete the collection, wait for discovery.
    expect((await srv.api('DELETE', `${CRDS}?${selector}`)).status).toBe(200);
    for (const { def } of labelled) await waitGoneFromDiscovery(srv, def);
    expect((await srv.api('GET', `${CRDS}/${other.metadata.name}`)).status).toBe(200);
    await deleteCrd(srv, other);
  });

  it('getting/updating/patching custom resource definition status sub-resource works [Conformance]', async () => {
    const def = randomCrd('Cluster');
    const created = await createCrd(srv, def);
    const statusPath = `${CRDS}/${def.metadata.name}/status`;

    // retry.RetryOnConflict: the controllers write the status too.
    let updated: any;
    await eventually(async () => {
      const got = await srv.api('GET', statusPath);
      expect(got.status).toBe(200);
      expect(got.body.spec).toEqual(created.spec);
      const conditions = [...(got.body.status.conditions ?? []), { type: '', status: '', message: 'updated' }];
      const put = await srv.api('PUT', statusPath, { ...got.body, status: { ...got.body.status, conditions } });
      if (put.status === 409) return false;
      expect(put.status, put.text).toBe(200);
      updated = put.body;
      return true;
    }, 'status update without conflict');
    expect(updated.status.conditions.some((c: any) => sameCondition(c, { message: 'updated' }))).toBe(true);
    const read = await srv.api('GET', `${CRDS}/${def.metadata.name}`);
    expect(read.body.status.conditions.some((c: any) => sameCondition(c, { message: 'updated' }))).toBe(true);

    const patched = await srv.api(
      'PATCH',
      statusPath,
      [{ op: 'add', path: '/status/conditions', value: [{ message: 'patched' }] }],
      JSON_PATCH,
    );
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.status.conditions.some((c: any) => sameCondition(c, { message: 'patched' }))).toBe(true);
    await deleteCrd(srv, def);
  });
});

describe('CustomResourceDefinition resources [Privileged:ClusterAdmin]', () => {
  it.each([
    {
      doc: '/apis',
      find: (body: any) =>
        body.groups.find((g: any) => g.name === 'apiextensions.k8s.io')?.versions.some((v: any) => v.version === 'v1'),
    },
    {
      doc: '/apis/apiextensions.k8s.io',
      find: (body: any) => body.name === 'apiextensions.k8s.io' && body.versions.some((v: any) => v.version === 'v1'),
    },
    {
      doc: '/apis/apiextensions.k8s.io/v1',
      find: (body: any) =>
        body.groupVersion === 'apiextensions.k8s.io/v1' &&
        body.resources.some((r: any) => r.name === 'customresourcedefinitions'),
    },
  ])(
    'should include custom resource definition resources in discovery documents [Conformance]: $doc',
    async ({ doc, find }) => {
      const res = await srv.api('GET', doc);
      expect(res.status).toBe(200);
      expect(find(res.body)).toBe(true);
    },
  );

  it('custom resource defaulting for requests and from storage works [Conformance]', async () => {
    const def = randomCrd('Cluster');
    const schema = def.spec.versions[0]!.schema.openAPIV3Schema;
    schema.properties = { a: { type: 'string' }, b: { type: 'string' } };
    await createCrd(srv, def);
    const path = resourcePath(def, 'v1beta1');
    const instance = (name: string) => ({
      apiVersion: 'mygroup.example.com/v1beta1',
      kind: def.spec.names.kind,
      metadata: { name },
    });

    // A CR stored without the default is defaulted on read once the schema has one.
    const name1 = generateName('cr-1');
    expect((await srv.api('POST', path, instance(name1))).status).toBe(201);
    const setA = await srv.api(
      'PATCH',
      `${CRDS}/${def.metadata.name}`,
      [{ op: 'add', path: '/spec/versions/0/schema/openAPIV3Schema/properties/a/default', value: 'A' }],
      JSON_PATCH,
    );
    expect(setA.status, setA.text).toBe(200);
    await eventually(async () => {
      const a = (await srv.api('GET', `${path}/${name1}`)).body.a;
      if (a !== undefined) expect(a).toBe('A');
      return a !== undefined;
    }, 'cr-1 defaulted on read');
    // Not upstream's assertion, its consequence: the old object an update starts from is read
    // the same way, so a metadata-only change keeps the generation.
    const labelled = await srv.api('PATCH', `${path}/${name1}`, { metadata: { labels: { l: 'v' } } }, MERGE_PATCH);
    expect([labelled.body.metadata.generation, labelled.body.a]).toEqual([1, 'A']);

    // A CR created now is defaulted on the request (and so stored with the default).
    const name2 = generateName('cr-2');
    const u2 = await srv.api('POST', path, instance(name2));
    expect(u2.status).toBe(201);
    expect(u2.body.a).toBe('A');

    // Moving the default to b: b is defaulted on read, a stays as stored.
    const moveDefault = await srv.api(
      'PATCH',
      `${CRDS}/${def.metadata.name}`,
      [
        { op: 'remove', path: '/spec/versions/0/schema/openAPIV3Schema/properties/a/default' },
        { op: 'add', path: '/spec/versions/0/schema/openAPIV3Schema/properties/b/default', value: 'B' },
      ],
      JSON_PATCH,
    );
    expect(moveDefault.status, moveDefault.text).toBe(200);
    await eventually(async () => {
      const got = (await srv.api('GET', `${path}/${name2}`)).body;
      if (got.b === undefined) return false;
      expect(got.b).toBe('B');
      expect(got.a).toBe('A');
      return true;
    }, 'cr-2 defaulted on read for b, a unchanged');
    await deleteCrd(srv, def);
  });
});
