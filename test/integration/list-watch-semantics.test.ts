/**
 * List and watch semantics over HTTPS on the memory backend: chunking with continue tokens,
 * expiry after compaction (410 with a token for the remainder), resourceVersion rules,
 * bookmarks, compacted watches, cleanup of abandoned watches, initializers and export.
 */
import { describe, expect, it } from 'vitest';
import { TEST_TOKEN, useTestServer } from '../helpers/in-process.js';
import { openWatch } from '../helpers/watch-stream.js';
import { pendingWatchDeadlines } from '../../src/http/handlers/watch-stream.js';

const srv = useTestServer();

const ns = '/api/v1/namespaces/default/configmaps';
const all = '/api/v1/configmaps';

async function createMany(prefix: string, count: number, labels: (i: number) => Record<string, string> = () => ({})) {
  for (let i = 0; i < count; i++) {
    const res = await srv.api('POST', ns, {
      metadata: { name: `${prefix}-${String(i).padStart(3, '0')}`, labels: { set: prefix, ...labels(i) } },
    });
    expect(res.status).toBe(201);
  }
}

async function listAll(path: string, limit: number): Promise<{ names: string[]; rvs: Set<string> }> {
  const names: string[] = [];
  const rvs = new Set<string>();
  let token = '';
  do {
    const sep = path.includes('?') ? '&' : '?';
    const res = await srv.api(
      'GET',
      `${path}${sep}limit=${limit}${token ? `&continue=${encodeURIComponent(token)}` : ''}`,
    );
    expect(res.status, res.text).toBe(200);
    names.push(...res.body.items.map((i: any) => i.metadata.name));
    rvs.add(res.body.metadata.resourceVersion);
    token = res.body.metadata.continue ?? '';
  } while (token);
  return { names, rvs };
}

describe('chunked lists', () => {
  it('pages through namespaced and all-namespaces lists with one resourceVersion, with selectors', async () => {
    await createMany('chunk', 23, (i) => ({ parity: i % 2 ? 'odd' : 'even' }));
    const first = await srv.api('GET', `${ns}?labelSelector=set%3Dchunk&limit=5`);
    expect(first.body.items).toHaveLength(5);
    expect(first.body.metadata.continue).toBeTruthy();
    expect(first.body.metadata.remainingItemCount).toBeUndefined();

    const paged = await listAll(`${ns}?labelSelector=set%3Dchunk`, 5);
    expect(paged.names).toHaveLength(23);
    expect(paged.rvs.size).toBe(1);
    const even = await listAll(`${all}?labelSelector=set%3Dchunk,parity%3Deven`, 4);
    expect(even.names).toEqual(paged.names.filter((_, i) => i % 2 === 0));

    const unfiltered = await srv.api('GET', `${ns}?limit=3`);
    const total = (await srv.api('GET', ns)).body.items.length;
    expect(unfiltered.body.metadata.remainingItemCount).toBe(total - 3);
  });

  it('rejects malformed tokens and a resourceVersion with continue (400)', async () => {
    const bad = await srv.api('GET', `${ns}?limit=1&continue=garbage`);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^invalid continue token: continue key is not valid/);
    const first = await srv.api('GET', `${ns}?limit=1`);
    const both = await srv.api('GET', `${ns}?limit=1&resourceVersion=5&continue=${first.body.metadata.continue}`);
    expect(both.status).toBe(400);
    expect(both.body.message).toContain('specifying resource version is not allowed when using continue');
  });

  it('answers 410 Expired with a continue token for the remainder once the snapshot is compacted', async () => {
    await createMany('expire', 6);
    const first = await srv.api('GET', `${ns}?labelSelector=set%3Dexpire&limit=2`);
    const token = first.body.metadata.continue;
    await srv.api('POST', ns, { metadata: { name: 'expire-zzz-later', labels: { set: 'expire' } } });
    await srv.running.deps.kv.compact(await srv.running.deps.kv.currentRevision());
    const gone = await srv.api('GET', `${ns}?labelSelector=set%3Dexpire&limit=2&continue=${token}`);
    expect(gone.status).toBe(410);
    expect(gone.body).toMatchObject({ kind: 'Status', reason: 'Expired', code: 410 });
    expect(gone.body.message).toMatch(/^The provided continue parameter is too old/);
    const rest = await listAll(`${ns}?labelSelector=set%3Dexpire&continue=${gone.body.metadata.continue}`, 100);
    expect([...first.body.items.map((i: any) => i.metadata.name), ...rest.names]).toEqual([
      'expire-000',
      'expire-001',
      'expire-002',
      'expire-003',
      'expire-004',
      'expire-005',
      'expire-zzz-later',
    ]);
  });
});

describe('resourceVersion on reads', () => {
  it('an exact list at a compacted resourceVersion is 410; a malformed one is 400; a future one is 504', async () => {
    const old = await srv.api('POST', ns, { metadata: { name: 'rv-old' } });
    await srv.api('POST', ns, { metadata: { name: 'rv-new' } });
    await srv.running.deps.kv.compact(await srv.running.deps.kv.currentRevision());
    const compacted = await srv.api('GET', `${ns}?limit=10&resourceVersion=${old.body.metadata.resourceVersion}`);
    expect(compacted.status).toBe(410);
    expect(compacted.body.message).toBe('The resourceVersion for the provided list is too old.');
    for (const path of [`${ns}?resourceVersion=abc`, `${ns}/rv-old?resourceVersion=x1`]) {
      const bad = await srv.api('GET', path);
      expect(bad.status).toBe(400);
      expect(bad.body.message).toMatch(/^invalid resource version: /);
    }
    const future = Number(await srv.running.deps.kv.currentRevision()) + 1000;
    const tooNew = await srv.api('GET', `${ns}/rv-old?resourceVersion=${future}`);
    expect(tooNew.status).toBe(504);
    expect(tooNew.body).toMatchObject({ reason: 'Timeout', details: { retryAfterSeconds: 1 } });
    expect(tooNew.headers['retry-after']).toBe('1');
    const zero = await srv.api('GET', `${ns}/rv-old?resourceVersion=0`);
    expect(zero.status).toBe(200);
  });
});

describe('watch semantics', () => {
  describe('without a watch cache (--watch-cache=false)', () => {
    const direct = useTestServer({ watchCache: false });
    it('sends one ERROR event (410 Expired) and closes for a compacted resourceVersion', async () => {
      const a = await direct.api('POST', ns, { metadata: { name: 'w-compact-a' } });
      await direct.api('POST', ns, { metadata: { name: 'w-compact-b' } });
      await direct.running.deps.kv.compact(await direct.running.deps.kv.currentRevision());
      const w = await openWatch(
        `${direct.url}${ns}?watch=true&resourceVersion=${a.body.metadata.resourceVersion}`,
        TEST_TOKEN,
        direct.agent,
      );
      expect(w.status).toBe(200);
      const [ev] = await w.next(1);
      expect(ev).toMatchObject({
        type: 'ERROR',
        object: { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Expired', code: 410 },
      });
      await w.ended;
    });
  });

  it('serves a watch from a compacted resourceVersion that is still inside the watch cache window', async () => {
    const a = await srv.api('POST', ns, { metadata: { name: 'w-compact-a' } });
    const b = await srv.api('POST', ns, { metadata: { name: 'w-compact-b' } });
    await srv.running.deps.kv.compact(await srv.running.deps.kv.currentRevision());
    const w = await openWatch(
      `${srv.url}${ns}?watch=true&resourceVersion=${a.body.metadata.resourceVersion}`,
      TEST_TOKEN,
      srv.agent,
    );
    expect(w.status).toBe(200);
    const [ev] = await w.next(1);
    expect(ev).toMatchObject({
      type: 'ADDED',
      object: { metadata: { name: 'w-compact-b', resourceVersion: b.body.metadata.resourceVersion } },
    });
    w.close();
  });

  it('sends BOOKMARK events with progress when asked', async () => {
    const list = await srv.api('GET', ns);
    const w = await openWatch(
      `${srv.url}${ns}?watch=true&allowWatchBookmarks=true&timeoutSeconds=3&resourceVersion=${list.body.metadata.resourceVersion}`,
      TEST_TOKEN,
      srv.agent,
    );
    const other = await srv.api('POST', '/api/v1/namespaces/default/secrets', {
      metadata: { name: 'progress-elsewhere' },
    });
    const [bookmark] = await w.next(1, 4000);
    expect(bookmark).toEqual({
      type: 'BOOKMARK',
      object: { kind: 'ConfigMap', apiVersion: 'v1', metadata: { resourceVersion: expect.stringMatching(/^\d+$/) } },
    });
    // Progress covers at least the unrelated write (other writes, e.g. lease renewals, may follow it).
    expect(Number(bookmark.object.metadata.resourceVersion)).toBeGreaterThanOrEqual(
      Number(other.body.metadata.resourceVersion),
    );
    w.close();
  });

  it('frees a watch as soon as its client goes away', async () => {
    const watchers = async () => {
      const text = (await srv.api('GET', '/metrics')).text;
      const line = text
        .split('\n')
        .find((l) => l.startsWith('apiserver_registered_watchers{') && l.includes('kind="ConfigMap"'));
      return Number(line?.split(' ').pop() ?? 0);
    };
    const before = await watchers();
    const deadlines = pendingWatchDeadlines();
    // With bookmarks: the watch holds a timeout and a bookmark time on the shared timers.
    const w = await openWatch(
      `${srv.url}${ns}?watch=true&allowWatchBookmarks=true&resourceVersion=1000000`,
      TEST_TOKEN,
      srv.agent,
    );
    await new Promise((r) => setTimeout(r, 100));
    expect(await watchers()).toBe(before + 1);
    await expect.poll(pendingWatchDeadlines).toBe(deadlines + 2);
    w.close();
    for (let i = 0; i < 50 && (await watchers()) !== before; i++) await new Promise((r) => setTimeout(r, 50));
    expect(await watchers()).toBe(before);
    await expect.poll(pendingWatchDeadlines).toBe(deadlines);
  });
});

describe('output options', () => {
  it('hides objects with pending initializers from list and watch unless includeUninitialized, and creates them with 202', async () => {
    const created = await srv.api('POST', ns, {
      metadata: { name: 'uninit', initializers: { pending: [{ name: 'example.com/init' }] } },
    });
    expect(created.status).toBe(202);
    const names = async (q: string) => (await srv.api('GET', `${ns}${q}`)).body.items.map((i: any) => i.metadata.name);
    expect(await names('')).not.toContain('uninit');
    expect(await names('?includeUninitialized=true')).toContain('uninit');
    const w = await openWatch(`${srv.url}${ns}?watch=true&fieldSelector=metadata.name%3Duninit`, TEST_TOKEN, srv.agent);
    await srv.api(
      'PATCH',
      `${ns}/uninit`,
      { metadata: { initializers: null } },
      { 'content-type': 'application/merge-patch+json' },
    );
    const [ev] = await w.next(1);
    expect(ev).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'uninit' } } });
    w.close();
  });

  it('exports objects without server fields; exact keeps the namespace', async () => {
    await srv.api('POST', '/api/v1/namespaces/default/pods', {
      metadata: { name: 'exported' },
      spec: { containers: [{ name: 'c', image: 'i' }] },
    });
    const exported = await srv.api('GET', '/api/v1/namespaces/default/pods/exported?export=true');
    expect(exported.body.metadata).toEqual({ name: 'exported', creationTimestamp: null });
    const exact = await srv.api('GET', '/api/v1/namespaces/default/pods/exported?export=true&exact=true');
    expect(exact.body.metadata).toEqual({ name: 'exported', namespace: 'default', creationTimestamp: null });
  });

  it('pretty-prints on request', async () => {
    const res = await srv.api('GET', `${ns}/uninit?pretty=true`);
    expect(res.text).toMatch(/^\{\n {2}"kind": "ConfigMap"/);
  });
});

describe('resourceVersionMatch on lists', () => {
  it('Exact reads the snapshot at the resourceVersion, with or without a limit; NotOlderThan reads the latest', async () => {
    await createMany('rvm', 2);
    const before = await srv.api('GET', `${ns}?labelSelector=set%3Drvm`);
    const rv = before.body.metadata.resourceVersion;
    await createMany('rvm-later', 1, () => ({ set: 'rvm' }));
    const names = (res: { body: any }) => res.body.items.map((i: any) => i.metadata.name);
    const exact = await srv.api(
      'GET',
      `${ns}?labelSelector=set%3Drvm&resourceVersion=${rv}&resourceVersionMatch=Exact`,
    );
    expect(exact.status, exact.text).toBe(200);
    expect(exact.body.metadata.resourceVersion).toBe(rv);
    expect(names(exact)).toEqual(['rvm-000', 'rvm-001']);
    const exactPaged = await srv.api(
      'GET',
      `${ns}?labelSelector=set%3Drvm&limit=10&resourceVersion=${rv}&resourceVersionMatch=Exact`,
    );
    expect(names(exactPaged)).toEqual(['rvm-000', 'rvm-001']);
    const newer = await srv.api(
      'GET',
      `${ns}?labelSelector=set%3Drvm&limit=10&resourceVersion=${rv}&resourceVersionMatch=NotOlderThan`,
    );
    expect(names(newer)).toEqual(['rvm-000', 'rvm-001', 'rvm-later-000']);
    expect(Number(newer.body.metadata.resourceVersion)).toBeGreaterThan(Number(rv));
  });

  it.each([
    [
      'Exact without resourceVersion',
      'resourceVersionMatch=Exact',
      'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided',
    ],
    [
      'an unknown match',
      'resourceVersion=1&resourceVersionMatch=Newest',
      'resourceVersionMatch: Unsupported value: "Newest": supported values: "Exact", "NotOlderThan", ""',
    ],
    [
      'Exact at 0',
      'resourceVersion=0&resourceVersionMatch=Exact',
      'resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"',
    ],
    [
      'sendInitialEvents on a list',
      'sendInitialEvents=true',
      'sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list',
    ],
  ])('refuses %s as upstream (422 on ListOptions)', async (_name, query, message) => {
    const res = await srv.api('GET', `${ns}?${query}`);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      reason: 'Invalid',
      message: `ListOptions.meta.k8s.io "" is invalid: ${message}`,
      details: { group: 'meta.k8s.io', kind: 'ListOptions' },
    });
  });
});
