/**
 * The Kubernetes semver library, version 1 (k8s.io/apiserver pkg/cel/library/semverlib.go; in
 * stored expressions from 1.33, new ones from 1.34): `semver(s)`, `isSemver(s)`, `major()`,
 * `minor()`, `patch()`, `isGreaterThan`, `isLessThan`, `compareTo`, `==`.
 */
import { type Overload, global, member } from './functions.js';
import { BOOL, INT, STRING, opaque } from './types.js';
import { CelErr, CelOpaque } from './values.js';

/** A semantic version. */
export class SemverValue extends CelOpaque {
  readonly typeName = 'kubernetes.Semver';
  constructor(
    readonly major: bigint,
    readonly minor: bigint,
    readonly patch: bigint,
    readonly pre: readonly string[],
  ) {
    super();
  }
  equals(o: CelOpaque): boolean {
    return o instanceof SemverValue && compare(this, o) === 0;
  }
}

const NUM = '(0|[1-9]\\d*)';
const RE = new RegExp(
  `^${NUM}\\.${NUM}\\.${NUM}(?:-([0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*))?(?:\\+[0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*)?$`,
);

function parse(s: string): SemverValue | CelErr {
  const m = RE.exec(s);
  if (!m) return new CelErr(`Could not parse semver ${s}`);
  return new SemverValue(BigInt(m[1]!), BigInt(m[2]!), BigInt(m[3]!), m[4] ? m[4].split('.') : []);
}

function compare(a: SemverValue, b: SemverValue): number {
  for (const k of ['major', 'minor', 'patch'] as const) if (a[k] !== b[k]) return a[k] < b[k] ? -1 : 1;
  if (!a.pre.length || !b.pre.length) return b.pre.length - a.pre.length === 0 ? 0 : a.pre.length ? -1 : 1;
  for (let i = 0; i < Math.min(a.pre.length, b.pre.length); i++) {
    const [x, y] = [a.pre[i]!, b.pre[i]!];
    if (x === y) continue;
    const [nx, ny] = [/^\d+$/.test(x), /^\d+$/.test(y)];
    if (nx && ny) return BigInt(x) < BigInt(y) ? -1 : 1;
    if (nx !== ny) return nx ? -1 : 1;
    return x < y ? -1 : 1;
  }
  return Math.sign(a.pre.length - b.pre.length);
}

const T = opaque('kubernetes.Semver');

/** The semver library's overloads. */
export const SEMVER: readonly Overload[] = [
  global('semver', 'string_to_semver', [STRING], T, parse),
  global('isSemver', 'is_semver_string', [STRING], BOOL, (s: string) => !(parse(s) instanceof CelErr)),
  member('major', 'semver_major', [T], INT, (v: SemverValue) => v.major),
  member('minor', 'semver_minor', [T], INT, (v: SemverValue) => v.minor),
  member('patch', 'semver_patch', [T], INT, (v: SemverValue) => v.patch),
  member('isGreaterThan', 'semver_greater', [T, T], BOOL, (a: SemverValue, b: SemverValue) => compare(a, b) > 0),
  member('isLessThan', 'semver_less', [T, T], BOOL, (a: SemverValue, b: SemverValue) => compare(a, b) < 0),
  member('compareTo', 'semver_compare_to', [T, T], INT, (a: SemverValue, b: SemverValue) => BigInt(compare(a, b))),
];
