/**
 * Watch-list (KEP-3157) as today's informers ask for it: the current objects as ADDED, then a
 * BOOKMARK annotated `k8s.io/initial-events-end: "true"` at the list's revision, then changes;
 * upstream's checks of the parameter combinations; and the legacy watch's defaults.
 */
import { describe, expect, it } from 'vitest';
import { TEST_TOKEN, useTestServer } from '../helpers/in-process.js';
import { openWatch } from '../helpers/watch-stream.js';

const srv = useTestServer();
const ns = '/api/v1/namespaces/default/configmaps';
const WATCH_LIST = 'watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true';

const open = (query: string) => openWatch(`${srv.url}${ns}?${query}`, TEST_TOKEN, srv.agent);

describe('watch-list', () => {
  it('streams every object, then the annotated BOOKMARK at the list revision, then changes', async () => {
    for (const n of ['wl-a', 'wl-b', 'wl-c'])
      expect((await srv.api('POST', ns, { metadata: { name: n, labels: { wl: 'yes' } } })).status).toBe(201);
    const list = await srv.api('GET', `${ns}?labelSelector=wl%3Dyes`);
    const watch = await open(`${WATCH_LIST}&labelSelector=wl%3Dyes`);
    try {
      const initial = await watch.next(4, 2000);
      expect(
        initial
          .slice(0, 3)
          .map((e) => [e.type, e.object.metadata.name])
          .sort(),
      ).toEqual([
        ['ADDED', 'wl-a'],
        ['ADDED', 'wl-b'],
        ['ADDED', 'wl-c'],
      ]);
      const byName = (objs: any[]) => Object.fromEntries(objs.map((o) => [o.metadata.name, o.metadata]));
      expect(byName(initial.slice(0, 3).map((e) => e.object))).toEqual(byName(list.body.items));
      const bookmark = initial[3];
      expect(bookmark).toEqual({
        type: 'BOOKMARK',
        object: {
          kind: 'ConfigMap',
          apiVersion: 'v1',
          metadata: {
            resourceVersion: list.body.metadata.resourceVersion,
            annotations: { 'k8s.io/initial-events-end': 'true' },
          },
        },
      });
      const created = await srv.api('POST', ns, { metadata: { name: 'wl-d', labels: { wl: 'yes' } } });
      const [added] = await watch.next(1);
      expect([added.type, added.object.metadata.resourceVersion]).toEqual([
        'ADDED',
        created.body.metadata.resourceVersion,
      ]);
    } finally {
      watch.close();
    }
  });

  it('from a resourceVersion, the initial state is not older than it', async () => {
    const rv = (await srv.api('POST', ns, { metadata: { name: 'wl-rv' } })).body.metadata.resourceVersion;
    const watch = await open(`${WATCH_LIST}&fieldSelector=metadata.name%3Dwl-rv&resourceVersion=${rv}`);
    try {
      const [added, bookmark] = await watch.next(2, 2000);
      expect([added.type, added.object.metadata.name]).toEqual(['ADDED', 'wl-rv']);
      expect(bookmark.type).toBe('BOOKMARK');
      expect(Number(bookmark.object.metadata.resourceVersion)).toBeGreaterThanOrEqual(Number(rv));
    } finally {
      watch.close();
    }
  });

  it('sendInitialEvents=false starts at the current revision without initial events', async () => {
    await srv.api('POST', ns, { metadata: { name: 'wl-old' } });
    const watch = await open(
      'watch=1&sendInitialEvents=false&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true',
    );
    try {
      await new Promise((r) => setTimeout(r, 200));
      await srv.api('POST', ns, { metadata: { name: 'wl-new' } });
      const [first] = await watch.next(1);
      expect([first.type, first.object.metadata.name]).toEqual(['ADDED', 'wl-new']);
    } finally {
      watch.close();
    }
  });

  it('a legacy watch without resourceVersion, even with bookmarks, gets no initial-events-end BOOKMARK (upstream isListWatchRequest)', async () => {
    for (const query of ['watch=1&allowWatchBookmarks=true', 'watch=1']) {
      const watch = await open(`${query}&fieldSelector=metadata.name%3Dwl-a&timeoutSeconds=1`);
      await watch.ended;
      const events = [];
      for (;;) {
        const [ev] = await watch.next(1).catch(() => []);
        if (!ev) break;
        events.push(ev);
      }
      expect(events[0]?.type).toBe('ADDED');
      expect(events.filter((e) => e.object.metadata.annotations?.['k8s.io/initial-events-end'])).toEqual([]);
    }
  });

  it.each([
    [
      'sendInitialEvents without resourceVersionMatch',
      'watch=1&sendInitialEvents=true',
      ['resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'],
    ],
    [
      'resourceVersionMatch without sendInitialEvents',
      'watch=1&resourceVersionMatch=NotOlderThan',
      [
        'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided',
      ],
    ],
    [
      'Exact on a watch',
      'watch=1&sendInitialEvents=true&resourceVersionMatch=Exact&resourceVersion=5',
      [
        'resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan',
        'resourceVersionMatch: Unsupported value: "Exact": supported values: "NotOlderThan"',
      ],
    ],
  ])('refuses %s as upstream (422 on ListOptions)', async (_name, query, causes) => {
    const res = await srv.api('GET', `${ns}?${query}`);
    expect(res.status).toBe(422);
    const aggregate = causes.length === 1 ? causes[0] : `[${causes.join(', ')}]`;
    expect(res.body).toMatchObject({
      reason: 'Invalid',
      message: `ListOptions.meta.k8s.io "" is invalid: ${aggregate}`,
    });
  });
});
