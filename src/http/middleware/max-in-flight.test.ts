import { describe, expect, it } from 'vitest';
import { ApiError } from '../../errors/api-error.js';
import type { ApiContext } from '../context.js';
import { maxInFlight } from './max-in-flight.js';

const ctx = (method: string, verb = 'list', extra: Record<string, unknown> = {}) =>
  ({
    method,
    state: { requestInfo: { verb, isResourceRequest: true, subresource: '', path: '/api/v1/pods' }, ...extra },
  }) as unknown as ApiContext;

const is429 = (e: unknown) => e instanceof ApiError && e.code === 429;

describe('maxInFlight', () => {
  it('answers 429 with Retry-After once the limit of its kind is reached, and frees slots', async () => {
    const limit = maxInFlight({ readOnly: 2, mutating: 1 });
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const a = limit(ctx('GET'), () => held);
    const b = limit(ctx('GET'), () => held);
    const rejected = await limit(ctx('GET'), async () => undefined).catch((e) => e);
    expect(rejected).toBeInstanceOf(ApiError);
    expect((rejected as ApiError).toStatus()).toMatchObject({
      code: 429,
      reason: 'TooManyRequests',
      details: { retryAfterSeconds: 1 },
    });
    await limit(ctx('POST', 'create'), async () => undefined); // mutating requests have their own budget
    await limit(ctx('GET', 'watch'), async () => undefined); // watches are exempt
    release();
    await Promise.all([a, b]);
    await limit(ctx('GET'), async () => undefined);
  });

  it('frees a slot once when the deadline passes, not again when the handler ends later', async () => {
    const limit = maxInFlight({ readOnly: 1, mutating: 1 });
    // A deadline as request-deadline.ts gives one: its onExpire callbacks run when it passes.
    const expiry: (() => void)[] = [];
    const deadline = { onExpire: (fn: () => void) => expiry.push(fn) };
    let finish!: () => void;
    const slow = limit(ctx('POST', 'create', { deadline }), () => new Promise<void>((r) => (finish = r)));
    expect(is429(await limit(ctx('POST', 'create'), async () => undefined).catch((e) => e))).toBe(true);
    for (const fn of expiry) fn();
    // The slot is free at the deadline: one request may take it...
    let finishSecond!: () => void;
    const second = limit(ctx('POST', 'create'), () => new Promise<void>((r) => (finishSecond = r)));
    // ...and the slow handler ending afterwards does not free it a second time.
    finish();
    await slow;
    expect(is429(await limit(ctx('POST', 'create'), async () => undefined).catch((e) => e))).toBe(true);
    finishSecond();
    await second;
    await limit(ctx('POST', 'create'), async () => undefined);
  });

  it('exempts every long-running request (exec, log, proxy), as upstream', async () => {
    const limit = maxInFlight({ readOnly: 1, mutating: 1 });
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const held = [limit(ctx('GET'), () => gate), limit(ctx('POST', 'create'), () => gate)];
    expect(is429(await limit(ctx('POST', 'create'), async () => undefined).catch((e) => e))).toBe(true);
    const exec = {
      method: 'POST',
      state: {
        requestInfo: {
          verb: 'create',
          isResourceRequest: true,
          subresource: 'exec',
          path: '/api/v1/namespaces/d/pods/p/exec',
        },
      },
    } as unknown as ApiContext;
    await limit(exec, async () => undefined);
    await limit(ctx('GET', 'proxy'), async () => undefined);
    release();
    await Promise.all(held);
  });
});
