/**
 * Non-API routes: health (`/healthz`, `/livez`, `/readyz`), `/version` and `/metrics`.
 * `/readyz` reports not ready while storage cannot be read.
 */
import type Router from '@koa/router';
import type { Registry } from 'prom-client';
import type { KvStore } from '../../storage/kv/types.js';

/** What `/version` answers (upstream version.Info). The minor version picks kubectl's dispatcher target. */
export const VERSION_INFO = {
  major: '1',
  minor: '10',
  gitVersion: 'v1.10.0+ck-apiserver-0.1.0',
  gitCommit: 'unknown',
  gitTreeState: 'clean',
  buildDate: '2026-11-22T00:00:00Z',
  goVersion: `node${process.versions.node}`,
  compiler: 'tsc',
  platform: `${process.platform}/${process.arch === 'x64' ? 'amd64' : process.arch}`,
};

export function installSystemRoutes(router: Router, kv: KvStore, registry: Registry): void {
  const ok = (ctx: { type: string; body: unknown }) => {
    ctx.type = 'text/plain';
    ctx.body = 'ok';
  };
  router.get(['/healthz', '/livez'], ok);
  router.get('/readyz', async (ctx) => {
    try {
      await withTimeout(kv.currentRevision(), 3000);
      ok(ctx);
    } catch (err) {
      ctx.status = 500;
      ctx.type = 'text/plain';
      ctx.body = `[-]etcd failed: ${(err as Error).message}\nreadyz check failed`;
    }
  });
  router.get('/version', (ctx) => {
    ctx.type = 'application/json';
    ctx.body = JSON.stringify(VERSION_INFO, null, 2);
  });
  router.get('/metrics', async (ctx) => {
    ctx.type = registry.contentType;
    ctx.body = await registry.metrics();
  });
}

async function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([p, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('timed out')), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}
