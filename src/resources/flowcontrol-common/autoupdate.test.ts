import { describe, expect, it } from 'vitest';
import type { ApiObject } from '../../api/object.js';
import { isUnwanted, parseGoBool, revision } from './autoupdate.js';
import { specsEqual } from './spec-equality.js';

const AUTO = 'apf.kubernetes.io/autoupdate-spec';
const bootstrap: ApiObject = { metadata: { name: 'x', annotations: { [AUTO]: 'true' } }, spec: { shares: 5 } };
const stored = (spec: object, generation: number, annotation?: string): ApiObject => ({
  metadata: {
    name: 'x',
    generation,
    resourceVersion: '7',
    ...(annotation === undefined ? {} : { annotations: { [AUTO]: annotation } }),
  },
  spec,
});
const equalish = (a: ApiObject, b: ApiObject) => specsEqual(a.spec, b.spec);
const decide = (current: ApiObject, mandatory = false) => {
  const r = revision(current, bootstrap, mandatory, equalish);
  return r && [r.metadata.annotations?.[AUTO], r.spec];
};

describe('revision (upstream ReviseIfNeeded)', () => {
  it.each([
    ['suggested, true, edited: restored', stored({ shares: 9 }, 2, 'true'), false, ['true', { shares: 5 }]],
    [
      'suggested, TRUE (a Go bool), edited: restored, annotation left',
      stored({ shares: 9 }, 2, 'TRUE'),
      false,
      ['TRUE', { shares: 5 }],
    ],
    ['suggested, false, edited: kept', stored({ shares: 9 }, 2, 'false'), false, undefined],
    [
      'suggested, no annotation, generation 1: annotated true',
      stored({ shares: 5 }, 1),
      false,
      ['true', { shares: 5 }],
    ],
    [
      'suggested, no annotation, edited: annotated false, kept',
      stored({ shares: 9 }, 2),
      false,
      ['false', { shares: 9 }],
    ],
    [
      'suggested, unreadable annotation, edited: annotated false',
      stored({ shares: 9 }, 3, 'yes'),
      false,
      ['false', { shares: 9 }],
    ],
    ['suggested, true, unchanged: nothing to do', stored({ shares: 5 }, 4, 'true'), false, undefined],
    [
      'mandatory, false, edited: restored and annotated true',
      stored({ shares: 9 }, 2, 'false'),
      true,
      ['true', { shares: 5 }],
    ],
    ['mandatory, no annotation, unchanged: annotated true', stored({ shares: 5 }, 2), true, ['true', { shares: 5 }]],
  ])('%s', (_name, current, mandatory, want) => {
    expect(decide(current, mandatory)).toEqual(want);
  });

  it('returns a copy and keeps the stored metadata (resourceVersion, generation)', () => {
    const current = stored({ shares: 9 }, 2, 'true');
    const r = revision(current, bootstrap, false, equalish)!;
    expect(r).not.toBe(current);
    expect(current.spec).toEqual({ shares: 9 });
    expect(r.metadata).toMatchObject({ resourceVersion: '7', generation: 2 });
  });
});

describe('parseGoBool (strconv.ParseBool)', () => {
  it.each([
    ['1', true],
    ['t', true],
    ['True', true],
    ['0', false],
    ['F', false],
    ['FALSE', false],
    ['yes', undefined],
    ['', undefined],
    [undefined, undefined],
  ])('%s', (value, want) => expect(parseGoBool(value)).toBe(want));
});

describe('isUnwanted (upstream RemoveUnwantedObjects)', () => {
  const names = new Set(['x']);
  it.each([
    ['named by the bootstrap set', stored({}, 1, 'true'), false],
    [
      'not named, annotated true',
      { ...stored({}, 1, 'true'), metadata: { name: 'old', annotations: { [AUTO]: 'true' } } },
      true,
    ],
    [
      'not named, annotated false',
      { ...stored({}, 1), metadata: { name: 'old', annotations: { [AUTO]: 'false' } } },
      false,
    ],
    ['not named, not annotated', { ...stored({}, 1), metadata: { name: 'mine' } }, false],
  ])('%s', (_name, obj, want) => expect(isUnwanted(obj, names)).toBe(want));
});

describe('specsEqual (Semantic.DeepEqual of the Go types)', () => {
  it.each([
    ['explicit zero values of non-pointer fields', { a: { clusterScope: false, n: 0, s: '' } }, { a: {} }, true],
    ['an empty list and an absent one', { rules: [] }, {}, true],
    ['an empty value struct and an absent one', { limitResponse: {} }, {}, true],
    ['an empty pointer struct and an absent one', { distinguisherMethod: {} }, {}, false],
    ['a pointer integer at 0 and an absent one', { borrowingLimitPercent: 0 }, {}, false],
    ['list order', { verbs: ['get', 'list'] }, { verbs: ['list', 'get'] }, false],
  ])('%s', (_name, a, b, want) => expect(specsEqual(a, b)).toBe(want));
});
