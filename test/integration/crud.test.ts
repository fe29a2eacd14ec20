/**
 * Every verb on every stored kind, through HTTPS on the memory backend, as a client sees it.
 */
import { describe, expect, it } from 'vitest';
import { MINIMAL_OBJECTS } from '../fixtures/minimal-objects.js';
import { useTestServer } from '../helpers/in-process.js';

const srv = useTestServer();

describe.each(Object.entries(MINIMAL_OBJECTS))('%s', (plural, fx) => {
  const name = `crud-${plural.slice(0, 20)}`;
  const item = `${fx.path}/${name}`;

  it('create, get, list, update, patch, delete', async () => {
    const created = await srv.api('POST', fx.path, fx.body(name));
    expect(created.status, created.text).toBe(201);
    expect(created.body.metadata).toMatchObject({
      name,
      uid: expect.any(String),
      resourceVersion: expect.stringMatching(/^\d+$/),
    });
    expect(created.body.metadata.creationTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(created.body.kind).toBeTruthy();
    expect(created.body.apiVersion).toBe('v1');
    if (fx.namespaced) expect(created.body.metadata.namespace).toBe('default');

    let got = await srv.api('GET', item);
    expect(got.status).toBe(200);
    expect(got.body.metadata.selfLink).toBe(item);
    if (fx.settled) {
      // A controller writes the object once after create (the quota controller its status).
      for (let i = 0; i < 200 && !fx.settled(got.body); i++)
        got = await new Promise((r) => setTimeout(r, 25)).then(() => srv.api('GET', item));
      expect(fx.settled(got.body)).toBe(true);
    } else {
      expect(got.body.metadata.resourceVersion).toBe(created.body.metadata.resourceVersion);
    }

    const list = await srv.api('GET', fx.path);
    expect(list.status).toBe(200);
    expect(list.body.kind).toBe(`${created.body.kind}List`);
    expect(list.body.metadata.resourceVersion).toMatch(/^\d+$/);
    expect(list.body.items.map((i: any) => i.metadata.name)).toContain(name);
    if (fx.namespaced) {
      const all = await srv.api('GET', `/api/v1/${plural}`);
      expect(all.body.items.map((i: any) => i.metadata.name)).toContain(name);
    }

    const again = await srv.api('POST', fx.path, fx.body(name));
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({
      kind: 'Status',
      status: 'Failure',
      reason: 'AlreadyExists',
      code: 409,
      details: { name, kind: plural },
    });

    const put = await srv.api('PUT', item, { ...got.body, metadata: { ...got.body.metadata, labels: { put: 'yes' } } });
    expect(put.status, put.text).toBe(200);
    // A namespace also keeps the label naming it (upstream since 1.22).
    const own = plural === 'namespaces' ? { 'kubernetes.io/metadata.name': name } : {};
    expect(put.body.metadata.labels).toEqual({ ...own, put: 'yes' });
    expect(Number(put.body.metadata.resourceVersion)).toBeGreaterThan(Number(got.body.metadata.resourceVersion));

    const stale = await srv.api('PUT', item, {
      ...got.body,
      metadata: { ...got.body.metadata, labels: { stale: 'yes' } },
    });
    expect(stale.status).toBe(409);
    expect(stale.body.reason).toBe('Conflict');
    expect(stale.body.message).toContain('the object has been modified');

    const merge = await srv.api(
      'PATCH',
      item,
      { metadata: { annotations: { note: 'hi' }, labels: { put: null } } },
      { 'content-type': 'application/merge-patch+json' },
    );
    expect(merge.status, merge.text).toBe(200);
    expect(merge.body.metadata.annotations).toEqual({ note: 'hi' });
    // An RC whose labels become empty takes its template's labels again (upstream defaulting).
    expect(merge.body.metadata.labels ?? {}).toEqual(plural === 'replicationcontrollers' ? { app: name } : own);

    const jsonPatch = await srv.api('PATCH', item, [{ op: 'add', path: '/metadata/labels', value: { j: 'p' } }], {
      'content-type': 'application/json-patch+json',
    });
    expect(jsonPatch.status, jsonPatch.text).toBe(200);
    expect(jsonPatch.body.metadata.labels).toEqual({ ...own, j: 'p' });

    const del = await srv.api('DELETE', item, { propagationPolicy: 'Background' });
    expect(del.status, del.text).toBe(200);
    if (plural !== 'namespaces') {
      const gone = await srv.api('GET', item);
      expect(gone.status).toBe(404);
      expect(gone.body).toMatchObject({
        reason: 'NotFound',
        message: `${plural} "${name}" not found`,
        details: { name, kind: plural },
      });
    } else {
      expect(del.body.status.phase).toBe('Terminating');
    }
  });

  it('deletecollection by label selector', async () => {
    for (const n of ['dc-a', 'dc-b', 'dc-c']) {
      const b = fx.body(`${name}-${n}`) as any;
      b.metadata.labels = { batch: n === 'dc-c' ? 'keep' : 'drop' };
      expect((await srv.api('POST', fx.path, b)).status).toBe(201);
    }
    if (plural === 'namespaces') return; // namespaces finish deletion through their controller
    const res = await srv.api('DELETE', `${fx.path}?labelSelector=batch%3Ddrop`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.items.map((i: any) => i.metadata.name).sort()).toEqual([`${name}-dc-a`, `${name}-dc-b`]);
    const left = await srv.api('GET', `${fx.path}?labelSelector=batch`);
    expect(left.body.items.map((i: any) => i.metadata.name)).toEqual([`${name}-dc-c`]);
  });
});
