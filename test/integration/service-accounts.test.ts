/**
 * The service-account controller as a user sees it: every namespace has a `default`
 * ServiceAccount within a second of being created, gets it back after it is deleted, and a
 * deleted namespace is emptied without it coming back.
 */
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../helpers/in-process.js';

const srv = useTestServer();

async function eventually<T>(
  read: () => Promise<T>,
  ok: (v: T) => boolean,
  ms = 5000,
): Promise<{ value: T; elapsed: number }> {
  const start = Date.now();
  for (;;) {
    const value = await read();
    if (ok(value) || Date.now() - start > ms) return { value, elapsed: Date.now() - start };
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('service accounts', () => {
  it('gives the system namespaces a default service account', async () => {
    for (const ns of ['default', 'kube-system', 'kube-public']) {
      const { value } = await eventually(
        () => srv.api('GET', `/api/v1/namespaces/${ns}/serviceaccounts/default`),
        (r) => r.status === 200,
      );
      expect(value.body).toMatchObject({ kind: 'ServiceAccount', metadata: { name: 'default', namespace: ns } });
    }
  });

  it('creates default in a new namespace within a second, and again after it is deleted', async () => {
    expect((await srv.api('POST', '/api/v1/namespaces', { metadata: { name: 'sa-new' } })).status).toBe(201);
    const first = await eventually(
      () => srv.api('GET', '/api/v1/namespaces/sa-new/serviceaccounts/default'),
      (r) => r.status === 200,
    );
    expect(first.value.status).toBe(200);
    expect(first.elapsed).toBeLessThan(1000);
    expect((await srv.api('DELETE', '/api/v1/namespaces/sa-new/serviceaccounts/default')).status).toBe(200);
    const again = await eventually(
      () => srv.api('GET', '/api/v1/namespaces/sa-new/serviceaccounts/default'),
      (r) => r.status === 200 && r.body.metadata.uid !== first.value.body.metadata.uid,
    );
    expect(again.value.status).toBe(200);
    expect(again.value.body.metadata.uid).not.toBe(first.value.body.metadata.uid);
    const list = await srv.api('GET', '/api/v1/namespaces/sa-new/serviceaccounts');
    expect(list.body.items.map((i: any) => i.metadata.name)).toEqual(['default']);
  });

  it('lets a deleted namespace be emptied and removed without recreating its service account', async () => {
    await srv.api('POST', '/api/v1/namespaces', { metadata: { name: 'sa-gone' } });
    await eventually(
      () => srv.api('GET', '/api/v1/namespaces/sa-gone/serviceaccounts/default'),
      (r) => r.status === 200,
    );
    expect((await srv.api('DELETE', '/api/v1/namespaces/sa-gone')).status).toBe(200);
    const gone = await eventually(
      () => srv.api('GET', '/api/v1/namespaces/sa-gone'),
      (r) => r.status === 404,
      10_000,
    );
    expect(gone.value.status).toBe(404);
    expect((await srv.api('GET', '/api/v1/namespaces/sa-gone/serviceaccounts/default')).status).toBe(404);
  });
});
