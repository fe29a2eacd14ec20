import { describe, expect, it } from 'vitest';
import { parseIpRange, parsePortRange } from './ranges.js';

describe('service ranges', () => {
  it('maps IPs of a CIDR to offsets without the network and broadcast addresses', () => {
    const r = parseIpRange('10.0.0.0/24');
    expect(r.size).toBe(254);
    expect(r.ipAt(0)).toBe('10.0.0.1');
    expect(r.offsetOf('10.0.0.254')).toBe(253);
    expect(r.offsetOf('10.0.0.0')).toBeNull();
    expect(r.offsetOf('10.0.0.255')).toBeNull();
    expect(r.offsetOf('10.0.1.1')).toBeNull();
    expect(parseIpRange('10.0.0.7/29').cidr).toBe('10.0.0.0/29');
    expect(() => parseIpRange('10.0.0.0/31')).toThrow();
    expect(() => parseIpRange('bad')).toThrow();
  });
  it('parses port ranges', () => {
    expect(parsePortRange('30000-32767')).toEqual({ text: '30000-32767', base: 30000, size: 2768 });
    expect(() => parsePortRange('5-1')).toThrow();
  });
});
