import { describe, expect, it } from 'vitest';
import { patchObject, JSON_PATCH, MERGE_PATCH, STRATEGIC_MERGE_PATCH } from './patch-object.js';

const cm = () => ({
  kind: 'ConfigMap',
  apiVersion: 'v1',
  metadata: { name: 'cm', namespace: 'default' },
  data: { a: 'b' },
});
const failure = (type: Parameters<typeof patchObject>[0], patch: unknown) => {
  try {
    patchObject(type, cm(), patch);
    return undefined;
  } catch (err) {
    return { code: (err as { code: number }).code, message: (err as Error).message };
  }
};

describe('a patched object must still be the object patched (upstream patch.go decode + checkName)', () => {
  it('removing metadata is 400: the name no longer matches the URL', () => {
    const expected = { code: 400, message: 'the name of the object () does not match the name on the URL (cm)' };
    expect(failure(MERGE_PATCH, { metadata: null })).toEqual(expected);
    expect(failure(STRATEGIC_MERGE_PATCH, { $patch: 'delete' })).toEqual(expected);
    expect(failure(JSON_PATCH, [{ op: 'remove', path: '/metadata' }])).toEqual(expected);
    expect(failure(JSON_PATCH, [{ op: 'move', from: '/metadata', path: '/x' }])).toEqual(expected);
    expect(failure(MERGE_PATCH, { metadata: { name: 'other' } })?.message).toBe(
      'the name of the object (other) does not match the name on the URL (cm)',
    );
  });
  it('metadata or the whole object of another type is a 400 decode error', () => {
    expect(failure(MERGE_PATCH, { metadata: 'x' })).toEqual({
      code: 400,
      message:
        'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal string into Go struct field ConfigMap.metadata of type v1.ObjectMeta',
    });
    expect(failure(JSON_PATCH, [{ op: 'replace', path: '', value: 5 }])?.code).toBe(400);
    expect(failure(MERGE_PATCH, { metadata: { name: 5 } })?.code).toBe(400);
  });
  it('another kind, or a version not known, is 422 on `patch`; the same kind in a known version converts; removing them restores them', () => {
    const secret = failure(JSON_PATCH, [{ op: 'replace', path: '/kind', value: 'Secret' }]);
    expect(secret?.code).toBe(422);
    expect(secret?.message).toMatch(
      /^ "" is invalid: patch: Invalid value: "\{.*\}": no kind "Secret" is registered for version "v1" in scheme "ck-apiserver"$/,
    );
    const knows = (apiVersion: string, kind: string) =>
      ['v1/Secret', 'v1/ConfigMap', 'ck.io/v1/ConfigMap'].includes(`${apiVersion}/${kind}`);
    expect(() =>
      patchObject(JSON_PATCH, cm(), [{ op: 'replace', path: '/kind', value: 'Secret' }], undefined, knows),
    ).toThrow(/converting \(v1.Secret\) to \(core.ConfigMap\): unknown conversion/);
    expect(failure(MERGE_PATCH, { apiVersion: 'v2' })?.code).toBe(422);
    expect(patchObject(MERGE_PATCH, cm(), { apiVersion: 'ck.io/v1' }, undefined, knows)).toMatchObject({
      kind: 'ConfigMap',
      apiVersion: 'v1',
    });
    expect(
      patchObject(JSON_PATCH, cm(), [
        { op: 'remove', path: '/kind' },
        { op: 'remove', path: '/apiVersion' },
      ]),
    ).toMatchObject({ kind: 'ConfigMap', apiVersion: 'v1' });
  });
  it('a strategic merge patch naming another kind or apiVersion applies, keeping the object its own (upstream FromUnstructured)', () => {
    const out = patchObject(STRATEGIC_MERGE_PATCH, cm(), {
      kind: 'ReplicationController',
      apiVersion: 'v2',
      data: { b: '2' },
    });
    expect(out).toMatchObject({ kind: 'ConfigMap', apiVersion: 'v1', data: { a: 'b', b: '2' } });
    expect(failure(STRATEGIC_MERGE_PATCH, { metadata: { name: 'other' } })?.code).toBe(400);
  });
  it('a key named __proto__ stays data and does not become the prototype', () => {
    const out = patchObject(MERGE_PATCH, cm(), JSON.parse('{"data":{"__proto__":{"polluted":"yes"}}}')) as any;
    expect(Object.getPrototypeOf(out.data)).toBe(Object.prototype);
    expect(out.data.polluted).toBeUndefined();
    expect(Object.keys(out.data)).toEqual(['a', '__proto__']);
  });
});
