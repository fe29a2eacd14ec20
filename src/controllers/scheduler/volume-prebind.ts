/**
 * VolumeBinding's Reserve and PreBind (upstream volumebinding binder.go AssumePodVolumes,
 * BindPodVolumes, checkBindings, RevertAssumedPodVolumes): for the node chosen, each
 * WaitForFirstConsumer claim is either given a matching Available volume (the volume's claimRef
 * is set, as the PV controller would, and the controller completes the binding) or marked for
 * provisioning there (annotation `volume.kubernetes.io/selected-node`); both are assumed in the
 * cache at once, written before the pod is bound, and the pod is bound only once all its claims
 * are bound (checked every `pollMs`, at most `timeoutMs`: upstream 1 s and the 600 s bind timeout).
 */
import { errorMessage } from '../../api/error-message.js';
import { conflict } from '../../errors/api-error.js';
import type { GenericStore } from '../../registry/generic-store.js';
import type { ResourceRegistry } from '../../registry/resource-registry.js';
import type { WriterInfo } from '../../registry/access.js';
import type { Node } from '../../resources/nodes/nodes.schema.js';
import { persistentVolumeClaims } from '../../resources/persistentvolumeclaims/persistentvolumeclaims.resource.js';
import type { PersistentVolumeClaim } from '../../resources/persistentvolumeclaims/persistentvolumeclaims.schema.js';
import { persistentVolumes } from '../../resources/persistentvolumes/persistentvolumes.resource.js';
import type { PersistentVolume } from '../../resources/persistentvolumes/persistentvolumes.schema.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import { ANN_BOUND_BY_CONTROLLER, ANN_SELECTED_NODE, claimRefOf } from '../volume/volume-util.js';
import type { VolumeCache } from './volume-cache.js';
import { findPodVolumes, isFullyBound, podClaimNames, podVolumeClaims } from './volume-binding.js';

/** The writes one pod's volumes need on its node (upstream PodVolumes after AssumePodVolumes). */
export interface VolumePlan {
  readonly bindings: PersistentVolume[];
  readonly provisions: PersistentVolumeClaim[];
  /** Every claim of the pod (`namespace/name`), to wait for. */
  readonly claims: string[];
}

/**
 * Reserve: the volumes `pod` needs written for `node`, assumed in `cache` (undefined when the
 * pod has no claims, or all are bound).
 */
export function assumePodVolumes(pod: Pod, node: Node, cache: VolumeCache): VolumePlan | undefined {
  if (!podClaimNames(pod).length) return undefined;
  const claims = podVolumeClaims(pod, cache);
  if (typeof claims === 'string' || (!claims.delayed.length && !claims.immediate.length)) return undefined;
  const found = findPodVolumes(claims, node, cache);
  const bindings = found.bindings.map(({ pv, pvc }) => {
    const next = structuredClone(pv);
    next.spec = { ...next.spec, claimRef: claimRefOf(pvc) };
    next.metadata.annotations = { ...(next.metadata.annotations ?? {}), [ANN_BOUND_BY_CONTROLLER]: 'yes' };
    cache.assumeVolume(next);
    return next;
  });
  const provisions = found.provisions.map((pvc) => {
    const next = structuredClone(pvc);
    next.metadata.annotations = { ...(next.metadata.annotations ?? {}), [ANN_SELECTED_NODE]: node.metadata.name ?? '' };
    cache.assumeClaim(next);
    return next;
  });
  const ns = pod.metadata.namespace ?? '';
  return { bindings, provisions, claims: podClaimNames(pod).map((c) => `${ns}/${c.name}`) };
}

/** Undo the assumptions of a plan whose binding failed (upstream RevertAssumedPodVolumes). */
export function revertPodVolumes(plan: VolumePlan, cache: VolumeCache): void {
  for (const pv of plan.bindings) cache.restoreVolume(pv.metadata.name ?? '');
  for (const pvc of plan.provisions) cache.restoreClaim(pvc.metadata.namespace ?? '', pvc.metadata.name ?? '');
}

/** Options of {@link bindPodVolumes}. */
export interface PreBindOptions {
  readonly pollMs?: number;
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
}

/**
 * PreBind: write the plan as `user`, then wait until every claim of the pod is bound to a
 * volume that names it. Throws on a failed write, on timeout ("binding volumes: timed out
 * waiting for the condition", as upstream) or when aborted.
 */
export async function bindPodVolumes(
  registry: ResourceRegistry,
  cache: VolumeCache,
  plan: VolumePlan,
  user: WriterInfo,
  opts: PreBindOptions = {},
): Promise<void> {
  const write = { user, fieldManager: 'kube-scheduler' };
  const pvStore = registry.of(persistentVolumes) as GenericStore<PersistentVolume>;
  const pvcStore = registry.of(persistentVolumeClaims) as GenericStore<PersistentVolumeClaim>;
  try {
    for (const pv of plan.bindings)
      await pvStore.update(
        '',
        pv.metadata.name ?? '',
        (cur) => {
          const ref = cur.spec?.claimRef;
          const want = pv.spec?.claimRef;
          if (ref && (ref.name !== want?.name || ref.namespace !== want?.namespace))
            throw conflict(
              'persistentvolumes',
              pv.metadata.name ?? '',
              `the volume is bound to ${ref.namespace}/${ref.name}`,
            );
          const annotations = { ...(cur.metadata.annotations ?? {}), [ANN_BOUND_BY_CONTROLLER]: 'yes' };
          return { ...cur, metadata: { ...cur.metadata, annotations }, spec: { ...cur.spec, claimRef: want } };
        },
        undefined,
        write,
      );
    for (const pvc of plan.provisions)
      await pvcStore.update(
        pvc.metadata.namespace ?? '',
        pvc.metadata.name ?? '',
        (cur) => ({
          ...cur,
          metadata: {
            ...cur.metadata,
            annotations: {
              ...(cur.metadata.annotations ?? {}),
              [ANN_SELECTED_NODE]: pvc.metadata.annotations?.[ANN_SELECTED_NODE] ?? '',
            },
          },
        }),
        undefined,
        write,
      );
  } catch (err) {
    throw new Error(`binding volumes: ${errorMessage(err)}`, { cause: err });
  }
  const deadline = Date.now() + (opts.timeoutMs ?? 600_000);
  const bound = () =>
    plan.claims.every((key) => {
      const [ns, name] = key.split('/') as [string, string];
      const pvc = cache.claim(ns, name);
      if (!pvc || !isFullyBound(pvc)) return false;
      const pv = cache.volume(pvc.spec?.volumeName ?? '');
      return !!pv && pv.spec?.claimRef?.uid === pvc.metadata.uid;
    });
  while (!bound()) {
    if (opts.signal?.aborted) throw new Error('binding volumes: scheduler stopped');
    if (Date.now() >= deadline) throw new Error('binding volumes: timed out waiting for the condition');
    await new Promise((r) => setTimeout(r, opts.pollMs ?? 1000).unref());
  }
}
