import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { sample } from '../../../test/fixtures/full-objects.js';
import { RESOURCE_TABLE } from '../../resources/table.js';
import { quantity } from '../core/schema-kit.js';
import { strictObjectMeta } from '../meta-schema.js';
import { apiVersionOf } from '../../registry/types.js';
import { codecFor } from './codec.js';

const codec = codecFor(RESOURCE_TABLE);
const FIXTURES = resolve(import.meta.dirname, '../../../test/fixtures/protobuf');
const read = (name: string) => codec.decodeObject(readFileSync(join(FIXTURES, `kubectl-1.32-create-${name}.pb`)));

/**
 * The JSON bodies kubectl 1.27-1.31 send for the same commands (Go's JSON of the same typed
 * object: empty non-pointer structs such as `status: {}` included, the zero creationTimestamp
 * (`null`) left out).
 */
const JSON_EQUIVALENTS: Record<string, object> = {
  namespaces: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' }, spec: {}, status: {} },
  secrets: {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 's1', namespace: 'team-a' },
    data: { user: Buffer.from('admin').toString('base64') },
  },
  configmaps: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm1' }, data: { k: 'v' } },
  serviceaccounts: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'sa1' } },
  resourcequotas: {
    apiVersion: 'v1',
    kind: 'ResourceQuota',
    metadata: { name: 'q1' },
    spec: { hard: { cpu: '1', pods: '10' } },
    status: {},
  },
  services: {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'svc1', labels: { app: 'svc1' } },
    spec: {
      ports: [{ name: '80-8080', protocol: 'TCP', port: 80, targetPort: 8080 }],
      selector: { app: 'svc1' },
      type: 'ClusterIP',
    },
    status: { loadBalancer: {} },
  },
};

/** `value` as the server writes it back: quantities are strings (upstream's canonical form). */
function normalize(schema: z.ZodType, value: unknown): unknown {
  let t = schema as any;
  while (t.def.type === 'optional' || t.def.type === 'nullable') t = t.def.innerType;
  if (t === quantity) return String(value);
  if (value === null || typeof value !== 'object') return value;
  switch (t.def.type) {
    case 'object':
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, t.shape[k] ? normalize(t.shape[k], v) : v]));
    case 'array':
      return (value as unknown[]).map((v) => normalize(t.def.element, v));
    case 'record':
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalize(t.def.valueType, v)]));
    default:
      return value;
  }
}

/** An object of `def` with every field of the spec set to a non-zero value. */
function everyField(def: (typeof RESOURCE_TABLE)[number]) {
  const obj: Record<string, any> = {
    ...(sample(def.schema) as Record<string, any>),
    apiVersion: apiVersionOf(def),
    kind: def.kind,
    metadata: sample(strictObjectMeta),
  };
  // ObjectMeta's times are plain strings in its schema; give them (and the template's) times.
  const times = { creationTimestamp: '2018-03-26T15:04:05Z', deletionTimestamp: '2018-03-26T15:05:05Z' };
  for (const meta of [obj.metadata, obj.template?.metadata, obj.spec?.template?.metadata])
    if (meta) Object.assign(meta, times);
  // A nested Status carries no TypeMeta in protobuf (upstream's message has none).
  obj.metadata.initializers.result = { status: 'Failure', code: 403 };
  // A kind of TypeMeta alone (extensions' ReplicationControllerDummy) has no metadata.
  if (!(def.schema instanceof z.ZodObject) || !('metadata' in def.schema.shape)) delete obj.metadata;
  if (def.kind === 'Secret') obj.data = { key: Buffer.from('value').toString('base64') };
  if (def.kind === 'Event') {
    // MicroTime: upstream writes microseconds.
    obj.eventTime = '2018-03-26T15:04:05.123456Z';
    obj.series.lastObservedTime = '2018-03-26T15:04:06.000000Z';
  }
  if (def.kind === 'Lease') {
    obj.spec.acquireTime = '2018-03-26T15:04:05.123456Z';
    obj.spec.renewTime = '2018-03-26T15:04:06.000000Z';
  }
  // An embedded PersistentVolumeClaim message has no TypeMeta (upstream's neither).
  for (const claim of obj.spec?.volumeClaimTemplates ?? []) {
    delete claim.apiVersion;
    delete claim.kind;
  }
  if (def.kind === 'Node') {
    // JSON-only in 1.10 as upstream: NodeConfigSource's inline TypeMeta has no protobuf field.
    delete obj.spec.configSource.apiVersion;
    delete obj.spec.configSource.kind;
  }
  return normalize(def.schema, obj) as Record<string, unknown>;
}

describe('protobuf codec', () => {
  it.each(Object.keys(JSON_EQUIVALENTS))(
    'decodes the body kubectl 1.32 sends for create %s to its JSON equivalent',
    (name) => {
      expect(read(name)).toEqual(JSON_EQUIVALENTS[name]);
    },
  );

  it('has a fixture for each typed create', () => {
    expect(readdirSync(FIXTURES).length).toBe(Object.keys(JSON_EQUIVALENTS).length);
  });

  // Rows without messages (the CustomResourceDefinitions, see packages.test.ts) answer JSON.
  it.each(
    RESOURCE_TABLE.filter((d) => Object.keys(d.protobuf).length > 0).map(
      (d) => [`${d.kind} (${apiVersionOf(d)})`, d] as const,
    ),
  )('round-trips every field of %s', (_, def) => {
    const obj = everyField(def);
    const decoded = codec.decodeObject(codec.encodeObject(obj));
    expect(decoded).toEqual(obj);
    const list = {
      apiVersion: apiVersionOf(def),
      kind: `${def.kind}List`,
      metadata: { resourceVersion: '12', continue: 'abc', remainingItemCount: 3 },
      items: [obj, obj],
    };
    if (def.verbs.includes('list'))
      expect(codec.decodeObject(codec.encodeObject(list))).toEqual({
        ...list,
        items: [obj, obj].map(({ apiVersion, kind, ...rest }) => rest),
      });
  });

  it('keeps zero values of pointer and required fields and drops other zero values', () => {
    const rc = {
      apiVersion: 'v1',
      kind: 'ReplicationController',
      metadata: { name: 'r' },
      spec: {
        replicas: 0,
        minReadySeconds: 0,
        template: {
          spec: { containers: [{ name: 'c', image: '' }], hostNetwork: false, securityContext: { runAsUser: 0 } },
        },
      },
    };
    expect(codec.decodeObject(codec.encodeObject(rc))).toEqual({
      apiVersion: 'v1',
      kind: 'ReplicationController',
      metadata: { name: 'r' },
      spec: { replicas: 0, template: { spec: { containers: [{ name: 'c' }], securityContext: { runAsUser: 0 } } } },
    });
  });

  it('encodes times, micro times, quantities, int-or-string and bytes as upstream', () => {
    const event = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'e', creationTimestamp: '2018-03-26T15:04:05Z' },
      eventTime: '2018-03-26T15:04:05.123456Z',
      count: 2,
    };
    expect(codec.decodeObject(codec.encodeObject(event))).toEqual(event);
    const secret = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 's' },
      data: { k: Buffer.from([0, 1, 255]).toString('base64') },
    };
    expect(codec.decodeObject(codec.encodeObject(secret))).toEqual(secret);
    const svc = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 's' },
      spec: {
        ports: [
          { port: 80, targetPort: 'http' },
          { port: 81, targetPort: 8081 },
        ],
      },
    };
    expect(codec.decodeObject(codec.encodeObject(svc))).toEqual(svc);
  });

  it('encodes Status, discovery documents and DeleteOptions', () => {
    const docs = [
      {
        apiVersion: 'v1',
        kind: 'Status',
        metadata: {},
        status: 'Failure',
        message: 'pods "x" not found',
        reason: 'NotFound',
        details: { name: 'x', kind: 'pods', causes: [{ reason: 'FieldValueInvalid', message: 'bad', field: 'spec' }] },
        code: 404,
      },
      {
        kind: 'APIVersions',
        versions: ['v1'],
        serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: '10.0.0.1:6443' }],
      },
      {
        kind: 'APIResourceList',
        apiVersion: 'v1',
        groupVersion: 'v1',
        resources: [
          {
            name: 'pods',
            singularName: '',
            namespaced: true,
            kind: 'Pod',
            verbs: ['get', 'list'],
            shortNames: ['po'],
            categories: ['all'],
          },
        ],
      },
      {
        kind: 'APIGroupList',
        apiVersion: 'v1',
        groups: [
          {
            name: 'security.platform.io',
            versions: [{ groupVersion: 'security.platform.io/v1', version: 'v1' }],
            preferredVersion: { groupVersion: 'security.platform.io/v1', version: 'v1' },
          },
        ],
      },
      {
        kind: 'DeleteOptions',
        apiVersion: 'v1',
        gracePeriodSeconds: 0,
        propagationPolicy: 'Foreground',
        preconditions: { uid: 'u' },
        orphanDependents: false,
      },
    ];
    for (const doc of docs) expect(codec.decodeObject(codec.encodeObject(doc))).toEqual({ apiVersion: '', ...doc });
  });

  it('frames watch events with a 4-byte big-endian length around a WatchEvent', () => {
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', resourceVersion: '5' } };
    const frame = codec.encodeWatchEvent('ADDED', pod);
    expect(frame.readUInt32BE(0)).toBe(frame.length - 4);
    // WatchEvent field 1 (type) comes first, then field 2 holding the full encoding with its magic.
    expect(frame.subarray(4, 11)).toEqual(Buffer.from([0x0a, 0x05, ...Buffer.from('ADDED')]));
    expect(frame.includes(Buffer.from('k8s\0'))).toBe(true);
    const stream = Buffer.concat([frame, codec.encodeWatchEvent('DELETED', pod)]);
    expect(codec.decodeWatchStream(stream)).toEqual([
      { type: 'ADDED', object: pod },
      { type: 'DELETED', object: pod },
    ]);
    expect(() => codec.decodeWatchStream(stream.subarray(0, stream.length - 1))).toThrow(/truncated/);
  });

  it('rejects bodies without the magic prefix and kinds without a message', () => {
    expect(() => codec.decodeObject(Buffer.from('{}'))).toThrow(/magic prefix/);
    const table = Buffer.concat([
      Buffer.from('k8s\0'),
      Buffer.from([0x0a, 0x0b, 0x0a, 0x02, 0x76, 0x31, 0x12, 0x05, ...Buffer.from('Table')]),
    ]);
    expect(() => codec.decodeObject(table)).toThrow(expect.objectContaining({ unknownKind: true }));
    expect(() => codec.encodeObject({ kind: 'Table' })).toThrow(/no protobuf message/);
  });
});
