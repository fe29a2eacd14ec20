import { describe, expect, it } from 'vitest';
import type { Lease } from '../../resources/leases/leases.schema.js';
import { leaseHeld } from './other-scheduler.js';

const NOW = Date.parse('2026-11-28T12:00:00Z');
const lease = (spec: Lease['spec']): Lease => ({ metadata: { name: 'kube-scheduler' }, spec });

describe('leaseHeld (is another kube-scheduler leading?)', () => {
  it.each([
    [
      'renewed 5 s ago, 15 s duration',
      { holderIdentity: 'a', leaseDurationSeconds: 15, renewTime: '2026-11-28T11:59:55.000000Z' },
      true,
    ],
    [
      'renewed 15 s ago: just expired',
      { holderIdentity: 'a', leaseDurationSeconds: 15, renewTime: '2026-11-28T11:59:45.000000Z' },
      false,
    ],
    [
      'only acquired, 1 s ago',
      { holderIdentity: 'a', leaseDurationSeconds: 15, acquireTime: '2026-11-28T11:59:59.000000Z' },
      true,
    ],
    [
      'released (no holder)',
      { holderIdentity: '', leaseDurationSeconds: 15, renewTime: '2026-11-28T11:59:59.000000Z' },
      false,
    ],
    ['no duration', { holderIdentity: 'a', renewTime: '2026-11-28T11:59:59.000000Z' }, false],
    ['no time', { holderIdentity: 'a', leaseDurationSeconds: 15 }, false],
  ] as const)('%s', (_what, spec, held) => {
    expect(leaseHeld(lease(spec), NOW)).toBe(held);
  });

  it('is false without a Lease', () => {
    expect(leaseHeld(undefined, NOW)).toBe(false);
  });
});
