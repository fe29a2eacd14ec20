/** Watch through HTTPS: initial ADDED sync, live events, resume from a resourceVersion, selectors. */
import { describe, expect, it } from 'vitest';
import { TEST_TOKEN, useTestServer } from '../helpers/in-process.js';
import { openWatch } from '../helpers/watch-stream.js';

const srv = useTestServer();

const cms = '/api/v1/namespaces/default/configmaps';
const cm = (name: string, labels: Record<string, string> = {}) => ({ metadata: { name, labels }, data: { a: '1' } });

describe('watch', () => {
  it('streams ADDED for existing objects without a resourceVersion, then live changes (watch=True)', async () => {
    await srv.api('POST', cms, cm('w-existing'));
    const w = await openWatch(`${srv.url}${cms}?watch=True`, TEST_TOKEN, srv.agent);
    expect(w.status).toBe(200);
    expect(String(w.headers['content-type'])).toContain('application/json');
    expect(w.headers['transfer-encoding']).toBe('chunked');
    const initial = await w.next(1);
    expect(initial[0]).toMatchObject({
      type: 'ADDED',
      object: { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'w-existing' } },
    });

    const created = await srv.api('POST', cms, cm('w-live'));
    const patched = await srv.api(
      'PATCH',
      `${cms}/w-live`,
      { data: { a: '2' } },
      { 'content-type': 'application/merge-patch+json' },
    );
    const deleted = await srv.api('DELETE', `${cms}/w-live`);
    const evs = await w.next(3);
    expect(evs.map((e) => e.type)).toEqual(['ADDED', 'MODIFIED', 'DELETED']);
    expect(evs[0].object.metadata.resourceVersion).toBe(created.body.metadata.resourceVersion);
    expect(evs[1].object.metadata.resourceVersion).toBe(patched.body.metadata.resourceVersion);
    expect(evs[1].object.data).toEqual({ a: '2' });
    expect(Number(evs[2].object.metadata.resourceVersion)).toBeGreaterThan(
      Number(patched.body.metadata.resourceVersion),
    );
    expect(deleted.status).toBe(200);
    w.close();
  });

  it('resumes from a list resourceVersion with exactly the later events, on the legacy /watch/ path', async () => {
    const list = await srv.api('GET', cms);
    const rv = list.body.metadata.resourceVersion;
    await srv.api('POST', cms, cm('w-after-1'));
    await srv.api('POST', cms, cm('w-after-2'));
    const w = await openWatch(
      `${srv.url}/api/v1/watch/namespaces/default/configmaps?resourceVersion=${rv}`,
      TEST_TOKEN,
      srv.agent,
    );
    const evs = await w.next(2);
    expect(evs.map((e) => [e.type, e.object.metadata.name])).toEqual([
      ['ADDED', 'w-after-1'],
      ['ADDED', 'w-after-2'],
    ]);
    w.close();
  });

  it('applies label selector transitions: entering is ADDED, leaving is DELETED', async () => {
    const list = await srv.api('GET', cms);
    const w = await openWatch(
      `${srv.url}${cms}?watch=true&labelSelector=tier%3Dweb&resourceVersion=${list.body.metadata.resourceVersion}`,
      TEST_TOKEN,
      srv.agent,
    );
    await srv.api('POST', cms, cm('w-sel', { tier: 'db' }));
    await srv.api(
      'PATCH',
      `${cms}/w-sel`,
      { metadata: { labels: { tier: 'web' } } },
      { 'content-type': 'application/merge-patch+json' },
    );
    const leave = await srv.api(
      'PATCH',
      `${cms}/w-sel`,
      { metadata: { labels: { tier: 'cache' } } },
      { 'content-type': 'application/merge-patch+json' },
    );
    const evs = await w.next(2);
    expect(evs.map((e) => e.type)).toEqual(['ADDED', 'DELETED']);
    expect(evs[1].object.metadata.resourceVersion).toBe(leave.body.metadata.resourceVersion);
    expect(evs[1].object.metadata.labels).toEqual({ tier: 'web' });
    w.close();
  });

  it('watches one object by metadata.name field selector, as client-go informers do', async () => {
    await srv.api('POST', cms, cm('w-one'));
    await srv.api('POST', cms, cm('w-other'));
    const w = await openWatch(
      `${srv.url}${cms}?watch=true&fieldSelector=metadata.name%3Dw-one&resourceVersion=0&allowWatchBookmarks=true`,
      TEST_TOKEN,
      srv.agent,
    );
    const [first] = await w.next(1);
    expect(first.object.metadata.name).toBe('w-one');
    // A legacy watch (no sendInitialEvents) gets no initial-events-end BOOKMARK, as upstream's
    // cacher sends it only to watch-list requests: the next event is the change.
    await srv.api('DELETE', `${cms}/w-other`);
    await srv.api('DELETE', `${cms}/w-one`);
    const [del] = await w.next(1);
    expect(del).toMatchObject({ type: 'DELETED', object: { metadata: { name: 'w-one' } } });
    w.close();
  });

  it('ends the stream at timeoutSeconds', async () => {
    const w = await openWatch(`${srv.url}${cms}?watch=1&timeoutSeconds=1&resourceVersion=1`, TEST_TOKEN, srv.agent);
    await w.ended;
  });

  it('keeps a watch with a timeoutSeconds past what a timer holds (over 24.8 days) open', async () => {
    const list = await srv.api('GET', cms);
    const w = await openWatch(
      `${srv.url}${cms}?watch=1&timeoutSeconds=3000000&resourceVersion=${list.body.metadata.resourceVersion}`,
      TEST_TOKEN,
      srv.agent,
    );
    await new Promise((r) => setTimeout(r, 100));
    await srv.api('POST', cms, cm('w-long-timeout'));
    expect((await w.next(1))[0]).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'w-long-timeout' } } });
    w.close();
  });

  it('rejects a name together with a field selector, and YAML watches', async () => {
    const both = await srv.api('GET', `/api/v1/watch/namespaces/default/configmaps/x?fieldSelector=metadata.name%3Dx`);
    expect(both.status).toBe(400);
    expect(both.body.message).toBe('both a name and a field selector provided; please provide one or the other.');
    const yaml = await srv.api('GET', `${cms}?watch=true`, undefined, { accept: 'application/yaml' });
    expect(yaml.status).toBe(406);
    // Errors come in the client's negotiated (non-streaming) format: YAML here.
    expect(yaml.text).toContain('reason: NotAcceptable');
    expect(yaml.text).toContain('application/json;stream=watch');
  });
});
