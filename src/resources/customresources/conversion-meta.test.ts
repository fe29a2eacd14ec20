import { describe, expect, it } from 'vitest';
import { restoreObjectMeta, validateConvertedObject } from './conversion-meta.js';

type Obj = Record<string, unknown>;
const spec = {};

// upstream webhook_converter_test.go TestRestoreObjectMeta, case by case; `error` is the message
// expected (upstream's test only asks whether there is one).
const cases: { name: string; original: Obj; converted: Obj; expected: Obj; error?: string | RegExp }[] = [
  {
    name: 'no converted metadata',
    original: { metadata: {}, spec },
    converted: { spec },
    expected: { spec },
    error: 'missing metadata in converted object',
  },
  {
    name: 'invalid converted metadata',
    original: { metadata: {}, spec },
    converted: { metadata: ['foo'] },
    expected: { metadata: ['foo'] },
    error: 'invalid metadata of type []interface {} in converted object',
  },
  {
    name: 'no original metadata',
    original: { spec },
    converted: { metadata: {}, spec },
    expected: { metadata: {}, spec },
  },
  {
    name: 'invalid original metadata',
    original: { metadata: ['foo'] },
    converted: { metadata: {}, spec },
    expected: { metadata: ['foo'], spec },
    error: 'invalid metadata of type []interface {} in input object',
  },
  {
    name: 'changed label, annotations and non-label',
    original: { metadata: { foo: 'bar', labels: { a: 'A', b: 'B' }, annotations: { a: '1', b: '2' } }, spec },
    converted: { metadata: { foo: 'abc', labels: { a: 'AA', b: 'B' }, annotations: { a: '1', b: '22' } }, spec },
    expected: { metadata: { foo: 'bar', labels: { a: 'AA', b: 'B' }, annotations: { a: '1', b: '22' } }, spec },
  },
  {
    name: 'added labels and annotations',
    original: { metadata: { foo: 'bar' }, spec },
    converted: { metadata: { foo: 'abc', labels: { a: 'AA', b: 'B' }, annotations: { a: '1', b: '22' } }, spec },
    expected: { metadata: { foo: 'bar', labels: { a: 'AA', b: 'B' }, annotations: { a: '1', b: '22' } }, spec },
  },
  {
    name: 'added labels and annotations, with nil before',
    original: { metadata: { foo: 'bar', labels: null, annotations: null }, spec },
    converted: { metadata: { foo: 'abc', labels: { a: 'AA', b: 'B' }, annotations: { a: '1', b: '22' } }, spec },
    expected: { metadata: { foo: 'bar', labels: { a: 'AA', b: 'B' }, annotations: { a: '1', b: '22' } }, spec },
  },
  {
    name: 'removed labels and annotations',
    original: { metadata: { foo: 'bar', labels: { a: 'AA', b: 'B' }, annotations: { a: '1', b: '22' } }, spec },
    converted: { metadata: { foo: 'abc' }, spec },
    expected: { metadata: { foo: 'bar' }, spec },
  },
  {
    name: "nil'ed labels and annotations",
    original: { metadata: { foo: 'bar', labels: { a: 'AA', b: 'B' }, annotations: { a: '1', b: '22' } }, spec },
    converted: { metadata: { foo: 'abc', labels: null, annotations: null }, spec },
    expected: { metadata: { foo: 'bar' }, spec },
  },
  {
    name: 'added labels and annotations with a null value',
    original: { metadata: { foo: 'bar' }, spec },
    converted: { metadata: { foo: 'abc', labels: { a: null, b: 'B' }, annotations: { a: null, b: '22' } }, spec },
    expected: { metadata: { foo: 'bar' }, spec },
    error: 'metadata.labels[a] must be a string, but is <nil> in converted object',
  },
  {
    name: 'invalid label key',
    original: { metadata: {} },
    converted: { metadata: { labels: { 'some/non-qualified/label': 'x' } } },
    expected: { metadata: {} },
    error: /^metadata\.labels: Invalid value: "some\/non-qualified\/label": a qualified name must consist of/,
  },
  {
    name: 'invalid annotation key',
    original: { metadata: {} },
    converted: { metadata: { annotations: { 'some/non-qualified/label': 'x' } } },
    expected: { metadata: {} },
    error: /^metadata\.annotation: Invalid value: "some\/non-qualified\/label": a qualified name must consist of/,
  },
  {
    name: 'invalid label value',
    original: { metadata: {} },
    converted: { metadata: { labels: { foo: 'üäö' } } },
    expected: { metadata: {} },
    error: /^metadata\.labels: Invalid value: "üäö": a valid label must be an empty string or consist of/,
  },
  {
    name: 'too big label value',
    original: { metadata: {} },
    converted: { metadata: { labels: { foo: 'x'.repeat(64) } } },
    expected: { metadata: {} },
    error: `metadata.labels: Invalid value: "${'x'.repeat(64)}": must be no more than 63 characters`,
  },
  {
    name: 'too big annotation value',
    original: { metadata: {} },
    converted: { metadata: { annotations: { foo: 'x'.repeat(256 * 1024 + 1) } } },
    expected: { metadata: {} },
    error: 'metadata.annotation: Too long: may not be more than 262144 bytes',
  },
  {
    name: 'several label errors are aggregated',
    original: { metadata: {} },
    converted: { metadata: { labels: { 'a/b/c': 'x', ok: '-bad' } } },
    expected: { metadata: {} },
    error: /^\[metadata\.labels: Invalid value: "a\/b\/c": .*, metadata\.labels: Invalid value: "-bad": .*\]$/,
  },
  {
    name: 'unchanged invalid labels are not validated',
    original: { metadata: { labels: { 'a/b/c': 'x' } } },
    converted: { metadata: { labels: { 'a/b/c': 'x' } } },
    expected: { metadata: { labels: { 'a/b/c': 'x' } } },
  },
  {
    name: 'labels of another type in the answer',
    original: { metadata: {} },
    converted: { metadata: { labels: 'a=b' } },
    expected: { metadata: {} },
    error: 'invalid metadata.labels of type string in converted object',
  },
  {
    name: 'annotations of another type in the original',
    original: { metadata: { annotations: 3 } },
    converted: { metadata: { annotations: { a: 'b' } } },
    expected: { metadata: { annotations: 3 } },
    error: 'invalid metadata.annotations of type int64 in original object',
  },
];

describe('restoreObjectMeta (upstream TestRestoreObjectMeta)', () => {
  it.each(cases)('$name', ({ original, converted, expected, error }) => {
    const originalBefore = structuredClone(original);
    let thrown: unknown;
    try {
      restoreObjectMeta(original, converted);
    } catch (err) {
      thrown = err;
    }
    if (error === undefined) expect(thrown).toBeUndefined();
    else expect(thrown).toMatchObject({ message: typeof error === 'string' ? error : expect.stringMatching(error) });
    // As upstream, `converted` is changed in place, also when the restoration then fails.
    expect(converted).toEqual(expected);
    expect(original).toEqual(originalBefore);
  });

  it('restores a copy: changing the result leaves the original alone', () => {
    const original = { metadata: { name: 'a', finalizers: ['x'] } };
    const converted: Obj = { metadata: { name: 'a' } };
    restoreObjectMeta(original, converted);
    (converted.metadata as { finalizers: string[] }).finalizers.push('y');
    expect(original.metadata.finalizers).toEqual(['x']);
  });
});

describe('validateConvertedObject', () => {
  const base = { kind: 'Widget', metadata: { name: 'n', namespace: 'ns', uid: 'u1' } };
  it.each([
    { change: { kind: 'Gadget' }, message: 'must have the same kind: Widget != Gadget' },
    { change: { metadata: { ...base.metadata, name: 'm' } }, message: 'must have the same name: n != m' },
    { change: { metadata: { ...base.metadata, namespace: '' } }, message: 'must have the same namespace: ns != ' },
    { change: { metadata: { ...base.metadata, uid: 'u2' } }, message: 'must have the same UID: u1 != u2' },
  ])('refuses: $message', ({ change, message }) => {
    expect(() => validateConvertedObject(base, { ...base, ...change })).toThrow(message);
  });

  it('accepts changed labels, annotations and fields', () => {
    const converted = { ...base, spec: { a: 1 }, metadata: { ...base.metadata, labels: { a: 'b' } } };
    expect(() => validateConvertedObject(base, converted)).not.toThrow();
  });
});
