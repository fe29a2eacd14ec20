/**
 * ReplicationControllers' scale under extensions/v1beta1 (upstream 1.10's
 * pkg/registry/extensions/controller/storage): discovery lists a verb-less
 * `replicationcontrollers` of kind ReplicationControllerDummy and `replicationcontrollers/scale`;
 * the scale answers extensions/v1beta1 Scale (map selector and targetSelector) over the core
 * controllers' storage, and a write there scales the controller; the dummy resource itself
 * serves nothing. The core scale keeps answering autoscaling/v1 Scale.
 */
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../helpers/in-process.js';

const srv = useTestServer();
const NS = 'rc-scale';
const CORE = `/api/v1/namespaces/${NS}/replicationcontrollers`;
const EXT = `/apis/extensions/v1beta1/namespaces/${NS}/replicationcontrollers`;

async function controller(name: string): Promise<void> {
  await srv.api('POST', '/api/v1/namespaces', { metadata: { name: NS } });
  const res = await srv.api('POST', CORE, {
    metadata: { name },
    spec: {
      replicas: 1,
      selector: { app: name, tier: 'web' },
      template: {
        metadata: { labels: { app: name, tier: 'web' } },
        spec: { containers: [{ name: 'c', image: 'nginx' }] },
      },
    },
  });
  expect(res.status, res.text).toBe(201);
}

describe('extensions/v1beta1 replicationcontrollers/scale', () => {
  it('is listed by discovery with a verb-less dummy kind', async () => {
    const res = await srv.api('GET', '/apis/extensions/v1beta1');
    const resources = res.body.resources as { name: string; kind: string; verbs: string[] }[];
    expect(resources.find((r) => r.name === 'replicationcontrollers')).toMatchObject({
      kind: 'ReplicationControllerDummy',
      verbs: [],
    });
    expect(resources.find((r) => r.name === 'replicationcontrollers/scale')).toMatchObject({
      kind: 'Scale',
      verbs: ['get', 'patch', 'update'],
    });
  });

  it('reads an extensions/v1beta1 Scale of the core controller', async () => {
    await controller('web');
    const res = await srv.api('GET', `${EXT}/web/scale`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      kind: 'Scale',
      apiVersion: 'extensions/v1beta1',
      metadata: { name: 'web', namespace: NS },
      spec: { replicas: 1 },
      status: { replicas: 0, selector: { app: 'web', tier: 'web' }, targetSelector: 'app=web,tier=web' },
    });
  });

  it('scales the controller by a strategic merge patch naming the Scale or the controller', async () => {
    await controller('patched');
    for (const [kind, replicas] of [
      ['Scale', 3],
      ['ReplicationController', 5],
    ] as const) {
      const res = await srv.api(
        'PATCH',
        `${EXT}/patched/scale`,
        { kind, spec: { replicas } },
        {
          'content-type': 'application/strategic-merge-patch+json',
        },
      );
      expect(res.status, res.text).toBe(200);
      expect(res.body.spec).toEqual({ replicas });
      const rc = await srv.api('GET', `${CORE}/patched`);
      expect(rc.body.spec.replicas).toBe(replicas);
      expect(rc.body.metadata.generation).toBeGreaterThan(1);
    }
  });

  it('updates through PUT and refuses a negative count', async () => {
    await controller('put');
    const current = await srv.api('GET', `${EXT}/put/scale`);
    const res = await srv.api('PUT', `${EXT}/put/scale`, { ...current.body, spec: { replicas: 2 } });
    expect(res.status, res.text).toBe(200);
    expect((await srv.api('GET', `${CORE}/put/scale`)).body).toMatchObject({
      apiVersion: 'autoscaling/v1',
      spec: { replicas: 2 },
      status: { selector: 'app=put,tier=web' },
    });
    const bad = await srv.api('PUT', `${EXT}/put/scale`, { ...current.body, spec: { replicas: -1 } });
    expect(bad.status).toBe(422);
    expect(bad.body.message).toContain('must be greater than or equal to 0');
  });

  it('serves no verb of the dummy kind itself', async () => {
    await controller('dummy');
    for (const [method, path] of [
      ['GET', `${EXT}/dummy`],
      ['GET', EXT],
      ['DELETE', `${EXT}/dummy`],
      ['POST', EXT],
    ] as const) {
      const res = await srv.api(method, path, method === 'POST' ? { metadata: { name: 'x' } } : undefined);
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    expect((await srv.api('GET', `${CORE}/dummy`)).status).toBe(200);
  });

  it('answers 404 for the scale of a missing controller', async () => {
    await srv.api('POST', '/api/v1/namespaces', { metadata: { name: NS } });
    expect((await srv.api('GET', `${EXT}/missing/scale`)).status).toBe(404);
  });
});
