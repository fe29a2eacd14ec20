/**
 * The `kubernetes` Endpoints across replicas on one etcd (each advertising a private address
 * no host here has, since Endpoints may not hold loopback addresses; clients reach the
 * replicas on 127.0.0.1): both replicas' advertise addresses
 * are listed; a replica stopped with SIGTERM leaves at once; one killed with SIGKILL drops out
 * when its lease expires (15 s, renewed every 10 s, so at most 25 s after its last renewal).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { clientOf, type Client } from '../helpers/api-client.js';
import { startEtcd, type StartedEtcd } from '../helpers/etcd.js';
import { E2E_TOKEN, startServerProcess, type ServerProcess } from '../helpers/server-process.js';

let etcd: StartedEtcd;
const servers: ServerProcess[] = [];
let client: Client;

beforeAll(async () => {
  etcd = await startEtcd();
  for (const ip of ['10.255.0.2', '10.255.0.3', '10.255.0.4']) {
    servers.push(await startServerProcess([etcd.endpoint], [`--advertise-address=${ip}`, '--bind-address=0.0.0.0']));
  }
  client = clientOf({
    url: servers[0]!.url.replace('10.255.0.2', '127.0.0.1'),
    caPem: servers[0]!.caPem,
    token: E2E_TOKEN,
  });
}, 120_000);

afterAll(async () => {
  await client?.close();
  for (const s of servers) await s.stop();
  await etcd?.stop();
});

async function addresses(): Promise<string[]> {
  const res = await client.call('GET', '/api/v1/namespaces/default/endpoints/kubernetes');
  return (res.body?.subsets ?? []).flatMap((s: any) => s.addresses.map((a: any) => a.ip));
}

async function waitFor(ok: (ips: string[]) => boolean, ms: number): Promise<{ ips: string[]; elapsed: number }> {
  const start = Date.now();
  for (;;) {
    const ips = await addresses();
    if (ok(ips) || Date.now() - start > ms) return { ips, elapsed: Date.now() - start };
    await new Promise((r) => setTimeout(r, 250));
  }
}

it('lists every replica, drops a stopped one at once and a killed one when its lease expires', async () => {
  const all = await waitFor((ips) => ips.length === 3, 15_000);
  expect(all.ips).toEqual(['10.255.0.2', '10.255.0.3', '10.255.0.4']);
  const svc = await client.call('GET', '/api/v1/namespaces/default/services/kubernetes');
  expect(svc.body.spec).toMatchObject({ clusterIP: '10.0.0.1', ports: [{ name: 'https', port: 443 }] });

  await servers[2].stop(); // SIGTERM: the replica removes its own lease
  const stopped = await waitFor((ips) => !ips.includes('10.255.0.4'), 5000);
  expect(stopped.ips).toEqual(['10.255.0.2', '10.255.0.3']);
  expect(stopped.elapsed).toBeLessThan(5000);

  servers[1].child.kill('SIGKILL'); // no goodbye: the lease must expire
  const killed = await waitFor((ips) => !ips.includes('10.255.0.3'), 30_000);
  expect(killed.ips).toEqual(['10.255.0.2']);
  expect(killed.elapsed).toBeLessThan(26_000);
}, 90_000);
