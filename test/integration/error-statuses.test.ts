/**
 * Every error status a client can meet, in one table: code, reason and message shape, each as
 * a Status object (or upstream's plain text outside the API).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/in-process.js';

let srv: TestServer;
let limited: TestServer;
beforeAll(async () => {
  srv = await startTestServer();
  limited = await startTestServer({ maxRequestsInflight: 1, enablePriorityAndFairness: false });
  await srv.api('POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: 'exists' } });
  await srv.api('POST', '/api/v1/namespaces', { metadata: { name: 'ending' } });
  await srv.api('POST', '/api/v1/namespaces/ending/configmaps', {
    metadata: { name: 'held', finalizers: ['example.com/hold'] },
  });
  await srv.api('DELETE', '/api/v1/namespaces/ending');
});
afterAll(async () => {
  await srv?.stop();
  await limited?.stop();
});

const cm = '/api/v1/namespaces/default/configmaps';
/** A well-formed continue token (upstream's encoding) carrying revision `rv`. */
const token = (rv: number) =>
  Buffer.from(`{"v":"meta.k8s.io/v1","rv":${rv},"start":"exists\\u0000"}`).toString('base64url');

interface Case {
  name: string;
  request: () => Promise<{ status: number; body: any; text: string; headers: Record<string, unknown> }>;
  code: number;
  reason: string;
  message: RegExp;
}

const cases: Case[] = [
  {
    name: 'malformed label selector',
    request: () => srv.api('GET', `${cm}?labelSelector=a%20in%20b`),
    code: 400,
    reason: 'BadRequest',
    message: /^unable to parse requirement|found 'b', expected: '\('/,
  },
  {
    name: 'unsupported field selector',
    request: () => srv.api('GET', `${cm}?fieldSelector=spec.x%3D1`),
    code: 400,
    reason: 'BadRequest',
    message: /^"spec.x" is not a known field selector: only "metadata.name", "metadata.namespace"$/,
  },
  {
    name: 'unsupported pod field',
    request: () => srv.api('GET', '/api/v1/pods?fieldSelector=spec.nope%3D1'),
    code: 400,
    reason: 'BadRequest',
    message: /^field label not supported: spec.nope$/,
  },
  {
    name: 'bad continue token',
    request: () => srv.api('GET', `${cm}?limit=1&continue=%%%`),
    code: 400,
    reason: 'BadRequest',
    message: /^invalid continue token/,
  },
  {
    name: 'continue token with rv 1e300',
    request: () => srv.api('GET', `${cm}?limit=1&continue=${token(1e300)}`),
    code: 400,
    reason: 'BadRequest',
    message: /^invalid continue token: continue key is not valid: incorrect encoded start resourceVersion/,
  },
  {
    name: 'continue token from the future',
    request: () => srv.api('GET', `${cm}?limit=1&continue=${token(9_000_000_000)}`),
    code: 400,
    reason: 'BadRequest',
    message: /^invalid continue token: continue key is not valid: resourceVersion 9000000000 is in the future$/,
  },
  {
    name: 'resourceVersion beyond uint64',
    request: () => srv.api('GET', `${cm}/exists?resourceVersion=18446744073709551616`),
    code: 400,
    reason: 'BadRequest',
    message: /^invalid resource version: 18446744073709551616$/,
  },
  {
    name: 'list resourceVersion beyond uint64',
    request: () => srv.api('GET', `${cm}?limit=2&resourceVersion=99999999999999999999999`),
    code: 400,
    reason: 'BadRequest',
    message: /^invalid resource version/,
  },
  {
    name: 'watch resourceVersion beyond uint64',
    request: () => srv.api('GET', `${cm}?watch=true&resourceVersion=1e300`),
    code: 400,
    reason: 'BadRequest',
    message: /^invalid resource version: 1e300$/,
  },
  {
    name: 'missing token',
    request: () => srv.api('GET', cm, undefined, { authorization: '' }),
    code: 401,
    reason: 'Unauthorized',
    message: /^Unauthorized$/,
  },
  {
    name: 'create in a terminating namespace',
    request: () => srv.api('POST', '/api/v1/namespaces/ending/configmaps', { metadata: { name: 'x' } }),
    code: 403,
    reason: 'Forbidden',
    message: /because it is being terminated$/,
  },
  {
    name: 'delete an immortal namespace',
    request: () => srv.api('DELETE', '/api/v1/namespaces/kube-system'),
    code: 403,
    reason: 'Forbidden',
    message: /^namespaces "kube-system" is forbidden: this namespace may not be deleted$/,
  },
  {
    name: 'missing object',
    request: () => srv.api('GET', `${cm}/nope`),
    code: 404,
    reason: 'NotFound',
    message: /^configmaps "nope" not found$/,
  },
  {
    name: 'unserved verb',
    request: () => srv.api('PUT', '/api/v1/namespaces/default/bindings/x', {}),
    code: 405,
    reason: 'MethodNotAllowed',
    message: /does not allow this method/,
  },
  {
    name: 'unacceptable media type',
    request: () => srv.api('GET', cm, undefined, { accept: 'text/html' }),
    code: 406,
    reason: 'NotAcceptable',
    message: /^only the following media types are accepted/,
  },
  {
    name: 'create twice',
    request: () => srv.api('POST', cm, { metadata: { name: 'exists' } }),
    code: 409,
    reason: 'AlreadyExists',
    message: /^configmaps "exists" already exists$/,
  },
  {
    name: 'stale resourceVersion',
    request: () => srv.api('PUT', `${cm}/exists`, { metadata: { name: 'exists', resourceVersion: '1' } }),
    code: 409,
    reason: 'Conflict',
    message: /the object has been modified/,
  },
  {
    name: 'uid precondition',
    request: () => srv.api('DELETE', `${cm}/exists`, { preconditions: { uid: 'other' } }),
    code: 409,
    reason: 'Conflict',
    message: /Precondition failed: UID in precondition: other/,
  },
  {
    name: 'delete a terminating namespace again',
    request: () => srv.api('DELETE', '/api/v1/namespaces/ending'),
    code: 409,
    reason: 'Conflict',
    message: /^The system is ensuring all content is removed from this namespace\./,
  },
  {
    name: 'body over 3 MiB',
    request: () => srv.api('POST', cm, { metadata: { name: 'big' }, data: { a: 'x'.repeat(3_200_000) } }),
    code: 413,
    reason: 'RequestEntityTooLarge',
    message: /^Request entity too large/,
  },
  {
    name: 'unknown body type',
    request: () => srv.api('POST', cm, 'x', { 'content-type': 'text/plain' }),
    code: 415,
    reason: 'UnsupportedMediaType',
    message: /unknown format/,
  },
  {
    name: 'invalid name',
    request: () => srv.api('POST', cm, { metadata: { name: 'UPPER' } }),
    code: 422,
    reason: 'Invalid',
    message: /^ConfigMap "UPPER" is invalid: metadata.name: Invalid value: "UPPER": a lowercase RFC 1123 subdomain/,
  },
  {
    name: 'orphanDependents with propagationPolicy',
    request: () => srv.api('DELETE', `${cm}/exists`, { orphanDependents: true, propagationPolicy: 'Orphan' }),
    code: 422,
    reason: 'Invalid',
    message: /OrphanDependents and DeletionPropagation cannot be both set/,
  },
  {
    name: 'future resourceVersion',
    request: () => srv.api('GET', `${cm}/exists?resourceVersion=999999999`),
    code: 504,
    reason: 'Timeout',
    message: /^Timeout: Too large resource version: 999999999, current: \d+$/,
  },
];

describe('error statuses', () => {
  it.each(cases)('$code $reason: $name', async ({ request, code, reason, message }) => {
    const res = await request();
    expect(res.status, res.text).toBe(code);
    expect(res.body).toMatchObject({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason, code });
    expect(res.body.message).toMatch(message);
  });

  it('410 Expired for a compacted list resourceVersion', async () => {
    const rv = (await srv.api('GET', cm)).body.metadata.resourceVersion;
    await srv.api('POST', cm, { metadata: { name: 'after-rv' } });
    await srv.running.deps.kv.compact(await srv.running.deps.kv.currentRevision());
    const res = await srv.api('GET', `${cm}?limit=5&resourceVersion=${rv}`);
    expect(res.status).toBe(410);
    expect(res.body).toMatchObject({ kind: 'Status', reason: 'Expired', code: 410 });
  });

  it('429 TooManyRequests with Retry-After when the in-flight limit is reached', async () => {
    // A read waiting for a future resourceVersion holds the only read slot for 3 s.
    const holder = limited.api('GET', `${cm}/x?resourceVersion=999999999`);
    await new Promise((r) => setTimeout(r, 200));
    const res = await limited.api('GET', cm);
    expect(res.status).toBe(429);
    expect(res.headers['retry-after']).toBe('1');
    expect(res.body).toMatchObject({
      kind: 'Status',
      reason: 'TooManyRequests',
      code: 429,
      details: { retryAfterSeconds: 1 },
    });
    await holder;
  });

  it('plain-text 404 outside the API', async () => {
    const res = await srv.api('GET', '/not/an/api/path');
    expect(res.status).toBe(404);
    expect(res.text).toBe('404 page not found\n');
  });
});
