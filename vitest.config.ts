import { defineConfig } from 'vitest/config';

// The test tiers (see docs/architecture.md):
//  unit + integration run in-process on the memory backend; fuzz drives every route with generated
//  and mutated requests; conformance runs the key-value and
//  object-storage suites on memory and on etcd; e2e starts etcd with testcontainers and drives the
//  server with real clients. Parallelism stays modest: the machine has 2 cores.
export default defineConfig({
  test: {
    maxWorkers: 2,
    minWorkers: 1,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'test/integration/**/*.test.ts', 'test/security/**/*.test.ts'],
          testTimeout: 20_000,
          // A test server starts in about a second, several on a loaded 2-core machine.
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'conformance',
          include: ['test/conformance/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          // Property-based fuzzing of every route (FUZZ_RUNS=20000 for a long run).
          name: 'fuzz',
          include: ['test/fuzz/**/*.test.ts'],
          testTimeout: 180_000,
          hookTimeout: 60_000,
          poolOptions: { forks: { singleFork: true } },
        },
      },
      {
        extends: true,
        test: {
          // Helm chart rendering with the real Helm 4 binary (scripts/get-helm.sh),
          // every rendered object validated against upstream's schemas.
          name: 'chart',
          include: ['test/chart/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 240_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          testTimeout: 180_000,
          hookTimeout: 240_000,
          poolOptions: { forks: { singleFork: true } },
        },
      },
    ],
  },
});
