/**
 * Upstream 1.33 pkg/controller/tainteviction/taint_eviction_test.go TestFilterNoExecuteTaints and
 * TestGetMinTolerationTime, ported.
 */
import { describe, expect, it } from 'vitest';
import { minTolerationMs, noExecuteTaints, type Toleration } from './tolerations.js';

it('TestFilterNoExecuteTaints', () => {
  const taints = noExecuteTaints([
    { key: 'one', value: 'one', effect: 'NoExecute' },
    { key: 'two', value: 'two', effect: 'NoSchedule' },
  ]);
  expect(taints.map((t) => t.key)).toEqual(['one']);
});

describe('TestGetMinTolerationTime', () => {
  const cases: [Toleration[], number][] = [
    [[], 0],
    [[{ tolerationSeconds: null }], -1],
    [[{ tolerationSeconds: 1 }, { tolerationSeconds: 2 }], 1000],
    [[{ tolerationSeconds: 1 }, { tolerationSeconds: null }], 1000],
    [[{ tolerationSeconds: null }, { tolerationSeconds: 1 }], 1000],
  ];
  it.each(cases)('%j -> %d ms', (tolerations, ms) => expect(minTolerationMs(tolerations)).toBe(ms));
});
