/** A minimal JSON client for one server process, over HTTPS with its CA and the e2e token. */
import { Agent, request } from 'undici';
import { E2E_TOKEN, type ServerProcess } from './server-process.js';

export interface Client {
  readonly agent: Agent;
  call(method: string, path: string, body?: unknown, contentType?: string): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

export function clientFor(server: ServerProcess): Client {
  const agent = new Agent({ connect: { ca: server.caPem }, connections: 8 });
  return {
    agent,
    async call(method, path, body, contentType = 'application/json') {
      const res = await request(server.url + path, {
        method: method as never,
        dispatcher: agent,
        headers: { authorization: `Bearer ${E2E_TOKEN}`, 'content-type': contentType },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.body.text();
      return { status: res.statusCode, body: text ? JSON.parse(text) : undefined };
    },
    close: () => agent.close(),
  };
}
