/**
 * reconcileAutoscaler over upstream 1.33 horizontal_test.go's table rows
 * (reconcile-rows.fixture.ts): scale up/down on cpu, tolerance, min/max clamping, conditions,
 * selector and scale failures, invalid metrics, stabilization. Each row checks the replicas
 * written (status desiredReplicas and the Scale) and the conditions (type, status, reason),
 * and the cpu utilization in status.currentMetrics where upstream verifies it.
 */
import { describe, expect, it } from 'vitest';
import { rows, run } from './reconcile-rows.fixture.js';

describe('reconcileAutoscaler (upstream horizontal_test.go)', () => {
  for (const tc of rows)
    it(tc.name, async () => {
      const { record } = await run(tc);
      const desired = record.status?.desiredReplicas ?? tc.specReplicas;
      expect(desired).toBe(tc.expectedDesiredReplicas);
      if (tc.expectedDesiredReplicas !== tc.specReplicas && !tc.scaleUpdateError)
        expect(record.scaled).toBe(tc.expectedDesiredReplicas);
      else expect(record.scaled).toBeUndefined();
      if (tc.expectedConditions)
        expect(record.status?.conditions?.map((c) => [c.type, c.status, c.reason])).toEqual(tc.expectedConditions);
      if (tc.verifyCPUCurrent) {
        const levels = tc.reportedLevels ?? [];
        const requests = (tc.reportedCPURequests ?? [])
          .slice(0, levels.length)
          .reduce((s, r) => s + Number(r) * 1000, 0);
        const current = Math.trunc((levels.reduce((s, l) => s + l, 0) * 100) / requests);
        expect(record.status?.currentMetrics?.[0]?.resource?.current?.averageUtilization).toBe(current);
      }
    });
});
