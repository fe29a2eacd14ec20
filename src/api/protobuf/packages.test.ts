/**
 * Protobuf messages by group, version and kind: each API version's messages are a package, an
 * object's message is the one of its apiVersion's package (core/v1 Event and
 * events.k8s.io Event differ), references resolve in the own package, then core/v1, then
 * meta/v1, and every row of the table has its messages under its own version.
 */
import { describe, expect, it } from 'vitest';
import { RESOURCE_TABLE } from '../../resources/table.js';
import { apiVersionOf } from '../../registry/types.js';
import { codecFor, ProtobufCodec, ProtobufDecodeError } from './codec.js';
import { listMessage, mergeMessages } from './messages.js';

const codec = new ProtobufCodec([
  {
    v1: {
      ...listMessage('Event'),
      Event: 'metadata=1:ObjectMeta reason=3 count=8:int32',
      ObjectReference: 'kind=1 name=3',
    },
  },
  {
    'events.k8s.io/v1beta1': {
      ...listMessage('Event'),
      Event: 'metadata=1:ObjectMeta reason=12 deprecatedCount=15:int32 regarding=3:ObjectReference',
    },
  },
  { 'x.example.com/v1': { Thing: 'metadata=1:ObjectMeta ref=2:ObjectReference', ObjectReference: 'uid=1' } },
  {
    'rbac.authorization.k8s.io/v1': { Role: 'metadata=1:ObjectMeta' },
    'rbac.authorization.ck.io/v1': { Role: 'metadata=1:ObjectMeta' },
  },
]);
const fieldIds = (apiVersion: string, kind: string) =>
  Object.fromEntries(codec.messageOf(apiVersion, kind)!.fieldsArray.map((f) => [f.name, f.id]));

describe('protobuf messages keyed by group, version and kind', () => {
  it('finds a kind by its group and version when two groups define it differently', () => {
    expect(fieldIds('v1', 'Event')).toEqual({ metadata: 1, reason: 3, count: 8 });
    expect(fieldIds('events.k8s.io/v1beta1', 'Event')).toEqual({
      metadata: 1,
      reason: 12,
      deprecatedCount: 15,
      regarding: 3,
    });
    const core = { apiVersion: 'v1', kind: 'Event', metadata: { name: 'e' }, reason: 'Started', count: 2 };
    const events = {
      apiVersion: 'events.k8s.io/v1beta1',
      kind: 'Event',
      metadata: { name: 'e' },
      reason: 'Started',
      deprecatedCount: 2,
    };
    expect(codec.decodeObject(codec.encodeObject(core))).toEqual(core);
    expect(codec.decodeObject(codec.encodeObject(events))).toEqual(events);
    // The same field bytes read differently under each version: reason is field 3 in core/v1, 12 in events.k8s.io.
    expect(codec.encodeObject(events).includes(Buffer.from([0x62, 0x07, ...Buffer.from('Started')]))).toBe(true);
    const list = {
      apiVersion: 'events.k8s.io/v1beta1',
      kind: 'EventList',
      metadata: {},
      items: [{ metadata: { name: 'e' }, reason: 'Started' }],
    };
    expect(codec.decodeObject(codec.encodeObject(list))).toEqual(list);
  });

  it('has no message for such a kind under another version', () => {
    expect(codec.canEncode('Event', 'v1')).toBe(true);
    expect(codec.canEncode('Event', 'apps/v1')).toBe(false);
    expect(codec.canEncode('Event')).toBe(true);
    expect(codec.canEncodeObject({ apiVersion: 'events.k8s.io/v1beta1', kind: 'Event' })).toBe(true);
    expect(codec.canEncodeObject({ kind: 'Event' })).toBe(false);
    expect(() => codec.encodeObject({ apiVersion: 'apps/v1', kind: 'Event' })).toThrow(
      'no protobuf message for kind Event in version "apps/v1"',
    );
    const body = codec.encodeObject({ apiVersion: 'v1', kind: 'Event', reason: 'x' });
    const foreign = Buffer.from(body.toString('latin1').replace('\x0a\x02v1', '\x0a\x02v2'), 'latin1');
    expect(() => codec.decodeObject(foreign)).toThrow(
      expect.objectContaining({ unknownKind: true, message: 'no protobuf message for kind Event in version "v2"' }),
    );
    expect(() => codec.decodeObject(foreign)).toThrow(ProtobufDecodeError);
  });

  it('finds meta kinds under every version, and a kind every version defines alike under any (as before packages)', () => {
    for (const apiVersion of ['v1', 'events.k8s.io/v1beta1', 'meta.k8s.io/v1', ''])
      expect(codec.canEncode('Status', apiVersion)).toBe(true);
    expect(codec.messageOf('v1', 'Role')).toBe(
      codec.messageOf('rbac.authorization.k8s.io/v1', 'Role') ?? codec.messageOf('rbac.authorization.ck.io/v1', 'Role'),
    );
    expect(codec.packageMessage('v1', 'Role')).toBeUndefined();
    expect(codec.canEncode('Unknown', 'meta.k8s.io/v1')).toBe(false);
    expect(codec.canEncode('WatchEvent')).toBe(false);
  });

  it('resolves a field type in its own package first, then core/v1, then meta/v1', () => {
    const ref = (apiVersion: string, kind: string, field: string) =>
      codec.messageOf(apiVersion, kind)!.fields[field].resolvedType!;
    expect(ref('x.example.com/v1', 'Thing', 'ref')).toBe(codec.packageMessage('x.example.com/v1', 'ObjectReference'));
    expect(ref('events.k8s.io/v1beta1', 'Event', 'regarding')).toBe(codec.packageMessage('v1', 'ObjectReference'));
    expect(ref('events.k8s.io/v1beta1', 'Event', 'metadata')).toBe(
      codec.packageMessage('meta.k8s.io/v1', 'ObjectMeta'),
    );
  });

  it('refuses a message one package defines twice, differently, and an unknown type', () => {
    expect(() => mergeMessages({ v1: { A: 'x=1' } }, { v1: { A: 'x=2' } })).toThrow(
      'protobuf message A of v1 is defined twice, differently',
    );
    expect(() => new ProtobufCodec([{ 'a.io/v1': { A: 'b=1:B' } }, { 'b.io/v1': { B: 'x=1' } }])).toThrow(
      'protobuf message A.b: unknown type B',
    );
  });
});

describe('the resource table in packages', () => {
  const table = codecFor(RESOURCE_TABLE);
  const withMessages = RESOURCE_TABLE.filter((d) => Object.keys(d.protobuf).length > 0);

  it('has messages for every row but the CustomResourceDefinitions (served in JSON and YAML for now)', () => {
    expect(RESOURCE_TABLE.filter((d) => !withMessages.includes(d)).map((d) => `${d.kind} ${apiVersionOf(d)}`)).toEqual([
      'CustomResourceDefinition apiextensions.k8s.io/v1',
      'CustomResourceDefinition apiextensions.k8s.io/v1beta1',
    ]);
  });

  it.each(withMessages.map((d) => [`${d.kind} ${apiVersionOf(d)}`, d] as const))(
    '%s: its messages are in its own version',
    (_, def) => {
      expect(table.packageMessage(apiVersionOf(def), def.kind)).toBeDefined();
      if (def.verbs.includes('list')) expect(table.packageMessage(apiVersionOf(def), `${def.kind}List`)).toBeDefined();
      for (const sub of def.subresources)
        if (sub.apiVersion && sub.schema)
          expect(table.packageMessage(sub.apiVersion, sub.kind), sub.name).toBeDefined();
    },
  );
});
