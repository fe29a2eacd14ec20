/**
 * The Kubernetes quantity library (k8s.io/apiserver pkg/cel/library/quantity.go, 1.28+):
 * `quantity(s)`, `isQuantity(s)`, `q.sign()`, `isInteger()`, `asInteger()`, `asApproximateFloat()`,
 * `add`/`sub` of a quantity or an int, `isLessThan`, `isGreaterThan`, `compareTo`, and `==`.
 */
import {
  type Quantity,
  addQuantities,
  compareQuantities,
  parseQuantity,
  quantityOf,
  subtractQuantities,
} from '../quantity.js';
import { type Overload, global, member } from './functions.js';
import { BOOL, DOUBLE, INT, STRING, opaque } from './types.js';
import { CelErr, CelOpaque, type Result, INT64_MAX, INT64_MIN } from './values.js';

/** A Kubernetes quantity as a CEL value. */
export class QuantityValue extends CelOpaque {
  readonly typeName = 'kubernetes.Quantity';
  constructor(readonly q: Quantity) {
    super();
  }
  equals(o: CelOpaque): boolean {
    return o instanceof QuantityValue && compareQuantities(this.q, o.q) === 0;
  }
}

/** The CEL type of quantities. */
export const QUANTITY_TYPE = opaque('kubernetes.Quantity');
const Q = QUANTITY_TYPE;

function parse(s: string): QuantityValue | CelErr {
  try {
    return new QuantityValue(parseQuantity(s));
  } catch (e) {
    return new CelErr(e instanceof Error ? e.message : String(e));
  }
}

/** The integer value of q when it is one within int64. */
function integer(q: Quantity): bigint | undefined {
  if (q.exp >= 0) {
    const v = q.coef * 10n ** BigInt(q.exp);
    return v >= INT64_MIN && v <= INT64_MAX ? v : undefined;
  }
  const d = 10n ** BigInt(-q.exp);
  if (q.coef % d !== 0n) return undefined;
  const v = q.coef / d;
  return v >= INT64_MIN && v <= INT64_MAX ? v : undefined;
}

const asInteger = (v: QuantityValue): Result => {
  const i = integer(v.q);
  return i === undefined ? new CelErr('cannot convert value to integer') : i;
};

/** The quantity library's overloads. */
export const QUANTITY: readonly Overload[] = [
  global('quantity', 'string_to_quantity', [STRING], Q, parse),
  global('isQuantity', 'is_quantity_string', [STRING], BOOL, (s: string) => !(parse(s) instanceof CelErr)),
  member('sign', 'quantity_sign', [Q], INT, (v: QuantityValue) => BigInt(Math.sign(Number(v.q.coef)))),
  member('isInteger', 'quantity_is_integer', [Q], BOOL, (v: QuantityValue) => integer(v.q) !== undefined),
  member('asInteger', 'quantity_as_integer', [Q], INT, asInteger),
  member('asApproximateFloat', 'quantity_as_approximate_float', [Q], DOUBLE, (v: QuantityValue) =>
    Number(`${v.q.coef}e${v.q.exp}`),
  ),
  member(
    'add',
    'quantity_add',
    [Q, Q],
    Q,
    (a: QuantityValue, b: QuantityValue) => new QuantityValue(addQuantities(a.q, b.q)),
  ),
  member(
    'add',
    'quantity_add_int',
    [Q, INT],
    Q,
    (a: QuantityValue, b: bigint) => new QuantityValue(addQuantities(a.q, quantityOf(b, a.q.format))),
  ),
  member(
    'sub',
    'quantity_sub',
    [Q, Q],
    Q,
    (a: QuantityValue, b: QuantityValue) => new QuantityValue(subtractQuantities(a.q, b.q)),
  ),
  member(
    'sub',
    'quantity_sub_int',
    [Q, INT],
    Q,
    (a: QuantityValue, b: bigint) => new QuantityValue(subtractQuantities(a.q, quantityOf(b, a.q.format))),
  ),
  member(
    'isLessThan',
    'quantity_less',
    [Q, Q],
    BOOL,
    (a: QuantityValue, b: QuantityValue) => compareQuantities(a.q, b.q) < 0,
  ),
  member(
    'isGreaterThan',
    'quantity_greater',
    [Q, Q],
    BOOL,
    (a: QuantityValue, b: QuantityValue) => compareQuantities(a.q, b.q) > 0,
  ),
  member('compareTo', 'quantity_compare_to', [Q, Q], INT, (a: QuantityValue, b: QuantityValue) =>
    BigInt(compareQuantities(a.q, b.q)),
  ),
];
