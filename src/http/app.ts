/**
 * The Koa application: middleware in upstream's filter order (metrics/logs, Status errors,
 * request info, request deadline, authentication, audit, max-in-flight, authorization, body),
 * then system routes, discovery and the generic resource handler; a request whose client has
 * gone or whose deadline passed stops before the handler. Paths outside the API answer
 * plain-text `404 page not found`.
 */
import Router from '@koa/router';
import Koa from 'koa';
import bodyParser from 'koa-bodyparser';
import { http2Body } from './middleware/http2-body.js';
import { defaultContentType } from './middleware/default-content-type.js';
import type { Logger } from 'pino';
import type { Counter, Gauge, Registry } from 'prom-client';
import { codecFor } from '../api/protobuf/codec.js';
import type { ResourceRegistry } from '../registry/resource-registry.js';
import type { KvStore } from '../storage/kv/types.js';
import type { ApiContext, ApiState } from './context.js';
import { resourceHandler, resourceNotFound, resourceScope } from './handlers/resource-handler.js';
import { respond } from './handlers/respond.js';
import type { WatchSettings } from './handlers/watch.js';
import { authentication, type Authenticator } from './middleware/authentication.js';
import { authorization } from './middleware/authorization.js';
import { impersonation } from './middleware/impersonation.js';
import type { Authorizer } from '../authorization/types.js';
import type { AccessServices } from '../registry/access.js';
import { errorHandler } from './middleware/error-handler.js';
import { protobufBody } from './middleware/protobuf-body.js';
import { maxInFlight } from './middleware/max-in-flight.js';
import { priorityAndFairness, type PriorityAndFairnessDeps } from './middleware/priority-and-fairness.js';
import { dumpPriorityLevels } from '../flowcontrol/debug-dump.js';
import { observe, sharedLabels, trackLongRunning, type RequestMetrics } from './middleware/observe.js';
import { requestInfoMiddleware } from './middleware/request-info.js';
import { apiGroup, apiGroupList, apiResourceList, apiVersions, findGroup } from './routes/discovery.js';
import { installOpenApiRoutes } from './routes/openapi.js';
import { respondAggregated } from './routes/aggregated-discovery.js';
import { installSystemRoutes, type Lifecycle } from './routes/system.js';
import type { KubeVersion } from '../config/emulated-version.js';
import { installOidcRoutes, type IssuerDocuments } from './routes/oidc.js';
import { auditFailedRequest, withAudit, withFailedAuthenticationAudit, type Auditor } from './middleware/audit.js';
import { stopWhenAbandoned } from './middleware/client-gone.js';
import { requestDeadline } from './middleware/request-deadline.js';

export interface AppDeps {
  readonly registry: ResourceRegistry;
  readonly kv: KvStore;
  readonly authenticator: Authenticator;
  /** `--anonymous-auth`: requests without credentials are system:anonymous instead of 401. */
  readonly anonymousAuth?: boolean;
  /** Decides what each authenticated user may do (`--authorization-mode`). */
  readonly authorizer: Authorizer;
  /** The same decisions (and token checks) for the review kinds. */
  readonly access?: AccessServices;
  /** The service account issuer's OIDC documents. */
  readonly issuer?: IssuerDocuments;
  /** The audit policy and log (`--audit-policy-file`, `--audit-log-path`); absent = no auditing. */
  readonly audit?: Auditor;
  readonly logger: Logger;
  readonly metrics: RequestMetrics & {
    readonly registry: Registry;
    readonly inflight: Gauge<string>;
    readonly longrunning: Gauge<string>;
    readonly requestTerminations: Counter<string>;
  };
  /** The Kubernetes version /version and the OpenAPI documents report (`--emulated-version`). */
  readonly kubeVersion: KubeVersion;
  /** `shuttingDown` turns readyz's shutdown check red. */
  readonly lifecycle: Lifecycle;
  /** --max-requests-inflight / --max-mutating-requests-inflight (when priority and fairness is off). */
  readonly inFlightLimits: { readonly readOnly: number; readonly mutating: number };
  /** API Priority and Fairness (--enable-priority-and-fairness); absent: max-in-flight limits. */
  readonly flowControl?: Omit<PriorityAndFairnessDeps, 'inflight' | 'onReject'>;
  readonly watch: WatchSettings;
  /** host:port clients use to reach this server (serverAddressByClientCIDRs). */
  readonly advertisedHostPort: () => string;
}

/** Request bodies above this many bytes are 413 (upstream's 3 MiB limit). */
export const MAX_BODY_BYTES = 3 * 1024 * 1024;

export function createApp(deps: AppDeps): Koa<ApiState> {
  const app = new Koa<ApiState>();
  const codec = codecFor(deps.registry.definitions);
  app.proxy = false;
  app.silent = true;
  app.use((ctx: ApiContext, next) => {
    ctx.state.codec = codec;
    return next();
  });
  app.use(observe(deps.metrics, deps.logger));
  app.use(errorHandler(deps.logger));
  app.use(requestInfoMiddleware());
  // Upstream's request deadline (--request-timeout, `timeout`), outside authentication and audit.
  const { audit } = deps;
  app.use(
    requestDeadline({
      onTimeout: (ctx) => deps.metrics.requestTerminations.inc({ ...sharedLabels(ctx), code: '504' }),
      onInvalid: audit && ((ctx, err) => auditFailedRequest(audit, ctx, err)),
    }),
  );
  // Audit as upstream: 401s are audited by the failed-authentication hook, everything else
  // right after authentication, once the user is known.
  // Without an audit log, no audit layer runs at all.
  if (deps.audit) app.use(withFailedAuthenticationAudit(deps.audit));
  app.use(authentication(deps.authenticator, { anonymous: deps.anonymousAuth }));
  if (deps.audit) app.use(withAudit(deps.audit));
  // Upstream's order: audit sees the caller; impersonation then switches the user for the rest.
  app.use(impersonation(deps.authorizer));
  // Upstream installs priority and fairness in place of max-in-flight when it is enabled.
  const rejected = (ctx: ApiContext) => deps.metrics.requestTerminations.inc({ ...sharedLabels(ctx), code: '429' });
  app.use(
    deps.flowControl
      ? priorityAndFairness({ ...deps.flowControl, inflight: deps.metrics.inflight, onReject: rejected })
      : maxInFlight(deps.inFlightLimits, deps.metrics.inflight, rejected),
  );
  app.use(trackLongRunning(deps.metrics.longrunning));
  // A served kind addressed in a scope it is not served in is 404 before authorization.
  app.use(resourceScope(deps.registry));
  app.use(authorization(deps.authorizer));
  app.use(http2Body());
  app.use(defaultContentType());
  app.use(protobufBody(MAX_BODY_BYTES));
  app.use(
    bodyParser({
      enableTypes: ['text'],
      extendTypes: {
        text: ['application/json', 'application/*+json', 'application/yaml', 'application/apply-patch+yaml'],
      } as never,
      textLimit: `${MAX_BODY_BYTES}b`,
    }) as unknown as Koa.Middleware<ApiState>,
  );
  app.use(async (ctx: ApiContext, next) => {
    const body = (ctx.request as { body?: unknown }).body;
    ctx.state.rawBody = typeof body === 'string' ? body : '';
    await next();
  });
  app.use(stopWhenAbandoned());

  const router = new Router<ApiState>();
  installSystemRoutes(router, deps.kv, deps.metrics.registry, deps.lifecycle, deps.kubeVersion);
  installOpenApiRoutes(router, () => deps.registry.definitions, {
    title: 'ck-apiserver',
    version: `v${deps.kubeVersion.major}.${deps.kubeVersion.minor}.0`,
  });
  const flowControl = deps.flowControl?.flowControl;
  if (flowControl)
    router.get('/debug/api_priority_and_fairness/dump_priority_levels', (ctx) => {
      ctx.type = 'text/plain; charset=utf-8';
      ctx.body = dumpPriorityLevels(flowControl);
    });
  if (deps.issuer) installOidcRoutes(router, deps.issuer, () => `https://${deps.advertisedHostPort()}/openid/v1/jwks`);
  const versions = (ctx: ApiContext) => respond(ctx, 200, apiVersions(deps.advertisedHostPort()));
  router.get(['/api', '/api/'], (ctx) => respondAggregated(ctx, deps.registry.definitions, 'api') || versions(ctx));
  router.get(['/oapi', '/oapi/'], versions);
  router.get(['/api/v1', '/api/v1/'], (ctx) => respond(ctx, 200, apiResourceList(deps.registry.definitions, '', 'v1')));
  router.get(
    ['/apis', '/apis/'],
    (ctx) =>
      respondAggregated(ctx, deps.registry.definitions, 'apis') ||
      respond(ctx, 200, apiGroupList(deps.registry.definitions)),
  );
  router.get(['/apis/:group', '/apis/:group/'], (ctx) => {
    const group = findGroup(ctx.params.group, deps.registry.definitions);
    if (!group) throw resourceNotFound();
    respond(ctx, 200, apiGroup(group, deps.advertisedHostPort()));
  });
  router.get(['/apis/:group/:version', '/apis/:group/:version/'], (ctx) => {
    const group = findGroup(ctx.params.group, deps.registry.definitions);
    if (!group || !group.versions.includes(ctx.params.version)) throw resourceNotFound();
    respond(ctx, 200, apiResourceList(deps.registry.definitions, group.name, ctx.params.version));
  });
  // Every route is a non-resource path: a resource request skips matching them all.
  const routes = router.routes();
  app.use((ctx: ApiContext, next) => (ctx.state.requestInfo?.isResourceRequest ? next() : routes(ctx as never, next)));

  const resources = resourceHandler(deps.registry, deps.watch, deps.access);
  app.use(async (ctx: ApiContext) => {
    const info = ctx.state.requestInfo;
    if (info.isResourceRequest) return resources(ctx);
    if (info.apiPrefix) throw resourceNotFound();
    ctx.status = 404;
    ctx.type = 'text/plain';
    ctx.body = '404 page not found\n';
  });
  return app;
}
