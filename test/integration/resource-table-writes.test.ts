/**
 * Writes beyond create and update on every row of the resource table, each on its own object:
 * every patch type on rows serving patch — JSON patch (RFC 6902), JSON merge patch (RFC 7386),
 * strategic merge patch (metadata.finalizers merge as a set, as upstream's
 * `patchStrategy:"merge"`) and server-side apply with field managers, conflicts and `force` —
 * and every subresource a row declares: write subresources (status, scale, finalize, binding,
 * token) serve each of their verbs with the row's fixtures and answer 405 for the others;
 * connect subresources (log, exec, attach, portforward, proxy) are routed for each of their
 * methods (whatever their absent backend leads to, never 404 or 405) and 405 for other methods.
 */
import { describe, expect, it } from 'vitest';
import {
  apiVersionOf,
  type ResourceDefinition,
  type SubresourceDefinition,
  type Verb,
} from '../../src/registry/types.js';
import { RESOURCE_TABLE } from '../../src/resources/table.js';
import { fixtureOf, rowKey, type Json, type SubresourceFixture } from '../fixtures/kinds/index.js';
import { collectionOf, createObject, isStored, itemOf, placeOf, typedBody } from '../fixtures/kinds/rows.js';
import { useTestServer } from '../helpers/in-process.js';

const srv = useTestServer();
const api = (...args: Parameters<typeof srv.api>) => srv.api(...args);

const JSON_PATCH = { 'content-type': 'application/json-patch+json' };
const MERGE_PATCH = { 'content-type': 'application/merge-patch+json' };
const STRATEGIC = { 'content-type': 'application/strategic-merge-patch+json' };
const APPLY = { 'content-type': 'application/apply-patch+yaml' };

/** The managedFields entry of `manager`, if any. */
const entryOf = (obj: Json, manager: string) =>
  (obj.metadata.managedFields as Json[] | undefined)?.find((m) => m.manager === manager);

const patched = RESOURCE_TABLE.filter((def) => isStored(def) && def.verbs.includes('patch'));

describe.each(patched.map((def) => [rowKey(def), def] as const))('%s patch types', (_key, def) => {
  it('applies a JSON patch, and refuses one whose test fails without changing anything', async () => {
    const place = placeOf(def, 'jp');
    const live = await createObject(api, def, place);
    const item = `${collectionOf(def)}/${place.name}`;
    const ok = await api(
      'PATCH',
      item,
      [
        { op: 'test', path: '/metadata/name', value: place.name },
        { op: 'add', path: '/metadata/annotations', value: { 'example.com/json': 'yes' } },
      ],
      JSON_PATCH,
    );
    expect(ok.status, ok.text).toBe(200);
    // toMatchObject: a kind may carry annotations the server keeps (apps/v1 DaemonSet's template generation).
    expect(ok.body.metadata.annotations).toMatchObject({ 'example.com/json': 'yes' });
    expect(ok.body.kind).toBe(def.kind);
    const failed = await api(
      'PATCH',
      item,
      [
        { op: 'test', path: '/metadata/uid', value: 'not-the-uid' },
        { op: 'remove', path: '/metadata/annotations' },
      ],
      JSON_PATCH,
    );
    expect(failed.status, failed.text).toBe(422);
    expect((await api('GET', item)).body.metadata).toMatchObject({
      uid: live.metadata.uid,
      annotations: { 'example.com/json': 'yes' },
    });
  });

  it('applies a JSON merge patch: null deletes a key, a list is replaced', async () => {
    const place = placeOf(def, 'mp');
    await createObject(api, def, place);
    const item = `${collectionOf(def)}/${place.name}`;
    const first = await api(
      'PATCH',
      item,
      { metadata: { annotations: { 'example.com/a': '1', 'example.com/b': '2' }, finalizers: ['example.com/a'] } },
      MERGE_PATCH,
    );
    expect(first.status, first.text).toBe(200);
    const second = await api(
      'PATCH',
      item,
      { metadata: { annotations: { 'example.com/a': null }, finalizers: ['example.com/b'] } },
      MERGE_PATCH,
    );
    expect(second.status, second.text).toBe(200);
    expect(second.body.metadata).toMatchObject({
      annotations: { 'example.com/b': '2' },
      finalizers: ['example.com/b'],
    });
    expect(second.body.metadata.annotations['example.com/a']).toBeUndefined();
    const cleared = await api('PATCH', item, { metadata: { finalizers: null } }, MERGE_PATCH);
    expect(cleared.body.metadata.finalizers).toBeUndefined();
  });

  it('applies a strategic merge patch: finalizers merge as a set and leave with $deleteFromPrimitiveList', async () => {
    const place = placeOf(def, 'smp');
    await createObject(api, def, place);
    const item = `${collectionOf(def)}/${place.name}`;
    expect((await api('PATCH', item, { metadata: { finalizers: ['example.com/a'] } }, STRATEGIC)).status).toBe(200);
    const merged = await api(
      'PATCH',
      item,
      { metadata: { finalizers: ['example.com/b'], labels: { strategic: 'yes' } } },
      STRATEGIC,
    );
    expect(merged.status, merged.text).toBe(200);
    expect(merged.body.metadata.finalizers).toEqual(['example.com/a', 'example.com/b']);
    expect(merged.body.metadata.labels).toMatchObject({ strategic: 'yes' });
    const removed = await api(
      'PATCH',
      item,
      { metadata: { '$deleteFromPrimitiveList/finalizers': ['example.com/a', 'example.com/b'] } },
      STRATEGIC,
    );
    expect(removed.status, removed.text).toBe(200);
    expect(removed.body.metadata.finalizers ?? []).toEqual([]);
  });

  it('applies server-side: creates, records the Apply manager, refuses a conflicting manager unless forced', async () => {
    const place = placeOf(def, 'ssa');
    const item = `${collectionOf(def)}/${place.name}`;
    const config = typedBody(def, place);
    config.metadata = { ...config.metadata, labels: { applied: 'one' } };
    const created = await api('PATCH', `${item}?fieldManager=rt-apply-a`, JSON.stringify(config), APPLY);
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({
      apiVersion: apiVersionOf(def),
      kind: def.kind,
      metadata: { name: place.name, labels: { applied: 'one' } },
    });
    expect(entryOf(created.body, 'rt-apply-a')).toMatchObject({
      operation: 'Apply',
      apiVersion: apiVersionOf(def),
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:metadata': { 'f:labels': { 'f:applied': {} } } },
    });

    const other = JSON.stringify({
      apiVersion: apiVersionOf(def),
      kind: def.kind,
      metadata: { name: place.name, labels: { applied: 'two' } },
    });
    const conflict = await api('PATCH', `${item}?fieldManager=rt-apply-b`, other, APPLY);
    expect(conflict.status, conflict.text).toBe(409);
    expect(conflict.body).toMatchObject({
      reason: 'Conflict',
      details: {
        causes: [
          { reason: 'FieldManagerConflict', field: '.metadata.labels.applied', message: 'conflict with "rt-apply-a"' },
        ],
      },
    });

    const forced = await api('PATCH', `${item}?fieldManager=rt-apply-b&force=true`, other, APPLY);
    expect(forced.status, forced.text).toBe(200);
    expect(forced.body.metadata.labels).toMatchObject({ applied: 'two' });
    expect(entryOf(forced.body, 'rt-apply-b')).toMatchObject({
      operation: 'Apply',
      fieldsV1: { 'f:metadata': { 'f:labels': { 'f:applied': {} } } },
    });
    expect(entryOf(forced.body, 'rt-apply-a')?.fieldsV1?.['f:metadata']?.['f:labels']?.['f:applied']).toBeUndefined();
    expect((await api('GET', item)).body.metadata.labels).toMatchObject({ applied: 'two' });
  });
});

/** The HTTP method of each verb a write subresource may serve. */
const METHOD_OF: Partial<Record<Verb, string>> = {
  get: 'GET',
  update: 'PUT',
  patch: 'PATCH',
  create: 'POST',
  delete: 'DELETE',
};
const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** The row's object for one subresource, and its path. */
async function objectFor(
  def: ResourceDefinition,
  sub: SubresourceDefinition,
): Promise<{ item: string; path: string; obj: Json }> {
  const place = placeOf(def, sub.name);
  const obj = await createObject(api, def, place);
  return { item: itemOf(def, place), path: `${collectionOf(def)}/${place.name}/${sub.name}`, obj };
}

/** The fixture of one write verb of a subresource; throws, naming it, when there is none. */
function writeOf<V extends 'update' | 'patch' | 'create'>(
  def: ResourceDefinition,
  sub: SubresourceDefinition,
  verb: V,
): NonNullable<SubresourceFixture[V]> {
  const write = fixtureOf(def).subresources?.[sub.name]?.[verb];
  if (!write) throw new Error(`no ${verb} fixture for ${rowKey(def)}/${sub.name}: add it under test/fixtures/kinds/`);
  return write as NonNullable<SubresourceFixture[V]>;
}

/** Check the writes of an update-style subresource (status, scale, finalize) in verb order. */
async function checkUpdateStyle(def: ResourceDefinition, sub: SubresourceDefinition): Promise<void> {
  const fixture = fixtureOf(def).subresources?.[sub.name] ?? {};
  const { item, path, obj } = await objectFor(def, sub);
  let view = obj;
  if (sub.verbs.includes('get')) {
    const got = await api('GET', path);
    expect(got.status, got.text).toBe(200);
    expect(got.body).toMatchObject({
      apiVersion: sub.apiVersion ?? apiVersionOf(def),
      kind: sub.kind,
      metadata: { name: obj.metadata.name },
    });
    view = got.body;
  }
  if (sub.verbs.includes('update')) {
    const update = writeOf(def, sub, 'update');
    const put = await api('PUT', path, update.body(view));
    expect(put.status, put.text).toBe(200);
    expect(put.body).toMatchObject(update.expect);
  }
  if (sub.verbs.includes('patch')) {
    const patch = writeOf(def, sub, 'patch');
    const patched = await api('PATCH', path, patch.body, MERGE_PATCH);
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject(patch.expect);
  }
  if (fixture.stored) expect((await api('GET', item)).body).toMatchObject(fixture.stored);
}

/** Check a create-style subresource (pods/binding, serviceaccounts/token). */
async function checkCreateStyle(def: ResourceDefinition, sub: SubresourceDefinition): Promise<void> {
  const create = writeOf(def, sub, 'create');
  const place = placeOf(def, sub.name);
  const { item, path } = await objectFor(def, sub);
  const res = await api('POST', path, create.body(place));
  expect(res.status, res.text).toBe(201);
  expect(res.body).toMatchObject(create.expect);
  const fixture = fixtureOf(def).subresources?.[sub.name] ?? {};
  if (fixture.stored) expect((await api('GET', item)).body).toMatchObject(fixture.stored);
}

const withSubresources = RESOURCE_TABLE.filter((def) => isStored(def) && def.subresources.length > 0);

describe.each(withSubresources.map((def) => [rowKey(def), def] as const))('%s subresources', (_key, def) => {
  for (const sub of def.subresources.filter((s) => !s.connect)) {
    it(`/${sub.name} serves ${sub.verbs.join(', ')}`, () =>
      sub.verbs.includes('create') ? checkCreateStyle(def, sub) : checkUpdateStyle(def, sub));

    const unserved = Object.entries(METHOD_OF).filter(([verb]) => !sub.verbs.includes(verb as Verb));
    it(`/${sub.name} answers ${unserved.map(([, m]) => m).join(', ')} with 405`, async () => {
      const path = `${collectionOf(def)}/${placeOf(def, 'unserved').name}/${sub.name}`;
      for (const [, method] of unserved) {
        const res = await api(
          method!,
          path,
          method === 'GET' || method === 'DELETE' ? undefined : {},
          method === 'PATCH' ? MERGE_PATCH : {},
        );
        expect(res.status, `${method} ${path}: ${res.text}`).toBe(405);
        expect(res.body.reason).toBe('MethodNotAllowed');
      }
    });
  }

  for (const sub of def.subresources.filter((s) => s.connect)) {
    const methods = sub.connect!.methods;
    it(`/${sub.name} routes ${methods.join(', ')} to its backend and answers other methods with 405`, async () => {
      const { item } = await objectFor(def, sub);
      for (const method of methods) {
        const res = await api(method, `${item}/${sub.name}`);
        // The object exists and the route is served: whatever the (absent) backend leads to, not "no such route".
        expect([404, 405], `${method} ${item}/${sub.name}: ${res.status} ${res.text}`).not.toContain(res.status);
      }
      for (const method of HTTP_METHODS.filter((m) => !methods.includes(m))) {
        const res = await api(method, `${item}/${sub.name}`, method === 'GET' || method === 'DELETE' ? undefined : {});
        expect(res.status, `${method} ${item}/${sub.name}`).toBe(405);
      }
    });
  }

  it('answers a subresource it does not declare with 404', async () => {
    const res = await api('GET', `${collectionOf(def)}/${placeOf(def, 'unserved').name}/no-such-subresource`);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ kind: 'Status', reason: 'NotFound' });
  });
});
