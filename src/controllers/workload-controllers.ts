/**
 * The workload controllers, the scheduler and the simulated nodes (issue 33), as the leader
 * runs them. Upstream's kube-controller-manager runs its controllers by default (`*`); here `*`
 * includes the workload controllers only with `--simulated-nodes` (a server that answers like a
 * whole cluster), so a server without nodes changes nothing else, and
 * `--controllers=*,replicaset,...` adds them anyway. The scheduler follows `--scheduler`: auto
 * runs it, standing down while a real kube-scheduler holds its Lease (other-scheduler.ts).
 */
import type { Logger } from 'pino';
import { controllerEnabled } from '../config/controllers.js';
import type { ServerConfig } from '../config/types.js';
import type { ResourceRegistry } from '../registry/resource-registry.js';
import { leases } from '../resources/leases/leases.resource.js';
import { DeploymentController, DEPLOYMENT_CONTROLLER } from './deployment/deployment-controller.js';
import { EndpointsController } from './endpoints/controller.js';
import { EndpointSliceController } from './endpointslice/controller.js';
import { JobController } from './job/controller.js';
import { TtlAfterFinishedController } from './ttl-after-finished/controller.js';
import { CronJobController } from './cronjob/controller.js';
import { DaemonSetController } from './daemonset/controller.js';
import { DisruptionController } from './disruption/disruption-controller.js';
import { DISRUPTION_CONTROLLER } from './disruption/types.js';
import { ReplicaSetController, ReplicationManager } from './replicaset/controller.js';
import { otherSchedulerActive } from './scheduler/other-scheduler.js';
import { Scheduler } from './scheduler/scheduler.js';
import { SimulatedNodesController } from './simulated-nodes/simulated-nodes-controller.js';
import { StatefulSetController } from './statefulset/controller.js';

/** A leader's controller. */
export interface Controller {
  start(): void;
  stop(): void;
}

/** Each workload controller by its upstream `--controllers` name. */
const WORKLOAD_CONTROLLERS: readonly [name: string, make: (r: ResourceRegistry, l: Logger) => Controller][] = [
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
];

/** The workload controllers `config` enables, the scheduler and the simulated nodes, not started. */
export function workloadControllers(registry: ResourceRegistry, logger: Logger, config: ServerConfig): Controller[] {
  const whole = (config.simulatedNodes ?? 0) > 0;
  const out: Controller[] = WORKLOAD_CONTROLLERS.filter(([name]) =>
    controllerEnabled(config.controllers, name, whole),
  ).map(([name, make]) => make(registry, logger.child({ controller: name })));
  if (config.scheduler === 'true') out.push(new Scheduler(registry, logger));
  else if (config.scheduler !== 'false') {
    const leaseStore = registry.of(leases);
    out.push(new Scheduler(registry, logger, { standDown: () => otherSchedulerActive(leaseStore) }));
  }
  if (whole) out.push(new SimulatedNodesController(registry, logger, { count: config.simulatedNodes ?? 0 }));
  return out;
}
