/**
 * Upstream's e2e test/e2e/apimachinery/crd_selectable_fields.go (1.33): "[sig-api-machinery]
 * CustomResourceFieldSelectors [Privileged:ClusterAdmin]". Lists, watches and informers (list
 * then watch, as client-go's dynamic informer) with field selectors on a version's
 * `selectableFields` see exactly the matching custom objects, and a deletion or an update that
 * leaves the selector as a DELETED event.
 *
 * Upstream's definition has two versions, v1 (`hostPort`) stored and v2 (`host`, `port`),
 * converted by a webhook. Its v2 steps are ported on a definition serving v2 alone; its v1
 * steps on the two-version definition with upstream's e2e converter, where each version's
 * selectors see the objects converted to it (lists, and watches with their transitions).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookServer, type WebhookServer } from '../helpers/webhook-server.js';
import { TEST_TOKEN, useTestServer } from '../helpers/in-process.js';
import { openWatch, type OpenWatch } from '../helpers/watch-stream.js';
import { createCrd, deleteCrd, eventually, generateName, randomCrd } from '../helpers/upstream-crds.js';

const srv = useTestServer();
const NS = 'crd-selectable-fields';

/** Names added and deleted as a watch or an informer reported them. */
interface Accumulated {
  added: Set<string>;
  deleted: Set<string>;
}

function accumulate(watch: OpenWatch, into: Accumulated = { added: new Set(), deleted: new Set() }) {
  let stopped = false;
  void (async () => {
    while (!stopped) {
      const events = await watch.next(1, 60_000).catch(() => []);
      for (const e of events)
        if (e.type === 'ADDED') into.added.add(e.object.metadata.name);
        else if (e.type === 'DELETED') into.deleted.add(e.object.metadata.name);
      if (events.length === 0) return;
    }
  })();
  return {
    seen: into,
    stop: () => {
      stopped = true;
      watch.close();
    },
  };
}

describe('CustomResourceFieldSelectors [Privileged:ClusterAdmin] CustomResourceFieldSelectors', () => {
  it('MUST list and watch custom resources matching the field selector [Conformance]: v2', async () => {
    const def = randomCrd('Namespaced');
    def.spec.versions = [
      {
        name: 'v2',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: { type: 'object', properties: { host: { type: 'string' }, port: { type: 'string' } } },
        },
        selectableFields: [{ jsonPath: '.host' }, { jsonPath: '.port' }],
      },
    ];
    expect((await srv.api('POST', '/api/v1/namespaces', { metadata: { name: NS } })).status).toBe(201);
    await createCrd(srv, def);
    // Published as upstream's builder does (crd_publish_openapi's dropDefaults removes it again).
    const doc = await srv.api('GET', `/openapi/v3/apis/${def.spec.group}/v2`);
    const published = doc.body.components.schemas[`com.example.mygroup.v2.${def.spec.names.kind}`];
    expect(published['x-kubernetes-selectable-fields']).toEqual([{ fieldPath: 'host' }, { fieldPath: 'port' }]);
    const path = `/apis/${def.spec.group}/v2/namespaces/${NS}/${def.spec.names.plural}`;
    const selector = (s: string) => `fieldSelector=${encodeURIComponent(s)}`;
    const watchOf = async (s: string, rv?: string) => {
      const url = `${srv.url}${path}?watch=true&${selector(s)}${rv ? `&resourceVersion=${rv}` : ''}`;
      const watch = await openWatch(url, TEST_TOKEN, srv.agent);
      expect(watch.status).toBe(200);
      return watch;
    };
    /** A dynamic informer: list (its items are adds), then watch from the list's resourceVersion. */
    const informerOf = async (s: string) => {
      const list = await srv.api('GET', `${path}?${selector(s)}`);
      expect(list.status).toBe(200);
      const seen: Accumulated = {
        added: new Set(list.body.items.map((i: any) => i.metadata.name)),
        deleted: new Set(),
      };
      return accumulate(await watchOf(s, list.body.metadata.resourceVersion), seen);
    };
    const names = async (s: string) => {
      const list = await srv.api('GET', `${path}?${selector(s)}`);
      expect(list.status, list.text).toBe(200);
      return new Set(list.body.items.map((i: any) => i.metadata.name));
    };
    const observers = {
      hostWatch: accumulate(await watchOf('host=host1')),
      hostPortWatch: accumulate(await watchOf('host=host1,port=80')),
      hostInformer: await informerOf('host=host1'),
      hostPortInformer: await informerOf('host=host1,port=80'),
    };
    const wide = [observers.hostWatch, observers.hostInformer];
    const narrow = [observers.hostPortWatch, observers.hostPortInformer];

    const crNames: string[] = [];
    for (const fields of [{ host: 'host1', port: '80' }, { host: 'host1', port: '8080' }, { host: 'host2' }]) {
      const name = generateName('selectable-field-cr');
      crNames.push(name);
      const created = await srv.api('POST', path, {
        apiVersion: `${def.spec.group}/v2`,
        kind: def.spec.names.kind,
        metadata: { name, namespace: NS },
        ...fields,
      });
      expect(created.status, created.text).toBe(201);
    }
    const [cr0, cr1] = crNames as [string, string];
    expect(await names('host=host1')).toEqual(new Set([cr0, cr1]));
    expect(await names('host=host1,port=80')).toEqual(new Set([cr0]));
    const expectSeen = async (added: string[], deleted: string[], on: typeof wide) => {
      const want = { added: new Set(added), deleted: new Set(deleted) };
      for (const o of on)
        await eventually(
          async () => {
            const { added: a, deleted: d } = o.seen;
            return (
              JSON.stringify([[...a].sort(), [...d].sort()]) ===
              JSON.stringify([[...want.added].sort(), [...want.deleted].sort()])
            );
          },
          () =>
            `events ${JSON.stringify([[...o.seen.added], [...o.seen.deleted]])}, want ${JSON.stringify([added, deleted])}`,
        );
    };
    await expectSeen([cr0, cr1], [], wide);
    await expectSeen([cr0], [], narrow);

    const deleted = await srv.api('DELETE', `${path}?${selector('host=host1,port=80')}`, {
      kind: 'DeleteOptions',
      apiVersion: 'v1',
      gracePeriodSeconds: 0,
    });
    expect(deleted.status, deleted.text).toBe(200);
    const got = await srv.api('GET', `${path}/${cr1}`);
    const updated = await srv.api('PUT', `${path}/${cr1}`, { ...got.body, host: 'host2' });
    expect(updated.status, updated.text).toBe(200);

    expect(await names('host=host1')).toEqual(new Set());
    expect(await names('host=host1,port=80')).toEqual(new Set());
    await expectSeen([cr0, cr1], [cr0, cr1], wide);
    await expectSeen([cr0], [cr0], narrow);
    for (const o of Object.values(observers)) o.stop();
    await deleteCrd(srv, def);
  });

  describe('with v1 stored and v2 converted by a webhook', () => {
    let hook: WebhookServer;
    beforeAll(async () => {
      hook = await startWebhookServer();
      // Upstream's e2e converter: v1 `hostPort: "h:p"` <-> v2 `host` and `port`.
      hook.on('/crdconvert', (request, review) => {
        const convertedObjects = (request.objects as Record<string, any>[]).map((o) => {
          const out: Record<string, any> = { ...o, apiVersion: request.desiredAPIVersion };
          if (request.desiredAPIVersion.endsWith('/v2') && o.hostPort !== undefined) {
            [out.host, out.port] = String(o.hostPort).split(':');
            delete out.hostPort;
          } else if (request.desiredAPIVersion.endsWith('/v1') && o.host !== undefined) {
            out.hostPort = `${o.host}:${o.port ?? ''}`;
            delete out.host;
            delete out.port;
          }
          return out;
        });
        const response = { uid: request.uid, convertedObjects, result: { status: 'Success' } };
        return { raw: { apiVersion: review.apiVersion, kind: 'ConversionReview', response } };
      });
    });
    afterAll(() => hook.close());

    it('MUST list and watch custom resources matching the field selector [Conformance]: v1', async () => {
      const def = randomCrd('Namespaced');
      const schema = (properties: object) => ({ openAPIV3Schema: { type: 'object', properties } });
      def.spec.versions = [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: schema({ hostPort: { type: 'string' } }),
          selectableFields: [{ jsonPath: '.hostPort' }],
        },
        {
          name: 'v2',
          served: true,
          storage: false,
          schema: schema({ host: { type: 'string' }, port: { type: 'string' } }),
          selectableFields: [{ jsonPath: '.host' }, { jsonPath: '.port' }],
        },
      ];
      (def.spec as Record<string, unknown>).conversion = {
        strategy: 'Webhook',
        webhook: {
          clientConfig: { url: hook.url('/crdconvert'), caBundle: hook.caBundle },
          conversionReviewVersions: ['v1', 'v1beta1'],
        },
      };
      await srv.api('POST', '/api/v1/namespaces', { metadata: { name: NS } });
      await createCrd(srv, def);
      const path = (v: string) => `/apis/${def.spec.group}/${v}/namespaces/${NS}/${def.spec.names.plural}`;
      const selected = async (v: string, s: string) => {
        const list = await srv.api('GET', `${path(v)}?fieldSelector=${encodeURIComponent(s)}`);
        expect(list.status, list.text).toBe(200);
        return new Set(list.body.items.map((i: any) => i.metadata.name));
      };
      const rv = (await srv.api('GET', path('v1'))).body.metadata.resourceVersion;
      const url = `${srv.url}${path('v1')}?watch=true&resourceVersion=${rv}&fieldSelector=${encodeURIComponent('hostPort=host1:80')}`;
      const watch = accumulate(await openWatch(url, TEST_TOKEN, srv.agent));
      const names: string[] = [];
      for (const fields of [
        { host: 'host1', port: '80' },
        { host: 'host1', port: '8080' },
        { host: 'host2', port: '80' },
      ]) {
        const name = generateName('selectable-field-cr');
        names.push(name);
        const body = { apiVersion: `${def.spec.group}/v2`, kind: def.spec.names.kind, metadata: { name }, ...fields };
        const created = await srv.api('POST', path('v2'), body);
        expect(created.status, created.text).toBe(201);
      }
      const [cr0, cr1, cr2] = names as [string, string, string];
      expect(await selected('v1', 'hostPort=host1:80')).toEqual(new Set([cr0]));
      expect(await selected('v1', 'hostPort=host2:80')).toEqual(new Set([cr2]));
      expect(await selected('v2', 'host=host1')).toEqual(new Set([cr0, cr1]));
      expect(await selected('v2', 'port=80')).toEqual(new Set([cr0, cr2]));
      await eventually(async () => watch.seen.added.has(cr0), 'the v1 watch sees cr0 added');
      // cr0 leaves the v1 selector through a v2 update: the v1 watch sees it DELETED.
      const got = await srv.api('GET', `${path('v2')}/${cr0}`);
      expect((await srv.api('PUT', `${path('v2')}/${cr0}`, { ...got.body, port: '81' })).status).toBe(200);
      await eventually(async () => watch.seen.deleted.has(cr0), 'the v1 watch sees cr0 deleted');
      expect([...watch.seen.added]).toEqual([cr0]);
      expect(await selected('v1', 'hostPort=host1:80')).toEqual(new Set());
      watch.stop();
      await deleteCrd(srv, def);
    });
  });
});
