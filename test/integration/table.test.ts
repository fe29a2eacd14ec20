/** Server-side printing: Table responses for get, list and watch, as kubectl asks for them. */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { humanDuration } from '../../src/api/table.js';
import { startTestServer, TEST_TOKEN, type TestServer } from '../helpers/in-process.js';

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer();
  await srv.api('POST', '/api/v1/namespaces/default/pods', {
    metadata: { name: 'tp', labels: { a: 'b' } },
    spec: {
      containers: [
        { name: 'c', image: 'i' },
        { name: 'd', image: 'j' },
      ],
    },
  });
  await srv.api('POST', '/api/v1/namespaces/default/services', {
    metadata: { name: 'ts' },
    spec: { type: 'NodePort', ports: [{ port: 80, nodePort: 30080 }] },
  });
});
afterAll(async () => {
  await srv?.stop();
});

const KUBECTL_TABLE =
  'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';

describe('Table', () => {
  it('lists pods with upstream columns and PartialObjectMetadata rows', async () => {
    const res = await srv.api('GET', '/api/v1/namespaces/default/pods?limit=500', undefined, { accept: KUBECTL_TABLE });
    expect(res.headers['content-type']).toBe('application/json;as=Table;v=v1;g=meta.k8s.io');
    expect(res.body).toMatchObject({
      kind: 'Table',
      apiVersion: 'meta.k8s.io/v1',
      metadata: { resourceVersion: expect.stringMatching(/^\d+$/) },
    });
    expect(res.body.columnDefinitions.map((c: any) => `${c.name}:${c.priority}`)).toEqual([
      'Name:0',
      'Ready:0',
      'Status:0',
      'Restarts:0',
      'Age:0',
      'IP:1',
      'Node:1',
    ]);
    expect(res.body.rows[0].cells.slice(0, 4)).toEqual(['tp', '0/2', 'Pending', 0]);
    expect(res.body.rows[0].object).toMatchObject({
      kind: 'PartialObjectMetadata',
      apiVersion: 'meta.k8s.io/v1',
      metadata: { name: 'tp', labels: { a: 'b' } },
    });
  });

  it('answers in the spec group when asked, honours includeObject, and prints one row on get', async () => {
    const full = await srv.api('GET', '/api/v1/namespaces/default/services/ts?includeObject=Object', undefined, {
      accept: 'application/json;as=Table;v=v1;g=meta.ck.io',
    });
    expect(full.body.apiVersion).toBe('meta.ck.io/v1');
    expect(full.body.rows).toHaveLength(1);
    expect(full.body.rows[0].cells.slice(0, 5)).toEqual([
      'ts',
      'NodePort',
      expect.stringMatching(/^10\.0\.0\./),
      '<none>',
      '80:30080/TCP',
    ]);
    expect(full.body.rows[0].object).toMatchObject({ kind: 'Service', apiVersion: 'v1', spec: { type: 'NodePort' } });
    const none = await srv.api('GET', '/api/v1/namespaces/default/services?includeObject=None', undefined, {
      accept: KUBECTL_TABLE,
    });
    // `ts` and the `kubernetes` Service every cluster has in `default`.
    expect(none.body.rows.map((r: any) => [r.cells[0], r.object])).toEqual([
      ['kubernetes', null],
      ['ts', null],
    ]);
    const plain = await srv.api('GET', '/api/v1/namespaces/default/services/ts', undefined, {
      accept: 'application/json',
    });
    expect(plain.body.kind).toBe('Service');
    const bad = await srv.api('GET', '/api/v1/namespaces/default/services?includeObject=All', undefined, {
      accept: KUBECTL_TABLE,
    });
    expect(bad.status).toBe(400);
  });

  it('carries one-row Tables in watch events', async () => {
    const rv = (await srv.api('GET', '/api/v1/namespaces/default/configmaps')).body.metadata.resourceVersion;
    const abort = new AbortController();
    const res = await request(`${srv.url}/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=${rv}`, {
      dispatcher: srv.agent,
      headers: { authorization: `Bearer ${TEST_TOKEN}`, accept: KUBECTL_TABLE },
      signal: abort.signal,
    });
    await srv.api('POST', '/api/v1/namespaces/default/configmaps', {
      metadata: { name: 'tw' },
      data: { a: '1', b: '2' },
    });
    let text = '';
    for await (const chunk of res.body) {
      text += chunk.toString();
      if (text.includes('\n')) break;
    }
    abort.abort();
    const ev = JSON.parse(text.split('\n')[0]);
    expect(ev.type).toBe('ADDED');
    expect(ev.object).toMatchObject({ kind: 'Table', rows: [{ cells: ['tw', 2, expect.any(String)] }] });
  });

  it('formats ages as upstream', () => {
    expect(
      [5, 119, 125, 600, 7260, 11000, 36000, 86400 * 3, 86400 * 3 + 3600, 86400 * 30, 86400 * 800].map(humanDuration),
    ).toEqual(['5s', '119s', '2m5s', '10m', '121m', '3h3m', '10h', '3d', '3d1h', '30d', '2y70d']);
  });
});
