import { describe, expect, it } from 'vitest';
import { ApiError } from '../../errors/api-error.js';
import type { ApiContext } from '../context.js';
import { maxInFlight } from './max-in-flight.js';

const ctx = (method: string, verb = 'list') => ({ method, state: { requestInfo: { verb } } }) as unknown as ApiContext;

describe('maxInFlight', () => {
  it('answers 429 with Retry-After once the limit of its kind is reached, and frees slots', async () => {
    const limit = maxInFlight({ readOnly: 2, mutating: 1 });
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const a = limit(ctx('GET'), () => held);
    const b = limit(ctx('GET'), () => held);
    const rejected = await limit(ctx('GET'), async () => undefined).catch((e) => e);
    expect(rejected).toBeInstanceOf(ApiError);
    expect((rejected as ApiError).toStatus()).toMatchObject({ code: 429, reason: 'TooManyRequests', details: { retryAfterSeconds: 1 } });
    await limit(ctx('POST', 'create'), async () => undefined); // mutating requests have their own budget
    await limit(ctx('GET', 'watch'), async () => undefined); // watches are exempt
    release();
    await Promise.all([a, b]);
    await limit(ctx('GET'), async () => undefined);
  });
});
