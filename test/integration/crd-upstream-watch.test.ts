/**
 * Upstream's e2e test/e2e/apimachinery/crd_watch.go (1.33): "[sig-api-machinery]
 * CustomResourceDefinition Watch [Privileged:ClusterAdmin]". Two watches, each selecting one
 * custom object by `metadata.name`, see that object's ADDED, MODIFIED and DELETED events and
 * never the other's; the ADDED object is the created one (upstream compares them with
 * equality.Semantic.DeepEqual).
 */
import { describe, expect, it } from 'vitest';
import { TEST_TOKEN, useTestServer } from '../helpers/in-process.js';
import { openWatch, type OpenWatch } from '../helpers/watch-stream.js';
import { createCrd, deleteCrd, noxuCrd, noxuInstanceJson, resourcePath } from '../helpers/upstream-crds.js';

const srv = useTestServer();

/** expectNoEvent: no event of `type` arrives within `ms` (upstream waits 2 s; the server is in-process). */
async function expectNoEvent(watch: OpenWatch, type: string, ms = 300): Promise<void> {
  const events = await watch.next(1, ms).catch(() => []);
  expect(events.map((e) => e.type)).not.toContain(type);
}

describe('CustomResourceDefinition Watch [Privileged:ClusterAdmin] CustomResourceDefinition Watch', () => {
  it('watch on custom resource definition objects [Conformance]', async () => {
    const def = noxuCrd('Cluster');
    await createCrd(srv, def, { primeWatch: true });
    const path = resourcePath(def, 'v1beta1');
    const watchFor = (name: string) =>
      openWatch(
        `${srv.url}${path}?watch=true&fieldSelector=metadata.name%3D${name}&timeoutSeconds=600`,
        TEST_TOKEN,
        srv.agent,
      );
    const watchA = await watchFor('name1');
    const watchB = await watchFor('name2');
    expect([watchA.status, watchB.status]).toEqual([200, 200]);

    // instantiateCustomResource: a uid, the definition's apiVersion and kind.
    const create = async (name: string) => {
      const res = await srv.api('POST', path, noxuInstanceJson('', name));
      expect(res.status, res.text).toBe(201);
      expect(res.body.metadata.uid).toBeTruthy();
      expect([res.body.apiVersion, res.body.kind]).toEqual(['mygroup.example.com/v1beta1', 'WishIHadChosenNoxu']);
      return res.body;
    };
    const patch = async (name: string) => {
      const res = await srv.api('PATCH', `${path}/${name}`, [{ op: 'add', path: '/dummy', value: 'test' }], {
        'content-type': 'application/json-patch+json',
      });
      expect(res.status, res.text).toBe(200);
    };
    const remove = async (name: string) => {
      expect((await srv.api('DELETE', `${path}/${name}`)).status).toBe(200);
    };

    const steps = [
      { act: () => create('name1'), type: 'ADDED', on: watchA, off: watchB },
      { act: () => create('name2'), type: 'ADDED', on: watchB, off: watchA },
      { act: () => patch('name1'), type: 'MODIFIED', on: watchA, off: watchB },
      { act: () => patch('name2'), type: 'MODIFIED', on: watchB, off: watchA },
      { act: () => remove('name1'), type: 'DELETED', on: watchA, off: watchB },
      { act: () => remove('name2'), type: 'DELETED', on: watchB, off: watchA },
    ];
    for (const { act, type, on, off } of steps) {
      const created = await act();
      const [event] = await on.next(1);
      expect(event!.type).toBe(type);
      if (created) expect(event!.object).toEqual(created);
      if (type === 'MODIFIED') expect(event!.object.dummy).toBe('test');
      await expectNoEvent(off, type);
    }
    watchA.close();
    watchB.close();
    await deleteCrd(srv, def);
  });
});
