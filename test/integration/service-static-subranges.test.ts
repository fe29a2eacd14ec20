/**
 * Random node ports and cluster IPs come from above a low band kept for requested ones
 * (upstream's static subranges: KEP-3668 for node ports, KEP-3070 for IPs), so a manifest that
 * asks for a low port or IP does not collide with one handed out at random before it.
 */
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../helpers/in-process.js';

// Defaults: node ports 30000-32767 (band 30000-30085), IPs 10.0.0.0/24 (band: the first 16).
const srv = useTestServer();
const svcs = '/api/v1/namespaces/default/services';

describe('static subranges', () => {
  it('hands out random node ports and IPs above the band, and requests inside it succeed', async () => {
    for (let i = 0; i < 30; i++) {
      const res = await srv.api('POST', svcs, {
        metadata: { name: `random-${i}` },
        spec: { type: 'NodePort', ports: [{ port: 80 }] },
      });
      expect(res.status).toBe(201);
      expect(res.body.spec.ports[0].nodePort).toBeGreaterThanOrEqual(30086);
      expect(Number(res.body.spec.clusterIP.split('.')[3])).toBeGreaterThanOrEqual(16);
    }
    const fixed = await srv.api('POST', svcs, {
      metadata: { name: 'fixed' },
      spec: { type: 'NodePort', clusterIP: '10.0.0.10', ports: [{ port: 80, nodePort: 30001 }] },
    });
    expect(fixed.status, fixed.text).toBe(201);
  });
});
