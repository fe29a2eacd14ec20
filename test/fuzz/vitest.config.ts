/**
 * The fuzz tier: property-based requests against an in-process server (test/fuzz). Run with
 * `npx vitest run --config test/fuzz/vitest.config.ts`; `FUZZ_RUNS=20000` runs more cases.
 * One file at a time, as the fuzz file keeps both cores busy.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: fileURLToPath(new URL('../..', import.meta.url)),
    include: ['test/fuzz/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    maxWorkers: 1,
    minWorkers: 1,
  },
});
