// Properties of server-side apply over random pod-like objects: the result holds every field the
// configuration sets, and applying the same configuration again changes nothing.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { kindPatch, podSpecPatch } from '../core/patch-meta.js';
import { recordApply, type WriteContext } from './field-manager.js';
import { toFieldSet } from './to-field-set.js';
import type { Json, JsonMap } from './value.js';

const meta = kindPatch({ spec: podSpecPatch });
const ctx: WriteContext = { apiVersion: 'v1', kind: 'Pod', now: new Date('2024-01-01T00:00:00Z') };

const word = fc.constantFrom('a', 'b', 'c', 'd');
const port = fc.record(
  { containerPort: fc.constantFrom(80, 443, 8080), protocol: fc.constantFrom('TCP', 'UDP') },
  { requiredKeys: ['containerPort'] },
);
const container = fc.record(
  {
    name: word,
    image: fc.constantFrom('nginx', 'redis'),
    args: fc.array(word, { minLength: 1, maxLength: 3 }),
    ports: fc.uniqueArray(port, {
      minLength: 1,
      maxLength: 3,
      selector: (p) => `${p.containerPort}/${p.protocol ?? 'TCP'}`,
    }),
    env: fc.uniqueArray(fc.record({ name: word, value: word }), {
      minLength: 1,
      maxLength: 3,
      selector: (e) => e.name,
    }),
  },
  { requiredKeys: ['name'] },
);
const pod = fc.record(
  {
    labels: fc.dictionary(word, word, { minKeys: 1, maxKeys: 3 }),
    finalizers: fc.uniqueArray(word, { minLength: 1, maxLength: 3 }),
    containers: fc.uniqueArray(container, { minLength: 1, maxLength: 3, selector: (c) => c.name }),
    nodeSelector: fc.dictionary(word, word, { minKeys: 1, maxKeys: 2 }),
    restartPolicy: fc.constantFrom('Always', 'Never'),
  },
  { requiredKeys: [] },
);

function toObject(p: {
  labels?: object;
  finalizers?: string[];
  containers?: object[];
  nodeSelector?: object;
  restartPolicy?: string;
}): JsonMap {
  const metadata: Record<string, Json> = { name: 'p' };
  if (p.labels) metadata.labels = p.labels as Json;
  if (p.finalizers) metadata.finalizers = p.finalizers;
  const spec: Record<string, Json> = {};
  for (const k of ['containers', 'nodeSelector', 'restartPolicy'] as const)
    if (p[k] !== undefined) spec[k] = p[k] as Json;
  return { apiVersion: 'v1', kind: 'Pod', metadata, ...(Object.keys(spec).length ? { spec } : {}) };
}

describe('apply properties', () => {
  it('the result sets every field the configuration sets; applying it again is a no-op', () => {
    fc.assert(
      fc.property(pod, pod, (a, b) => {
        const first = recordApply(null, toObject(a), 'other', undefined, meta, ctx);
        if (first.status !== 'applied') throw new Error(JSON.stringify(first));
        const config = toObject(b);
        const second = recordApply(first.object, config, 'me', first.managedFields, meta, { ...ctx, force: true });
        if (second.status !== 'applied') throw new Error(JSON.stringify(second));
        const want = toFieldSet(config, meta);
        expect(want.difference(toFieldSet(second.object, meta)).empty()).toBe(true);
        const again = recordApply(second.object, config, 'me', second.managedFields, meta, {
          ...ctx,
          now: new Date('2025-01-01T00:00:00Z'),
        });
        expect(again).toEqual({ ...second, changed: false });
      }),
      { numRuns: 300 },
    );
  });

  it('without force, an apply either conflicts or leaves every other manager owning only fields it still holds', () => {
    fc.assert(
      fc.property(pod, pod, (a, b) => {
        const first = recordApply(null, toObject(a), 'other', undefined, meta, ctx);
        if (first.status !== 'applied') throw new Error(JSON.stringify(first));
        const second = recordApply(first.object, toObject(b), 'me', first.managedFields, meta, ctx);
        if (second.status === 'conflict') {
          expect(second.conflicts.length).toBeGreaterThan(0);
          expect(second.conflicts.every((c) => c.manager === 'other' && c.operation === 'Apply')).toBe(true);
          return;
        }
        if (second.status !== 'applied') throw new Error(JSON.stringify(second));
        const otherEntry = second.managedFields.find((e) => e.manager === 'other');
        // A configuration that sets no field beyond name leaves "other" with no entry at all, as
        // upstream drops managers whose set is empty.
        const firstOther = first.managedFields.find((e) => e.manager === 'other');
        // Without force nothing is taken from "other": "me" owned nothing before, so nothing was removed either.
        expect(otherEntry?.fieldsV1).toEqual(firstOther?.fieldsV1);
      }),
      { numRuns: 300 },
    );
  });
});
