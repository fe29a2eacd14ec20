/**
 * The deployment controller's writes through the registry, as the controller's service account
 * (upstream's deployment-controller client, field manager kube-controller-manager), and its
 * Events (core/v1, source `deployment-controller`, as upstream's event recorder).
 * Deployment status goes through the `status` subresource; our status subresource keeps the
 * stored annotations, where upstream's Deployment status strategy takes them from the request,
 * so a changed annotation (the revision) is written after it by a strategy-free update that,
 * like upstream's status write, leaves `generation` alone.
 */
import type { Logger } from 'pino';
import { errorMessage } from '../../api/error-message.js';
import type { WriterInfo } from '../../registry/access.js';
import { deleteObject } from '../../registry/deletion.js';
import type { ResourceRegistry } from '../../registry/resource-registry.js';
import { deployments } from '../../resources/deployments/deployments.resource.js';
import { events } from '../../resources/events/events.resource.js';
import { replicaSets } from '../../resources/replicasets/replicasets.resource.js';
import { metaTime, type Deployment, type DeploymentClient } from './types.js';

/** The controller's user (upstream's service account credentials of kube-controller-manager). */
export const DEPLOYMENT_CONTROLLER_USER: WriterInfo = Object.freeze({
  name: 'system:serviceaccount:kube-system:deployment-controller',
  uid: '',
  groups: Object.freeze(['system:serviceaccounts', 'system:serviceaccounts:kube-system', 'system:authenticated']),
});

const WRITE = { user: DEPLOYMENT_CONTROLLER_USER, fieldManager: 'kube-controller-manager' } as const;

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
      void writeEvent(registry, d, type, reason, message).catch((err) =>
        logger.debug({ err: errorMessage(err), reason }, 'deployment event not recorded'),
      );
    },
  };
}

/** Record one Event about `d` (a new Event each time; upstream's recorder aggregates repeats). */
async function writeEvent(registry: ResourceRegistry, d: Deployment, type: string, reason: string, message: string) {
  const now = new Date();
  const namespace = d.metadata.namespace ?? '';
  await registry.of(events).create(namespace, {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: {
      name: `${d.metadata.name}.${now.getTime().toString(16)}${Math.floor(Math.random() * 0xffff).toString(16)}`,
      namespace,
    },
    involvedObject: {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      name: d.metadata.name,
      namespace,
      uid: d.metadata.uid,
      resourceVersion: d.metadata.resourceVersion,
    },
    reason,
    message,
    type,
    source: { component: 'deployment-controller' },
    firstTimestamp: metaTime(now),
    lastTimestamp: metaTime(now),
    count: 1,
    reportingComponent: 'deployment-controller',
  });
}
