/**
 * Every resource-table row in protobuf, as a Table and in OpenAPI. A stored row's object,
 * created in JSON, reads back in protobuf as the same object and takes a protobuf update; a row
 * without stored objects takes a protobuf create. Rows serving get and list print a
 * meta.k8s.io/v1 Table with their printer's columns; rows that do not (create only) refuse a
 * Table-only Accept with 406, as upstream refuses a conversion a resource has no table
 * convertor for. Each row's kind is a definition of /openapi/v2 and a schema of its group
 * version's /openapi/v3 document, tagged with the row's x-kubernetes-group-version-kind
 * (kubectl finds schemas by it), and the operations on its paths are exactly its verbs.
 */
import { request } from 'undici';
import { beforeAll, describe, expect, it } from 'vitest';
import { codecFor } from '../../src/api/protobuf/codec.js';
import { apiVersionOf, type ResourceDefinition, type Verb } from '../../src/registry/types.js';
import { RESOURCE_TABLE } from '../../src/resources/table.js';
import { fixtureOf, rowKey, type Json } from '../fixtures/kinds/index.js';
import { collectionOf, createObject, isStored, placeOf, rootOf, typedBody } from '../fixtures/kinds/rows.js';
import { TEST_TOKEN, useTestServer } from '../helpers/in-process.js';

const srv = useTestServer();
const api = (...args: Parameters<typeof srv.api>) => srv.api(...args);
const codec = codecFor(RESOURCE_TABLE);
const PB = 'application/vnd.kubernetes.protobuf';
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';

/** A request answering raw bytes. */
async function raw(method: string, path: string, headers: Record<string, string>, body?: Buffer) {
  const res = await request(srv.url + path, {
    method: method as never,
    dispatcher: srv.agent,
    headers: { authorization: `Bearer ${TEST_TOKEN}`, ...headers },
    body,
  });
  return {
    status: res.statusCode,
    contentType: String(res.headers['content-type']),
    bytes: Buffer.from(await res.body.arrayBuffer()),
  };
}

/** Decode a protobuf answer, failing with its text when it is not one. */
function decoded(res: { status: number; contentType: string; bytes: Buffer }) {
  expect(res.contentType, `${res.status} ${res.bytes.toString()}`).toBe(PB);
  return codec.decodeObject(res.bytes);
}

const hasMessages = (def: ResourceDefinition) => codec.canEncode(def.kind);

let v2: Json;
let v3Index: Json;
const v3Docs = new Map<string, Json>();
beforeAll(async () => {
  v2 = (await srv.api('GET', '/openapi/v2')).body;
  v3Index = (await srv.api('GET', '/openapi/v3')).body;
});

/** The /openapi/v3 index key of a row's group version: `api/v1`, `apis/{group}/{version}`. */
const groupVersionKey = (def: ResourceDefinition) => rootOf(def).slice(1);

async function v3DocOf(def: ResourceDefinition): Promise<Json> {
  const key = groupVersionKey(def);
  if (!v3Docs.has(key)) {
    const url = v3Index.paths[key]?.serverRelativeURL;
    expect(url, `/openapi/v3 has no ${key}`).toEqual(expect.any(String));
    v3Docs.set(key, (await srv.api('GET', url)).body);
  }
  return v3Docs.get(key)!;
}

const gvkOf = (def: ResourceDefinition) => ({ group: def.group, version: def.version, kind: def.kind });

/** Names of the definitions tagged with the row's group, version and kind. */
function taggedWith(definitions: Record<string, Json>, def: ResourceDefinition): string[] {
  return Object.entries(definitions)
    .filter(([, schema]) =>
      ((schema['x-kubernetes-group-version-kind'] ?? []) as Json[]).some(
        (gvk) => gvk.group === def.group && gvk.version === def.version && gvk.kind === def.kind,
      ),
    )
    .map(([name]) => name);
}

/** The OpenAPI paths of a row and which verb each HTTP method there stands for. */
function operationsOf(def: ResourceDefinition): { path: string; methods: Record<string, Verb> }[] {
  const collection = def.namespaced
    ? `${rootOf(def)}/namespaces/{namespace}/${def.plural}`
    : `${rootOf(def)}/${def.plural}`;
  return [
    { path: collection, methods: { get: 'list', post: 'create', delete: 'deletecollection' } },
    { path: `${collection}/{name}`, methods: { get: 'get', put: 'update', patch: 'patch', delete: 'delete' } },
  ];
}

/** `path method` of every operation of a row's paths in `paths`, and of those its verbs call for. */
function compareOperations(paths: Json, def: ResourceDefinition): { present: string[]; served: string[] } {
  const present: string[] = [];
  const served: string[] = [];
  for (const { path, methods } of operationsOf(def)) {
    for (const [method, verb] of Object.entries(methods)) {
      if (paths[path]?.[method]) present.push(`${method} ${path}`);
      if (def.verbs.includes(verb)) served.push(`${method} ${path}`);
    }
  }
  return { present, served };
}

// Rows serving only subresources (no verb of their own) have no objects to encode.
const encoded = RESOURCE_TABLE.filter((def) => def.verbs.length > 0);

describe.each(encoded.map((def) => [rowKey(def), def] as const))('%s', (_key, def) => {
  if (isStored(def)) {
    it(
      hasMessages(def)
        ? 'reads back in protobuf the object JSON shows, and takes a protobuf update'
        : 'answers in JSON when asked for protobuf, having no message',
      async () => {
        const place = placeOf(def, 'pb');
        await createObject(api, def, place);
        const item = `${collectionOf(def)}/${place.name}`;
        const json = (await api('GET', item)).body;
        const got = await raw('GET', item, { accept: `${PB}, application/json` });
        expect(got.status).toBe(200);
        if (!hasMessages(def)) {
          expect(got.contentType).toBe('application/json');
          expect(JSON.parse(got.bytes.toString())).toEqual(json);
          return;
        }
        expect(decoded(got)).toEqual(json);
        const list = decoded(
          await raw('GET', `${collectionOf(def)}?fieldSelector=metadata.name%3D${place.name}`, { accept: PB }),
        );
        expect(list).toMatchObject({ apiVersion: apiVersionOf(def), kind: `${def.kind}List` });
        expect(list.items).toEqual([(({ apiVersion, kind, ...rest }) => rest)(json)]);

        const changed = {
          ...json,
          metadata: { ...json.metadata, labels: { ...json.metadata.labels, protobuf: 'yes' } },
        };
        const put = await raw('PUT', item, { 'content-type': PB, accept: PB }, codec.encodeObject(changed));
        expect(put.status, put.bytes.toString()).toBe(200);
        expect(decoded(put)).toMatchObject({
          apiVersion: apiVersionOf(def),
          kind: def.kind,
          metadata: { name: place.name, labels: { protobuf: 'yes' } },
        });
      },
    );
  } else {
    it(
      hasMessages(def)
        ? 'takes a protobuf create and answers in protobuf'
        : 'answers a create in JSON when asked for protobuf, having no message',
      async () => {
        const fixture = fixtureOf(def);
        const place = placeOf(def, 'pb');
        await fixture.setup?.(api, place);
        if (!hasMessages(def)) {
          const res = await api('POST', collectionOf(def), typedBody(def, place), {
            accept: `${PB}, application/json`,
          });
          expect(res.headers['content-type']).toBe('application/json');
          return;
        }
        const res = await raw(
          'POST',
          collectionOf(def),
          { 'content-type': PB, accept: PB },
          codec.encodeObject(typedBody(def, place)),
        );
        expect(res.status, res.bytes.toString()).toBe(201);
        expect(decoded(res)).toMatchObject({ apiVersion: apiVersionOf(def), kind: def.kind, ...fixture.created });
        await fixture.verifyCreate?.(api, place);
      },
    );
  }

  if (def.verbs.includes('get') && def.verbs.includes('list')) {
    it("prints a Table with the row's columns, for a list and for one object", async () => {
      const place = placeOf(def, 'table');
      await createObject(api, def, place);
      const nameColumn = def.printer.columns.findIndex((c) => c.format === 'name');
      expect(nameColumn).toBeGreaterThanOrEqual(0);
      for (const path of [
        `${collectionOf(def)}?fieldSelector=metadata.name%3D${place.name}`,
        `${collectionOf(def)}/${place.name}`,
      ]) {
        const res = await api('GET', path, undefined, { accept: `${TABLE}, application/json` });
        expect(res.status, res.text).toBe(200);
        expect(res.headers['content-type']).toBe(TABLE);
        expect(res.body).toMatchObject({ kind: 'Table', apiVersion: 'meta.k8s.io/v1' });
        expect(res.body.columnDefinitions).toEqual(JSON.parse(JSON.stringify(def.printer.columns)));
        expect(res.body.rows).toHaveLength(1);
        const [row] = res.body.rows;
        expect(row.cells).toHaveLength(def.printer.columns.length);
        expect(row.cells[nameColumn]).toBe(place.name);
        expect(row.object).toMatchObject({
          kind: 'PartialObjectMetadata',
          apiVersion: 'meta.k8s.io/v1',
          metadata: { name: place.name },
        });
      }
    });
  } else {
    it('refuses a Table-only Accept with 406 and answers JSON when JSON is acceptable too', async () => {
      const fixture = fixtureOf(def);
      const place = placeOf(def, 'table');
      await fixture.setup?.(api, place);
      const refused = await api('POST', collectionOf(def), typedBody(def, place), { accept: TABLE });
      expect(refused.status, refused.text).toBe(406);
      expect(refused.body).toMatchObject({ kind: 'Status', reason: 'NotAcceptable', code: 406 });
      const json = await api('POST', collectionOf(def), typedBody(def, place), {
        accept: `${TABLE}, application/json`,
      });
      expect(json.status, json.text).toBe(201);
      expect(json.headers['content-type']).toBe('application/json');
      expect(json.body).toMatchObject({ apiVersion: apiVersionOf(def), kind: def.kind, ...fixture.created });
    });
  }

  it('is a definition of /openapi/v2 tagged with its group, version and kind, with an operation per verb', () => {
    expect(
      taggedWith(v2.definitions, def),
      `no /openapi/v2 definition has x-kubernetes-group-version-kind ${JSON.stringify(gvkOf(def))}`,
    ).toHaveLength(1);
    const { present, served } = compareOperations(v2.paths, def);
    expect(present).toEqual(served);
  });

  it('is a schema of its /openapi/v3 group version document, with an operation per verb naming its kind', async () => {
    const doc = await v3DocOf(def);
    const names = taggedWith(doc.components.schemas, def);
    expect(
      names,
      `no schema of ${groupVersionKey(def)} has x-kubernetes-group-version-kind ${JSON.stringify(gvkOf(def))}`,
    ).toHaveLength(1);
    const { present, served } = compareOperations(doc.paths, def);
    expect(present).toEqual(served);
    for (const { path, methods } of operationsOf(def)) {
      for (const method of Object.keys(methods).filter((m) => doc.paths[path]?.[m])) {
        expect(doc.paths[path][method]['x-kubernetes-group-version-kind'], `${method} ${path}`).toEqual(gvkOf(def));
      }
    }
    const create = doc.paths[operationsOf(def)[0].path]?.post;
    if (create)
      expect(create.requestBody.content['application/json'].schema).toEqual({
        $ref: `#/components/schemas/${names[0]}`,
      });
  });
});
