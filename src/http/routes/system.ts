/**
 * Non-API routes: health (`/healthz`, `/livez`, `/readyz`, see health.ts), `/version` and
 * `/metrics`. Checks: `ping` and `log` everywhere; `etcd` (storage answers within 3 s) on
 * `/healthz` and `/readyz`; `shutdown` on `/readyz` (fails once the server is stopping).
 * Unlike upstream, `/livez` has no `etcd` check: a storage outage takes replicas out of
 * rotation (`/readyz`) without an orchestrator restarting them, which would not help.
 */
import type Router from '@koa/router';
import type { Registry } from 'prom-client';
import { buildInfo } from '../../build-info.js';
import type { KvStore } from '../../storage/kv/types.js';
import type { ApiState } from '../context.js';
import { installHealthRoutes, withTimeout, type HealthCheck } from './health.js';

/**
 * What `/version` answers (upstream version.Info): minor 10 picks kubectl's dispatcher target;
 * gitVersion, gitCommit, gitTreeState and buildDate come from this build (src/build-info.ts).
 */
export function versionInfo(): Record<string, string> {
  const build = buildInfo();
  return {
    major: '1',
    minor: '10',
    gitVersion: `v1.10.0+ck-apiserver-${build.version}`,
    gitCommit: build.gitCommit,
    gitTreeState: build.gitTreeState,
    buildDate: build.buildDate,
    goVersion: `node${process.versions.node}`,
    compiler: 'tsc',
    platform: `${process.platform}/${process.arch === 'x64' ? 'amd64' : process.arch}`,
  };
}

/** Whether the server has begun to stop (readyz's `shutdown` check). */
export interface Lifecycle {
  shuttingDown: boolean;
}

export function installSystemRoutes(
  router: Router<ApiState>,
  kv: KvStore,
  registry: Registry,
  lifecycle: Lifecycle,
): void {
  const ping: HealthCheck = { name: 'ping', run: async () => {} };
  const log: HealthCheck = { name: 'log', run: async () => {} };
  const etcd: HealthCheck = { name: 'etcd', run: async () => void (await withTimeout(kv.currentRevision(), 3000)) };
  const shutdown: HealthCheck = {
    name: 'shutdown',
    run: async () => {
      if (lifecycle.shuttingDown) throw new Error('process is shutting down');
    },
  };
  installHealthRoutes(router, { healthz: [ping, log, etcd], livez: [ping, log], readyz: [ping, log, etcd, shutdown] });
  router.get('/version', (ctx) => {
    ctx.type = 'application/json';
    ctx.body = JSON.stringify(versionInfo(), null, 2);
  });
  router.get('/metrics', async (ctx) => {
    ctx.type = registry.contentType;
    ctx.body = await registry.metrics();
  });
}
