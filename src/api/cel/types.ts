/**
 * CEL types as the checker sees them (cel-go common/types/types.go): primitives, `dyn`, lists,
 * maps, schema object types, `type(T)`, opaque types (optional_type, kubernetes.Quantity, net.IP,
 * ...) and type parameters of overloads. `formatType` prints them as cel-go's FormatCELType does,
 * which is what compile errors show (`found no matching overload for '_+_' applied to '(int, string)'`).
 */

/** A CEL type. Object types carry their fields (escaped property names) for field selection. */
export type CelType =
  | { readonly kind: 'prim'; readonly name: PrimName }
  | { readonly kind: 'dyn' }
  | { readonly kind: 'error' }
  | { readonly kind: 'list'; readonly elem: CelType }
  | { readonly kind: 'map'; readonly key: CelType; readonly value: CelType }
  | { readonly kind: 'object'; readonly name: string; readonly fields: ReadonlyMap<string, CelType> }
  | { readonly kind: 'type'; readonly of?: CelType }
  | {
      readonly kind: 'opaque';
      readonly name: string;
      readonly params: readonly CelType[];
      /** A receiver-only object type (cel-go ObjectType without fields): null is assignable to it. */
      readonly nullable?: boolean;
    }
  | { readonly kind: 'param'; readonly name: string };

/** Primitive type names, as cel-go prints them. */
export type PrimName =
  | 'int'
  | 'uint'
  | 'double'
  | 'bool'
  | 'string'
  | 'bytes'
  | 'null_type'
  | 'google.protobuf.Timestamp'
  | 'google.protobuf.Duration';

const prim = (name: PrimName): CelType => ({ kind: 'prim', name });
/** The primitive types, dyn, error, and type constructors. */
export const INT = prim('int');
export const UINT = prim('uint');
export const DOUBLE = prim('double');
export const BOOL = prim('bool');
export const STRING = prim('string');
export const BYTES = prim('bytes');
export const NULL = prim('null_type');
export const TIMESTAMP = prim('google.protobuf.Timestamp');
export const DURATION = prim('google.protobuf.Duration');
export const DYN: CelType = { kind: 'dyn' };
export const ERROR: CelType = { kind: 'error' };
export const listOf = (elem: CelType): CelType => ({ kind: 'list', elem });
export const mapOf = (key: CelType, value: CelType): CelType => ({ kind: 'map', key, value });
export const typeOf = (of?: CelType): CelType => ({ kind: 'type', of });
export const opaque = (name: string, ...params: CelType[]): CelType => ({ kind: 'opaque', name, params });
export const param = (name: string): CelType => ({ kind: 'param', name });
/** An object type that exposes no fields, only member functions (cel-go's receiver-only ObjectType). */
export const receiverOnly = (name: string): CelType => ({ kind: 'opaque', name, params: [], nullable: true });
export const optionalOf = (t: CelType): CelType => opaque('optional_type', t);
export const A = param('A');
export const B = param('B');

/** cel-go's FormatCELType. */
export function formatType(t: CelType): string {
  switch (t.kind) {
    case 'prim':
      return t.name === 'null_type' ? 'null' : t.name;
    case 'dyn':
      return 'dyn';
    case 'error':
      return '*error*';
    case 'list':
      return `list(${formatType(t.elem)})`;
    case 'map':
      return `map(${formatType(t.key)}, ${formatType(t.value)})`;
    case 'object':
      return t.name;
    case 'type':
      return t.of ? `type(${formatType(t.of)})` : 'type';
    case 'opaque':
      return t.params.length ? `${t.name}(${t.params.map(formatType).join(', ')})` : t.name;
    case 'param':
      return t.name;
  }
}

/** Type-parameter bindings of one overload resolution. */
export type Bindings = Map<string, CelType>;

/** Substitute bound type parameters (unbound ones become dyn when `finalize`). */
export function substitute(t: CelType, b: Bindings, finalize = false): CelType {
  switch (t.kind) {
    case 'param': {
      const v = b.get(t.name);
      return v ? substitute(v, b, finalize) : finalize ? DYN : t;
    }
    case 'list':
      return listOf(substitute(t.elem, b, finalize));
    case 'map':
      return mapOf(substitute(t.key, b, finalize), substitute(t.value, b, finalize));
    case 'type':
      return t.of ? typeOf(substitute(t.of, b, finalize)) : t;
    case 'opaque':
      return t.params.length ? opaque(t.name, ...t.params.map((p) => substitute(p, b, finalize))) : t;
    default:
      return t;
  }
}

/**
 * Whether a value of type `from` may be passed where `to` is expected, binding type parameters
 * of `to` in `b` (cel-go checker isAssignable, simplified: dyn and error unify with anything).
 */
export function isAssignable(to: CelType, from: CelType, b: Bindings): boolean {
  if (to.kind === 'param') {
    const bound = b.get(to.name);
    if (!bound) {
      b.set(to.name, from);
      return true;
    }
    if (isAssignable(bound, from, b)) return true;
    // Widen a binding to dyn when the other side is dyn (cel-go's mostGeneral).
    if (from.kind === 'dyn' || bound.kind === 'dyn') return true;
    return false;
  }
  if (from.kind === 'param') {
    const bound = b.get(from.name);
    return bound ? isAssignable(to, bound, b) : true;
  }
  if (to.kind === 'dyn' || from.kind === 'dyn' || to.kind === 'error' || from.kind === 'error') {
    bindAllDyn(to, b);
    return true;
  }
  // null is assignable to object types (cel-go: messages are nullable), both ways for `==`.
  const isNull = (t: CelType) => t.kind === 'prim' && t.name === 'null_type';
  const nullable = (t: CelType) => t.kind === 'object' || (t.kind === 'opaque' && !!t.nullable);
  if ((nullable(to) && isNull(from)) || (nullable(from) && isNull(to))) return true;
  switch (to.kind) {
    case 'prim':
      return from.kind === 'prim' && from.name === to.name;
    case 'list':
      return from.kind === 'list' && isAssignable(to.elem, from.elem, b);
    case 'map':
      return from.kind === 'map' && isAssignable(to.key, from.key, b) && isAssignable(to.value, from.value, b);
    case 'object':
      return from.kind === 'object' && from.name === to.name;
    case 'type':
      return from.kind === 'type';
    case 'opaque':
      return (
        from.kind === 'opaque' &&
        from.name === to.name &&
        from.params.length === to.params.length &&
        to.params.every((p, i) => isAssignable(p, from.params[i]!, b))
      );
    default:
      return false;
  }
}

function bindAllDyn(t: CelType, b: Bindings): void {
  if (t.kind === 'param' && !b.has(t.name)) b.set(t.name, DYN);
  else if (t.kind === 'list') bindAllDyn(t.elem, b);
  else if (t.kind === 'map') {
    bindAllDyn(t.key, b);
    bindAllDyn(t.value, b);
  } else if (t.kind === 'opaque') t.params.forEach((p) => bindAllDyn(p, b));
}

/** Structural equality of two types. */
export function sameType(a: CelType, b: CelType): boolean {
  return formatType(a) === formatType(b);
}

/** The type used for a list or map literal with these element types (homogeneous or dyn). */
export function joinTypes(ts: readonly CelType[]): CelType {
  if (ts.length === 0) return DYN;
  const first = ts[0]!;
  return ts.every((t) => sameType(t, first)) ? first : DYN;
}
