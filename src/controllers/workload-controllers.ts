/**
 * The workload controllers, the scheduler and the simulated nodes (issue 33), as the leader
 * runs them. Upstream's kube-controller-manager runs its controllers by default (`*`); here `*`
 * includes the workload controllers only with `--simulated-nodes` (a server that answers like a
 * whole cluster), so a server without nodes changes nothing else, and
 * `--controllers=*,replicaset,...` adds them anyway. The certificate controllers also run in
 * `*` when a signing CA is configured (`--cluster-signing-*`). The scheduler follows
 * `--scheduler`: auto runs it, standing down while a real kube-scheduler holds its Lease
 * (other-scheduler.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { Authorizer } from '../authorization/types.js';
import { controllerEnabled } from '../config/controllers.js';
import { defined } from '../config/controller-manager-flags.js';
import type { ServerConfig } from '../config/types.js';
import type { ResourceRegistry } from '../registry/resource-registry.js';
import { leases } from '../resources/leases/leases.resource.js';
import { CsrApprovingController, CSR_APPROVING_CONTROLLER } from './certificates/approver/controller.js';
import { CsrCleanerController, CSR_CLEANER_CONTROLLER } from './certificates/cleaner/cleaner.js';
import { RootCaCertPublisher } from './certificates/rootcacertpublisher/publisher.js';
import { serverCaSigningFiles } from './certificates/signer/ca-provider.js';
import { CsrSigningController, CSR_SIGNING_CONTROLLER } from './certificates/signer/controller.js';
import { CronJobController } from './cronjob/controller.js';
import { DaemonSetController } from './daemonset/controller.js';
import { DeploymentController, DEPLOYMENT_CONTROLLER } from './deployment/deployment-controller.js';
import { DisruptionController } from './disruption/disruption-controller.js';
import { DISRUPTION_CONTROLLER } from './disruption/types.js';
import { EndpointsController } from './endpoints/controller.js';
import { EndpointSliceController } from './endpointslice/controller.js';
import { JobController } from './job/controller.js';
import { NodeLifecycleController, NODE_LIFECYCLE_CONTROLLER } from './nodelifecycle/controller.js';
import { HorizontalController } from './podautoscaler/controller.js';
import { HPA_CONTROLLER } from './podautoscaler/types.js';
import { ReplicaSetController, ReplicationManager } from './replicaset/controller.js';
import { otherSchedulerActive } from './scheduler/other-scheduler.js';
import { Scheduler } from './scheduler/scheduler.js';
import { loadSimulatedNodesConfig } from './simulated-nodes/config-file.js';
import { SimulatedNodesController } from './simulated-nodes/simulated-nodes-controller.js';
import { StatefulSetController } from './statefulset/controller.js';
import { TaintEvictionController, TAINT_EVICTION_CONTROLLER } from './tainteviction/controller.js';
import { TtlAfterFinishedController } from './ttl-after-finished/controller.js';
import { TtlController, TTL_CONTROLLER } from './ttl/controller.js';
import { PersistentVolumeBinder, PV_BINDER_CONTROLLER } from './volume/pv-binder/controller.js';
import {
  PvcProtectionController,
  PvProtectionController,
  PVC_PROTECTION_CONTROLLER,
  PV_PROTECTION_CONTROLLER,
} from './volume/protection.js';
import { ensureDefaultStorageClass, SimulatedProvisioner } from './volume/simulated-provisioner.js';
import { EphemeralVolumeController, EPHEMERAL_VOLUME_CONTROLLER } from './volume/ephemeral-volume.js';

/** A leader's controller. */
export interface Controller {
  start(): void;
  stop(): void;
}

/** What some controllers need beside the registry: the server's authorizer and metrics registry. */
export interface ControllerServices {
  readonly authorizer?: Authorizer;
  readonly metricsRegistry?: Registry;
}

type Make = (r: ResourceRegistry, l: Logger, config: ServerConfig, services: ControllerServices) => Controller | null;

const manager = (config: ServerConfig) => config.controllerManager;

/** Each workload controller by its upstream `--controllers` name. */
const WORKLOAD_CONTROLLERS: readonly [name: string, make: Make][] = [
  ['replicaset', (r, l) => new ReplicaSetController(r, l)],
  ['replicationcontroller', (r, l) => new ReplicationManager(r, l)],
  [DEPLOYMENT_CONTROLLER, (r, l) => new DeploymentController(r, l)],
  ['statefulset', (r, l) => new StatefulSetController(r, l)],
  ['daemonset', (r, l) => new DaemonSetController(r, l)],
  [DISRUPTION_CONTROLLER, (r, l) => new DisruptionController(r, l)],
  ['job', (r, l) => new JobController(r, l)],
  ['ttl-after-finished', (r, l) => new TtlAfterFinishedController(r, l)],
  ['cronjob', (r, l) => new CronJobController(r, l)],
  ['endpoint', (r, l) => new EndpointsController(r, l)],
  ['endpointslice', (r, l) => new EndpointSliceController(r, l)],
  [
    HPA_CONTROLLER,
    (r, l, c, s) =>
      new HorizontalController(r, l, { ...defined(manager(c)?.hpa ?? {}), metricsRegistry: s.metricsRegistry }),
  ],
  [NODE_LIFECYCLE_CONTROLLER, (r, l, c) => new NodeLifecycleController(r, l, defined(manager(c)?.nodeLifecycle ?? {}))],
  [TAINT_EVICTION_CONTROLLER, (r, l) => new TaintEvictionController(r, l)],
  [TTL_CONTROLLER, (r, l) => new TtlController(r, l)],
  [PV_BINDER_CONTROLLER, (r, l) => new PersistentVolumeBinder(r, l)],
  [PVC_PROTECTION_CONTROLLER, (r, l) => new PvcProtectionController(r, l)],
  [PV_PROTECTION_CONTROLLER, (r, l) => new PvProtectionController(r, l)],
  [EPHEMERAL_VOLUME_CONTROLLER, (r, l) => new EphemeralVolumeController(r, l)],
];

/** The certificate controllers (on in `*` with simulated nodes or a configured signing CA). */
const CERTIFICATE_CONTROLLERS: readonly [name: string, make: Make][] = [
  [
    CSR_SIGNING_CONTROLLER,
    (r, l, c) => {
      const signing = manager(c)?.signing;
      return new CsrSigningController(r, l, {
        ...defined(signing ?? { signerFiles: {} }),
        defaultFiles: serverCaSigningFiles(c),
      });
    },
  ],
  [
    CSR_APPROVING_CONTROLLER,
    (r, l, _c, s) => (s.authorizer ? new CsrApprovingController(r, l, { authorizer: s.authorizer }) : null),
  ],
  [CSR_CLEANER_CONTROLLER, (r, l) => new CsrCleanerController(r, l)],
  [
    'root-ca-cert-publisher',
    (r, l, c) => {
      const rootCA = rootCaBundle(c);
      if (!rootCA) {
        l.info('no root CA bundle known (--tls-cert-file without --root-ca-file): kube-root-ca.crt is not published');
        return null;
      }
      return new RootCaCertPublisher(r, l, { rootCA });
    },
  ],
];

/** `--root-ca-file`'s bundle, else the CA the server generated in its cert dir, if any. */
function rootCaBundle(config: ServerConfig): string | undefined {
  const file = manager(config)?.rootCaFile ?? (config.tlsCertFile ? undefined : join(config.certDir, 'ca.crt'));
  return file && existsSync(file) ? readFileSync(file, 'utf8') : undefined;
}

/**
 * Whether both volume protection controllers run (then StorageObjectInUseProtection admission
 * adds their finalizers; never one without the other).
 */
export function storageProtectionRuns(config: ServerConfig): boolean {
  const whole = (config.simulatedNodes ?? 0) > 0;
  return [PVC_PROTECTION_CONTROLLER, PV_PROTECTION_CONTROLLER].every((name) =>
    controllerEnabled(config.controllers, name, whole),
  );
}

/** True when a signing CA was configured by flag. */
function signingConfigured(config: ServerConfig): boolean {
  const signing = manager(config)?.signing;
  return Boolean(signing?.clusterSigningCertFile || Object.keys(signing?.signerFiles ?? {}).length);
}

/**
 * The workload controllers `config` enables, the scheduler and the simulated nodes, not
 * started. Throws Error when `--simulated-nodes-config` cannot be read or is invalid.
 */
export function workloadControllers(
  registry: ResourceRegistry,
  logger: Logger,
  config: ServerConfig,
  services: ControllerServices = {},
): Controller[] {
  const whole = (config.simulatedNodes ?? 0) > 0;
  const make = (table: readonly [string, Make][], onByDefault: boolean): Controller[] =>
    table
      .filter(([name]) => controllerEnabled(config.controllers, name, onByDefault))
      .map(([name, build]) => build(registry, logger.child({ controller: name }), config, services))
      .filter((c): c is Controller => c !== null);
  const out = [
    ...make(WORKLOAD_CONTROLLERS, whole),
    ...make(CERTIFICATE_CONTROLLERS, whole || signingConfigured(config)),
  ];
  const volumeBinding = controllerEnabled(config.controllers, PV_BINDER_CONTROLLER, whole);
  if (config.scheduler === 'true') out.push(new Scheduler(registry, logger, { volumeBinding }));
  else if (config.scheduler !== 'false') {
    const leaseStore = registry.of(leases);
    out.push(new Scheduler(registry, logger, { volumeBinding, standDown: () => otherSchedulerActive(leaseStore) }));
  }
  if (whole) {
    const fromFile = config.controllerManager?.simulatedNodesConfig
      ? loadSimulatedNodesConfig(config.controllerManager.simulatedNodesConfig)
      : {};
    out.push(new SimulatedNodesController(registry, logger, { ...fromFile, count: config.simulatedNodes ?? 0 }));
    out.push(simulatedStorage(registry, logger.child({ controller: 'simulated-provisioner' })));
  }
  return out;
}

/** The simulated nodes' storage add-on: the default StorageClass `standard` and its provisioner (as kind's). */
function simulatedStorage(registry: ResourceRegistry, logger: Logger): Controller {
  const provisioner = new SimulatedProvisioner(registry, logger);
  return {
    start() {
      ensureDefaultStorageClass(registry).catch((err: Error) =>
        logger.warn({ err: err.message }, 'the default StorageClass could not be created'),
      );
      provisioner.start();
    },
    stop: () => provisioner.stop(),
  };
}
