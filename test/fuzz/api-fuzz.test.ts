/**
 * Property-based fuzzing of the whole API over HTTPS (see runner.ts for the invariants). A few
 * thousand cases by default; `FUZZ_RUNS=20000` for more, `FUZZ_SEED=<n>` to replay a run,
 * `FUZZ_IGNORE=<regex>` to leave out violations already known while looking for others,
 * `FUZZ_REPORT=<file>` to write every violation there as JSON lines.
 * Controllers are stopped so that nothing but the request under test changes an object.
 */
import { writeFile } from 'node:fs/promises';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codecFor } from '../../src/api/protobuf/codec.js';
import { RESOURCE_TABLE } from '../../src/resources/table.js';
import { TEST_TOKEN, useTestServer } from '../helpers/in-process.js';
import { send } from './fuzz-client.js';
import { caseArb } from './requests.js';
import { runCase, type FuzzContext, type Violation } from './runner.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 2500);
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 1_000_000);
const IGNORE = process.env.FUZZ_IGNORE ? new RegExp(process.env.FUZZ_IGNORE) : undefined;
const BATCH = 100;

// RBAC stays on (its checks and hooks are fuzzed), but the fuzzer deletes and rewrites RBAC
// objects too, the admin's binding among them: AlwaysAllow after it keeps the admin an admin.
const server = useTestServer({ authorizationModes: ['RBAC', 'AlwaysAllow'] });

describe('fuzzing every route, verb, content type and query', () => {
  it(`answers ${RUNS} generated requests without 5xx, hangs, crashes or partial writes`, async () => {
    await server.running.deps.controllers.stop();
    const ctx: FuzzContext = {
      url: server.url,
      agent: server.agent,
      token: TEST_TOKEN,
      codec: codecFor(RESOURCE_TABLE),
      defs: RESOURCE_TABLE,
      namespace: '',
    };
    const violations: Violation[] = [];
    let cases = 0;
    const started = Date.now();
    const healthy = async () => {
      const res = await send(ctx.url, ctx.agent, ctx.token, { method: 'GET', path: '/healthz' }, 5_000);
      expect(res.status, 'the server answers /healthz after a batch').toBe(200);
    };
    const newBatch = async () => {
      ctx.namespace = `fuzz-${cases / BATCH}`;
      const res = await send(ctx.url, ctx.agent, ctx.token, {
        method: 'POST',
        path: '/api/v1/namespaces',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ metadata: { name: ctx.namespace } }),
      });
      expect(res.status).toBe(201);
      // The controllers are stopped (they would change objects under the partial-write
      // checks), so the namespace gets the `default` ServiceAccount their controller would
      // give it; pods are admitted with it instead of waiting for it and being refused.
      const sa = await send(ctx.url, ctx.agent, ctx.token, {
        method: 'POST',
        path: `/api/v1/namespaces/${ctx.namespace}/serviceaccounts`,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ metadata: { name: 'default' } }),
      });
      expect(sa.status).toBe(201);
    };
    await fc.assert(
      fc.asyncProperty(caseArb(RESOURCE_TABLE), async (c) => {
        if (cases % BATCH === 0) {
          if (cases > 0) await healthy();
          await newBatch();
        }
        cases++;
        for (const v of await runCase(ctx, c))
          if (!IGNORE?.test(`${v.status} ${v.problem} ${v.answer ?? ''}`)) violations.push(v);
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
    await healthy();
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(`fuzz: ${cases} cases in ${seconds} s (seed ${SEED}), ${violations.length} violations`);
    for (const v of violations.slice(0, 30)) console.log(JSON.stringify(v));
    if (process.env.FUZZ_REPORT)
      await writeFile(process.env.FUZZ_REPORT, violations.map((v) => JSON.stringify(v)).join('\n') + '\n');
    expect(violations).toEqual([]);
  }, 3_600_000);
});
