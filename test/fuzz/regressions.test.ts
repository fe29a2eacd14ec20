/**
 * Every request the fuzz suite (or the issue) found answering 5xx, crashing the process or
 * writing what it should not, kept as an explicit case: each must be a 4xx Status and leave
 * the object as it was.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestServer } from '../helpers/in-process.js';

const server = useTestServer();
const CMS = '/api/v1/namespaces/default/configmaps';
const CM = `${CMS}/reg`;
const JSON_PATCH = { 'content-type': 'application/json-patch+json' };
const MERGE = { 'content-type': 'application/merge-patch+json' };
const SMP = { 'content-type': 'application/strategic-merge-patch+json' };
const YAML = { 'content-type': 'application/yaml' };

/** Send a request that must fail with `code`, and check the stored ConfigMap did not change. */
async function refused(
  code: number,
  method: string,
  path: string,
  body: string,
  headers: Record<string, string>,
): Promise<string> {
  const before = await server.api('GET', CM);
  const res = await server.api(method, path, body, headers);
  expect(res.status, res.text.slice(0, 300)).toBe(code);
  expect(res.body).toMatchObject({ kind: 'Status', code });
  const after = await server.api('GET', CM);
  expect(after.body).toEqual(before.body);
  return res.body.message as string;
}

beforeAll(async () => {
  const res = await server.api('POST', CMS, { metadata: { name: 'reg' }, data: { a: 'b' } });
  expect(res.status).toBe(201);
});

describe('hostile bodies are 400, never a crash or a 500', () => {
  it('2 KB of nested YAML flow sequences (aborted the process with a fatal RegExpCompiler error)', async () => {
    const message = await refused(400, 'POST', CMS, '['.repeat(1000) + ']'.repeat(1000), YAML);
    expect(message).toBe("couldn't decode the request body: exceeded max depth of 100 nested objects and arrays");
    await refused(400, 'PUT', CM, '- '.repeat(3000) + 'x', YAML);
  });
  it('a 10,000-deep JSON object (500 from structuredClone)', async () => {
    await refused(
      400,
      'POST',
      CMS,
      `{"metadata":{"name":"deep"},"data":${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}}`,
      {},
    );
    await refused(400, 'PATCH', CM, `{"data":${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}}`, MERGE);
  });
  it('a YAML alias that contains itself (was stored)', async () => {
    await refused(400, 'POST', CMS, 'metadata: {name: cyc}\ndata: &a {k: *a}\n', YAML);
  });
  it('a YAML document tagged !!binary (a byte array whose indexes became unknown fields, then a 500)', async () => {
    await refused(400, 'PUT', CM, '!!binary metadata: null\n', YAML);
  });
  it('numbers beyond float64 (1e400) and YAML .inf', async () => {
    await refused(400, 'POST', CMS, '{"metadata":{"name":"big"},"data":{"k":1e400}}', {});
    await refused(400, 'POST', CMS, 'metadata: {name: inf}\ndata: {k: .inf}\n', YAML);
  });
});

describe('patches that remove or retype metadata, kind or apiVersion are 400, never 500', () => {
  const mismatch = 'the name of the object () does not match the name on the URL (reg)';
  it('merge patch {"metadata":null}', async () => {
    expect(await refused(400, 'PATCH', CM, '{"metadata":null}', MERGE)).toBe(mismatch);
  });
  it('strategic merge patch {"$patch":"delete"}', async () => {
    expect(await refused(400, 'PATCH', CM, '{"$patch":"delete"}', SMP)).toBe(mismatch);
  });
  it('JSON patch remove or move of /metadata', async () => {
    expect(await refused(400, 'PATCH', CM, '[{"op":"remove","path":"/metadata"}]', JSON_PATCH)).toBe(mismatch);
    expect(await refused(400, 'PATCH', CM, '[{"op":"move","from":"/metadata","path":"/x"}]', JSON_PATCH)).toBe(
      mismatch,
    );
  });
  it('metadata.name removed (was stored with the name put back)', async () => {
    expect(await refused(400, 'PATCH', CM, '{"metadata":{"name":null}}', MERGE)).toBe(mismatch);
  });
  it('metadata or the whole object of another type', async () => {
    expect(await refused(400, 'PATCH', CM, '{"metadata":"x"}', MERGE)).toMatch(
      /cannot be handled as a ConfigMap: json: cannot unmarshal string/,
    );
    await refused(400, 'PATCH', CM, '[{"op":"replace","path":"","value":5}]', JSON_PATCH);
    await refused(400, 'PATCH', CM, '[{"op":"remove","path":""}]', JSON_PATCH);
    await refused(400, 'PATCH', CM, '{"metadata":false}', SMP);
  });
  it('another kind or apiVersion (another kind was silently ignored): 422 on `patch`, as upstream', async () => {
    expect(await refused(422, 'PATCH', CM, '[{"op":"replace","path":"/kind","value":"Secret"}]', JSON_PATCH)).toMatch(
      /^ "" is invalid: patch: Invalid value: ".*": converting \(v1.Secret\) to \(core.ConfigMap\): unknown conversion$/,
    );
    await refused(422, 'PATCH', CM, '{"apiVersion":"v2"}', MERGE);
  });
});

describe('JSON patches that would grow without bound are 422', () => {
  it('copies doubling the object', async () => {
    const ops = Array.from({ length: 40 }, (_, i) => ({ op: 'copy', from: '/data', path: `/data/x${i}` }));
    await refused(422, 'PATCH', CM, JSON.stringify(ops), JSON_PATCH);
  });
  it('a value nested 98 levels added 3 levels down', async () => {
    const value = '['.repeat(98) + ']'.repeat(98);
    const message = await refused(
      422,
      'PATCH',
      CM,
      `[{"op":"add","path":"/data/x","value":{}},{"op":"add","path":"/data/x/y","value":${value}}]`,
      JSON_PATCH,
    );
    expect(message).toMatch(/would nest the object deeper than 100 levels/);
  });
});
