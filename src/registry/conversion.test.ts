import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kindSchema } from '../api/meta-schema.js';
import type { ApiObject } from '../api/object.js';
import { MemoryKvStore } from '../storage/kv/memory/memory-store.js';
import { ObjectStore } from '../storage/object-store.js';
import { defineResource } from '../resources/define.js';
import { buildPredicate } from './predicate.js';
import { ResourceRegistry } from './resource-registry.js';
import type { VersionConversion } from './types.js';

/**
 * A kind stored as v2 (`spec.size`, default 1) and served also as v1 (`size` at the top, default
 * 3): every verb through the v1 row stores v2 objects and reads them back as v1, as upstream
 * serves an older version of a resource over its storage version.
 */
const v2Schema = kindSchema({
  spec: z.strictObject({ size: z.number().int().nullable().optional() }).nullable().optional(),
});
const v1Schema = kindSchema({ size: z.number().int().nullable().optional() });

const v1ToV2: VersionConversion = {
  defaults: (obj) => {
    obj.size ??= 3;
  },
  toStorage: ({ size, ...rest }) => ({ ...rest, apiVersion: 'widgets.test/v2', spec: { size } }),
  fromStorage: ({ spec, ...rest }) => ({
    ...rest,
    apiVersion: 'widgets.test/v1',
    size: (spec as { size?: number } | undefined)?.size,
  }),
};

const storageRow = defineResource({
  group: 'widgets.test',
  version: 'v2',
  kind: 'Widget',
  plural: 'widgets',
  namespaced: true,
  schema: v2Schema,
  strategy: {
    defaults: (obj) => {
      obj.spec ??= {};
      obj.spec.size ??= 1;
    },
    validate: (obj) =>
      (obj.spec?.size ?? 0) > 10
        ? [{ reason: 'FieldValueInvalid', field: 'spec.size', message: 'Invalid value: too big' }]
        : [],
  },
});
const v1Row = { ...storageRow, version: 'v1', schema: v1Schema, conversion: v1ToV2 };

let kv: MemoryKvStore;
let registry: ResourceRegistry;
beforeAll(() => {
  kv = new MemoryKvStore();
  registry = new ResourceRegistry([storageRow, v1Row], new ObjectStore(kv, '/registry'));
});
afterAll(() => kv.close());

const widget = (name: string, fields: Record<string, unknown>): ApiObject => ({ metadata: { name }, ...fields });

describe('a version served over another version’s storage', () => {
  it('creates through the old version with its defaults, stores the storage version, and reads back in each', async () => {
    const v1 = registry.lookup('widgets.test', 'v1', 'widgets')!;
    const v2 = registry.lookup('widgets.test', 'v2', 'widgets')!;
    const created = await v1.create('default', widget('a', {}));
    expect(created).toMatchObject({ apiVersion: 'widgets.test/v1', kind: 'Widget', size: 3 });
    expect(created).not.toHaveProperty('spec');
    const stored = JSON.parse((await kv.range({ start: '/registry/widgets/default/a' })).kvs[0]!.value);
    expect(stored).toMatchObject({ apiVersion: 'widgets.test/v2', spec: { size: 3 } });
    expect(await v2.get('default', 'a')).toMatchObject({ apiVersion: 'widgets.test/v2', spec: { size: 3 } });
    // The storage version's own defaults are its requests': a v2 create gets size 1.
    expect((await v2.create('default', widget('b', {}))).spec).toEqual({ size: 1 });
    const listed = await v1.list('default', { predicate: buildPredicate(v1.def) });
    expect(listed.apiVersion).toBe('widgets.test/v1');
    expect(listed.items.map((i) => [i.metadata.name, i.size, 'spec' in i])).toEqual([
      ['a', 3, false],
      ['b', 1, false],
    ]);
  });

  it('validates and updates on the stored form, answering in the served one', async () => {
    const v1 = registry.lookup('widgets.test', 'v1', 'widgets')!;
    await expect(v1.create('default', widget('big', { size: 11 }))).rejects.toMatchObject({ code: 422 });
    const updated = await v1.update('default', 'a', (old) => {
      expect(old).toMatchObject({ apiVersion: 'widgets.test/v1', size: 3 });
      return { ...old, size: 7 };
    });
    expect(updated).toMatchObject({ apiVersion: 'widgets.test/v1', size: 7 });
    expect((await registry.lookup('widgets.test', 'v2', 'widgets')!.get('default', 'a')).spec).toEqual({ size: 7 });
  });

  it('watches in the served version', async () => {
    const v1 = registry.lookup('widgets.test', 'v1', 'widgets')!;
    const signal = new AbortController();
    const stream = v1.watch('default', '', {
      predicate: buildPredicate(v1.def),
      resourceVersion: '0',
      signal: signal.signal,
    });
    const events = stream[Symbol.asyncIterator]();
    const first = await events.next();
    expect(first.value).toMatchObject({ type: 'ADDED', object: { apiVersion: 'widgets.test/v1', kind: 'Widget' } });
    expect(first.value.object).not.toHaveProperty('spec');
    signal.abort();
  });
});
