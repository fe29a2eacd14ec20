/**
 * The shape of the bootstrap configuration objects (resources/flowschemas/bootstrap.ts,
 * resources/prioritylevelconfigurations/bootstrap.ts): written in code, so named, with a
 * spec, and without the `null`s the wire schema allows; frozen, as every reader shares them.
 */

/** `T` with `null` removed from every field, at every depth (what code writes, not what a client may send). */
export type NoNulls<T> = T extends readonly (infer U)[]
  ? NoNulls<U>[]
  : T extends object
    ? { [K in keyof T]: NoNulls<Exclude<T[K], null>> }
    : T;

/** A bootstrap object of kind `T` whose spec is `S`: named, with a spec, without nulls. */
export type BootstrapObject<T extends { metadata: object }, S> = NoNulls<T> & {
  readonly metadata: NoNulls<T['metadata']> & { readonly name: string };
  readonly spec: NoNulls<S>;
};

/** `value` with it and everything in it frozen (returned for chaining). */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') for (const v of Object.values(value)) deepFreeze(v);
  return Object.freeze(value);
}
