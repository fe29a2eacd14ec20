/**
 * Protobuf over HTTP: every kind created from a protobuf body reads back (in protobuf) as the
 * same object JSON gives; lists, Status errors, discovery documents, DeleteOptions bodies and
 * watch streams in protobuf; the spec's media type name next to upstream's.
 */
import { request } from 'undici';
import { beforeAll, describe, expect, it } from 'vitest';
import { codecFor } from '../../src/api/protobuf/codec.js';
import { RESOURCE_TABLE } from '../../src/resources/table.js';
import { fullObject } from '../fixtures/full-objects.js';
import { TEST_TOKEN, useTestServer } from '../helpers/in-process.js';

const srv = useTestServer();

// The full pod names this service account; ServiceAccount admission needs it to exist.
beforeAll(async () => {
  await srv.api('POST', '/api/v1/namespaces/default/serviceaccounts', { metadata: { name: 'value' } });
});
const codec = codecFor(RESOURCE_TABLE);
const PB = 'application/vnd.kubernetes.protobuf';

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

const stored = RESOURCE_TABLE.filter((d) => !d.group && d.plural !== 'bindings');
const collection = (plural: string, namespaced: boolean) =>
  namespaced ? `/api/v1/namespaces/default/${plural}` : `/api/v1/${plural}`;

describe.each(stored.map((d) => [d.plural, d] as const))('%s in protobuf', (plural, def) => {
  it('creates from a protobuf body and reads back the object JSON shows', async () => {
    const path = collection(plural, def.namespaced);
    const body = codec.encodeObject({ apiVersion: 'v1', kind: def.kind, ...fullObject(def, 'pb') });
    const created = await raw(
      'POST',
      `${path}?fieldValidation=Strict`,
      { 'content-type': PB, accept: `${PB},application/json` },
      body,
    );
    expect(created.status, created.bytes.toString()).toBe(201);
    expect(created.contentType).toBe(PB);
    const fromProtobuf = codec.decodeObject((await raw('GET', `${path}/pb`, { accept: PB })).bytes);
    const fromJson = (await srv.api('GET', `${path}/pb`)).body;
    expect(fromProtobuf).toEqual(fromJson);
    const list = codec.decodeObject(
      (await raw('GET', `${path}?fieldSelector=metadata.name%3Dpb`, { accept: PB })).bytes,
    );
    expect(list.kind).toBe(`${def.kind}List`);
    expect(list.items).toEqual(
      [{ ...fromJson, apiVersion: undefined, kind: undefined }].map(({ apiVersion, kind, ...rest }) => rest),
    );
  });
});

describe('protobuf documents', () => {
  it('answers errors as a protobuf Status', async () => {
    const res = await raw('GET', '/api/v1/namespaces/default/pods/missing', { accept: PB });
    expect(res.status).toBe(404);
    expect(codec.decodeObject(res.bytes)).toMatchObject({
      kind: 'Status',
      status: 'Failure',
      reason: 'NotFound',
      code: 404,
      details: { name: 'missing', kind: 'pods' },
    });
  });

  it('serves discovery in protobuf', async () => {
    const resources = codec.decodeObject((await raw('GET', '/api/v1', { accept: PB })).bytes);
    expect(resources).toMatchObject({ kind: 'APIResourceList', groupVersion: 'v1' });
    expect((resources.resources as any[]).find((r) => r.name === 'pods')).toMatchObject({
      kind: 'Pod',
      namespaced: true,
      verbs: expect.arrayContaining(['get', 'watch']),
    });
    expect(codec.decodeObject((await raw('GET', '/api', { accept: PB })).bytes)).toMatchObject({
      kind: 'APIVersions',
      versions: ['v1'],
    });
    expect(codec.decodeObject((await raw('GET', '/apis', { accept: PB })).bytes)).toMatchObject({
      kind: 'APIGroupList',
    });
  });

  it('answers under the spec name application/vnd.ck.protobuf too, and falls back to JSON for Tables', async () => {
    const res = await raw('GET', '/api/v1/namespaces', { accept: 'application/vnd.ck.protobuf' });
    expect(res.contentType).toBe('application/vnd.ck.protobuf');
    expect(codec.decodeObject(res.bytes).kind).toBe('NamespaceList');
    const version = await raw('GET', '/version', { accept: `${PB},application/json` });
    expect(version.status).toBe(200);
  });

  it('reads DeleteOptions bodies in protobuf', async () => {
    await srv.api('POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: 'del-pb' } });
    const opts = codec.encodeObject({ apiVersion: 'v1', kind: 'DeleteOptions', preconditions: { uid: 'not-the-uid' } });
    const conflict = await raw(
      'DELETE',
      '/api/v1/namespaces/default/configmaps/del-pb',
      { 'content-type': PB, accept: PB },
      opts,
    );
    expect(conflict.status).toBe(409);
    expect(codec.decodeObject(conflict.bytes)).toMatchObject({ reason: 'Conflict' });
    const ok = await raw(
      'DELETE',
      '/api/v1/namespaces/default/configmaps/del-pb',
      { 'content-type': PB, accept: PB },
      codec.encodeObject({ apiVersion: 'v1', kind: 'DeleteOptions', gracePeriodSeconds: 0 }),
    );
    expect(ok.status).toBe(200);
  });

  it('rejects a protobuf body of a kind without a message with 415 and a malformed one with 400', async () => {
    const table = Buffer.concat([
      Buffer.from('k8s\0'),
      Buffer.from([0x0a, 0x0b, 0x0a, 0x02, 0x76, 0x31, 0x12, 0x05, ...Buffer.from('Table')]),
    ]);
    expect((await raw('POST', '/api/v1/namespaces/default/configmaps', { 'content-type': PB }, table)).status).toBe(
      415,
    );
    expect(
      (await raw('POST', '/api/v1/namespaces/default/configmaps', { 'content-type': PB }, Buffer.from('k8s\0\xff\xff')))
        .status,
    ).toBe(400);
  });

  it('streams watch events as length-framed protobuf WatchEvents', async () => {
    const rv = (await srv.api('GET', '/api/v1/namespaces/default/configmaps')).body.metadata.resourceVersion;
    const watch = raw(
      'GET',
      `/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=${rv}&timeoutSeconds=2`,
      { accept: `${PB};stream=watch` },
    );
    await new Promise((r) => setTimeout(r, 200));
    await srv.api('POST', '/api/v1/namespaces/default/configmaps', {
      metadata: { name: 'watched-pb' },
      data: { a: 'b' },
    });
    await srv.api('DELETE', '/api/v1/namespaces/default/configmaps/watched-pb');
    const res = await watch;
    expect(res.contentType).toBe(`${PB};stream=watch`);
    const events = codec.decodeWatchStream(res.bytes);
    expect(events.map((e) => [e.type, e.object.kind, (e.object.metadata as any).name])).toEqual([
      ['ADDED', 'ConfigMap', 'watched-pb'],
      ['DELETED', 'ConfigMap', 'watched-pb'],
    ]);
    expect(events[0].object.data).toEqual({ a: 'b' });
  });
});
