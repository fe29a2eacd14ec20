/**
 * Normalization of the desired replicas, ported from upstream 1.33
 * pkg/controller/podautoscaler/horizontal_test.go: TestConvertDesiredReplicasWithRules,
 * TestNormalizeDesiredReplicas (stabilizeRecommendation) and
 * TestNormalizeDesiredReplicasWithBehavior (stabilizeRecommendationWithBehaviors).
 */
import { describe, expect, it } from 'vitest';
import {
  convertDesiredReplicasWithRules,
  scaleUpLimit,
  stabilizeRecommendation,
  stabilizeWithBehaviors,
} from './normalize.js';
import { ScalingHistory } from './scaling-history.js';
import { ago, NOW } from './scaling-rules.fixture.js';

describe('convertDesiredReplicasWithRules (upstream TestConvertDesiredReplicasWithRules)', () => {
  const cases: [number, number, number, number, number, string][] = [
    [5, 7, 3, 8, 7, 'DesiredWithinRange'],
    [3, 1, 2, 8, 2, 'TooFewReplicas'],
    [1, 0, 0, 10, 0, 'DesiredWithinRange'],
    [20, 1000, 1, 10, 10, 'TooManyReplicas'],
    [3, 1000, 1, 2000, scaleUpLimit(3), 'ScaleUpLimit'],
  ];
  for (const [current, desired, min, max, expected, reason] of cases)
    it(`${current} -> ${desired} within [${min}, ${max}]`, () => {
      const got = convertDesiredReplicasWithRules(current, desired, min, max);
      expect([got.replicas, got.reason]).toEqual([expected, reason]);
    });
});

describe('stabilizeRecommendation (upstream TestNormalizeDesiredReplicas)', () => {
  const cases: [string, [number, number][], number, number, number][] = [
    ['empty log', [], 5, 5, 1],
    [
      'stabilize',
      [
        [4, 120],
        [5, 60],
      ],
      3,
      5,
      3,
    ],
    [
      'no stabilize',
      [
        [1, 120],
        [2, 60],
      ],
      3,
      3,
      3,
    ],
    [
      'no stabilize - old recommendations',
      [
        [10, 600],
        [9, 540],
      ],
      3,
      3,
      2,
    ],
    [
      'stabilize - old recommendations',
      [
        [10, 600],
        [4, 60],
        [5, 120],
        [9, 540],
      ],
      3,
      5,
      4,
    ],
  ];
  for (const [name, recs, desired, expected, logLength] of cases)
    it(name, () => {
      const history = new ScalingHistory();
      history.recommendations.set(
        '',
        recs.map(([recommendation, s]) => ({ recommendation, timestamp: ago(s) })),
      );
      expect(stabilizeRecommendation('', desired, 5 * 60_000, history, NOW)).toBe(expected);
      expect(history.recommendations.get('')).toHaveLength(logLength);
    });
});

describe('stabilizeRecommendationWithBehaviors (upstream TestNormalizeDesiredReplicasWithBehavior)', () => {
  const cases: [string, [number, number][], number, number, number, number[] | undefined, number, number][] = [
    ['empty recommendations for scaling down', [], 100, 5, 5, [5], 0, 0],
    [
      'simple scale down stabilization',
      [
        [4, 120],
        [5, 60],
      ],
      100,
      3,
      5,
      [4, 5, 3],
      0,
      180,
    ],
    [
      'simple scale up stabilization',
      [
        [4, 120],
        [5, 60],
      ],
      1,
      7,
      4,
      [4, 5, 7],
      300,
      0,
    ],
    [
      'no scale down stabilization',
      [
        [1, 120],
        [2, 60],
      ],
      100,
      3,
      3,
      [1, 2, 3],
      300,
      0,
    ],
    [
      'no scale up stabilization',
      [
        [4, 120],
        [5, 60],
      ],
      1,
      3,
      3,
      [4, 5, 3],
      0,
      300,
    ],
    [
      'no scale down stabilization, reuse recommendation element',
      [
        [10, 600],
        [9, 540],
      ],
      100,
      3,
      3,
      [10, 3],
      0,
      0,
    ],
    [
      'no scale up stabilization, reuse recommendation element',
      [
        [10, 600],
        [9, 540],
      ],
      1,
      100,
      100,
      [10, 100],
      0,
      0,
    ],
    [
      'scale down stabilization, reuse one of obsolete recommendation element',
      [
        [10, 600],
        [4, 60],
        [5, 120],
        [9, 540],
      ],
      100,
      3,
      5,
      [10, 4, 5, 3],
      0,
      180,
    ],
    [
      'scale up stabilization, reuse one of obsolete recommendation element',
      [
        [10, 6000],
        [6, 60],
        [5, 120],
        [9, 180],
      ],
      1,
      100,
      5,
      [100, 6, 5, 9],
      300,
      0,
    ],
    [
      'scale up and down stabilization, do not scale up when prenormalized rec goes down',
      [
        [2, 6000],
        [3, 180],
      ],
      2,
      1,
      2,
      undefined,
      300,
      300,
    ],
    [
      'scale up and down stabilization, do not scale down when prenormalized rec goes up',
      [
        [2, 6000],
        [1, 180],
      ],
      2,
      3,
      2,
      undefined,
      300,
      300,
    ],
  ];
  for (const [name, recs, current, desired, expected, stored, upWindow, downWindow] of cases)
    it(name, () => {
      const history = new ScalingHistory();
      history.recommendations.set(
        '',
        recs.map(([recommendation, s]) => ({ recommendation, timestamp: ago(s) })),
      );
      const got = stabilizeWithBehaviors(
        {
          key: '',
          scaleUp: { stabilizationWindowSeconds: upWindow },
          scaleDown: { stabilizationWindowSeconds: downWindow },
          minReplicas: 0,
          maxReplicas: 0,
          currentReplicas: current,
          desiredReplicas: desired,
        },
        history,
        NOW,
      );
      expect(got.replicas).toBe(expected);
      if (stored) expect(history.recommendations.get('')!.map((r) => r.recommendation)).toEqual(stored);
    });
});
