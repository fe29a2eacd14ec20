/**
 * ResourceQuota as a user sees it: the controller fills status.hard and status.used, admission
 * refuses what would pass the quota with upstream's message, charges writes racing through
 * the same quota exactly once each, gives back what a deleted pod used, and a dry run charges
 * nothing.
 */
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../helpers/in-process.js';

const srv = useTestServer();

async function eventually<T>(read: () => Promise<T>, ok: (v: T) => boolean, ms = 5000): Promise<T> {
  const start = Date.now();
  for (;;) {
    const value = await read();
    if (ok(value) || Date.now() - start > ms) return value;
    await new Promise((r) => setTimeout(r, 25));
  }
}

const pod = (name: string, cpu?: string) => ({
  metadata: { name },
  spec: {
    containers: [{ name: 'c', image: 'nginx', ...(cpu ? { resources: { requests: { cpu }, limits: { cpu } } } : {}) }],
  },
});

async function quotaWithStatus(ns: string, hard: Record<string, string>, extra: object = {}) {
  await srv.api('POST', '/api/v1/namespaces', { metadata: { name: ns } });
  const created = await srv.api('POST', `/api/v1/namespaces/${ns}/resourcequotas`, {
    metadata: { name: 'q' },
    spec: { hard, ...extra },
  });
  expect(created.status).toBe(201);
  return eventually(
    () => srv.api('GET', `/api/v1/namespaces/${ns}/resourcequotas/q`),
    (r) => Boolean(r.body.status?.used),
  );
}

const used = async (ns: string) => (await srv.api('GET', `/api/v1/namespaces/${ns}/resourcequotas/q`)).body.status.used;

describe('ResourceQuota', () => {
  it('fills status from spec and the objects already there', async () => {
    await srv.api('POST', '/api/v1/namespaces', { metadata: { name: 'rq-status' } });
    await srv.api('POST', '/api/v1/namespaces/rq-status/configmaps', { metadata: { name: 'a' } });
    await srv.api('POST', '/api/v1/namespaces/rq-status/resourcequotas', {
      metadata: { name: 'q' },
      spec: { hard: { configmaps: '5', 'count/secrets': '3', pods: '10' } },
    });
    const q = await eventually(
      () => srv.api('GET', '/api/v1/namespaces/rq-status/resourcequotas/q'),
      (r) => Boolean(r.body.status?.used),
    );
    expect(q.body.status).toEqual({
      hard: { configmaps: '5', 'count/secrets': '3', pods: '10' },
      used: { configmaps: '1', 'count/secrets': '0', pods: '0' },
    });
  });

  it('admits pods up to the quota and refuses the next with upstream message', async () => {
    await quotaWithStatus('rq-pods', { pods: '2' });
    expect((await srv.api('POST', '/api/v1/namespaces/rq-pods/pods', pod('p1'))).status).toBe(201);
    expect((await srv.api('POST', '/api/v1/namespaces/rq-pods/pods', pod('p2'))).status).toBe(201);
    const third = await srv.api('POST', '/api/v1/namespaces/rq-pods/pods', pod('p3'));
    expect(third.status).toBe(403);
    expect(third.body).toMatchObject({
      reason: 'Forbidden',
      message: 'pods "p3" is forbidden: exceeded quota: q, requested: pods=1, used: pods=2, limited: pods=2',
    });
    expect(await used('rq-pods')).toEqual({ pods: '2' });
    // Deleting a pod gives its share back (replenishment), so the next one fits.
    expect((await srv.api('DELETE', '/api/v1/namespaces/rq-pods/pods/p1?gracePeriodSeconds=0')).status).toBe(200);
    await eventually(
      () => used('rq-pods'),
      (u) => u.pods === '1',
    );
    expect((await srv.api('POST', '/api/v1/namespaces/rq-pods/pods', pod('p3'))).status).toBe(201);
  });

  it('charges concurrent creates exactly, never past the hard limit', async () => {
    await quotaWithStatus('rq-race', { 'count/configmaps': '5' });
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        srv.api('POST', '/api/v1/namespaces/rq-race/configmaps', { metadata: { name: `cm${i}` } }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(5);
    expect(results.filter((r) => r.status === 403)).toHaveLength(7);
    expect(await used('rq-race')).toEqual({ 'count/configmaps': '5' });
    expect((await srv.api('GET', '/api/v1/namespaces/rq-race/configmaps')).body.items).toHaveLength(5);
  });

  it('requires compute requests a quota limits, and sums them', async () => {
    await quotaWithStatus('rq-cpu', { 'requests.cpu': '1' });
    const bare = await srv.api('POST', '/api/v1/namespaces/rq-cpu/pods', pod('bare'));
    expect(bare.status).toBe(403);
    expect(bare.body.message).toBe('pods "bare" is forbidden: failed quota: q: must specify requests.cpu');
    expect((await srv.api('POST', '/api/v1/namespaces/rq-cpu/pods', pod('a', '600m'))).status).toBe(201);
    const over = await srv.api('POST', '/api/v1/namespaces/rq-cpu/pods', pod('b', '500m'));
    expect(over.body.message).toBe(
      'pods "b" is forbidden: exceeded quota: q, requested: requests.cpu=500m, used: requests.cpu=600m, limited: requests.cpu=1',
    );
    expect((await srv.api('POST', '/api/v1/namespaces/rq-cpu/pods', pod('c', '400m'))).status).toBe(201);
    expect(await used('rq-cpu')).toEqual({ 'requests.cpu': '1' });
  });

  it('charges nothing for a dry run or a refused write', async () => {
    await quotaWithStatus('rq-dry', { services: '1', 'services.nodeports': '1' });
    const dry = await srv.api('POST', '/api/v1/namespaces/rq-dry/services?dryRun=All', {
      metadata: { name: 's' },
      spec: { ports: [{ port: 80 }] },
    });
    expect(dry.status).toBe(201);
    expect(await used('rq-dry')).toEqual({ services: '0', 'services.nodeports': '0' });
    const np = await srv.api('POST', '/api/v1/namespaces/rq-dry/services', {
      metadata: { name: 'np' },
      spec: {
        type: 'NodePort',
        ports: [
          { name: 'a', port: 80 },
          { name: 'b', port: 81 },
        ],
      },
    });
    expect(np.body.message).toBe(
      'services "np" is forbidden: exceeded quota: q, requested: services.nodeports=2, used: services.nodeports=0, limited: services.nodeports=1',
    );
    expect(await used('rq-dry')).toEqual({ services: '0', 'services.nodeports': '0' });
  });

  it('applies scopes to pods only', async () => {
    await quotaWithStatus('rq-scope', { pods: '1' }, { scopes: ['BestEffort'] });
    expect((await srv.api('POST', '/api/v1/namespaces/rq-scope/pods', pod('be1'))).status).toBe(201);
    expect((await srv.api('POST', '/api/v1/namespaces/rq-scope/pods', pod('be2'))).status).toBe(403);
    expect((await srv.api('POST', '/api/v1/namespaces/rq-scope/pods', pod('burst', '100m'))).status).toBe(201);
  });
});
