import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { strictObjectMeta } from '../meta-schema.js';
import { DEDUCED, fieldType, schemaTypeOfZod, SCALAR } from './schema-type.js';

describe('schemaTypeOfZod', () => {
  it('declares the fields of a strict object and nothing else', () => {
    const t = schemaTypeOfZod(z.strictObject({ a: z.string().nullable().optional(), b: z.array(z.number()) }));
    expect(Object.keys(t.map!.fields)).toEqual(['a', 'b']);
    expect(t.map!.values).toBeUndefined();
    expect(fieldType(t.map!, 'a')).toEqual(SCALAR);
    expect(fieldType(t.map!, 'b')).toEqual({ list: SCALAR });
    expect(fieldType(t.map!, 'c')).toBeUndefined();
  });

  it('lets a record take any key of its value type', () => {
    const t = schemaTypeOfZod(z.record(z.string(), z.strictObject({ x: z.string() })));
    expect(fieldType(t.map!, 'anything')).toEqual({ map: { fields: { x: SCALAR } } });
  });

  it('admits anything where it cannot read the schema exactly (loose objects, unions)', () => {
    expect(schemaTypeOfZod(z.looseObject({ a: z.string() }))).toBe(DEDUCED);
    expect(schemaTypeOfZod(z.object({ a: z.string() }))).toBe(DEDUCED);
    expect(schemaTypeOfZod(z.union([z.string(), z.strictObject({})]))).toBe(DEDUCED);
    expect(fieldType(DEDUCED.map!, 'x')).toBe(DEDUCED);
  });

  it('reads ObjectMeta: its fields, owner references as closed structs, labels as a string map', () => {
    const meta = schemaTypeOfZod(strictObjectMeta).map!;
    expect(Object.keys(meta.fields)).toContain('ownerReferences');
    expect(fieldType(meta, 'unknownMeta')).toBeUndefined();
    const ref = fieldType(meta, 'ownerReferences')!.list!.map!;
    expect(Object.keys(ref.fields).sort()).toEqual([
      'apiVersion',
      'blockOwnerDeletion',
      'controller',
      'kind',
      'name',
      'uid',
    ]);
    expect(fieldType(fieldType(meta, 'labels')!.map!, 'any-key')).toEqual(SCALAR);
  });
});
