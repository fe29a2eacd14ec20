/**
 * Function overloads: what the checker resolves calls against and the interpreter dispatches to
 * (cel-go common/decls: one function name, many overloads, each global or member, with typed
 * parameters, a result type and an implementation). A library is a list of overloads; an
 * environment is the union of the libraries it enables ({@link FunctionRegistry}).
 */
import { type CelType, formatType } from './types.js';
import {
  CelDuration,
  CelErr,
  CelMap,
  CelObject,
  CelOpaque,
  CelOptional,
  CelTimestamp,
  CelTypeValue,
  CelUint,
  type Result,
  type Value,
} from './values.js';

/** One overload. For a member overload `params[0]` is the receiver (`x` of `x.f(y)`). */
export interface Overload {
  readonly id: string;
  readonly fn: string;
  readonly member: boolean;
  readonly params: readonly CelType[];
  readonly result: CelType;
  readonly impl: (...args: Value[]) => Result;
}

/** Overloads by function name. */
export class FunctionRegistry {
  private readonly byName = new Map<string, Overload[]>();
  private readonly byId = new Map<string, Overload>();

  constructor(private readonly libs: readonly (readonly Overload[])[]) {
    for (const lib of libs) for (const o of lib) this.add(o);
  }

  /** A registry of these overloads and `lib`'s. */
  extend(lib: readonly Overload[]): FunctionRegistry {
    return new FunctionRegistry([...this.libs, lib]);
  }

  private add(o: Overload): void {
    const list = this.byName.get(o.fn) ?? [];
    list.push(o);
    this.byName.set(o.fn, list);
    this.byId.set(o.id, o);
  }

  /** Overloads named `fn`. */
  overloads(fn: string): readonly Overload[] {
    return this.byName.get(fn) ?? [];
  }

  /** The overload with id `id`. */
  get(id: string): Overload | undefined {
    return this.byId.get(id);
  }

  /** Whether any overload (global or member) is named `fn`. */
  has(fn: string): boolean {
    return this.byName.has(fn);
  }
}

/** A global overload. */
export function global(
  fn: string,
  id: string,
  params: readonly CelType[],
  result: CelType,
  impl: (...args: never[]) => Result,
): Overload {
  return { id, fn, member: false, params, result, impl: impl as (...a: Value[]) => Result };
}

/** A member overload (`params[0]` is the receiver). */
export function member(
  fn: string,
  id: string,
  params: readonly CelType[],
  result: CelType,
  impl: (...args: never[]) => Result,
): Overload {
  return { id, fn, member: true, params, result, impl: impl as (...a: Value[]) => Result };
}

/** Whether runtime value `v` is an instance of `t` (dyn and type parameters accept anything). */
export function valueHasType(v: Value, t: CelType): boolean {
  switch (t.kind) {
    case 'dyn':
    case 'param':
    case 'error':
      return true;
    case 'prim':
      switch (t.name) {
        case 'int':
          return typeof v === 'bigint';
        case 'uint':
          return v instanceof CelUint;
        case 'double':
          return typeof v === 'number';
        case 'bool':
          return typeof v === 'boolean';
        case 'string':
          return typeof v === 'string';
        case 'bytes':
          return v instanceof Uint8Array;
        case 'null_type':
          return v === null;
        case 'google.protobuf.Timestamp':
          return v instanceof CelTimestamp;
        case 'google.protobuf.Duration':
          return v instanceof CelDuration;
      }
      return false;
    case 'list':
      return (
        Array.isArray(v) &&
        (t.elem.kind === 'dyn' || t.elem.kind === 'param' || v.every((x) => valueHasType(x, t.elem)))
      );
    case 'map':
      return v instanceof CelMap || v instanceof CelObject;
    case 'object':
      return v instanceof CelObject;
    case 'type':
      return v instanceof CelTypeValue;
    case 'opaque':
      return t.name === 'optional_type' ? v instanceof CelOptional : v instanceof CelOpaque && v.typeName === t.name;
  }
}

/** Pick the overload among `candidates` whose parameters match `args` at run time. */
export function dispatch(candidates: readonly Overload[], args: readonly Value[]): Overload | undefined {
  return candidates.find((o) => o.params.length === args.length && o.params.every((p, i) => valueHasType(args[i]!, p)));
}

/** The runtime error for a call no overload accepts (cel-go: `no such overload`). */
export function noSuchOverload(fn: string, args: readonly Value[]): CelErr {
  void fn;
  void args;
  return new CelErr('no such overload');
}

/** A readable signature for error messages: `(int, string)` or `string.(int)`. */
export function formatSignature(types: readonly CelType[], isMember: boolean): string {
  if (isMember) {
    const [t, ...rest] = types;
    return `${formatType(t!)}.(${rest.map(formatType).join(', ')})`;
  }
  return `(${types.map(formatType).join(', ')})`;
}
