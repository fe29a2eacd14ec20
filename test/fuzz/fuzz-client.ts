/**
 * The fuzz suite's HTTP client: any method, raw string or byte bodies, any headers, a hard
 * per-request deadline (a request that outlives it is a hang), and watches read for a short
 * while and then dropped by the client.
 */
import { Agent, request } from 'undici';

export interface RawRequest {
  readonly method: string;
  /** Path with query string. */
  readonly path: string;
  readonly headers?: Record<string, string>;
  readonly body?: string | Buffer;
  /** Read a streaming answer this many ms, then drop the connection (watches). */
  readonly streamMs?: number;
}

export interface RawResponse {
  readonly status: number;
  readonly contentType: string;
  readonly bytes: Buffer;
  /** True when the client dropped a streaming answer after `streamMs`. */
  readonly cut: boolean;
}

/** Thrown when a request gets no complete answer within the deadline. */
export class Hang extends Error {}

/** Send one request with `token`; throws Hang after `deadlineMs`, and what undici throws for a broken connection. */
export async function send(
  baseUrl: string,
  agent: Agent,
  token: string,
  req: RawRequest,
  deadlineMs = 10_000,
): Promise<RawResponse> {
  const abort = new AbortController();
  const timer = setTimeout(
    () => abort.abort(new Hang(`no answer within ${deadlineMs} ms: ${req.method} ${req.path}`)),
    deadlineMs,
  );
  try {
    const res = await request(baseUrl + req.path, {
      method: req.method as never,
      dispatcher: agent,
      headers: { authorization: `Bearer ${token}`, ...req.headers },
      body: req.body,
      signal: abort.signal,
    });
    const chunks: Buffer[] = [];
    let cut = false;
    if (req.streamMs !== undefined) {
      const until = Date.now() + req.streamMs;
      const reading = (async () => {
        for await (const chunk of res.body) {
          chunks.push(chunk as Buffer);
          if (Date.now() > until) break;
        }
      })();
      const stop = new Promise<'stop'>((resolve) => setTimeout(() => resolve('stop'), req.streamMs));
      if ((await Promise.race([reading.then(() => 'done' as const), stop])) === 'stop') {
        cut = true;
        res.body.destroy();
        await reading.catch(() => undefined);
      }
    } else {
      for await (const chunk of res.body) chunks.push(chunk as Buffer);
    }
    return {
      status: res.statusCode,
      contentType: String(res.headers['content-type'] ?? ''),
      bytes: Buffer.concat(chunks),
      cut,
    };
  } catch (err) {
    if (abort.signal.aborted) throw abort.signal.reason;
    throw err;
  } finally {
    clearTimeout(timer);
  }
}
