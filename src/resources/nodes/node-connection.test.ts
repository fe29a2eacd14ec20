import { describe, expect, it } from 'vitest';
import type { ApiObject } from '../../api/object.js';
import { nodeConnection, preferredNodeAddress } from './node-connection.js';

const node = (
  addresses: { type: string; address: string }[],
  labels?: Record<string, string>,
  port?: number,
): ApiObject =>
  ({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: 'n1', labels },
    status: { addresses, daemonEndpoints: port ? { agentEndpoint: { Port: port } } : undefined },
  }) as ApiObject;

describe('node agent connection', () => {
  it('prefers Hostname, InternalDNS, InternalIP, ExternalDNS, ExternalIP (upstream defaults)', () => {
    const all = [
      { type: 'ExternalIP', address: '1.2.3.4' },
      { type: 'InternalIP', address: '10.0.0.1' },
      { type: 'Hostname', address: 'n1.local' },
    ];
    expect(preferredNodeAddress(node(all))).toBe('n1.local');
    expect(preferredNodeAddress(node(all.slice(0, 2)))).toBe('10.0.0.1');
    expect(
      preferredNodeAddress(
        node([{ type: 'ExternalIP', address: '1.2.3.4' }], { 'kubernetes.io/hostname': 'label-host' }),
      ),
    ).toBe('label-host');
    expect(() => preferredNodeAddress(node([]))).toThrow('no preferred addresses found; known addresses: []');
  });

  it('uses the reported agent port, else 10250, over HTTPS', async () => {
    const get = async () => node([{ type: 'InternalIP', address: '10.0.0.1' }], undefined, 10255);
    expect(await nodeConnection(get, 'n1')).toEqual({ node: 'n1', scheme: 'https', host: '10.0.0.1', port: 10255 });
    const plain = async () => node([{ type: 'InternalIP', address: '10.0.0.1' }]);
    expect((await nodeConnection(plain, 'n1')).port).toBe(10250);
  });
});
