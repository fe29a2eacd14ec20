/**
 * The life of a CustomResourceDefinition: watches of its objects see every event; deleting
 * it deletes every object first (the cleanup finalizer) and a new definition of the same name
 * starts empty; name conflicts within a group are refused through NamesAccepted; versions with
 * `conversion: None` serve the same objects under their own apiVersion; cluster-scoped
 * definitions; selectable fields; OpenAPI and aggregated discovery follow the definitions.
 */
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../helpers/in-process.js';
import { crd, establish, removeCrd } from '../helpers/crds.js';
import { openWatch } from '../helpers/watch-stream.js';
import { TEST_TOKEN } from '../helpers/in-process.js';

const srv = useTestServer();
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const obj = (apiVersion: string, kind: string, name: string, spec: Record<string, unknown> = {}) => ({
  apiVersion,
  kind,
  metadata: { name },
  spec,
});

describe('custom resource lifecycle', () => {
  it('marks a definition of a protected group KubernetesAPIApprovalPolicyConformant from its approval annotation', async () => {
    const def = crd({ group: 'testing.k8s.io', plural: 'approvals', kind: 'Approval' });
    const ANNOTATION = 'api-approved.kubernetes.io';
    const condition = async () => {
      for (let i = 0; i < 100; i++) {
        const got = await srv.api('GET', `${CRDS}/${def.metadata.name}`);
        const c = (got.body.status?.conditions ?? []).find(
          (x: any) => x.type === 'KubernetesAPIApprovalPolicyConformant',
        );
        if (c && c.message !== seen) return (seen = c.message) && c;
        await new Promise((r) => setTimeout(r, 20));
      }
      throw new Error('the condition did not change');
    };
    let seen = '';
    // Without the annotation, v1 refuses the definition.
    const refused = await srv.api('POST', CRDS, def);
    expect(refused.status).toBe(422);
    const annotated = {
      ...def,
      metadata: { ...def.metadata, annotations: { [ANNOTATION]: 'unapproved, experimental' } },
    };
    expect((await srv.api('POST', CRDS, annotated)).status).toBe(201);
    expect(await condition()).toMatchObject({
      status: 'False',
      reason: 'UnapprovedAnnotation',
      message: 'not approved: "unapproved, experimental"',
    });
    const got = (await srv.api('GET', `${CRDS}/${def.metadata.name}`)).body;
    got.metadata.annotations[ANNOTATION] = 'https://github.com/kubernetes/enhancements/pull/1111';
    expect((await srv.api('PUT', `${CRDS}/${def.metadata.name}`, got)).status).toBe(200);
    expect(await condition()).toMatchObject({
      status: 'True',
      reason: 'ApprovedAnnotation',
      message: 'approved in https://github.com/kubernetes/enhancements/pull/1111',
    });
    // Definitions of other groups get no such condition.
    const plain = await establish(srv, crd({ plural: 'plainthings', kind: 'PlainThing' }));
    expect(plain.status.conditions.map((c: any) => c.type)).not.toContain('KubernetesAPIApprovalPolicyConformant');
    await removeCrd(srv, def.metadata.name);
  });

  it('watch sees every event of custom objects', async () => {
    await establish(srv, crd({ plural: 'gadgets', kind: 'Gadget' }));
    const path = '/apis/example.com/v1/namespaces/default/gadgets';
    const rv = (await srv.api('GET', path)).body.metadata.resourceVersion;
    const watch = await openWatch(`${srv.url}${path}?watch=true&resourceVersion=${rv}`, TEST_TOKEN, srv.agent);
    await srv.api('POST', path, obj('example.com/v1', 'Gadget', 'g1', { a: 1 }));
    await srv.api('PATCH', `${path}/g1`, { spec: { a: 2 } }, { 'content-type': 'application/merge-patch+json' });
    await srv.api('DELETE', `${path}/g1`);
    const events = await watch.next(3);
    expect(events.map((e: any) => [e.type, e.object.kind, e.object.spec.a])).toEqual([
      ['ADDED', 'Gadget', 1],
      ['MODIFIED', 'Gadget', 2],
      ['DELETED', 'Gadget', 2],
    ]);
    watch.close();
  });

  it('deleting the definition deletes every object, and a new one of the same name starts empty', async () => {
    const def = crd({ plural: 'sprockets', kind: 'Sprocket' });
    await establish(srv, def);
    await srv.api('POST', '/api/v1/namespaces', { metadata: { name: 'spr' } });
    for (const ns of ['default', 'spr'])
      for (const name of ['a', 'b'])
        expect(
          (
            await srv.api(
              'POST',
              `/apis/example.com/v1/namespaces/${ns}/sprockets`,
              obj('example.com/v1', 'Sprocket', name),
            )
          ).status,
        ).toBe(201);
    const deleting = await srv.api('DELETE', `${CRDS}/${def.metadata.name}`);
    expect(deleting.status).toBe(200);
    expect(deleting.body.metadata.finalizers).toEqual(['customresourcecleanup.apiextensions.k8s.io']);
    expect(deleting.body.status.conditions.find((c: any) => c.type === 'Terminating')).toMatchObject({
      status: 'True',
      reason: 'InstanceDeletionPending',
    });
    await removeCrd(srv, def.metadata.name);
    expect((await srv.api('GET', '/apis/example.com/v1/sprockets')).status).toBe(404);
    await establish(srv, def);
    expect((await srv.api('GET', '/apis/example.com/v1/sprockets')).body.items).toEqual([]);
  });

  it('refuses a kind another definition of the group accepted (NamesAccepted False, the last conflict named, not served)', async () => {
    await establish(srv, crd({ group: 'names.example.com', plural: 'things', kind: 'Thing' }));
    const other = crd({ group: 'names.example.com', plural: 'things', kind: 'Other' });
    other.metadata.name = 'others.names.example.com';
    other.spec.names.plural = 'things';
    // The name must be <plural>.<group>: a conflicting plural needs another name, which validation refuses.
    const refused = await srv.api('POST', CRDS, other);
    expect(refused.status).toBe(422);
    const kindClash = crd({ group: 'names.example.com', plural: 'stuffs', kind: 'Thing' });
    expect((await srv.api('POST', CRDS, kindClash)).status).toBe(201);
    let conditions: any[] = [];
    for (let i = 0; i < 100 && !conditions.some((c) => c.type === 'NamesAccepted'); i++) {
      await new Promise((r) => setTimeout(r, 20));
      conditions = (await srv.api('GET', `${CRDS}/stuffs.names.example.com`)).body.status?.conditions ?? [];
    }
    expect(conditions.find((c) => c.type === 'NamesAccepted')).toMatchObject({
      status: 'False',
      // Kind and its default list kind both clash; upstream's condition names the last check's.
      reason: 'ListKindConflict',
      message: '"ThingList" is already in use',
    });
    expect(conditions.find((c) => c.type === 'Established')).toMatchObject({ status: 'False', reason: 'NotAccepted' });
    expect((await srv.api('GET', '/apis/names.example.com/v1/stuffs')).status).toBe(404);
  });

  it('serves every version with conversion None, each object under the apiVersion asked for', async () => {
    const schema = { type: 'object', properties: { spec: { type: 'object', properties: { n: { type: 'integer' } } } } };
    const def = crd({
      group: 'multi.example.com',
      plural: 'dials',
      kind: 'Dial',
      versions: [
        { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schema } },
        { name: 'v2', served: true, storage: false, schema: { openAPIV3Schema: schema } },
        { name: 'v1beta1', served: false, storage: false, schema: { openAPIV3Schema: schema } },
      ],
    });
    await establish(srv, def);
    const created = await srv.api(
      'POST',
      '/apis/multi.example.com/v2/namespaces/default/dials',
      obj('multi.example.com/v2', 'Dial', 'd', { n: 3 }),
    );
    expect(created.status).toBe(201);
    expect(created.body.apiVersion).toBe('multi.example.com/v2');
    const v1 = await srv.api('GET', '/apis/multi.example.com/v1/namespaces/default/dials/d');
    expect(v1.body).toMatchObject({ apiVersion: 'multi.example.com/v1', spec: { n: 3 } });
    expect((await srv.api('GET', '/apis/multi.example.com/v1beta1/namespaces/default/dials')).status).toBe(404);
    expect((await srv.api('GET', '/apis/multi.example.com')).body.versions.map((v: any) => v.version)).toEqual([
      'v2',
      'v1',
    ]);
  });

  it('serves cluster-scoped definitions and selectable fields', async () => {
    await establish(
      srv,
      crd({
        group: 'scope.example.com',
        plural: 'colors',
        kind: 'Color',
        scope: 'Cluster',
        schema: { type: 'object', properties: { spec: { type: 'object', properties: { hue: { type: 'string' } } } } },
        selectableFields: [{ jsonPath: '.spec.hue' }],
      }),
    );
    const path = '/apis/scope.example.com/v1/colors';
    for (const [name, hue] of [
      ['c1', 'red'],
      ['c2', 'blue'],
    ])
      expect((await srv.api('POST', path, obj('scope.example.com/v1', 'Color', name, { hue }))).status).toBe(201);
    const red = await srv.api('GET', `${path}?fieldSelector=spec.hue%3Dred`);
    expect(red.body.items.map((i: any) => i.metadata.name)).toEqual(['c1']);
    expect((await srv.api('GET', `${path}?fieldSelector=spec.size%3D1`)).status).toBe(400);
    expect((await srv.api('GET', '/apis/scope.example.com/v1/namespaces/default/colors')).status).toBe(404);
  });

  it('publishes the schema in OpenAPI v3 and changes the aggregated discovery document', async () => {
    const accept = { accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList' };
    const before = await srv.api('GET', '/apis', undefined, accept);
    await establish(
      srv,
      crd({
        group: 'docs.example.com',
        plural: 'notes',
        kind: 'Note',
        schema: {
          type: 'object',
          properties: { spec: { type: 'object', properties: { text: { type: 'string', description: 'The text.' } } } },
        },
      }),
    );
    const after = await srv.api('GET', '/apis', undefined, accept);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(after.body.items.map((g: any) => g.metadata.name)).toContain('docs.example.com');
    const index = (await srv.api('GET', '/openapi/v3')).body.paths;
    expect(index['apis/docs.example.com/v1']).toBeDefined();
    const doc = (await srv.api('GET', '/openapi/v3/apis/docs.example.com/v1')).body;
    const schema = doc.components.schemas['com.example.docs.v1.Note'];
    expect(schema.properties.spec.properties.text).toEqual({ type: 'string', description: 'The text.' });
    expect(schema['x-kubernetes-group-version-kind']).toEqual([
      { group: 'docs.example.com', version: 'v1', kind: 'Note' },
    ]);
  });
});
