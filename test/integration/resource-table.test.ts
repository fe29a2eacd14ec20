/**
 * The resource table drives this suite (and resource-table-*.test.ts): every row has fixtures,
 * every verb a row serves answers as upstream's generic store does, and a verb it does not
 * serve is 405 MethodNotAllowed. Rows that store nothing (Binding, the review kinds) get their
 * own create. Patches, subresources and encodings are in the other resource-table files.
 */
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { ALL_VERBS, apiVersionOf, type ResourceDefinition, type Verb } from '../../src/registry/types.js';
import { RESOURCE_TABLE } from '../../src/resources/table.js';
import { KIND_FIXTURES, fixtureOf, rowKey, type Json, type Place } from '../fixtures/kinds/index.js';
import { collectionOf, createObject, isStored, labelOf, placeOf, rootOf, typedBody } from '../fixtures/kinds/rows.js';
import { TEST_TOKEN, useTestServer } from '../helpers/in-process.js';

const srv = useTestServer();
const api = (...args: Parameters<typeof srv.api>) => srv.api(...args);
const WRITE_VERBS = ['create', 'update', 'patch'] as const;

describe('the resource table', () => {
  it('every row has fixtures', () => {
    const missing = RESOURCE_TABLE.map(rowKey).filter((key) => !KIND_FIXTURES.has(key));
    expect(missing, 'rows without fixtures: add them under test/fixtures/kinds/').toEqual([]);
  });

  it('every write subresource of a row has a fixture for each write verb it serves', () => {
    const missing = RESOURCE_TABLE.flatMap((def) =>
      def.subresources
        .filter((sub) => !sub.connect)
        .flatMap((sub) =>
          WRITE_VERBS.filter(
            (verb) => sub.verbs.includes(verb) && !KIND_FIXTURES.get(rowKey(def))?.subresources?.[sub.name]?.[verb],
          ).map((verb) => `${rowKey(def)}/${sub.name} ${verb}`),
        ),
    );
    expect(missing).toEqual([]);
  });

  it('every fixture serves a row of the table, and a write subresource it declares', () => {
    const writes = new Set(
      RESOURCE_TABLE.flatMap((def) => [
        rowKey(def),
        ...def.subresources.filter((s) => !s.connect).map((s) => `${rowKey(def)}/${s.name}`),
      ]),
    );
    const fixtures = [...KIND_FIXTURES].flatMap(([key, fixture]) => [
      key,
      ...Object.keys(fixture.subresources ?? {}).map((name) => `${key}/${name}`),
    ]);
    expect(fixtures.filter((key) => !writes.has(key))).toEqual([]);
  });
});

/** The request a verb is sent as, on the object of `place`. */
function requestOf(def: ResourceDefinition, verb: Verb, place: Place): [string, string, unknown?] {
  const collection = collectionOf(def);
  const item = `${collection}/${place.name}`;
  const body = typedBody(def, place);
  switch (verb) {
    case 'create':
      return ['POST', collection, body];
    case 'get':
      return ['GET', item];
    case 'list':
      return ['GET', collection];
    case 'watch':
      return ['GET', `${collection}?watch=true&timeoutSeconds=1`];
    case 'update':
      return ['PUT', item, body];
    case 'patch':
      return ['PATCH', item, {}];
    case 'delete':
      return ['DELETE', item];
    case 'deletecollection':
      return ['DELETE', collection];
  }
}

/** Read a watch until `count` events have come (or 5 s have passed); `during` runs once it is open. */
async function watchEvents(
  path: string,
  count: number,
  during: () => Promise<unknown> = async () => undefined,
): Promise<Json[]> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), 5000);
  const res = await request(srv.url + path, {
    dispatcher: srv.agent,
    headers: { authorization: `Bearer ${TEST_TOKEN}`, accept: 'application/json' },
    signal: abort.signal,
  });
  expect(res.statusCode).toBe(200);
  const events: Json[] = [];
  let text = '';
  try {
    for await (const chunk of res.body) {
      text += chunk.toString();
      const lines = text.split('\n');
      text = lines.pop() ?? '';
      for (const line of lines.filter(Boolean)) {
        events.push(JSON.parse(line));
        if (events.length === 1) await during();
      }
      if (events.length >= count) break;
    }
  } catch (err) {
    if (!abort.signal.aborted) throw err;
  } finally {
    clearTimeout(timer);
    abort.abort();
  }
  return events;
}

const names = (list: Json) => (list.items as Json[]).map((i) => i.metadata.name).sort();

/** What each served verb must do on a stored row, each on its own object. */
const SERVED: Record<Verb, (def: ResourceDefinition) => Promise<void>> = {
  async create(def) {
    const place = placeOf(def, 'create');
    const created = await createObject(api, def, place);
    expect(created).toMatchObject({
      apiVersion: apiVersionOf(def),
      kind: def.kind,
      metadata: { name: place.name, uid: expect.any(String), resourceVersion: expect.stringMatching(/^\d+$/) },
    });
    expect(created.metadata.creationTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(created.metadata.namespace).toBe(place.namespace || undefined);
    const again = await api('POST', collectionOf(def), typedBody(def, place));
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({
      kind: 'Status',
      reason: 'AlreadyExists',
      code: 409,
      details: { name: place.name, kind: def.plural, ...(def.group ? { group: def.group } : {}) },
    });
  },

  async get(def) {
    const place = placeOf(def, 'get');
    const created = await createObject(api, def, place);
    const got = await api('GET', `${collectionOf(def)}/${place.name}`);
    expect(got.status, got.text).toBe(200);
    expect(got.body).toMatchObject({
      apiVersion: apiVersionOf(def),
      kind: def.kind,
      metadata: { name: place.name, uid: created.metadata.uid, selfLink: `${collectionOf(def)}/${place.name}` },
    });
  },

  async list(def) {
    const place = placeOf(def, 'list');
    await createObject(api, def, place);
    const list = await api('GET', collectionOf(def));
    expect(list.status, list.text).toBe(200);
    expect(list.body).toMatchObject({
      apiVersion: apiVersionOf(def),
      kind: `${def.kind}List`,
      metadata: { resourceVersion: expect.stringMatching(/^\d+$/) },
    });
    expect(names(list.body)).toContain(place.name);
    if (def.namespaced) expect(names((await api('GET', `${rootOf(def)}/${def.plural}`)).body)).toContain(place.name);
  },

  async watch(def) {
    const place = placeOf(def, 'watch');
    await createObject(api, def, place);
    const item = `${collectionOf(def)}/${place.name}`;
    const label = () =>
      api(
        'PATCH',
        item,
        { metadata: { labels: { watched: 'yes' } } },
        { 'content-type': 'application/merge-patch+json' },
      );
    const events = await watchEvents(
      `${collectionOf(def)}?watch=true&fieldSelector=metadata.name%3D${place.name}`,
      2,
      label,
    );
    expect(events.map((e) => [e.type, e.object.kind, e.object.metadata.name])).toEqual([
      ['ADDED', def.kind, place.name],
      ['MODIFIED', def.kind, place.name],
    ]);
    expect(events[1].object.metadata.labels).toMatchObject({ watched: 'yes' });
  },

  async update(def) {
    const place = placeOf(def, 'update');
    const live = await createObject(api, def, place);
    const item = `${collectionOf(def)}/${place.name}`;
    const put = await api('PUT', item, { ...live, metadata: { ...live.metadata, labels: { put: 'yes' } } });
    expect(put.status, put.text).toBe(200);
    expect(put.body.metadata.labels).toMatchObject({ put: 'yes' });
    expect(Number(put.body.metadata.resourceVersion)).toBeGreaterThan(Number(live.metadata.resourceVersion));
    const stale = await api('PUT', item, { ...live, metadata: { ...live.metadata, labels: { stale: 'yes' } } });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({
      reason: 'Conflict',
      message: expect.stringContaining('the object has been modified'),
    });
  },

  async patch(def) {
    const place = placeOf(def, 'patch');
    await createObject(api, def, place);
    const res = await api(
      'PATCH',
      `${collectionOf(def)}/${place.name}`,
      { metadata: { annotations: { 'example.com/patched': 'yes' } } },
      { 'content-type': 'application/merge-patch+json' },
    );
    expect(res.status, res.text).toBe(200);
    // toMatchObject: a kind may carry annotations the server keeps (apps/v1 DaemonSet's template generation).
    expect(res.body.metadata.annotations).toMatchObject({ 'example.com/patched': 'yes' });
  },

  async delete(def) {
    const place = placeOf(def, 'delete');
    await createObject(api, def, place);
    const item = `${collectionOf(def)}/${place.name}`;
    const res = await api('DELETE', item);
    expect(res.status, res.text).toBe(200);
    // A kind with its own deletion lifecycle (namespaces, CRDs) answers the object it marked.
    if (def.deleteReturnsObject || def.deleteHandler)
      expect(res.body).toMatchObject({ kind: def.kind, metadata: { name: place.name } });
    else
      expect(res.body).toMatchObject({
        kind: 'Status',
        status: 'Success',
        details: { name: place.name, kind: def.plural },
      });
    const gone = await api('GET', item);
    // A kind with its own deletion lifecycle is first marked for deletion (a CRD with no
    // objects may already be gone).
    if (def.deleteHandler && gone.status !== 404)
      expect(gone.body.metadata.deletionTimestamp).toEqual(expect.any(String));
    else
      expect(gone.body).toMatchObject({
        code: 404,
        reason: 'NotFound',
        details: { name: place.name, kind: def.plural },
      });
  },

  async deletecollection(def) {
    const batch = labelOf(placeOf(def, 'dc'));
    for (const suffix of ['dc-a', 'dc-b']) await createObject(api, def, placeOf(def, suffix), { 'rt-batch': batch });
    await createObject(api, def, placeOf(def, 'dc-keep'), { 'rt-batch': `${batch}-keep` });
    const res = await api('DELETE', `${collectionOf(def)}?labelSelector=rt-batch%3D${batch}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.kind).toBe(`${def.kind}List`);
    expect(names(res.body)).toEqual([placeOf(def, 'dc-a').name, placeOf(def, 'dc-b').name]);
    const left = async () =>
      names((await api('GET', `${collectionOf(def)}?labelSelector=rt-batch%20in%20(${batch},${batch}-keep)`)).body);
    await expect.poll(left, { timeout: 10_000 }).toEqual([placeOf(def, 'dc-keep').name]);
  },
};

describe.each(RESOURCE_TABLE.map((def) => [rowKey(def), def] as const))('%s', (_key, def) => {
  for (const verb of def.verbs.filter(() => isStored(def))) {
    it(`serves ${verb}`, () => SERVED[verb](def));
  }

  if (!isStored(def)) {
    it('creates through its own create, storing nothing', async () => {
      const fixture = fixtureOf(def);
      const place = placeOf(def, 'create');
      await fixture.setup?.(api, place);
      const res = await api('POST', collectionOf(def), typedBody(def, place));
      expect(res.status, res.text).toBe(201);
      expect(res.body).toMatchObject({ apiVersion: apiVersionOf(def), kind: def.kind, ...fixture.created });
      await fixture.verifyCreate?.(api, place);
    });
  }

  // A row serving only subresources has no paths of its own: upstream registers no route (404).
  const unserved = def.verbs.length ? { code: 405, reason: 'MethodNotAllowed' } : { code: 404, reason: 'NotFound' };
  for (const verb of ALL_VERBS.filter((v) => !def.verbs.includes(v))) {
    it(`answers ${verb}, which it does not serve, with ${unserved.code}`, async () => {
      const [method, path, body] = requestOf(def, verb, placeOf(def, 'unserved'));
      const res = await api(
        method,
        path,
        body,
        method === 'PATCH' ? { 'content-type': 'application/merge-patch+json' } : {},
      );
      expect(res.status, res.text).toBe(unserved.code);
      expect(res.body).toMatchObject({ kind: 'Status', status: 'Failure', ...unserved });
    });
  }

  it(`answers POST to an object path with ${unserved.code}`, async () => {
    const res = await api(
      'POST',
      `${collectionOf(def)}/${placeOf(def, 'post').name}`,
      typedBody(def, placeOf(def, 'post')),
    );
    expect(res.status, res.text).toBe(unserved.code);
    expect(res.body.reason).toBe(unserved.reason);
  });
});
