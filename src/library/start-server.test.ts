// startServer() as a user's test suite calls it: a server that answers with its token and CA,
// on its own port, gone (with its files) after stop().
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { Agent, request } from 'undici';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { startServer } from '../index.js';

async function get(url: string, token: string, ca: string) {
  const agent = new Agent({ connect: { ca } });
  try {
    const res = await request(url, { dispatcher: agent, headers: { authorization: `Bearer ${token}` } });
    return { status: res.statusCode, body: (await res.body.json()) as any };
  } finally {
    await agent.close();
  }
}

describe('startServer', () => {
  it('serves over HTTPS with its CA and token, writes a matching kubeconfig, and stops cleanly once or twice', async () => {
    const server = await startServer();
    const res = await get(`${server.url}/api/v1/namespaces`, server.token, server.caPem);
    expect(res.status).toBe(200);
    expect(res.body.items.map((n: any) => n.metadata.name)).toEqual(expect.arrayContaining(['default', 'kube-system']));
    expect((await get(`${server.url}/api/v1/namespaces`, 'wrong', server.caPem)).status).toBe(401);
    const kubeconfig = parse(server.kubeconfig);
    expect(kubeconfig.clusters[0].cluster.server).toBe(server.url);
    expect(kubeconfig.users[0].user.token).toBe(server.token);
    expect(existsSync(server.kubeconfigPath)).toBe(true);
    await server.stop();
    await server.stop();
    expect(existsSync(dirname(server.kubeconfigPath))).toBe(false);
    await expect(get(`${server.url}/api/v1/namespaces`, server.token, server.caPem)).rejects.toThrow();
  });

  it('runs two servers at once on different ports with separate data, and takes a fixed token and the embedded store', async () => {
    const [a, b] = await Promise.all([startServer({ token: 'fixed-token', storage: 'embedded' }), startServer()]);
    try {
      expect(a.url).not.toBe(b.url);
      expect(a.token).toBe('fixed-token');
      const create = await new Agent({ connect: { ca: a.caPem } }).request({
        origin: a.url,
        path: '/api/v1/namespaces/default/configmaps',
        method: 'POST',
        headers: { authorization: 'Bearer fixed-token', 'content-type': 'application/json' },
        body: JSON.stringify({ metadata: { name: 'only-on-a' } }),
      });
      expect(create.statusCode).toBe(201);
      await create.body.dump();
      expect((await get(`${b.url}/api/v1/namespaces/default/configmaps/only-on-a`, b.token, b.caPem)).status).toBe(404);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });
});
