/**
 * A cheaper `AsyncResource.prototype.bind`, with the same behaviour, for the Node versions whose
 * own one builds the deprecated `asyncResource` accessor (DEP0172) anew on every call.
 *
 * Node 20's HTTP/2 client binds an AsyncResource on every `ClientHttp2Session.request()`
 * (lib/internal/http2/core.js), so every etcd call the server makes runs `bind`. That `bind`
 * (lib/async_hooks.js) gives each bound function a getter and a setter made by two
 * `util.deprecate` calls, each of which calls `Object.setPrototypeOf` on a fresh function. A
 * function whose prototype is set gets hidden classes of its own, allocated in V8's old space,
 * which only a full mark-compact frees. Measured on a create of a ConfigMap (etcd 3.4, 64
 * concurrent clients): about 5% of the server's CPU in `bind` itself, and the largest share of
 * what outlived young-generation GCs; with this replacement the server spent about 15% less
 * CPU per create.
 *
 * The replacement keeps what callers can see: the bound function calls `fn` in the resource's
 * async scope with the same `this` and arguments, has `fn`'s length, and has the enumerable
 * `asyncResource` accessor, which returns (or replaces, for the getter only) the resource and
 * emits the DEP0172 warning once, as Node's does. Its getter and setter are shared by all bound
 * functions; the resource is kept under a symbol on the bound function.
 */
import { AsyncResource } from 'node:async_hooks';
import { deprecate } from 'node:util';

const RESOURCE = Symbol('asyncResource');
const DEPRECATED = 'The asyncResource property on bound functions is deprecated';

interface Bound {
  [RESOURCE]: unknown;
}

type AnyFunction = (this: unknown, ...args: unknown[]) => unknown;
/** `bind` as Node has it since 16 (@types/node omits `thisArg`). */
type BindMethod = (this: AsyncResource, fn: AnyFunction, thisArg?: unknown) => AnyFunction;

const getResource = deprecate(
  function (this: Bound) {
    return this[RESOURCE];
  },
  DEPRECATED,
  'DEP0172',
);
const setResource = deprecate(
  function (this: Bound, value: unknown) {
    this[RESOURCE] = value;
  },
  DEPRECATED,
  'DEP0172',
);

let installed = false;

/**
 * True when this Node's own `bind` gives bound functions an `asyncResource` accessor of their
 * own (the costly shape described in the file comment).
 */
export function bindBuildsAccessors(): boolean {
  const probe = (a: unknown) => a;
  const bound = Object.getOwnPropertyDescriptor(new AsyncResource('ck-probe').bind(probe), 'asyncResource');
  const other = Object.getOwnPropertyDescriptor(new AsyncResource('ck-probe').bind(probe), 'asyncResource');
  return Boolean(bound?.get && other?.get && bound.get !== other.get);
}

/**
 * Replace `AsyncResource.prototype.bind` process-wide (see the file comment) when this Node's
 * own one builds accessors per call; otherwise leave it. Idempotent. Returns whether the
 * replacement is in place. Meant for the process's entry point (main.ts), not for embedders.
 */
export function installCheaperAsyncResourceBind(): boolean {
  if (installed) return true;
  if (!bindBuildsAccessors()) return false;
  const original = AsyncResource.prototype.bind as unknown as BindMethod;
  Object.defineProperty(AsyncResource.prototype, 'bind', {
    configurable: true,
    enumerable: false,
    writable: true,
    value: function bind(this: AsyncResource, fn: AnyFunction, thisArg?: unknown): AnyFunction {
      // Node's own validation and error for a non-function.
      if (typeof fn !== 'function') return original.call(this, fn, thisArg);
      // The bound function has a `this` of its own: the resource is kept under another name.
      // eslint-disable-next-line @typescript-eslint/no-this-alias
      const resource = this;
      const bound =
        thisArg === undefined
          ? function (this: unknown, ...args: unknown[]) {
              return resource.runInAsyncScope(fn, this, ...args);
            }
          : (resource.runInAsyncScope.bind(resource, fn, thisArg) as AnyFunction);
      Object.defineProperties(bound, {
        length: { configurable: true, enumerable: false, writable: false, value: fn.length },
        asyncResource: { configurable: true, enumerable: true, get: getResource, set: setResource },
        [RESOURCE]: { configurable: true, enumerable: false, writable: true, value: resource },
      });
      return bound;
    },
  });
  installed = true;
  return true;
}
