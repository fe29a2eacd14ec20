/**
 * Finding F13 through the API: a LimitRange with `max.memory: 1e99999` and a ResourceQuota
 * with `hard.pods: "1e400"` are accepted as upstream accepts them (its ParseQuantity keeps any
 * int32 exponent), and afterwards no pod create answers 5xx: LimitRanger compares upstream's
 * int64 Value()/MilliValue() (which overflow to 0 for such values), the quota controller fills
 * `status.hard` with upstream's canonical `10e399` and the quota counts and refuses exactly.
 * Every other API field holding a quantity is driven with huge and malformed values too.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestServer, type ApiResponse } from '../helpers/in-process.js';

const srv = useTestServer();
const REGEXP_ERROR = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

async function eventually<T>(read: () => Promise<T>, ok: (v: T) => boolean, ms = 10_000): Promise<T> {
  const start = Date.now();
  for (;;) {
    const value = await read();
    if (ok(value) || Date.now() - start > ms) return value;
    await new Promise((r) => setTimeout(r, 25));
  }
}

const pod = (name: string, resources?: object, extra: object = {}) => ({
  metadata: { name },
  spec: { containers: [{ name: 'c', image: 'nginx', ...(resources ? { resources } : {}) }], ...extra },
});

/** A namespace with the finding's LimitRange and a quota of `hard`, once the controller has filled its status. */
async function f13Namespace(ns: string, hard: Record<string, string>): Promise<ApiResponse> {
  expect((await srv.api('POST', '/api/v1/namespaces', { metadata: { name: ns } })).status).toBe(201);
  const lr = await srv.api('POST', `/api/v1/namespaces/${ns}/limitranges`, {
    metadata: { name: 'lr' },
    spec: { limits: [{ type: 'Container', max: { memory: '1e99999' } }] },
  });
  expect(lr.status).toBe(201);
  // SetDefaults_LimitRangeItem: a Container max is also the default limit and request.
  expect(lr.body.spec.limits[0]).toEqual({
    type: 'Container',
    max: { memory: '1e99999' },
    default: { memory: '1e99999' },
    defaultRequest: { memory: '1e99999' },
  });
  expect(
    (await srv.api('POST', `/api/v1/namespaces/${ns}/resourcequotas`, { metadata: { name: 'q' }, spec: { hard } }))
      .status,
  ).toBe(201);
  // As upstream, the quota limits nothing until the controller has filled status.hard and status.used.
  return eventually(
    () => srv.api('GET', `/api/v1/namespaces/${ns}/resourcequotas/q`),
    (r) => Boolean(r.body.status?.used),
  );
}

const used = async (ns: string) => (await srv.api('GET', `/api/v1/namespaces/${ns}/resourcequotas/q`)).body.status.used;

describe('F13: huge quantities in a LimitRange and a ResourceQuota', () => {
  let quota: ApiResponse;
  beforeAll(async () => {
    quota = await f13Namespace('f13', { pods: '1e400' });
  });

  it('accepts both, and the controller fills status.hard with upstream canonical 10e399', () => {
    expect(quota.body.status).toEqual({ hard: { pods: '10e399' }, used: { pods: '0' } });
  });

  it.each([
    ['takes the default memory of 1e99999, whose Value() is 0 as the max is', 201, 'defaulted', undefined, ''],
    [
      'states a memory limit above 0 (upstream: MilliValue 134217728000 > 0)',
      403,
      'stated',
      { limits: { memory: '128Mi' } },
      'maximum memory usage per Container is 1e99999, but limit is 128Mi.',
    ],
    ['states 0 memory', 201, 'zero', { limits: { memory: '0' } }, ''],
    [
      'states 1e2147483647 (MilliValue 1 after upstream int32 wrap)',
      403,
      'huge',
      { limits: { memory: '1e2147483647' } },
      'maximum memory usage per Container is 1e99999, but limit is 10e2147483646.',
    ],
    [
      'states a request over its limit',
      422,
      'over',
      { requests: { memory: '2e99999' }, limits: { memory: '1e99999' } },
      'must be less than or equal to memory limit',
    ],
    ['states a malformed quantity', 422, 'bad', { limits: { memory: '1Gb' } }, REGEXP_ERROR],
    [
      'states a quantity with a bad suffix',
      422,
      'suffix',
      { limits: { cpu: '1e' } },
      "unable to parse quantity's suffix",
    ],
  ])('a pod that %s answers %i, never 5xx', async (_what, status, name, resources, message) => {
    const res = await srv.api('POST', '/api/v1/namespaces/f13/pods', pod(name, resources));
    expect(res.status).toBe(status);
    if (message) expect(res.body.message).toContain(message);
    if (status === 201)
      expect(res.body.spec.containers[0].resources.limits.memory).toBe(name === 'zero' ? '0' : '1e99999');
  });

  it('counts the admitted pods against the 1e400 quota', async () => {
    expect(
      await eventually(
        () => used('f13'),
        (u) => u.pods === '2',
      ),
    ).toEqual({ pods: '2' });
  });
});

describe('a quota of huge values is enforced exactly', () => {
  beforeAll(async () => {
    await f13Namespace('f13-mem', { pods: '1e400', 'requests.memory': '1e99999' });
  });

  it('admits the first defaulted pod, refuses the second past 1e99999, and frees the share on delete', async () => {
    expect((await srv.api('POST', '/api/v1/namespaces/f13-mem/pods', pod('a'))).status).toBe(201);
    expect(await used('f13-mem')).toEqual({ pods: '1', 'requests.memory': '1e99999' });
    const second = await srv.api('POST', '/api/v1/namespaces/f13-mem/pods', pod('b'));
    expect([second.status, second.body.message]).toEqual([
      403,
      'pods "b" is forbidden: exceeded quota: q, requested: requests.memory=1e99999, used: requests.memory=1e99999, limited: requests.memory=1e99999',
    ]);
    // A pod asking for no memory still fits beside the first.
    expect(
      (await srv.api('POST', '/api/v1/namespaces/f13-mem/pods', pod('z', { limits: { memory: '0' } }))).status,
    ).toBe(201);
    expect((await srv.api('DELETE', '/api/v1/namespaces/f13-mem/pods/a?gracePeriodSeconds=0')).status).toBe(200);
    expect(
      await eventually(
        () => used('f13-mem'),
        (u) => u['requests.memory'] === '0',
      ),
    ).toEqual({ pods: '1', 'requests.memory': '0' });
    expect((await srv.api('POST', '/api/v1/namespaces/f13-mem/pods', pod('b'))).status).toBe(201);
  });
});

describe('every other quantity field: upstream answers, never 5xx', () => {
  const ns = '/api/v1/namespaces/q-fields';
  beforeAll(async () => {
    await srv.api('POST', '/api/v1/namespaces', { metadata: { name: 'q-fields' } });
  });

  const claim = (name: string, storage: string) => ({
    metadata: { name },
    spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage } } },
  });
  const volume = (name: string, storage: string) => ({
    metadata: { name },
    spec: {
      capacity: { storage },
      accessModes: ['ReadWriteOnce'],
      hostPath: { path: '/tmp' },
      persistentVolumeReclaimPolicy: 'Retain',
    },
  });
  const node = (name: string, capacity: object) => ({ metadata: { name }, status: { capacity } });
  const sizeLimit = (name: string, limit: string) =>
    pod(name, undefined, { volumes: [{ name: 'v', emptyDir: { sizeLimit: limit } }] });
  const divisor = (name: string, value: string) =>
    pod(name, undefined, {
      volumes: [
        {
          name: 'v',
          downwardAPI: {
            items: [{ path: 'm', resourceFieldRef: { containerName: 'c', resource: 'limits.memory', divisor: value } }],
          },
        },
      ],
    });

  it.each([
    ['claim of 1e99999', 201, 'POST', `${ns}/persistentvolumeclaims`, claim('huge', '1e99999')],
    ['claim of -1e2147483647', 422, 'POST', `${ns}/persistentvolumeclaims`, claim('neg', '-1e2147483647')],
    ['claim with a bad suffix', 422, 'POST', `${ns}/persistentvolumeclaims`, claim('bad', '1i')],
    ['volume of 1e2147483647', 201, 'POST', '/api/v1/persistentvolumes', volume('q-huge', '1e2147483647')],
    ['volume of -1e2147483647', 422, 'POST', '/api/v1/persistentvolumes', volume('q-neg', '-1e2147483647')],
    [
      'node with 1e400 cpu and pods',
      201,
      'POST',
      '/api/v1/nodes',
      node('q-huge', { cpu: '1e400', pods: '1e400', memory: '1e99999' }),
    ],
    [
      'node with pods 1e2147483646 (upstream MilliValue 1: not an integer)',
      422,
      'POST',
      '/api/v1/nodes',
      node('q-wrap', { pods: '1e2147483646' }),
    ],
    ['emptyDir sizeLimit 1e99999', 201, 'POST', `${ns}/pods`, sizeLimit('size-huge', '1e99999')],
    ['emptyDir sizeLimit -1e2147483647', 422, 'POST', `${ns}/pods`, sizeLimit('size-neg', '-1e2147483647')],
    ['downward API divisor 1Mi', 201, 'POST', `${ns}/pods`, divisor('div-ok', '1Mi')],
    ['downward API divisor 1e2147483647', 422, 'POST', `${ns}/pods`, divisor('div-huge', '1e2147483647')],
    [
      'quota pods 1e2147483646 (upstream MilliValue 1: not an integer)',
      422,
      'POST',
      `${ns}/resourcequotas`,
      { metadata: { name: 'wrap' }, spec: { hard: { pods: '1e2147483646' } } },
    ],
    [
      'quota with a fraction past int64',
      201,
      'POST',
      `${ns}/resourcequotas`,
      { metadata: { name: 'frac' }, spec: { hard: { 'requests.memory': '9999999999999999999.1' } } },
    ],
    [
      'LimitRange with min over a huge max',
      422,
      'POST',
      `${ns}/limitranges`,
      { metadata: { name: 'lr' }, spec: { limits: [{ type: 'Pod', min: { cpu: '2e400' }, max: { cpu: '1e400' } }] } },
    ],
  ])('%s answers %i', async (_what, status, method, path, body) => {
    const res = await srv.api(method, path, body);
    expect(res.status, res.text).toBe(status);
  });

  it('refuses a quota JSON number too large for a double without a 5xx', async () => {
    // Upstream would read `1e400` as the quantity 1e400; our JSON decoder refuses the number.
    const res = await srv.api(
      'POST',
      `${ns}/resourcequotas`,
      '{"metadata":{"name":"num"},"spec":{"hard":{"pods":1e400}}}',
    );
    expect(res.status).toBeLessThan(500);
  });
});
