// From k8s.io/apimachinery pkg/util/managedfields/internal/managedfields_test.go.
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { fieldsV1Text } from './fields-v1.js';
import {
  decodeManagedFields,
  encodeManagedFields,
  isResetManagedFields,
  managerIdentifier,
  sortManagedFields,
  type ManagedFieldsEntry,
} from './managed-fields.js';

const entry = (manager: string, operation: 'Apply' | 'Update', time?: string): ManagedFieldsEntry => ({
  manager,
  operation,
  ...(time ? { time } : {}),
});

describe('managedFields entries', () => {
  it.each([
    [
      'apiVersion: v1\nfieldsV1: {f:apiVersion: {}}\nmanager: foo\noperation: Update\ntime: "2001-02-03T04:05:06Z"',
      '{"manager":"foo","operation":"Update","apiVersion":"v1"}',
    ],
    [
      'apiVersion: v1\nfieldsV1: {f:apiVersion: {}}\nmanager: foo\noperation: Apply\ntime: "2001-02-03T04:05:06Z"',
      '{"manager":"foo","operation":"Apply"}',
    ],
    [
      'apiVersion: v1\nmanager: foo\noperation: Apply\nsubresource: scale',
      '{"manager":"foo","operation":"Apply","subresource":"scale"}',
    ],
    [
      'apiVersion: v1\nmanager: "a<b"\noperation: Update',
      '{"manager":"a\\u003cb","operation":"Update","apiVersion":"v1"}',
    ],
  ])('identifier of %j (TestBuildManagerIdentifier)', (yaml, want) => {
    const e = parse(yaml) as ManagedFieldsEntry;
    expect(
      managerIdentifier({
        manager: e.manager!,
        operation: e.operation as 'Apply' | 'Update',
        apiVersion: e.apiVersion,
        subresource: e.subresource,
      }),
    ).toBe(want);
  });

  it.each<[string, ManagedFieldsEntry[], ManagedFieldsEntry[]]>([
    [
      'manager without time first name last',
      [entry('a', 'Apply', '2001-01-01T01:00:00Z'), entry('b', 'Apply'), entry('a', 'Apply')],
      [entry('a', 'Apply'), entry('b', 'Apply'), entry('a', 'Apply', '2001-01-01T01:00:00Z')],
    ],
    [
      'apply first',
      [entry('a', 'Update', '2001-01-01T01:00:00Z'), entry('a', 'Apply')],
      [entry('a', 'Apply'), entry('a', 'Update', '2001-01-01T01:00:00Z')],
    ],
    [
      'newest last',
      [
        entry('c', 'Update', '2001-01-01T01:00:00Z'),
        entry('a', 'Apply'),
        entry('c', 'Update', '2002-01-01T01:00:00Z'),
        entry('b', 'Apply'),
      ],
      [
        entry('a', 'Apply'),
        entry('b', 'Apply'),
        entry('c', 'Update', '2001-01-01T01:00:00Z'),
        entry('c', 'Update', '2002-01-01T01:00:00Z'),
      ],
    ],
    [
      'manager last',
      [
        entry('c', 'Update', '2001-01-01T01:00:00Z'),
        entry('a', 'Apply'),
        entry('d', 'Update', '2001-01-01T01:00:00Z'),
        entry('b', 'Apply'),
      ],
      [
        entry('a', 'Apply'),
        entry('b', 'Apply'),
        entry('c', 'Update', '2001-01-01T01:00:00Z'),
        entry('d', 'Update', '2001-01-01T01:00:00Z'),
      ],
    ],
  ])('sorts: %s (TestSortEncodedManagedFields)', (_n, input, want) => {
    expect(sortManagedFields([...input])).toEqual(want);
  });

  it('round trips entries (TestRoundTripManagedFields)', () => {
    const entries = parse(`
- manager: foo
  operation: Apply
  apiVersion: v1
  time: "2001-02-03T04:05:06Z"
  fieldsType: FieldsV1
  fieldsV1: {"f:spec": {"f:containers": {"k:{\\"name\\":\\"c\\"}": {".": {}, "f:image": {}, "f:name": {}}}}}
- manager: bar
  operation: Update
  apiVersion: v1
  time: "2001-02-03T04:05:07Z"
  fieldsType: FieldsV1
  fieldsV1: {"f:data": {"f:a": {}}}
  subresource: status
`) as ManagedFieldsEntry[];
    const back = encodeManagedFields(decodeManagedFields(entries));
    expect(back).toEqual(entries);
    expect(fieldsV1Text(decodeManagedFields(entries).sets.get('{"manager":"foo","operation":"Apply"}')!.set)).toBe(
      JSON.stringify(entries[0].fieldsV1),
    );
  });

  it.each<[string, ManagedFieldsEntry, string]>([
    [
      'no operation (TestHasOperation)',
      { manager: 'm', apiVersion: 'v1', fieldsType: 'FieldsV1' },
      'operation must be `Apply` or `Update`',
    ],
    [
      'no apiVersion (TestHasAPIVersion)',
      { manager: 'm', operation: 'Apply', fieldsType: 'FieldsV1' },
      'apiVersion must not be empty',
    ],
    [
      'no fieldsType (TestHasFieldsType)',
      { manager: 'm', operation: 'Apply', apiVersion: 'v1' },
      'missing fieldsType in managed fields entry 0',
    ],
    [
      'unknown fieldsType',
      { manager: 'm', operation: 'Apply', apiVersion: 'v1', fieldsType: 'FieldsV2' },
      'invalid fieldsType "FieldsV2" in managed fields entry 0',
    ],
    [
      'bad fields',
      { manager: 'm', operation: 'Apply', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'i:x': {} } },
      'error decoding versioned set from entry 0',
    ],
  ])('rejects %s', (_n, e, message) => {
    expect(() => decodeManagedFields([e])).toThrow(message);
  });

  it.each<[unknown, boolean]>([
    [[], true],
    [[{}], true],
    [[{ manager: '' }], true],
    [[{ fieldsV1: {} }], false],
    [[{ manager: 'x' }], false],
    [[{}, {}], false],
    [undefined, false],
    [null, false],
  ])('reset request %j: %s (isResetManagedFields)', (v, want) => {
    expect(isResetManagedFields(v)).toBe(want);
  });
});
