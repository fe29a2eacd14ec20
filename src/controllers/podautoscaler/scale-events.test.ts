/**
 * Scale events as the behavior policies count them, ported from upstream 1.33
 * pkg/controller/podautoscaler/horizontal_test.go TestStoreScaleEvents (each case both up and
 * down): the change counted over the last 60 s, then the events kept after storing a change
 * (outdated ones reused, marked ones flagged).
 */
import { describe, expect, it } from 'vitest';
import { replicasChangePerPeriod, ScalingHistory, type TimestampedScaleEvent } from './scaling-history.js';
import { ago, NOW, rules } from './scaling-rules.fixture.js';
import type { ScalingRules } from './types.js';

describe('storeScaleEvent (upstream TestStoreScaleEvents)', () => {
  const ev = (replicaChange: number, secondsAgo: number, outdated = false) => ({
    replicaChange,
    timestamp: ago(secondsAgo),
    outdated,
  });
  const cases: [string, ScalingRules | undefined, TimestampedScaleEvent[], [number, boolean][], number][] = [
    ['empty entries with default behavior', undefined, [], [], 0],
    ['empty entries with two-policy-behavior', rules(10, 60, 100, 60, 0), [], [[5, false]], 0],
    ['one outdated entry to be kept untouched without behavior', undefined, [ev(7, 61)], [[7, false]], 0],
    ['one outdated entry to be replaced with behavior', rules(10, 60, 100, 60, 0), [ev(7, 61)], [[5, false]], 0],
    [
      'one actual entry to be not touched with behavior',
      rules(10, 60, 100, 60, 0),
      [ev(7, 58)],
      [
        [7, false],
        [5, false],
      ],
      7,
    ],
    [
      'two entries, one of them to be replaced',
      rules(10, 60, 0, 0, 0),
      [ev(7, 61), ev(6, 59)],
      [
        [5, false],
        [6, false],
      ],
      6,
    ],
    [
      'replace one entry, use policies with different periods',
      rules(10, 60, 100, 30, 0),
      [ev(8, 29), ev(6, 59), ev(7, 61), ev(9, 61)],
      [
        [8, false],
        [6, false],
        [7, true],
        [5, false],
      ],
      14,
    ],
    [
      'two entries, both actual',
      rules(10, 120, 100, 30, 0),
      [ev(7, 58), ev(6, 59)],
      [
        [7, false],
        [6, false],
        [5, false],
      ],
      13,
    ],
  ];
  for (const [name, scaling, prev, expected, change] of cases)
    for (const direction of ['up', 'down'] as const)
      it(`${name} (${direction})`, () => {
        const history = new ScalingHistory();
        const map = direction === 'up' ? history.scaleUpEvents : history.scaleDownEvents;
        map.set(
          '',
          prev.map((e) => ({ ...e })),
        );
        expect(replicasChangePerPeriod(60, map.get('')!, NOW)).toBe(change);
        const behavior = scaling && (direction === 'up' ? { scaleUp: scaling } : { scaleDown: scaling });
        history.storeScaleEvent(behavior, '', 10, direction === 'up' ? 15 : 5, NOW);
        expect(map.get('')!.map((e) => [e.replicaChange, e.outdated])).toEqual(expected);
      });
});
