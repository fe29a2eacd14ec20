/**
 * The deployment controller's writes through the registry, as the controller's service account
 * (upstream's deployment-controller client, field manager kube-controller-manager), and its
 * Events (core/v1, source `deployment-controller`, as upstream's event recorder).
 * Deployment status, with the revision annotation, goes through the `status` subresource,
 * which leaves `generation` alone.
 */
import type { Logger } from 'pino';
import type { WriterInfo } from '../../registry/access.js';
import { deleteObject } from '../../registry/deletion.js';
import type { ResourceRegistry } from '../../registry/resource-registry.js';
import { deployments } from '../../resources/deployments/deployments.resource.js';
import { events } from '../../resources/events/events.resource.js';
import { replicaSets } from '../../resources/replicasets/replicasets.resource.js';
import type { GenericStore } from '../../registry/generic-store.js';
import { CONTROLLER_FIELD_MANAGER, controllerUser } from '../controller-user.js';
import { legacyEvent, recordLegacyEvent, type LegacyEvent } from '../events.js';
import type { Deployment, DeploymentClient } from './types.js';

/** The controller's user (upstream's service account credentials of kube-controller-manager). */
export const DEPLOYMENT_CONTROLLER_USER: WriterInfo = controllerUser('deployment-controller');

const WRITE = { user: DEPLOYMENT_CONTROLLER_USER, fieldManager: CONTROLLER_FIELD_MANAGER } as const;

/** A DeploymentClient over `registry`; Events that cannot be written are logged and dropped. */
export function registryClient(registry: ResourceRegistry, logger: Logger): DeploymentClient {
  const rsStore = () => registry.of(replicaSets);
  const dStore = () => registry.of(deployments);
  const ns = (o: { metadata: { namespace?: string | null } }) => o.metadata.namespace ?? '';
  return {
    createReplicaSet: (rs) => rsStore().create(ns(rs), rs, WRITE),
    updateReplicaSet: (rs) => rsStore().update(ns(rs), rs.metadata.name ?? '', () => rs, undefined, WRITE),
    async deleteReplicaSet(namespace, name) {
      await deleteObject(rsStore(), namespace, name, { propagationPolicy: 'Background', user: WRITE.user });
    },
    getReplicaSet: (namespace, name) => rsStore().get(namespace, name),
    updateDeployment: (d) => dStore().update(ns(d), d.metadata.name ?? '', () => d, undefined, WRITE),
    // deployments/status takes the request's annotations (the revision) as upstream's does.
    updateDeploymentStatus(d) {
      const store = dStore();
      const status = store.def.subresources.find((s) => s.name === 'status');
      return store.update(ns(d), d.metadata.name ?? '', () => d, status, WRITE);
    },
    event(d, type, reason, message) {
      void writeEvent(registry, logger, d, { type, reason, message });
    },
  };
}

/** Record one Event about `d` (a new Event each time; upstream's recorder aggregates repeats). */
function writeEvent(registry: ResourceRegistry, logger: Logger, d: Deployment, event: LegacyEvent): Promise<void> {
  const ref = { apiVersion: 'apps/v1', kind: 'Deployment' };
  const extra = { reportingComponent: 'deployment-controller' };
  const obj = legacyEvent(d, ref, 'deployment-controller', event, new Date(), extra);
  return recordLegacyEvent(registry.of(events) as GenericStore, obj, DEPLOYMENT_CONTROLLER_USER, logger);
}
