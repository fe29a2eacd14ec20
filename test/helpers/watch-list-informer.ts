/**
 * An informer that syncs as client-go's reflector does with watch-list (KEP-3157): a
 * `sendInitialEvents=true` watch fills a fresh cache until the BOOKMARK annotated
 * `k8s.io/initial-events-end`, then the cache follows the stream; when the stream ends it
 * re-watches from the last resourceVersion it saw, and after a 410 (or any ERROR) it starts
 * over with a new watch-list. Never lists.
 */
import { request, type Agent } from 'undici';

export interface WatchListInformer {
  /** name -> object of the synced cache. */
  readonly cache: Map<string, any>;
  /** How many watch-list syncs completed (1 + one per 410 or error). */
  readonly syncs: () => number;
  stop(): void;
}

export function startWatchListInformer(base: string, path: string, token: string, agent: Agent): WatchListInformer {
  const cache = new Map<string, any>();
  const abort = new AbortController();
  let syncs = 0;
  let lastRv = '';

  /** One watch; resolves 'resync' when the informer must start over, 'resume' when the stream just ended. */
  async function watchOnce(query: string, initial: Map<string, any> | null): Promise<'resync' | 'resume'> {
    const res = await request(`${base}${path}?${query}`, {
      dispatcher: agent,
      signal: abort.signal,
      headers: { authorization: `Bearer ${token}` },
    });
    if (res.statusCode !== 200) {
      await res.body.text();
      return 'resync';
    }
    let pending = initial;
    let buffer = '';
    for await (const chunk of res.body) {
      buffer += chunk.toString();
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const ev = JSON.parse(buffer.slice(0, nl));
        buffer = buffer.slice(nl + 1);
        if (ev.type === 'ERROR') return 'resync';
        lastRv = ev.object.metadata.resourceVersion;
        const target = pending ?? cache;
        if (ev.type === 'BOOKMARK') {
          if (pending && ev.object.metadata.annotations?.['k8s.io/initial-events-end'] === 'true') {
            cache.clear();
            for (const [k, v] of pending) cache.set(k, v);
            pending = null;
            syncs++;
          }
        } else if (ev.type === 'DELETED') target.delete(ev.object.metadata.name);
        else target.set(ev.object.metadata.name, ev.object);
      }
    }
    return pending ? 'resync' : 'resume';
  }

  void (async () => {
    let mode: 'resync' | 'resume' = 'resync';
    while (!abort.signal.aborted) {
      try {
        mode =
          mode === 'resync'
            ? await watchOnce(
                'watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true',
                new Map(),
              )
            : await watchOnce(`watch=1&allowWatchBookmarks=true&resourceVersion=${lastRv}`, null);
      } catch {
        mode = 'resync';
        if (!abort.signal.aborted) await new Promise((r) => setTimeout(r, 200));
      }
    }
  })();
  return { cache, syncs: () => syncs, stop: () => abort.abort() };
}
