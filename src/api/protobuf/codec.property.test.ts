/**
 * Property tests of the protobuf codec: any bytes are either decoded or rejected with a
 * ProtobufDecodeError (the HTTP layer turns that into 400/415, never a crash), and generated
 * objects survive encode -> decode unchanged (non-empty maps: empty ones are dropped, as Go's
 * omitempty does).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RESOURCE_TABLE } from '../../resources/table.js';
import { codecFor, PROTOBUF_MAGIC, ProtobufDecodeError } from './codec.js';

const codec = codecFor(RESOURCE_TABLE);
const KINDS = [
  'Pod',
  'PodList',
  'Service',
  'Node',
  'ConfigMap',
  'Secret',
  'Status',
  'DeleteOptions',
  'SecurityContextConstraints',
  'Scale',
];

/** An Unknown envelope around `raw` for `kind`, encoded by hand: field 1 TypeMeta{1: apiVersion, 2: kind}, field 2 raw. */
function envelope(kind: string, raw: Uint8Array): Buffer {
  const typeMeta = Buffer.concat([
    Buffer.from([0x0a, 2]),
    Buffer.from('v1'),
    Buffer.from([0x12, kind.length]),
    Buffer.from(kind),
  ]);
  const rawLength =
    raw.length < 128 ? Buffer.from([raw.length]) : Buffer.from([(raw.length & 0x7f) | 0x80, raw.length >> 7]);
  return Buffer.concat([
    PROTOBUF_MAGIC,
    Buffer.from([0x0a, typeMeta.length]),
    typeMeta,
    Buffer.from([0x12]),
    rawLength,
    raw,
  ]);
}

function decodesOrRejects(bytes: Uint8Array): void {
  try {
    const obj = codec.decodeObject(bytes);
    expect(typeof obj).toBe('object');
  } catch (err) {
    expect(err).toBeInstanceOf(ProtobufDecodeError);
  }
}

const name = fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/);
const text = fc.string({ minLength: 1, maxLength: 30 });
const stringMap = fc.dictionary(fc.stringMatching(/^[a-z][a-z0-9./-]{0,15}$/), fc.string({ maxLength: 20 }), {
  minKeys: 1,
  maxKeys: 4,
});

describe('protobuf codec properties', () => {
  it('decodes or rejects any body after the magic prefix', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) =>
        decodesOrRejects(Buffer.concat([PROTOBUF_MAGIC, bytes])),
      ),
      { numRuns: 500 },
    );
  });

  it('decodes or rejects any message bytes inside a well-formed envelope', () => {
    fc.assert(
      fc.property(fc.constantFrom(...KINDS), fc.uint8Array({ maxLength: 300 }), (kind, raw) =>
        decodesOrRejects(envelope(kind, raw)),
      ),
      { numRuns: 500 },
    );
  });

  it('round-trips generated config maps, secrets, services and pods', () => {
    const meta = fc.record({
      name,
      namespace: name,
      labels: stringMap,
      annotations: stringMap,
      resourceVersion: fc.nat().map(String),
    });
    const configMap = fc.record({
      apiVersion: fc.constant('v1'),
      kind: fc.constant('ConfigMap'),
      metadata: meta,
      data: stringMap,
    });
    const secret = fc.record({
      apiVersion: fc.constant('v1'),
      kind: fc.constant('Secret'),
      metadata: meta,
      data: fc.dictionary(
        name,
        fc.uint8Array({ maxLength: 40 }).map((b) => Buffer.from(b).toString('base64')),
        { minKeys: 1, maxKeys: 4 },
      ),
    });
    const port = fc.record({
      port: fc.integer({ min: 1, max: 65535 }),
      targetPort: fc.oneof(fc.integer({ min: 1, max: 65535 }), name),
      protocol: fc.constantFrom('TCP', 'UDP'),
    });
    const service = fc.record({
      apiVersion: fc.constant('v1'),
      kind: fc.constant('Service'),
      metadata: meta,
      spec: fc.record({ ports: fc.array(port, { minLength: 1, maxLength: 3 }), selector: stringMap }),
    });
    const container = fc.record({
      name,
      image: text,
      env: fc.array(fc.record({ name, value: text }), { minLength: 1, maxLength: 3 }),
      resources: fc.record({
        limits: fc.record({ cpu: fc.constantFrom('100m', '1', '2500m'), memory: fc.constantFrom('64Mi', '1Gi') }),
      }),
    });
    const pod = fc.record({
      apiVersion: fc.constant('v1'),
      kind: fc.constant('Pod'),
      metadata: meta,
      spec: fc.record({
        containers: fc.array(container, { minLength: 1, maxLength: 3 }),
        terminationGracePeriodSeconds: fc.nat(600),
        hostNetwork: fc.constant(true),
      }),
    });
    fc.assert(
      fc.property(fc.oneof(configMap, secret, service, pod), (obj) => {
        expect(codec.decodeObject(codec.encodeObject(obj))).toEqual(obj);
      }),
      { numRuns: 300 },
    );
  });
});
