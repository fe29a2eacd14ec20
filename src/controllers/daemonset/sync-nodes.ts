/**
 * Creating and deleting a DaemonSet's pods (upstream 1.33 pkg/controller/daemon/
 * daemon_controller.go syncNodes, with RealPodControl's writes): the expectations are recorded
 * first; each new pod is the template with the revision labels and daemon tolerations, pinned
 * to its node by a required node affinity on `metadata.name` (the scheduler binds it).
 */
import { ApiError } from '../../errors/api-error.js';
import type { DaemonSet } from '../../resources/daemonsets/daemonsets.schema.js';
import { podFromTemplate, slowStartBatch, SLOW_START_INITIAL_BATCH_SIZE } from '../replicaset/pod-template.js';
import { namespaceTerminating } from '../replicaset/sync.js';
import type { PodTemplate } from '../replicaset/workload.js';
import { createPodTemplate, replaceDaemonSetPodNodeNameNodeAffinity, templateGeneration } from './daemonset-util.js';
import { daemonSetRef } from './pods.js';
import type { SyncDeps } from './types.js';

/** Upstream BurstReplicas: at most this many pods are created, and as many deleted, per sync. */
export const BURST_REPLICAS = 250;

/**
 * Upstream syncNodes: delete `podsToDelete` and create a pod for each of `nodesNeeding` (at
 * most burstReplicas of each; creations in slow-start batches), recording the expectations
 * first. Throws the first error (several: one Error listing them).
 */
export async function syncNodes(
  ds: DaemonSet,
  podsToDelete: readonly string[],
  nodesNeeding: readonly string[],
  hash: string,
  deps: SyncDeps,
): Promise<void> {
  const { client } = deps;
  const key = `${ds.metadata.namespace ?? ''}/${ds.metadata.name ?? ''}`;
  const ns = ds.metadata.namespace ?? '';
  const burst = deps.burstReplicas ?? BURST_REPLICAS;
  const createDiff = Math.min(nodesNeeding.length, burst);
  const victims = podsToDelete.slice(0, burst);
  deps.creations.expectCreations(key, createDiff);
  deps.deletions.expectDeletions(
    key,
    victims.map((n) => `${ns}/${n}`),
  );
  const errors: unknown[] = [];
  const template = createPodTemplate(ds.spec?.template ?? undefined, templateGeneration(ds), hash);
  let next = 0;
  const { successes, error } = await slowStartBatch(createDiff, SLOW_START_INITIAL_BATCH_SIZE, async () => {
    const node = nodesNeeding[next++];
    const pod = podFromTemplate(template as PodTemplate, ns, ds.metadata.name ?? '', daemonSetRef(ds));
    pod.spec = {
      ...(pod.spec ?? { containers: [] }),
      affinity: replaceDaemonSetPodNodeNameNodeAffinity(pod.spec?.affinity, node),
    };
    await client.createPod(ns, pod, ds).catch((err) => {
      if (!namespaceTerminating(err)) throw err;
    });
  });
  // Failed and never attempted creations will not be observed.
  for (let i = successes; i < createDiff; i++) deps.creations.creationObserved(key);
  if (error !== undefined) errors.push(error);
  const results = await Promise.allSettled(
    victims.map((name) =>
      client.deletePod(ns, name, ds).catch((err) => {
        deps.deletions.deletionObserved(key, `${ns}/${name}`);
        if (!(err instanceof ApiError && err.code === 404)) throw err;
      }),
    ),
  );
  for (const r of results) if (r.status === 'rejected') errors.push(r.reason);
  if (errors.length === 1) throw errors[0];
  if (errors.length) throw new Error(`[${errors.map((e) => (e instanceof Error ? e.message : String(e))).join(', ')}]`);
}
