import fc from 'fast-check';
import { Counter, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { TalliedCounter, TalliedHistogram } from './tallied.js';

const LABELS = ['verb', 'resource', 'code'];
const BUCKETS = [0.005, 0.1, 1, 10];
const labelSet = fc.record({
  verb: fc.constantFrom('GET', 'LIST', 'POST'),
  resource: fc.constantFrom('pods', 'configmaps', 'a"b\\c\n'),
  code: fc.constantFrom('200', '404'),
});

/** The exposition text of `registry` for one metric, with prom-client's and ours named alike. */
const text = async (registry: Registry) => registry.metrics();

describe('tallied metrics', () => {
  it('expose the same text as prom-client Histogram and Counter given the same observations', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(labelSet, fc.double({ min: 0, max: 20, noNaN: true })), { maxLength: 60 }),
        async (observations) => {
          const theirs = new Registry();
          const ours = new Registry();
          const h = new Histogram({
            name: 'x_seconds',
            help: 'h',
            labelNames: LABELS,
            buckets: BUCKETS,
            registers: [theirs],
          });
          const c = new Counter({ name: 'x_total', help: 'c', labelNames: LABELS, registers: [theirs] });
          const th = new TalliedHistogram({
            name: 'x_seconds',
            help: 'h',
            labelNames: LABELS,
            buckets: BUCKETS,
            registers: [ours],
          });
          const tc = new TalliedCounter({ name: 'x_total', help: 'c', labelNames: LABELS, registers: [ours] });
          for (const [labels, value] of observations) {
            h.observe(labels, value);
            th.observe(labels, value);
            c.inc(labels, value);
            tc.inc(labels, value);
          }
          const sorted = (t: string) => t.split('\n').sort().join('\n');
          expect(sorted(await text(ours))).toBe(sorted(await text(theirs)));
        },
      ),
      { numRuns: 100 },
    );
  });

  it('exposes missing labels as empty, ignores unknown ones, and forgets observations on reset', async () => {
    const registry = new Registry();
    const tc = new TalliedCounter({ name: 'y_total', help: 'c', labelNames: ['a', 'b'], registers: [registry] });
    tc.inc({ a: '1', extra: 'x' });
    tc.inc({ a: '1' }, 2);
    expect(await registry.metrics()).toContain('y_total{a="1",b=""} 3');
    registry.resetMetrics();
    expect(await registry.metrics()).toContain('y_total{a="1",b=""} 0');
    expect(() => tc.inc({ a: '1' }, -1)).toThrow(RangeError);
  });
});
