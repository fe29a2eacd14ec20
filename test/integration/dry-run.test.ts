/**
 * dryRun=All on every write: the answer is what a real write would answer, and the stored
 * state (objects, resourceVersions, allocated IPs and node ports) stays exactly as it was.
 */
import { describe, expect, it } from 'vitest';
import { MINIMAL_OBJECTS } from '../fixtures/minimal-objects.js';
import { TEST_TOKEN, useTestServer } from '../helpers/in-process.js';
import { openWatch } from '../helpers/watch-stream.js';

const srv = useTestServer();
const DRY = '?dryRun=All';
const PATCH_TYPES: [string, (label: string) => unknown][] = [
  ['application/merge-patch+json', (v) => ({ metadata: { labels: { dry: v } } })],
  ['application/strategic-merge-patch+json', (v) => ({ metadata: { labels: { dry: v } } })],
  ['application/json-patch+json', (v) => [{ op: 'add', path: '/metadata/labels', value: { dry: v } }]],
];

/** The whole stored object (or 404), to compare before and after a dry run. */
async function stored(path: string): Promise<unknown> {
  const res = await srv.api('GET', path);
  return res.status === 404 ? 404 : res.body;
}

describe.each(Object.entries(MINIMAL_OBJECTS))('%s', (plural, fx) => {
  const name = `dry-${plural.slice(0, 20)}`;
  const item = `${fx.path}/${name}`;

  it('a dry-run create answers 201 with the object and stores nothing', async () => {
    const before = await srv.api('GET', fx.path);
    const res = await srv.api('POST', fx.path + DRY, fx.body(name));
    expect(res.status, res.text).toBe(201);
    expect(res.body.metadata).toMatchObject({ name, uid: expect.any(String), creationTimestamp: expect.any(String) });
    expect(res.body.metadata.resourceVersion).toBeUndefined();
    expect(await stored(item)).toBe(404);
    const after = await srv.api('GET', fx.path);
    expect(after.body.items).toEqual(before.body.items);
  });

  it('dry-run update, patches and delete answer as real ones and change nothing', async () => {
    expect((await srv.api('POST', fx.path, fx.body(name))).status).toBe(201);
    const before = await stored(item);
    const current = before as { metadata: Record<string, unknown> };

    const put = await srv.api('PUT', item + DRY, {
      ...current,
      metadata: { ...current.metadata, labels: { dry: 'put' } },
    });
    expect(put.status, put.text).toBe(200);
    // A namespace also keeps the label naming it (upstream since 1.22).
    const own = plural === 'namespaces' ? { 'kubernetes.io/metadata.name': name } : {};
    expect(put.body.metadata.labels).toEqual({ ...own, dry: 'put' });
    expect(put.body.metadata.resourceVersion).toBe(current.metadata.resourceVersion);
    for (const [type, patch] of PATCH_TYPES) {
      const label = type.split('/')[1].split('-')[0];
      const res = await srv.api('PATCH', item + DRY, patch(label), { 'content-type': type });
      expect(res.status, `${type}: ${res.text}`).toBe(200);
      expect(res.body.metadata.labels).toMatchObject({ dry: label });
    }
    // A dry run that would fail fails the same way: a stale resourceVersion is a conflict.
    const stale = await srv.api('PUT', item + DRY, {
      ...current,
      metadata: { ...current.metadata, resourceVersion: '1' },
    });
    expect(stale.status).toBe(409);
    expect(await stored(item)).toEqual(before);

    const del = await srv.api('DELETE', item + DRY);
    expect(del.status, del.text).toBe(200);
    expect(await stored(item)).toEqual(before);
    const delBody = await srv.api('DELETE', item, { kind: 'DeleteOptions', apiVersion: 'v1', dryRun: ['All'] });
    expect(delBody.status, delBody.text).toBe(200);
    expect(await stored(item)).toEqual(before);
  });
});

describe('dry run with side effects', () => {
  const ns = '/api/v1/namespaces/default';

  it('keeps no cluster IP or node port from a dry-run Service create', async () => {
    const svc = (name: string) => ({
      metadata: { name },
      spec: { type: 'NodePort', clusterIP: '10.0.0.77', ports: [{ port: 80, nodePort: 30777 }] },
    });
    const dry = await srv.api('POST', `${ns}/services${DRY}`, svc('dry-svc'));
    expect(dry.status, dry.text).toBe(201);
    expect(dry.body.spec).toMatchObject({ clusterIP: '10.0.0.77', ports: [{ nodePort: 30777 }] });
    // Both are still free for a real Service.
    const real = await srv.api('POST', `${ns}/services`, svc('real-svc'));
    expect(real.status, real.text).toBe(201);
    // And a dry run now reports them taken, exactly as a real create would.
    const taken = await srv.api('POST', `${ns}/services${DRY}`, svc('dry-svc-2'));
    expect(taken.status).toBe(422);
    expect(taken.body.message).toContain('provided IP is already allocated');
    // A dry-run delete keeps the Service's IP held.
    expect((await srv.api('DELETE', `${ns}/services/real-svc${DRY}`)).status).toBe(200);
    expect((await srv.api('POST', `${ns}/services${DRY}`, svc('dry-svc-3'))).status).toBe(422);
  });

  it('a dry-run automatic IP does not use up the range', async () => {
    const dry = await srv.api('POST', `${ns}/services${DRY}`, {
      metadata: { name: 'auto' },
      spec: { ports: [{ port: 80 }] },
    });
    expect(dry.status).toBe(201);
    const real = await srv.api('POST', `${ns}/services`, {
      metadata: { name: 'auto-real' },
      spec: { clusterIP: dry.body.spec.clusterIP, ports: [{ port: 80 }] },
    });
    expect(real.status, real.text).toBe(201);
  });

  it('dry-run graceful pod deletion reports the deletionTimestamp without setting it', async () => {
    const pod = { metadata: { name: 'bound' }, spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'nginx' }] } };
    expect((await srv.api('POST', `${ns}/pods`, pod)).status).toBe(201);
    const before = await stored(`${ns}/pods/bound`);
    const res = await srv.api('DELETE', `${ns}/pods/bound${DRY}`);
    expect(res.status).toBe(200);
    expect(res.body.metadata.deletionTimestamp).toEqual(expect.any(String));
    expect(res.body.metadata.deletionGracePeriodSeconds).toBe(30);
    expect(await stored(`${ns}/pods/bound`)).toEqual(before);
  });

  it('dry-run subresource writes: status, binding, scale, finalize', async () => {
    expect(
      (
        await srv.api('POST', `${ns}/pods`, {
          metadata: { name: 'sub' },
          spec: { containers: [{ name: 'c', image: 'nginx' }] },
        })
      ).status,
    ).toBe(201);
    const pod = await stored(`${ns}/pods/sub`);
    const status = await srv.api(
      'PATCH',
      `${ns}/pods/sub/status${DRY}`,
      { status: { phase: 'Running' } },
      { 'content-type': 'application/merge-patch+json' },
    );
    expect(status.status).toBe(200);
    expect(status.body.status.phase).toBe('Running');
    const bind = await srv.api('POST', `${ns}/pods/sub/binding${DRY}`, {
      metadata: { name: 'sub' },
      target: { kind: 'Node', name: 'n1' },
    });
    expect(bind.status, bind.text).toBe(201);
    expect(await stored(`${ns}/pods/sub`)).toEqual(pod);

    const rc = MINIMAL_OBJECTS.replicationcontrollers.body('rc-dry');
    expect((await srv.api('POST', `${ns}/replicationcontrollers`, rc)).status).toBe(201);
    const rcBefore = await stored(`${ns}/replicationcontrollers/rc-dry`);
    const scale = await srv.api(
      'PATCH',
      `${ns}/replicationcontrollers/rc-dry/scale${DRY}`,
      { spec: { replicas: 5 } },
      { 'content-type': 'application/merge-patch+json' },
    );
    expect(scale.status, scale.text).toBe(200);
    expect(scale.body.spec.replicas).toBe(5);
    expect(await stored(`${ns}/replicationcontrollers/rc-dry`)).toEqual(rcBefore);

    expect((await srv.api('POST', '/api/v1/namespaces', { metadata: { name: 'dry-ns' } })).status).toBe(201);
    const nsBefore = (await stored('/api/v1/namespaces/dry-ns')) as { spec: unknown };
    const fin = await srv.api('PUT', `/api/v1/namespaces/dry-ns/finalize${DRY}`, {
      ...nsBefore,
      spec: { finalizers: [] },
    });
    expect(fin.status, fin.text).toBe(200);
    expect(fin.body.spec.finalizers ?? []).toEqual([]);
    const del = await srv.api('DELETE', `/api/v1/namespaces/dry-ns${DRY}`);
    expect(del.status).toBe(200);
    expect(del.body.status.phase).toBe('Terminating');
    expect(await stored('/api/v1/namespaces/dry-ns')).toEqual(nsBefore);
  });

  it('dry-run deletecollection deletes nothing', async () => {
    for (const n of ['c1', 'c2'])
      expect((await srv.api('POST', `${ns}/configmaps`, { metadata: { name: n, labels: { set: 'dc' } } })).status).toBe(
        201,
      );
    const before = await srv.api('GET', `${ns}/configmaps?labelSelector=set%3Ddc`);
    const res = await srv.api('DELETE', `${ns}/configmaps?labelSelector=set%3Ddc&dryRun=All`);
    expect(res.status).toBe(200);
    expect(res.body.items.map((i: any) => i.metadata.name).sort()).toEqual(['c1', 'c2']);
    expect((await srv.api('GET', `${ns}/configmaps?labelSelector=set%3Ddc`)).body.items).toEqual(before.body.items);
  });

  it('rejects dryRun values other than All as upstream (422 on the options kind)', async () => {
    const create = await srv.api('POST', `${ns}/configmaps?dryRun=Bogus`, { metadata: { name: 'bogus' } });
    expect(create.status).toBe(422);
    expect(create.body).toMatchObject({
      reason: 'Invalid',
      message:
        'CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: []string{"Bogus"}: supported values: "All"',
      details: {
        group: 'meta.k8s.io',
        kind: 'CreateOptions',
        causes: [{ reason: 'FieldValueNotSupported', field: 'dryRun' }],
      },
    });
    expect(await stored(`${ns}/configmaps/bogus`)).toBe(404);
    expect(
      (
        await srv.api(
          'PATCH',
          `${ns}/configmaps/c1?dryRun=All&dryRun=x`,
          {},
          { 'content-type': 'application/merge-patch+json' },
        )
      ).body.details.kind,
    ).toBe('PatchOptions');
    expect((await srv.api('DELETE', `${ns}/configmaps/c1?dryRun=true`)).body.details.kind).toBe('DeleteOptions');
    expect(await stored(`${ns}/configmaps/c1`)).not.toBe(404);
  });

  it('watchers (and so controllers) see no event from a dry run', async () => {
    const list = await srv.api('GET', `${ns}/configmaps`);
    const watch = await openWatch(
      `${srv.url}${ns}/configmaps?watch=true&resourceVersion=${list.body.metadata.resourceVersion}`,
      TEST_TOKEN,
      srv.agent,
    );
    try {
      expect((await srv.api('POST', `${ns}/configmaps${DRY}`, { metadata: { name: 'unseen' } })).status).toBe(201);
      expect(
        (
          await srv.api(
            'PATCH',
            `${ns}/configmaps/c1${DRY}`,
            { data: { x: 'y' } },
            { 'content-type': 'application/merge-patch+json' },
          )
        ).status,
      ).toBe(200);
      expect((await srv.api('DELETE', `${ns}/configmaps/c2${DRY}`)).status).toBe(200);
      expect((await srv.api('POST', `${ns}/configmaps`, { metadata: { name: 'seen' } })).status).toBe(201);
      const [first] = await watch.next(1);
      expect([first.type, first.object.metadata.name]).toEqual(['ADDED', 'seen']);
    } finally {
      watch.close();
    }
  });

  it('labels request metrics with dry_run', async () => {
    await srv.api('POST', `${ns}/configmaps${DRY}`, { metadata: { name: 'metric' } });
    const metrics = await srv.api('GET', '/metrics');
    expect(metrics.text).toMatch(
      /apiserver_request_total\{verb="POST",dry_run="All",group="",version="v1",resource="configmaps"[^}]*code="201"\} [1-9]/,
    );
  });
});
