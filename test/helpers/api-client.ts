/** A minimal JSON client for one server process, over HTTPS with its CA and the e2e token. */
import { Agent, request } from 'undici';
import { E2E_TOKEN, type ServerProcess } from './server-process.js';

export interface Client {
  readonly agent: Agent;
  call(method: string, path: string, body?: unknown, contentType?: string): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

export function clientFor(server: ServerProcess): Client {
  return clientOf({ url: server.url, caPem: server.caPem, token: E2E_TOKEN });
}

/** A JSON client of any server: its URL, CA and a bearer token, over `connections` connections. */
export function clientOf(server: { url: string; caPem: string; token: string }, connections = 8): Client {
  const agent = new Agent({ connect: { ca: server.caPem }, connections });
  return {
    agent,
    async call(method, path, body, contentType = 'application/json') {
      const res = await request(server.url + path, {
        method: method as never,
        dispatcher: agent,
        headers: { authorization: `Bearer ${server.token}`, 'content-type': contentType },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.body.text();
      return { status: res.statusCode, body: text ? JSON.parse(text) : undefined };
    },
    close: () => agent.close(),
  };
}
