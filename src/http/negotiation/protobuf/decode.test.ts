import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeProtobufObject } from './decode.js';

const FIXTURES = resolve(import.meta.dirname, '../../../../test/fixtures/protobuf');
const read = (name: string) => decodeProtobufObject(readFileSync(join(FIXTURES, `kubectl-1.32-create-${name}.pb`)));

/** The JSON bodies kubectl 1.27-1.31 send for the same commands (clients.md section 7). */
const JSON_EQUIVALENTS: Record<string, object> = {
  namespaces: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } },
  secrets: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's1', namespace: 'team-a' }, data: { user: Buffer.from('admin').toString('base64') } },
  configmaps: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm1' }, data: { k: 'v' } },
  serviceaccounts: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'sa1' } },
  resourcequotas: { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q1' }, spec: { hard: { cpu: '1', pods: '10' } } },
  services: {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'svc1', labels: { app: 'svc1' } },
    spec: { ports: [{ name: '80-8080', protocol: 'TCP', port: 80, targetPort: 8080 }], selector: { app: 'svc1' }, type: 'ClusterIP' },
  },
};

describe('protobuf bodies captured from kubectl 1.32', () => {
  it.each(Object.keys(JSON_EQUIVALENTS))('%s decodes to its JSON equivalent', (name) => {
    expect(read(name)).toEqual(JSON_EQUIVALENTS[name]);
  });

  it('has a fixture for each typed create', () => {
    expect(readdirSync(FIXTURES).length).toBe(Object.keys(JSON_EQUIVALENTS).length);
  });

  it('rejects bodies without the magic prefix and kinds without definitions', () => {
    expect(() => decodeProtobufObject(Buffer.from('{}'))).toThrow(/magic prefix/);
    const pod = Buffer.concat([Buffer.from([0x6b, 0x38, 0x73, 0x00]), Buffer.from([0x0a, 0x09, 0x0a, 0x02, 0x76, 0x31, 0x12, 0x03, 0x50, 0x6f, 0x64])]);
    expect(() => decodeProtobufObject(pod)).toThrow(/unknown format/);
  });
});
