import { describe, expect, it } from 'vitest';
import { cmpDiff, quantityKey, semanticEqual } from './pod-spec-compare.js';

describe('pod spec comparison', () => {
  it('compares quantities by value', () => {
    expect(quantityKey('1')).toBe(quantityKey('1000m'));
    expect(quantityKey(1)).toBe(quantityKey('1'));
    expect(quantityKey('1Ki')).toBe(quantityKey('1024'));
    expect(quantityKey('0.5')).toBe(quantityKey('500m'));
    expect(quantityKey('1e3')).toBe(quantityKey('1k'));
    expect(quantityKey('1Gi')).not.toBe(quantityKey('1G'));
    expect(quantityKey('abc')).toBe('abc');
  });
  it('keys a quantity of a million digits (a body under 3 MiB can carry one) without quadratic work', () => {
    const huge = `1${'0'.repeat(1_000_000)}`;
    expect(quantityKey(huge)).toBe('1e1000000');
    expect(quantityKey(huge)).toBe(quantityKey('1e1000000'));
  });
  it('treats absent, null and empty values alike, but not different values', () => {
    expect(semanticEqual({ a: 1, b: [], c: {}, d: '', e: null, f: false }, { a: 1 })).toBe(true);
    expect(
      semanticEqual(
        { containers: [{ resources: { limits: { cpu: '2' } } }] },
        { containers: [{ resources: { limits: { cpu: '2000m' } } }] },
      ),
    ).toBe(true);
    expect(
      semanticEqual(
        { containers: [{ resources: { limits: { cpu: '2' } } }] },
        { containers: [{ resources: { limits: { cpu: '1' } } }] },
      ),
    ).toBe(false);
    expect(semanticEqual({ hostNetwork: true }, {})).toBe(false);
  });
  it('reports changed top-level fields in the shape of go-cmp’s cmp.Diff', () => {
    expect(
      cmpDiff('core.PodSpec', { b: 'x', a: 1, dnsPolicy: 'ClusterFirst' }, { a: 1, b: 'y', dnsPolicy: 'Default' }),
    ).toBe(
      '  core.PodSpec{\n  \t... // 1 identical field\n- \tB: "x",\n+ \tB: "y",\n- \tDNSPolicy: "ClusterFirst",\n+ \tDNSPolicy: "Default",\n  }\n',
    );
  });
});
