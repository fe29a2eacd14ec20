/**
 * Reading a watch response as a client does: newline-delimited JSON events from a chunked
 * HTTPS stream, with a way to wait for the next N events and to close the stream.
 */
import { request, type Agent } from 'undici';

export interface WatchEventJson {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  object: any;
}

export interface OpenWatch {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  /** Resolves with the next `n` events (or rejects after `timeoutMs`). */
  next(n?: number, timeoutMs?: number): Promise<WatchEventJson[]>;
  /** Resolves when the server ends the stream. */
  readonly ended: Promise<void>;
  close(): void;
}

export async function openWatch(url: string, token: string, agent: Agent): Promise<OpenWatch> {
  const abort = new AbortController();
  const res = await request(url, {
    dispatcher: agent,
    headers: { authorization: `Bearer ${token}` },
    signal: abort.signal,
  });
  const queue: WatchEventJson[] = [];
  let wake = null as (() => void) | null;
  let buffer = '';
  let done = false;
  const ended = (async () => {
    try {
      for await (const chunk of res.body) {
        buffer += chunk.toString();
        let nl: number;
        while ((nl = buffer.indexOf('\n')) >= 0) {
          const line = buffer.slice(0, nl);
          buffer = buffer.slice(nl + 1);
          if (line.trim()) queue.push(JSON.parse(line));
        }
        wake?.();
      }
    } catch {
      /* aborted */
    } finally {
      done = true;
      wake?.();
    }
  })();
  return {
    status: res.statusCode,
    headers: res.headers,
    ended,
    async next(n = 1, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (queue.length < n) {
        if (done) throw new Error(`watch ended after ${queue.length} of ${n} events`);
        const left = deadline - Date.now();
        if (left <= 0)
          throw new Error(
            `timed out waiting for ${n} events, have ${queue.length}: ${JSON.stringify(queue.map((e) => e.type))}`,
          );
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, left);
        });
        wake = null;
      }
      return queue.splice(0, n);
    },
    close() {
      abort.abort();
    },
  };
}
