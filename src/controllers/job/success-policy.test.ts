/**
 * Upstream 1.33 pkg/controller/job/success_policy_test.go TestMatchSuccessPolicy, ported (the
 * row with JobSuccessPolicy disabled is left out: the gate is GA in 1.33).
 */
import { describe, expect, it } from 'vitest';
import type { Interval } from './intervals.js';
import { matchSuccessPolicy, type SuccessPolicy } from './success-policy.js';

const iv = (...pairs: [number, number][]): Interval[] => pairs.map(([first, last]) => ({ first, last }));
const rule = (succeededIndexes?: string, succeededCount?: number) => ({
  ...(succeededIndexes === undefined ? {} : { succeededIndexes }),
  ...(succeededCount === undefined ? {} : { succeededCount }),
});
const policy = (...rules: object[]) => ({ rules }) as SuccessPolicy;
const M0 = 'Matched rules at index 0';

const cases: [string, SuccessPolicy | undefined, Interval[], string | undefined][] = [
  ['successPolicy is null', undefined, iv([0, 0]), undefined],
  ['any rules are nothing', policy(), iv([0, 0]), undefined],
  ['rules.succeededIndexes is invalid format', policy(rule('invalid-form')), iv([0, 0]), undefined],
  ['rules.succeededIndexes is specified; succeededIndexes matched rules', policy(rule('0-2')), iv([0, 2], [4, 7]), M0],
  [
    "rules.succeededIndexes is specified; succeededIndexes didn't match rules",
    policy(rule('3')),
    iv([0, 2]),
    undefined,
  ],
  ['rules.succeededCount is specified; succeededIndexes matched rules', policy(rule(undefined, 2)), iv([0, 2]), M0],
  [
    "rules.succeededCount is specified; succeededIndexes didn't match rules",
    policy(rule(undefined, 4)),
    iv([0, 2]),
    undefined,
  ],
  [
    'multiple rules; rules.succeededIndexes is specified; succeededIndexes met one of rules',
    policy(rule('9'), rule('4,6')),
    iv([0, 2], [4, 7]),
    'Matched rules at index 1',
  ],
  [
    'multiple rules; rules.succeededIndexes is specified; succeededIndexes met all rules',
    policy(rule('0,1'), rule('5')),
    iv([0, 2], [4, 7]),
    M0,
  ],
  [
    'rules.succeededIndexes and rules.succeededCount are specified; succeededIndexes met all rules',
    policy(rule('3-6', 2)),
    iv([0, 2], [4, 7]),
    M0,
  ],
  [
    "rules.succeededIndexes and rules.succeededCount are specified; succeededIndexes didn't match rules",
    policy(rule('3-6', 2)),
    iv([0, 2], [6, 7]),
    undefined,
  ],
  ['rules.succeededIndexes is specified; succeededIndexes are nothing', policy(rule(undefined, 4)), [], undefined],
  [
    'rules.succeededIndexes is specified; succeededIndexes matched rules; rules is proper subset of succeededIndexes',
    policy(rule('2-4,6-8')),
    iv([1, 5], [6, 9]),
    M0,
  ],
  [
    'rules.succeededIndexes is specified; succeededIndexes matched rules; rules equals succeededIndexes',
    policy(rule('2-4,6-9')),
    iv([2, 4], [6, 9]),
    M0,
  ],
  [
    'rules.succeededIndexes is specified; succeededIndexes matched rules; rules is subset of succeededIndexes',
    policy(rule('2-4,8-12')),
    iv([2, 5], [7, 15]),
    M0,
  ],
  [
    "rules.succeededIndexes is specified; succeededIndexes didn't match rules; rules is an empty set",
    policy(rule('')),
    iv([1, 3]),
    undefined,
  ],
  [
    "rules.succeededIndexes is specified; succeededIndexes didn't match rules; succeededIndexes is an empty set",
    policy(rule('')),
    [],
    undefined,
  ],
  [
    "rules.succeededIndexes is specified; succeededIndexes didn't match rules; all elements of rules.succeededIndexes aren't included in succeededIndexes",
    policy(rule('10-12,14-16')),
    iv([1, 3], [5, 7]),
    undefined,
  ],
  [
    "rules.succeededIndexes is specified; succeededIndexes didn't match rules; rules overlaps succeededIndexes at first",
    policy(rule('1-3,5-7')),
    iv([2, 4], [6, 8]),
    undefined,
  ],
  [
    'rules.succeededIndexes and rules.succeededCount are specified; succeededIndexes matched rules; rules overlaps succeededIndexes at first',
    policy(rule('1-3,5-7', 4)),
    iv([2, 4], [6, 8]),
    M0,
  ],
  [
    "rules.succeededIndexes is specified; succeededIndexes didn't match rules; rules overlaps succeededIndexes at last",
    policy(rule('2-4,6-9')),
    iv([1, 3], [5, 7]),
    undefined,
  ],
  [
    'rules.succeededIndexes and rules.succeededCount are specified; succeededIndexes matched rules; rules overlaps succeededIndexes at last',
    policy(rule('2-4,6-9', 4)),
    iv([1, 3], [5, 7]),
    M0,
  ],
  [
    "rules.succeededIndexes is specified; succeededIndexes didn't match rules; rules completely overlaps succeededIndexes",
    policy(rule('0-4,6-9')),
    iv([1, 3], [7, 8]),
    undefined,
  ],
  [
    'rules.succeededIndexes and rules.succeededCount are specified; succeededIndexes matched rules; rules completely overlaps succeededIndexes',
    policy(rule('0-4,6-9', 5)),
    iv([1, 3], [7, 8]),
    M0,
  ],
  [
    "rules.succeededIndexes is specified; succeededIndexes didn't match rules; rules overlaps multiple succeededIndexes at last",
    policy(rule('0-6,8-9')),
    iv([1, 3], [5, 9]),
    undefined,
  ],
  [
    'rules.succeededIndexes and rules.succeededCount are specified; succeededIndexes matched rules; rules overlaps multiple succeededIndexes at last',
    policy(rule('0-6,8-9', 7)),
    iv([1, 3], [5, 9]),
    M0,
  ],
  [
    "rules.succeededIndexes is specified; succeededIndexes didn't match rules; rules overlaps succeededIndexes at first, and rules equals succeededIndexes at last",
    policy(rule('0-5,7-9')),
    iv([1, 5], [7, 10]),
    undefined,
  ],
  [
    'rules.succeededIndexes and rules.succeededCount are specified; succeededIndexes matched rules; rules overlaps succeededIndexes at first, and rules equals succeededIndexes at last',
    policy(rule('0-5,7-9', 8)),
    iv([1, 5], [7, 10]),
    M0,
  ],
  [
    "rules.succeededIndexes is specified; succeededIndexes didn't match rules; the first rules overlaps succeededIndexes at first",
    policy(rule('0-3,6-9')),
    iv([1, 10]),
    undefined,
  ],
  [
    'rules.succeededIndexes and rules.succeededCount are specified; succeededIndexes matched rules; the first rules overlaps succeededIndexes at first',
    policy(rule('0-3,6-9', 7)),
    iv([1, 10]),
    M0,
  ],
];

describe('TestMatchSuccessPolicy', () => {
  it.each(cases)('%s', (_name, successPolicy, succeeded, want) =>
    expect(matchSuccessPolicy(successPolicy, 10, succeeded)).toBe(want),
  );
});
