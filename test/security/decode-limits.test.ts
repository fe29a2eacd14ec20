/**
 * What a client may smuggle past decoding (issue 27's lower findings), answered as upstream:
 * annotations over 256 KiB in all are 422 on every write path, and keys repeated within one
 * JSON object are a strict decoding error (400 under `fieldValidation=Strict`, a warning under
 * Warn, nothing under Ignore) for creates, updates and every JSON patch type.
 */
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../helpers/in-process.js';

const srv = useTestServer();
const NS = '/api/v1/namespaces/default/configmaps';
const LIMIT = 256 * 1024;

describe('annotations size', () => {
  const annotated = (name: string, bytes: number) => ({
    metadata: { name, annotations: { a: 'x'.repeat(bytes - 1) } },
    data: { k: 'v' },
  });

  it('accepts 256 KiB of keys and values and refuses one byte more, on create, update and patch', async () => {
    expect((await srv.api('POST', NS, annotated('at-limit', LIMIT))).status).toBe(201);
    const over = await srv.api('POST', NS, annotated('over-limit', LIMIT + 1));
    expect(over.status).toBe(422);
    expect(over.body.details.causes).toEqual([
      {
        reason: 'FieldValueTooLong',
        field: 'metadata.annotations',
        message: 'Too long: must have at most 262144 characters',
      },
    ]);
    expect((await srv.api('GET', `${NS}/over-limit`)).status).toBe(404);
    // Bytes, not characters: a two-byte character counts twice.
    const wide = { metadata: { name: 'wide', annotations: { a: 'é'.repeat(LIMIT / 2) } }, data: {} };
    expect((await srv.api('POST', NS, wide)).status).toBe(422);
    const current = (await srv.api('GET', `${NS}/at-limit`)).body;
    const put = await srv.api('PUT', `${NS}/at-limit`, {
      ...current,
      metadata: { ...current.metadata, annotations: { ...current.metadata.annotations, b: 'y' } },
    });
    expect(put.status).toBe(422);
    const patch = await srv.api(
      'PATCH',
      `${NS}/at-limit`,
      { metadata: { annotations: { c: 'z'.repeat(300 * 1024) } } },
      { 'content-type': 'application/merge-patch+json' },
    );
    expect(patch.status).toBe(422);
    expect((await srv.api('GET', `${NS}/at-limit`)).body.metadata.annotations.c).toBeUndefined();
  });
});

describe('duplicate fields', () => {
  const body = (name: string) =>
    `{"metadata":{"name":"${name}","labels":{"a":"1","a":"2"}},"data":{"k":"v"},"data":{"k":"w"}}`;

  it('Strict refuses a body with a repeated key, naming it as upstream', async () => {
    const res = await srv.api('POST', `${NS}?fieldValidation=Strict`, body('dup-strict'));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ kind: 'Status', reason: 'BadRequest' });
    expect(res.body.message).toBe(
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: duplicate field "a", duplicate field "data"',
    );
    expect((await srv.api('GET', `${NS}/dup-strict`)).status).toBe(404);
    const mixed = await srv.api(
      'POST',
      `${NS}?fieldValidation=Strict`,
      '{"metadata":{"name":"m","name":"m"},"bogus":1}',
    );
    expect(mixed.body.message).toBe(
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "bogus", duplicate field "name"',
    );
  });

  it('Warn keeps the last value with a warning per repeat; Ignore says nothing', async () => {
    const warn = await srv.api('POST', NS, body('dup-warn'));
    expect(warn.status).toBe(201);
    expect(warn.headers.warning).toEqual(['299 - "duplicate field \\"a\\""', '299 - "duplicate field \\"data\\""']);
    expect(warn.body.data).toEqual({ k: 'w' });
    const ignore = await srv.api('POST', `${NS}?fieldValidation=Ignore`, body('dup-ignore'));
    expect(ignore.status).toBe(201);
    expect(ignore.headers.warning).toBeUndefined();
  });

  it('applies to updates and to every JSON patch type', async () => {
    const current = (await srv.api('GET', `${NS}/dup-warn`)).body;
    const text = JSON.stringify(current).replace('"data":', '"data":{"x":"1"},"data":');
    expect((await srv.api('PUT', `${NS}/dup-warn?fieldValidation=Strict`, text)).body.message).toBe(
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: duplicate field "data"',
    );
    const patch = (type: string, doc: string) =>
      srv.api('PATCH', `${NS}/dup-warn?fieldValidation=Strict`, doc, { 'content-type': type });
    // A patch's strict errors are 422 on the field `patch` (upstream handlers/patch.go).
    const merge = await patch('application/merge-patch+json', '{"data":{"k":"1","k":"2"}}');
    expect(merge.status).toBe(422);
    expect(merge.body.details.causes).toEqual([
      {
        reason: 'FieldValueInvalid',
        field: 'patch',
        message: expect.stringMatching(/^Invalid value: ".*": strict decoding error: duplicate field "k"$/),
      },
    ]);
    expect(merge.body.message).toMatch(/^ "" is invalid: patch: Invalid value: /);
    expect((await patch('application/strategic-merge-patch+json', '{"data":{"k":"1","k":"2"}}')).status).toBe(422);
    const json = await patch('application/json-patch+json', '[{"op":"add","op":"add","path":"/data/z","value":"1"}]');
    expect(json.body.message).toMatch(/: strict decoding error: json patch duplicate field "op"$/);
    expect((await srv.api('GET', `${NS}/dup-warn`)).body.data).toEqual({ k: 'w' });
  });
});
