/**
 * Health endpoints as upstream serves them (k8s.io/apiserver pkg/server/healthz/healthz.go):
 * `/healthz`, `/livez` and `/readyz` run named checks and answer `ok` (200) when all pass.
 * `?verbose` lists each check (`[+]etcd ok`, `[-]etcd failed: reason withheld`) and ends with
 * `<endpoint> check passed|failed`; a failure always answers that listing with 500.
 * `?exclude=<name>` (repeatable) skips a check (`[+]<name> excluded: ok`), and names that match
 * no check are reported on a `warn:` line. Each check is also served alone at
 * `/<endpoint>/<name>`: `ok`, or 500 `internal server error: <reason>`.
 */
import type Router from '@koa/router';
import type { ApiState } from '../context.js';
import { errorMessage } from '../../api/error-message.js';

/** A named check; `run` resolves when healthy and throws (with a reason) when not. */
export interface HealthCheck {
  readonly name: string;
  run(): Promise<void>;
}

type Ctx = Parameters<Parameters<Router<ApiState>['get']>[1]>[0];

function answer(ctx: Ctx, status: number, text: string): void {
  ctx.status = status;
  ctx.type = 'text/plain; charset=utf-8';
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.body = text;
}

const queryList = (v: string | string[] | undefined): string[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/** Serve `/<endpoint>` and `/<endpoint>/<check>` for each endpoint's checks. */
export function installHealthRoutes(router: Router<ApiState>, endpoints: Record<string, readonly HealthCheck[]>): void {
  for (const [endpoint, checks] of Object.entries(endpoints)) {
    router.get([`/${endpoint}`, `/${endpoint}/`], async (ctx) => {
      const excluded = new Set(
        queryList(ctx.query.exclude)
          .map((n) => n.trim())
          .filter(Boolean),
      );
      const verbose = ctx.query.verbose !== undefined;
      const results = await Promise.all(
        checks.map(async (c) => {
          if (excluded.has(c.name)) return { name: c.name, line: `[+]${c.name} excluded: ok`, failed: false };
          try {
            await c.run();
            return { name: c.name, line: `[+]${c.name} ok`, failed: false };
          } catch {
            return { name: c.name, line: `[-]${c.name} failed: reason withheld`, failed: true };
          }
        }),
      );
      for (const c of checks) excluded.delete(c.name);
      const lines = results.map((r) => r.line);
      if (excluded.size)
        lines.push(
          `warn: some health checks cannot be excluded: no matches for ${[...excluded].map((n) => `"${n}"`).join(',')}`,
        );
      if (results.some((r) => r.failed)) return answer(ctx, 500, `${lines.join('\n')}\n${endpoint} check failed\n`);
      answer(ctx, 200, verbose ? `${lines.join('\n')}\n${endpoint} check passed\n` : 'ok');
    });
    for (const c of checks) {
      router.get(`/${endpoint}/${c.name}`, async (ctx) => {
        try {
          await c.run();
          answer(ctx, 200, 'ok');
        } catch (err) {
          answer(ctx, 500, `internal server error: ${errorMessage(err)}\n`);
        }
      });
    }
  }
}

/** Resolve `p` or throw `timed out after <ms>ms`. */
export async function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      p,
      new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`timed out after ${ms}ms`)), ms))),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
