/**
 * Metadata-only answers (PartialObjectMetadata / PartialObjectMetadataList, meta.k8s.io and the
 * spec's meta.ck.io, v1 and v1beta1) for get, list and watch, as metadata informers and
 * garbage-collector-style controllers ask for them.
 */
import { describe, expect, it } from 'vitest';
import { TEST_TOKEN, useTestServer } from '../helpers/in-process.js';
import { request } from 'undici';
import { codecFor } from '../../src/api/protobuf/codec.js';
import { RESOURCE_TABLE } from '../../src/resources/table.js';

const srv = useTestServer();
const pods = '/api/v1/namespaces/default/pods';
const pod = (name: string) => ({
  metadata: { name, labels: { meta: 'only' } },
  spec: { containers: [{ name: 'c', image: 'nginx' }] },
});

describe('metadata-only', () => {
  it('get answers PartialObjectMetadata with the object metadata and nothing else', async () => {
    const created = await srv.api('POST', pods, pod('m-get'));
    const res = await srv.api('GET', `${pods}/m-get`, undefined, {
      accept: 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json',
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json;g=meta.k8s.io;v=v1;as=PartialObjectMetadata');
    expect(res.body).toEqual({
      kind: 'PartialObjectMetadata',
      apiVersion: 'meta.k8s.io/v1',
      metadata: { ...created.body.metadata },
    });
  });

  it.each([
    ['meta.k8s.io', 'v1'],
    ['meta.k8s.io', 'v1beta1'],
    ['meta.ck.io', 'v1'],
  ])('list answers PartialObjectMetadataList in %s/%s', async (g, v) => {
    await srv.api('POST', pods, pod(`m-list-${g.split('.')[1]}-${v}`));
    const res = await srv.api('GET', `${pods}?labelSelector=meta%3Donly`, undefined, {
      accept: `application/json;as=PartialObjectMetadataList;v=${v};g=${g}`,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      kind: 'PartialObjectMetadataList',
      apiVersion: `${g}/${v}`,
      metadata: { resourceVersion: expect.any(String) },
    });
    expect(res.body.items.length).toBeGreaterThan(0);
    for (const item of res.body.items) {
      expect(Object.keys(item).sort()).toEqual(['apiVersion', 'kind', 'metadata']);
      expect(item).toMatchObject({
        kind: 'PartialObjectMetadata',
        apiVersion: `${g}/${v}`,
        metadata: { labels: { meta: 'only' } },
      });
    }
  });

  it('answers protobuf first when client-go metadata informers ask for it', async () => {
    const accept =
      'application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json';
    const res = await request(`${srv.url}${pods}?labelSelector=meta%3Donly`, {
      dispatcher: srv.agent,
      headers: { authorization: `Bearer ${TEST_TOKEN}`, accept },
    });
    expect(res.headers['content-type']).toBe(
      'application/vnd.kubernetes.protobuf;g=meta.k8s.io;v=v1;as=PartialObjectMetadataList',
    );
    const list = codecFor(RESOURCE_TABLE).decodeObject(Buffer.from(await res.body.arrayBuffer())) as any;
    expect(list).toMatchObject({
      kind: 'PartialObjectMetadataList',
      apiVersion: 'meta.k8s.io/v1',
      metadata: { resourceVersion: expect.any(String) },
    });
    expect(list.items.length).toBeGreaterThan(0);
    for (const item of list.items) {
      expect(Object.keys(item)).toEqual(['metadata']);
      expect(item.metadata.labels).toEqual({ meta: 'only' });
    }
  });

  it('answers YAML when asked, and plain objects for any other Accept', async () => {
    const yaml = await srv.api('GET', `${pods}?labelSelector=meta%3Donly`, undefined, {
      accept: 'application/yaml;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1',
    });
    expect(yaml.headers['content-type']).toBe('application/yaml;g=meta.k8s.io;v=v1;as=PartialObjectMetadataList');
    expect(yaml.text).toMatch(/^kind: PartialObjectMetadataList\n/);
    expect(yaml.text).not.toContain('containers');
    const plain = await srv.api('GET', `${pods}?labelSelector=meta%3Donly`, undefined, {
      accept: 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v9,application/json',
    });
    expect(plain.body.kind).toBe('PodList');
  });

  it('watch events (and bookmarks) carry PartialObjectMetadata only', async () => {
    const list = await srv.api('GET', pods);
    const abort = new AbortController();
    const url = `${srv.url}${pods}?watch=1&allowWatchBookmarks=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&labelSelector=meta%3Donly`;
    const res = await request(url, {
      dispatcher: srv.agent,
      signal: abort.signal,
      headers: {
        authorization: `Bearer ${TEST_TOKEN}`,
        accept: 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json',
      },
    });
    let text = '';
    try {
      for await (const chunk of res.body) {
        text += chunk.toString();
        if (text.includes('initial-events-end')) break;
      }
    } finally {
      abort.abort();
    }
    const events = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(events.length).toBe(list.body.items.filter((p: any) => p.metadata.labels?.meta === 'only').length + 1);
    for (const ev of events) {
      expect(ev.object.kind).toBe('PartialObjectMetadata');
      expect(ev.object.spec).toBeUndefined();
    }
    expect(events.at(-1)).toMatchObject({
      type: 'BOOKMARK',
      object: { apiVersion: 'meta.k8s.io/v1', metadata: { annotations: { 'k8s.io/initial-events-end': 'true' } } },
    });
  });
});
