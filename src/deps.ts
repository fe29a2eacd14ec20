/**
 * Builds every long-lived service from the settings with plain constructors: key-value store,
 * object storage, resource registry, authenticator, logger, metrics, the Koa app and the
 * controllers. Tests build the same graph with their own settings.
 */
import type Koa from 'koa';
import type { Logger } from 'pino';
import { generateAdminToken, TokenAuthenticator, readTokenFile } from './auth/token-file.js';
import { installAdmission } from './admission/install.js';
import { registryServiceResolver } from './admission/webhooks/service-resolver.js';
import { createConversionMetrics } from './controllers/crd-conversion/metrics.js';
import { WebhookConfigSource } from './admission/webhooks/install.js';
import { ValidatingPolicySource } from './admission/policy/install.js';
import { buildAuthorizer, type BuiltAuthorizer } from './authorization/build.js';
import type { Authorizer } from './authorization/types.js';
import { accessServices } from './authorization/access.js';
import { ServiceAccountTokens } from './auth/service-account-tokens.js';
import { ServiceAccountAuthenticator, type ObjectLookup } from './auth/service-account-authenticator.js';
import { unionAuthenticator } from './auth/union.js';
import { audienceAgnostic, unionTokenAuthenticator } from './auth/audiences.js';
import { serviceAccountSigningKey } from './serving/service-account-key.js';
import { ApiError } from './errors/api-error.js';
import { readFile } from 'node:fs/promises';
import { ClusterRoleAggregator } from './authorization/rbac/aggregation-controller.js';
import { rbacStores } from './authorization/rbac/stores.js';
import type { ServerConfig } from './config/types.js';
import { ensureSystemNamespaces } from './controllers/bootstrap.js';
import { ApiServiceRegistration } from './controllers/apiservice-registration.js';
import { FlowcontrolBootstrap } from './controllers/flowcontrol-bootstrap.js';
import { Compactor } from './controllers/compactor.js';
import { GarbageCollector } from './controllers/garbage-collector.js';
import { PodGarbageCollector } from './controllers/pod-gc.js';
import { ResourceQuotaController } from './controllers/resource-quota-controller.js';
import { evaluatorsFor, type Evaluator } from './admission/quota/evaluators.js';
import { ServiceAccountController } from './controllers/service-account-controller.js';
import { LeaderElector } from './controllers/leader-election.js';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { NamespaceController } from './controllers/namespace-controller.js';
import { CustomResourceDefinitionController } from './controllers/crd-controller.js';
import { createApp } from './http/app.js';
import { buildAuditor, type AuditLog } from './audit/index.js';
import type { ApiState } from './http/context.js';
import { createLogger } from './observability/logger.js';
import { createMetrics } from './observability/metrics.js';
import { collectStorageMetrics, storageObserver } from './observability/storage-metrics.js';
import type { Lifecycle } from './http/routes/system.js';
import { instrumentKvStore } from './storage/kv/instrumented.js';
import { ResourceRegistry } from './registry/resource-registry.js';
import {
  storageProtectionRuns,
  workloadControllers,
  type ControllerServices,
} from './controllers/workload-controllers.js';
import { RESOURCE_TABLE } from './resources/table.js';
import { openKvStore } from './storage/kv/open.js';
import type { KvStore } from './storage/kv/types.js';
import { ObjectStore } from './storage/object-store.js';
import type { ObjectStorage } from './storage/types.js';
import { CachingStorage } from './storage/cacher/caching-storage.js';
import { cacherFor, cachersFor } from './registry/watch-caches.js';
import { buildFlowControl, type BuiltFlowControl } from './flowcontrol/build.js';

export interface Deps {
  readonly config: ServerConfig;
  readonly logger: Logger;
  readonly kv: KvStore;
  /** Object storage (through the watch caches when they are on). */
  readonly storage: ObjectStorage;
  /** The watch caches in front of storage (absent with --watch-cache=false); stopped before `kv` closes. */
  readonly watchCache?: CachingStorage;
  readonly registry: ResourceRegistry;
  readonly app: Koa<ApiState>;
  readonly authenticator: TokenAuthenticator;
  /** `--authorization-mode`'s authorizer (stopped with the server). */
  readonly authorization: BuiltAuthorizer;
  /** The admin token written into the kubeconfig, when one was generated or found. */
  readonly adminToken?: string;
  readonly compactor: Compactor;
  /** Runs the namespace, service-account, quota and garbage-collection controllers on one replica at a time. */
  readonly controllers: LeaderElector;
  /** `shuttingDown` is set when stop() begins (readyz's shutdown check). */
  readonly lifecycle: Lifecycle;
  /** Set by the server once it listens: host:port advertised in discovery. */
  advertisedHostPort: string;
  /** Serves, names and empties CustomResourceDefinitions; runs on every replica (as upstream's apiextensions controllers). */
  readonly customResources: CustomResourceDefinitionController;
  /** API Priority and Fairness (absent with --enable-priority-and-fairness=false): its config consumer runs on every replica. */
  readonly flowControl?: BuiltFlowControl;
  /** The admission webhook configurations, mirrored on every replica (started here, stopped with the server). */
  readonly webhooks: WebhookConfigSource;
  /** The ValidatingAdmissionPolicies and bindings, mirrored on every replica (started here, stopped with the server). */
  readonly policies: ValidatingPolicySource;
  /** The audit log (`--audit-log-path` with `--audit-policy-file`); closed last when the server stops. */
  readonly audit?: AuditLog;
}

/** Start the leader's controllers; returns how to stop them. */
function startControllers(
  registry: ResourceRegistry,
  evaluators: readonly Evaluator[],
  logger: Logger,
  config: ServerConfig,
  services: ControllerServices,
): () => void {
  const controllers: { start(): void; stop(): void }[] = [
    ...workloadControllers(registry, logger, config, services),
    new NamespaceController(registry, logger),
    new GarbageCollector(registry, logger),
    new PodGarbageCollector(registry, logger),
    new ServiceAccountController(registry, logger),
    new ResourceQuotaController(registry, evaluators, logger, undefined, evaluatorsFor),
    new ApiServiceRegistration(registry, logger),
    new FlowcontrolBootstrap(registry, logger),
  ];
  const rbac = rbacStores(registry);
  if (rbac) controllers.push(new ClusterRoleAggregator(rbac.clusterRoles, logger));
  for (const c of controllers) c.start();
  return () => {
    for (const c of controllers) c.stop();
  };
}

/** Build the service graph (storage is opened, system namespaces ensured). */
export async function buildDeps(config: ServerConfig, logger: Logger = createLogger(config.logLevel)): Promise<Deps> {
  if (config.storageBackend === 'etcd3')
    logger.info({ etcdServers: config.etcdServers, prefix: config.etcdPrefix }, 'using etcd');
  else if (config.storageBackend === 'embedded')
    logger.info(
      { dataDir: config.dataDir },
      'no --etcd-servers given: using the embedded store (one process; data persists under --data-dir)',
    );
  else logger.info('--storage-backend=memory: data is lost at exit');
  // First, as a bad audit policy or an unwritable audit log stops start-up (upstream ApplyTo).
  const audit = await buildAuditor(config, logger);
  const metrics = createMetrics();
  const etcdTls = { caFile: config.etcdCaFile, certFile: config.etcdCertFile, keyFile: config.etcdKeyFile };
  const kv = instrumentKvStore(
    await openKvStore({ backend: config.storageBackend, urls: config.etcdServers, dataDir: config.dataDir, etcdTls }),
    config.etcdPrefix,
    storageObserver(metrics),
  );
  const store = new ObjectStore(kv, config.etcdPrefix);
  // Upstream --watch-cache: reads and watches of each cached resource are served from memory.
  const watchCache =
    config.watchCache === false
      ? undefined
      : new CachingStorage(store, cachersFor(RESOURCE_TABLE, store, metrics.watch.observer));
  watchCache?.start();
  const storage = watchCache ?? store;
  // Custom resources served at run time get a watch cache of their own, as the table's.
  const registry = new ResourceRegistry(RESOURCE_TABLE, storage, {
    added: (def) => {
      const cacher = watchCache && cacherFor(def, store, metrics.watch.observer);
      if (cacher) watchCache.add(cacher);
    },
    removed: (def) => watchCache?.remove(def.storagePrefix),
  });
  const evaluators = evaluatorsFor(registry.all());
  const webhooks = new WebhookConfigSource(registry, logger);
  // Admission's CEL `authorizer` asks the authorizer built below (it needs the registry first).
  let authorizer: Authorizer | undefined;
  const policies = new ValidatingPolicySource(registry, logger);
  const admission = { ...config, storageProtection: storageProtectionRuns(config) };
  installAdmission(registry, storage, admission, evaluators, webhooks, () => authorizer, policies);
  webhooks.start();
  policies.start();
  // The first storage call: when storage is unusable (e.g. etcd refuses our TLS), let go of it.
  await ensureSystemNamespaces(registry).catch(async (err: unknown) => {
    webhooks.stop();
    policies.stop();
    await watchCache?.stop();
    await kv.close();
    throw err;
  });
  const authorization = await buildAuthorizer(config.authorizationModes, registry, logger);
  authorizer = authorization.authorizer;

  let authenticator: TokenAuthenticator;
  let adminToken: string | undefined;
  if (config.tokenAuthFile) {
    const entries = await readTokenFile(config.tokenAuthFile);
    authenticator = new TokenAuthenticator(entries);
    adminToken = entries.find((e) => e.user.groups.includes('system:masters'))?.token ?? entries[0]?.token;
  } else {
    const admin = generateAdminToken();
    authenticator = new TokenAuthenticator([admin]);
    adminToken = admin.token;
    logger.info('no --token-auth-file given: generated an admin token (see the written kubeconfig)');
  }

  // Service account tokens: signed here, accepted after the token file (upstream's order).
  const serviceAccountTokens = new ServiceAccountTokens({
    issuer: config.serviceAccountIssuer,
    audiences: config.apiAudiences,
    signingKeyPem: await serviceAccountSigningKey(config.serviceAccountSigningKeyFile, config.certDir, (why) =>
      logger.warn(
        `service account tokens are signed with a key kept in memory (${why}); give --service-account-signing-key-file so that tokens outlive this process and work on every replica`,
      ),
    ),
    verifyingKeyPems: await Promise.all(config.serviceAccountKeyFiles.map((f) => readFile(f, 'utf8'))),
  });
  const lookup: ObjectLookup = async (resource, namespace, name) => {
    try {
      return await registry.core(resource).get(namespace, name, '0');
    } catch (err) {
      if (err instanceof ApiError && err.code === 404) return null;
      throw err;
    }
  };
  const serviceAccountAuthenticator = new ServiceAccountAuthenticator(serviceAccountTokens, lookup);
  const requestAuthenticator = unionAuthenticator([authenticator, serviceAccountAuthenticator]);
  // TokenReview asks the same authenticators for named audiences; the token file knows none.
  const tokenReviewer = unionTokenAuthenticator([
    audienceAgnostic(config.apiAudiences, authenticator),
    serviceAccountAuthenticator,
  ]);

  collectStorageMetrics(
    metrics,
    kv,
    registry
      .all()
      .filter((s) => s.def.verbs.includes('get')) // not kinds that are never stored (Binding)
      .map((s) => ({
        resource: s.def.group ? `${s.def.plural}.${s.def.group}` : s.def.plural,
        keyPrefix: storage.fullKey(s.keyPrefix('')),
      })),
  );
  const lifecycle: Lifecycle = { shuttingDown: false };
  const inFlightLimits = { readOnly: config.maxRequestsInflight, mutating: config.maxMutatingRequestsInflight };
  const flowControl =
    config.enablePriorityAndFairness === false
      ? undefined
      : buildFlowControl(inFlightLimits, registry, storage, watchCache?.cachers ?? [], metrics.registry, logger);
  const deps: Deps = {
    config,
    logger,
    kv,
    storage,
    watchCache,
    registry,
    authenticator,
    authorization,
    adminToken,
    compactor: new Compactor(kv, logger, config.etcdCompactionIntervalSeconds),
    controllers: new LeaderElector(
      kv,
      storage.fullKey('ck-apiserver/controller-leader'),
      `${hostname()}_${randomUUID()}`,
      () =>
        startControllers(registry, evaluators, logger, config, {
          authorizer: authorization.authorizer,
          metricsRegistry: metrics.registry,
        }),
      logger,
    ),
    advertisedHostPort: `${config.advertiseAddress}:${config.securePort}`,
    lifecycle,
    audit,
    flowControl,
    customResources: new CustomResourceDefinitionController(registry, logger, undefined, {
      resolve: registryServiceResolver(registry),
      metrics: createConversionMetrics(metrics.registry),
    }),
    webhooks,
    policies,
    app: undefined as unknown as Koa<ApiState>,
  };
  const app = createApp({
    registry,
    kv,
    authenticator: requestAuthenticator,
    anonymousAuth: config.anonymousAuth,
    authorizer: authorization.authorizer,
    access: accessServices(authorization.authorizer, authorization.rbac, tokenReviewer, serviceAccountTokens),
    issuer: serviceAccountTokens,
    audit,
    logger,
    metrics,
    lifecycle,
    kubeVersion: config.emulatedVersion,
    inFlightLimits,
    flowControl: flowControl && {
      flowControl: flowControl.flowControl,
      metrics: flowControl.metrics,
      sources: flowControl.sources,
    },
    watch: {
      minRequestTimeoutSeconds: config.minRequestTimeoutSeconds,
      onWatchCount: (delta, store) => {
        metrics.registeredWatchers.inc(
          { group: store.def.group, version: store.def.version, kind: store.def.kind },
          delta,
        );
        flowControl?.watchCount(delta, store);
      },
      watchEventRecorder: (t) =>
        metrics.watch.eventRecorder({ group: t.store.def.group, version: t.store.def.version, kind: t.store.def.kind }),
    },
    advertisedHostPort: () => deps.advertisedHostPort,
  });
  return Object.assign(deps, { app });
}
