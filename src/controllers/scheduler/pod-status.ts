/**
 * The status the scheduler writes for a pod that fits nowhere (upstream schedule_one.go
 * handleSchedulingFailure / updatePod with podutil.UpdatePodCondition): `PodScheduled=False`,
 * reason `Unschedulable`, the FitError message, through the pods/status subresource; the
 * transition time kept while the condition stays False; nothing written when nothing changes,
 * when the pod was replaced (another uid) or bound meanwhile, or is gone.
 */
import { rfc3339 } from '../../api/object.js';
import { ApiError } from '../../errors/api-error.js';
import type { WriterInfo } from '../../registry/access.js';
import type { ResourceRegistry } from '../../registry/resource-registry.js';
import { pods as podsResource } from '../../resources/pods/pods.resource.js';
import type { Pod } from '../../resources/pods/pods.schema.js';

/** Write the Unschedulable condition of `pod` as `user`. Throws ApiError other than 404 (the caller retries). */
export async function markUnschedulable(
  registry: ResourceRegistry,
  pod: Pod,
  message: string,
  user: WriterInfo,
): Promise<void> {
  const store = registry.of(podsResource);
  const status = store.def.subresources.find((s) => s.name === 'status');
  let unchanged = false;
  const skip = () => {
    unchanged = true;
    return new Error('unchanged');
  };
  try {
    await store.update(
      pod.metadata.namespace ?? '',
      pod.metadata.name ?? '',
      (cur) => {
        if (cur.metadata.uid !== pod.metadata.uid || cur.spec?.nodeName) throw skip();
        const conditions = cur.status?.conditions ?? [];
        const old = conditions.find((c) => c.type === 'PodScheduled');
        if (old?.status === 'False' && old.reason === 'Unschedulable' && old.message === message) throw skip();
        const condition = {
          type: 'PodScheduled',
          status: 'False',
          reason: 'Unschedulable',
          message,
          lastProbeTime: null,
          lastTransitionTime: old?.status === 'False' ? old.lastTransitionTime : rfc3339(),
        };
        const next = structuredClone(cur);
        next.status = {
          ...next.status,
          conditions: [...conditions.filter((c) => c.type !== 'PodScheduled'), condition],
        };
        return next;
      },
      status,
      { user },
    );
  } catch (err) {
    if (unchanged || (err instanceof ApiError && err.code === 404)) return;
    throw err;
  }
}
