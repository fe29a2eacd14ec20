/**
 * Custom resources served from CustomResourceDefinitions, as clients see them: the definition
 * is Established with its accepted names and served in discovery; objects are pruned,
 * defaulted and validated by the version's schema with upstream's messages; `/status` and
 * `/scale` behave as upstream's; printer columns make the Table; JSON and YAML only.
 */
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../helpers/in-process.js';
import { crd, establish } from '../helpers/crds.js';

const srv = useTestServer();
const W = '/apis/example.com/v1/namespaces/default/widgets';

const WIDGETS = crd({
  plural: 'widgets',
  kind: 'Widget',
  shortNames: ['wd'],
  subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' } },
  columns: [
    { name: 'Size', type: 'string', jsonPath: '.spec.size' },
    { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' },
    { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
  ],
  schema: {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        required: ['size'],
        properties: {
          size: { type: 'string', enum: ['small', 'large'] },
          replicas: { type: 'integer', minimum: 0, maximum: 10, default: 1 },
        },
      },
      status: {
        type: 'object',
        properties: {
          replicas: { type: 'integer' },
          conditions: {
            type: 'array',
            items: { type: 'object', properties: { type: { type: 'string' }, status: { type: 'string' } } },
          },
        },
      },
    },
  },
});

const widget = (name: string, spec: Record<string, unknown> = { size: 'small' }) => ({
  apiVersion: 'example.com/v1',
  kind: 'Widget',
  metadata: { name },
  spec,
});

describe('a CustomResourceDefinition', () => {
  it('is Established with its accepted names and stored version, and served in discovery', async () => {
    const def = await establish(srv, WIDGETS);
    expect(def.status.acceptedNames).toEqual({
      plural: 'widgets',
      singular: 'widget',
      kind: 'Widget',
      listKind: 'WidgetList',
      shortNames: ['wd'],
    });
    const conditions = Object.fromEntries(def.status.conditions.map((c: any) => [c.type, [c.status, c.reason]]));
    expect(conditions).toEqual({
      NamesAccepted: ['True', 'NoConflicts'],
      Established: ['True', 'InitialNamesAccepted'],
    });
    expect(def.status.storedVersions).toEqual(['v1']);

    const groups = (await srv.api('GET', '/apis')).body.groups.map((g: any) => g.name);
    expect(groups.at(-1)).toBe('example.com');
    const list = (await srv.api('GET', '/apis/example.com/v1')).body.resources;
    expect(list.map((r: any) => [r.name, r.kind, r.namespaced])).toEqual([
      ['widgets', 'Widget', true],
      ['widgets/status', 'Widget', true],
      ['widgets/scale', 'Scale', true],
    ]);
    expect(list[0].shortNames).toEqual(['wd']);
  });

  it('prunes unknown fields (a warning, or 400 under Strict), defaults and validates with upstream messages', async () => {
    const warned = await srv.api('POST', W, { ...widget('w-prune'), spec: { size: 'small', extra: 1 }, top: true });
    expect(warned.status).toBe(201);
    expect(warned.body.spec).toEqual({ size: 'small', replicas: 1 });
    expect(warned.body.top).toBeUndefined();
    expect(String(warned.headers.warning)).toContain('unknown field \\"spec.extra\\"');

    const strict = await srv.api('POST', `${W}?fieldValidation=Strict`, {
      ...widget('w-strict'),
      spec: { size: 'small', x: 1 },
    });
    expect(strict.status).toBe(400);
    expect(strict.body.message).toContain('unknown field "spec.x"');

    const invalid = await srv.api('POST', W, widget('w-bad', { size: 'huge', replicas: 20 }));
    expect(invalid.status).toBe(422);
    // Upstream's order of the two follows Go's map order; the causes are what is compared.
    expect(invalid.body.message).toMatch(/^Widget\.example\.com "w-bad" is invalid: \[/);
    expect(invalid.body.details.causes).toEqual(
      expect.arrayContaining([
        {
          reason: 'FieldValueInvalid',
          field: 'spec.replicas',
          message: 'Invalid value: 20: spec.replicas in body should be less than or equal to 10',
        },
        {
          reason: 'FieldValueNotSupported',
          field: 'spec.size',
          message: 'Unsupported value: "huge": supported values: "small", "large"',
        },
      ]),
    );
    expect((await srv.api('POST', W, widget('w-nosize', {}))).body.message).toBe(
      'Widget.example.com "w-nosize" is invalid: spec.size: Required value',
    );
  });

  it('keeps status out of main writes and spec out of /status, bumping generation only for non-metadata changes', async () => {
    const created = await srv.api('POST', W, { ...widget('w-status'), status: { replicas: 5 } });
    expect(created.body.status).toBeUndefined();
    expect(created.body.metadata.generation).toBe(1);
    const status = await srv.api('PUT', `${W}/w-status/status`, {
      ...created.body,
      spec: { size: 'large' },
      status: { replicas: 2, conditions: [{ type: 'Ready', status: 'True' }] },
    });
    expect(status.status).toBe(200);
    expect(status.body.spec.size).toBe('small');
    expect(status.body.status.replicas).toBe(2);
    expect(status.body.metadata.generation).toBe(1);
    const labelled = await srv.api(
      'PATCH',
      `${W}/w-status`,
      { metadata: { labels: { a: 'b' } } },
      {
        'content-type': 'application/merge-patch+json',
      },
    );
    expect(labelled.body.metadata.generation).toBe(1);
    const spec = await srv.api(
      'PATCH',
      `${W}/w-status`,
      { spec: { size: 'large' }, status: { replicas: 9 } },
      {
        'content-type': 'application/merge-patch+json',
      },
    );
    expect(spec.body.metadata.generation).toBe(2);
    expect(spec.body.status.replicas).toBe(2);

    const table = await srv.api('GET', `${W}/w-status`, undefined, {
      accept: 'application/json;as=Table;v=v1;g=meta.k8s.io',
    });
    expect(table.body.columnDefinitions.map((c: any) => c.name)).toEqual(['Name', 'Size', 'Replicas', 'Ready']);
    expect(table.body.rows[0].cells).toEqual(['w-status', 'large', 1, 'True']);
  });

  it('serves /scale as an autoscaling/v1 Scale written at specReplicasPath', async () => {
    await srv.api('POST', W, widget('w-scale', { size: 'small', replicas: 2 }));
    const scale = await srv.api('GET', `${W}/w-scale/scale`);
    expect(scale.body).toMatchObject({
      kind: 'Scale',
      apiVersion: 'autoscaling/v1',
      spec: { replicas: 2 },
      status: { replicas: 0 },
    });
    const put = await srv.api('PUT', `${W}/w-scale/scale`, { ...scale.body, spec: { replicas: 4 } });
    expect(put.status).toBe(200);
    const got = await srv.api('GET', `${W}/w-scale`);
    expect(got.body.spec.replicas).toBe(4);
    expect(got.body.metadata.generation).toBe(2);
    const negative = await srv.api('PUT', `${W}/w-scale/scale`, { ...put.body, spec: { replicas: -1 } });
    expect(negative.status).toBe(422);
  });

  it('is served in JSON and YAML only: protobuf is 406, a protobuf body or a strategic merge patch 415', async () => {
    await srv.api('POST', W, widget('w-media'));
    const onlyProto = await srv.api('GET', `${W}/w-media`, undefined, {
      accept: 'application/vnd.kubernetes.protobuf',
    });
    expect(onlyProto.status).toBe(406);
    const fallback = await srv.api('GET', `${W}/w-media`, undefined, {
      accept: 'application/vnd.kubernetes.protobuf, application/json',
    });
    expect(fallback.status).toBe(200);
    expect(fallback.headers['content-type']).toBe('application/json');
    const yaml = await srv.api('GET', `${W}/w-media`, undefined, { accept: 'application/yaml' });
    expect(yaml.text).toContain('kind: Widget');
    const smp = await srv.api(
      'PATCH',
      `${W}/w-media`,
      { spec: { size: 'large' } },
      {
        'content-type': 'application/strategic-merge-patch+json',
      },
    );
    expect(smp.status).toBe(415);
    expect(smp.body.message).toBe(
      'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml',
    );
    const protoBody = await srv.api('POST', W, Buffer.from([0x6b, 0x38, 0x73, 0]).toString('latin1'), {
      'content-type': 'application/vnd.kubernetes.protobuf',
    });
    expect(protoBody.status).toBe(415);
  });

  it('refuses objects in a namespace that does not exist', async () => {
    const res = await srv.api('POST', '/apis/example.com/v1/namespaces/nowhere/widgets', widget('w-ns'));
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('namespaces "nowhere" not found');
  });
});
