import { AsyncLocalStorage, AsyncResource, executionAsyncId } from 'node:async_hooks';
import { connect, createServer } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bindBuildsAccessors, installCheaperAsyncResourceBind } from './async-resource-bind.js';

// Whether Node's own bind has the costly shape is decided before the replacement is installed.
const nodeBuildsAccessors = bindBuildsAccessors();

describe('cheaper AsyncResource#bind', () => {
  beforeAll(() => {
    expect(installCheaperAsyncResourceBind()).toBe(nodeBuildsAccessors);
  });

  it('is in place on a Node whose own bind builds accessors per call, and installing twice is harmless', () => {
    expect(installCheaperAsyncResourceBind()).toBe(nodeBuildsAccessors);
    // Once replaced, every bound function shares one getter.
    if (nodeBuildsAccessors) expect(bindBuildsAccessors()).toBe(false);
  });

  it("calls fn in the resource's async scope with the caller's this, the arguments and fn's result", () => {
    const resource = new AsyncResource('test-resource');
    const seen: unknown[] = [];
    const fn = function (this: unknown, a: number, b: number) {
      seen.push(executionAsyncId(), this, a, b);
      return a + b;
    };
    const bound = resource.bind(fn);
    const receiver = { name: 'receiver' };
    expect(bound.call(receiver, 2, 3)).toBe(5);
    expect(seen).toEqual([resource.asyncId(), receiver, 2, 3]);
    expect(bound.length).toBe(2);
    expect(Object.getOwnPropertyDescriptor(bound, 'length')).toMatchObject({ writable: false, enumerable: false });
  });

  it('binds a given thisArg', () => {
    const resource = new AsyncResource('test-resource');
    const self = { n: 7 };
    // @types/node omits bind's thisArg (Node 16+).
    const bindWithThis = resource.bind as unknown as (
      fn: (this: typeof self, k: number) => unknown,
      thisArg: unknown,
    ) => (this: unknown, k: number) => unknown;
    const bound = bindWithThis.call(
      resource,
      function (this: typeof self, k: number) {
        return [this.n * k, executionAsyncId()];
      },
      self,
    );
    expect(bound.call({ n: 1 }, 3)).toEqual([21, resource.asyncId()]);
  });

  it('carries the AsyncLocalStorage context of where the resource was made', () => {
    const als = new AsyncLocalStorage<string>();
    const bound = als.run('request-1', () => new AsyncResource('pending').bind(() => als.getStore()));
    expect(als.run('other', () => bound())).toBe('request-1');
    expect(bound()).toBe('request-1');
  });

  it('keeps the deprecated asyncResource accessor: enumerable, gets and sets, warns DEP0172', async () => {
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    try {
      const resource = new AsyncResource('test-resource');
      const other = new AsyncResource('other');
      const bound = resource.bind(() => executionAsyncId()) as (() => number) & { asyncResource: AsyncResource };
      expect(Object.keys(bound)).toContain('asyncResource');
      expect(bound.asyncResource).toBe(resource);
      bound.asyncResource = other;
      expect(bound.asyncResource).toBe(other);
      // As in Node, replacing it changes what the getter returns, not the scope fn runs in.
      expect(bound()).toBe(resource.asyncId());
      await new Promise((r) => setImmediate(r));
      if (nodeBuildsAccessors)
        expect(warnings.some((w) => (w as Error & { code?: string }).code === 'DEP0172')).toBe(true);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it("rejects a non-function with Node's own error", () => {
    expect(() => new AsyncResource('x').bind(42 as never)).toThrow(
      expect.objectContaining({ code: 'ERR_INVALID_ARG_TYPE' }),
    );
  });

  describe('under the HTTP/2 client, which binds one per request', () => {
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.end(`echo ${req.url}`));
    });
    let url = '';
    beforeAll(async () => {
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise<void>((r) => server.close(() => r())));

    it('answers requests made before and after the session connected, in the requester’s context', async () => {
      const als = new AsyncLocalStorage<number>();
      const session = connect(url);
      try {
        // The first requests queue until the session connects: their bound callbacks run later.
        const ask = (i: number) =>
          als.run(i, () => {
            const stream = session.request({ ':path': `/r${i}` });
            let body = '';
            stream.setEncoding('utf8');
            stream.on('data', (c: string) => (body += c));
            return new Promise<[string, number | undefined]>((resolve, reject) => {
              stream.on('end', () => resolve([body, als.getStore()]));
              stream.on('error', reject);
            });
          });
        const early = await Promise.all([1, 2, 3].map(ask));
        const late = await Promise.all([4, 5].map(ask));
        expect([...early, ...late]).toEqual([1, 2, 3, 4, 5].map((i) => [`echo /r${i}`, i]));
      } finally {
        session.close();
      }
    });
  });
});
