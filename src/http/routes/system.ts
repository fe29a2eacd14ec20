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
import type { KubeVersion } from '../../config/emulated-version.js';
import type { KvStore } from '../../storage/kv/types.js';
import type { ApiState } from '../context.js';
import { installHealthRoutes, withTimeout, type HealthCheck } from './health.js';

/**
 * What `/version` answers (upstream version.Info) for the reported Kubernetes version `kube`
 * (`--emulated-version`): major, minor and gitVersion (`v1.33.0+ck-apiserver-0.1.0`, which Helm
 * reads as the cluster's version) and, as upstream since 1.31, emulationMajor/emulationMinor and
 * (1.33) minCompatibilityMajor/minCompatibilityMinor (one minor below). Upstream's major/minor
 * stay those of its binary while the emulation fields follow the flag; this server has no other
 * binary version, so both follow it. gitCommit, gitTreeState and buildDate come from this build
 * (src/build-info.ts). kubectl's version dispatcher (google-cloud-sdk) picks its kubectl by
 * `minor`.
 */
export function versionInfo(kube: KubeVersion): Record<string, string> {
  const build = buildInfo();
  return {
    major: String(kube.major),
    minor: String(kube.minor),
    emulationMajor: String(kube.major),
    emulationMinor: String(kube.minor),
    minCompatibilityMajor: String(kube.major),
    minCompatibilityMinor: String(Math.max(0, kube.minor - 1)),
    gitVersion: `v${kube.major}.${kube.minor}.0+ck-apiserver-${build.version}`,
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
  kube: KubeVersion,
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
    ctx.body = JSON.stringify(versionInfo(kube), null, 2);
  });
  router.get('/metrics', async (ctx) => {
    ctx.type = registry.contentType;
    ctx.body = await registry.metrics();
  });
}
