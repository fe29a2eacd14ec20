/**
 * The VolumeBinding plugin's PreFilter and Filter (upstream pkg/scheduler/framework/plugins/
 * volumebinding volume_binding.go and binder.go GetPodVolumeClaims, FindPodVolumes,
 * findMatchingVolumes, checkVolumeProvisions; 1.33). A pod's claims (persistentVolumeClaim
 * volumes, and `<pod>-<volume>` for ephemeral ones) must exist and not be being deleted; a claim
 * not yet bound whose class binds Immediately makes the pod wait for the PV controller. On each
 * node: bound claims' volumes must exist and accept the node (node affinity); a
 * WaitForFirstConsumer claim needs an Available volume the node reaches, or a class that can
 * provision there (a provisioner other than kubernetes.io/no-provisioner, allowedTopologies
 * matching the node); a claim whose provisioning already chose a node fits that node only.
 * Storage capacity (CSIStorageCapacity) is not tracked: provisioning never runs out of space.
 */
import type { Node } from '../../resources/nodes/nodes.schema.js';
import type { PersistentVolumeClaim } from '../../resources/persistentvolumeclaims/persistentvolumeclaims.schema.js';
import type { PersistentVolume } from '../../resources/persistentvolumes/persistentvolumes.schema.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import type { StorageClass } from '../../resources/storageclasses/storageclasses.schema.js';
import {
  ANN_BIND_COMPLETED,
  ANN_SELECTED_NODE,
  NO_PROVISIONER,
  claimClass,
  compareClaimRequests,
  findMatchingVolume,
  hasAnnotation,
  isDelayBindingMode,
  volumeClass,
  volumeNodeAffinityMatches,
} from '../volume/volume-util.js';
import {
  refuse,
  termMatches,
  type ClusterView,
  type FilterPlugin,
  type FilterStatus,
  type NodeInfo,
  type VolumeListers,
} from './framework.js';

export const PLUGIN = 'VolumeBinding';
/** Upstream's filter reasons. */
export const REASONS = {
  bindConflict: "node(s) didn't find available persistent volumes to bind",
  nodeConflict: 'node(s) had volume node affinity conflict',
  pvNotExist: 'node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)',
  immediate: 'pod has unbound immediate PersistentVolumeClaims',
};

/** A pod's claims by kind (upstream PodVolumeClaims). */
export interface PodVolumeClaims {
  readonly bound: PersistentVolumeClaim[];
  readonly delayed: PersistentVolumeClaim[];
  readonly immediate: PersistentVolumeClaim[];
}

/** The claim names of a pod's volumes (persistentVolumeClaim, and ephemeral as `<pod>-<volume>`). */
export function podClaimNames(pod: Pod): { name: string; ephemeral: boolean }[] {
  const out: { name: string; ephemeral: boolean }[] = [];
  for (const v of pod.spec?.volumes ?? []) {
    if (v.persistentVolumeClaim) out.push({ name: v.persistentVolumeClaim.claimName, ephemeral: false });
    else if (v.ephemeral) out.push({ name: `${pod.metadata.name}-${v.name}`, ephemeral: true });
  }
  return out;
}

/** Whether the claim is bound and the PV controller finished (upstream isPVCFullyBound). */
export const isFullyBound = (pvc: PersistentVolumeClaim): boolean =>
  !!pvc.spec?.volumeName && hasAnnotation(pvc, ANN_BIND_COMPLETED);

/**
 * The pod's claims sorted by state, or the message refusing the pod (upstream podHasPVCs and
 * GetPodVolumeClaims): a missing claim, one being deleted, an ephemeral claim the pod does not own.
 */
export function podVolumeClaims(pod: Pod, listers: VolumeListers): PodVolumeClaims | string {
  const ns = pod.metadata.namespace ?? '';
  const result: PodVolumeClaims = { bound: [], delayed: [], immediate: [] };
  for (const { name, ephemeral } of podClaimNames(pod)) {
    const pvc = listers.claim(ns, name);
    if (!pvc) return `persistentvolumeclaim "${name}" not found`;
    if (pvc.metadata.deletionTimestamp) return `persistentvolumeclaim "${name}" is being deleted`;
    if (ephemeral && !(pvc.metadata.ownerReferences ?? []).some((r) => r.controller && r.uid === pod.metadata.uid))
      return `PVC ${ns}/${name} was not created for pod ${ns}/${pod.metadata.name} (pod is not owner)`;
    if (isFullyBound(pvc)) result.bound.push(pvc);
    else if (isDelayBindingMode(pvc, (n) => listers.storageClass(n))) result.delayed.push(pvc);
    else result.immediate.push(pvc);
  }
  return result;
}

/** What a node offers the pod's claims (upstream FindPodVolumes). */
export interface PodVolumes {
  /** Filter reasons; empty when the node fits. */
  readonly reasons: string[];
  /** Static bindings: an Available volume chosen for a delayed claim. */
  readonly bindings: { pv: PersistentVolume; pvc: PersistentVolumeClaim }[];
  /** Delayed claims to provision on this node. */
  readonly provisions: PersistentVolumeClaim[];
}

/** Whether the node matches a class's allowedTopologies (upstream MatchTopologySelectorTerms; none: every node). */
function allowedOn(cls: StorageClass, node: Node): boolean {
  const terms = cls.allowedTopologies ?? [];
  if (!terms.length) return true;
  return terms.some((t) =>
    termMatches(
      {
        matchExpressions: (t.matchLabelExpressions ?? []).map((e) => ({
          key: e.key ?? '',
          operator: 'In' as const,
          values: e.values ?? [],
        })),
      },
      node,
    ),
  );
}

/** Upstream FindPodVolumes for one node; `claims` from {@link podVolumeClaims}. */
export function findPodVolumes(claims: PodVolumeClaims, node: Node, listers: VolumeListers): PodVolumes {
  const reasons = new Set<string>();
  const bindings: PodVolumes['bindings'] = [];
  const provisions: PersistentVolumeClaim[] = [];
  for (const pvc of claims.bound) {
    const pv = listers.volume(pvc.spec?.volumeName ?? '');
    if (!pv) reasons.add(REASONS.pvNotExist);
    else if (!volumeNodeAffinityMatches(pv, node)) reasons.add(REASONS.nodeConflict);
  }
  const toMatch: PersistentVolumeClaim[] = [];
  for (const pvc of claims.delayed) {
    const selected = pvc.metadata.annotations?.[ANN_SELECTED_NODE];
    if (selected === undefined) toMatch.push(pvc);
    else if (selected !== node.metadata.name)
      return { reasons: [...reasons, REASONS.bindConflict], bindings, provisions };
    else provisions.push(pvc);
  }
  const chosen = new Set<string>();
  const all = listers.volumes();
  for (const pvc of [...toMatch].sort(compareClaimRequests)) {
    const cls = claimClass(pvc);
    const pv = findMatchingVolume(
      pvc,
      all.filter((v) => volumeClass(v) === cls),
      node,
      chosen,
      true,
    );
    if (!pv) provisions.push(pvc);
    else {
      chosen.add(pv.metadata.name ?? '');
      bindings.push({ pv, pvc });
    }
  }
  for (const pvc of provisions) {
    const cls = listers.storageClass(claimClass(pvc));
    if (!cls) {
      reasons.add(`failed to find storage class "${claimClass(pvc)}"`);
      break;
    }
    if (!cls.provisioner || cls.provisioner === NO_PROVISIONER || !allowedOn(cls, node)) {
      reasons.add(REASONS.bindConflict);
      break;
    }
  }
  return { reasons: [...reasons], bindings, provisions };
}

/** The plugin as the framework runs it; `listers` absent (no volume informers): every pod passes. */
export const volumeBinding: FilterPlugin = {
  name: PLUGIN,
  preFilter(pod: Pod, cluster: ClusterView): string | null {
    if (!cluster.volumes || !podClaimNames(pod).length) return null;
    const claims = podVolumeClaims(pod, cluster.volumes);
    if (typeof claims === 'string') return claims;
    return claims.immediate.length ? REASONS.immediate : null;
  },
  prepare(pod: Pod, cluster: ClusterView) {
    const listers = cluster.volumes;
    if (!listers || !podClaimNames(pod).length) return () => null;
    const claims = podVolumeClaims(pod, listers);
    if (typeof claims === 'string') return () => null; // PreFilter refused it already
    return (info: NodeInfo): FilterStatus | null => {
      const { reasons } = findPodVolumes(claims, info.node, listers);
      return reasons.length ? refuse(PLUGIN, 'UnschedulableAndUnresolvable', ...reasons) : null;
    };
  },
};
