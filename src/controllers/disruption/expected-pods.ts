/**
 * How many pods a PodDisruptionBudget expects and how many must stay healthy (upstream 1.33
 * pkg/controller/disruption/disruption.go: the finders getPodReplicationController,
 * getPodDeployment, getPodReplicaSet, getPodStatefulSet, getScaleController, verifyGroupKind,
 * getExpectedScale, getExpectedPodCount; apimachinery intstr.GetScaledValueFromIntOrPercent).
 *
 * - maxUnavailable (int or percent): expectedPods is the sum of the scales of the selected
 *   pods' controllers; desiredHealthy = expectedPods - maxUnavailable (a percent of
 *   expectedPods, rounded up), at least 0.
 * - minAvailable as an integer: desiredHealthy is that number, expectedPods the number of
 *   selected pods (no controller is looked up).
 * - minAvailable as a percent: expectedPods as for maxUnavailable, desiredHealthy that percent
 *   of it, rounded up.
 * - neither: both 0.
 *
 * A pod without a controllerRef is "unmanaged" (named in the answer, not an error); a pod whose
 * controller no finder knows fails the count with `found no controllers for pod "<name>"`.
 */
import type { OwnerReference } from '../../api/object.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import type { PodDisruptionBudget } from '../../resources/poddisruptionbudgets/poddisruptionbudgets.schema.js';
import { controllerOf } from '../replicaset/workload.js';
import type { DisruptionClient, ScaleAnswer } from './types.js';

/** A controller and its desired replicas (upstream controllerAndScale). */
export type ControllerScale = ScaleAnswer;

/** Maps a pod's controllerRef to its controller's scale; undefined when it is not this finder's kind or not found. */
export type PodControllerFinder = (
  client: DisruptionClient,
  ref: OwnerReference,
  namespace: string,
) => Promise<ControllerScale | undefined>;

/** The group of an apiVersion (`apps/v1` -> `apps`, `v1` -> ''); throws as ParseGroupVersion for `a/b/c`. */
export function groupOf(apiVersion: string): string {
  const parts = apiVersion.split('/');
  if (parts.length > 2) throw new Error(`unexpected GroupVersion string: ${apiVersion}`);
  return parts.length === 2 ? parts[0] : '';
}

/** Upstream verifyGroupKind: the ref is of `kind` in one of `groups`. */
export function verifyGroupKind(ref: OwnerReference, kind: string, groups: readonly string[]): boolean {
  const group = groupOf(ref.apiVersion ?? '');
  return ref.kind === kind && groups.includes(group);
}

const RS_GROUPS = ['apps', 'extensions'];

/** Upstream getPodReplicaSet: a ReplicaSet of the ref's uid that no Deployment controls. */
export const getPodReplicaSet: PodControllerFinder = async (client, ref, namespace) => {
  if (!verifyGroupKind(ref, 'ReplicaSet', RS_GROUPS)) return undefined;
  const rs = await client.getReplicaSet(namespace, ref.name ?? '');
  if (!rs || rs.metadata.uid !== ref.uid) return undefined;
  if (controllerOf(rs)?.kind === 'Deployment') return undefined;
  return { uid: rs.metadata.uid ?? '', scale: rs.spec?.replicas ?? 1 };
};

/** Upstream getPodDeployment: the Deployment controlling the ref's ReplicaSet. */
export const getPodDeployment: PodControllerFinder = async (client, ref, namespace) => {
  if (!verifyGroupKind(ref, 'ReplicaSet', RS_GROUPS)) return undefined;
  const rs = await client.getReplicaSet(namespace, ref.name ?? '');
  if (!rs || rs.metadata.uid !== ref.uid) return undefined;
  const owner = controllerOf(rs);
  if (!owner || !verifyGroupKind(owner, 'Deployment', RS_GROUPS)) return undefined;
  const d = await client.getDeployment(namespace, owner.name ?? '');
  if (!d || d.metadata.uid !== owner.uid) return undefined;
  return { uid: d.metadata.uid ?? '', scale: d.spec?.replicas ?? 1 };
};

/** Upstream getPodStatefulSet. */
export const getPodStatefulSet: PodControllerFinder = async (client, ref, namespace) => {
  if (!verifyGroupKind(ref, 'StatefulSet', ['apps'])) return undefined;
  const ss = await client.getStatefulSet(namespace, ref.name ?? '');
  if (!ss || ss.metadata.uid !== ref.uid) return undefined;
  return { uid: ss.metadata.uid ?? '', scale: ss.spec?.replicas ?? 1 };
};

/** Upstream getPodReplicationController. */
export const getPodReplicationController: PodControllerFinder = async (client, ref, namespace) => {
  if (!verifyGroupKind(ref, 'ReplicationController', [''])) return undefined;
  const rc = await client.getReplicationController(namespace, ref.name ?? '');
  if (!rc || rc.metadata.uid !== ref.uid) return undefined;
  return { uid: rc.metadata.uid ?? '', scale: rc.spec?.replicas ?? 1 };
};

/**
 * Upstream getScaleController: any other kind through its `/scale` subresource (custom
 * resources too). Throws when the kind is not served at the ref's version, or is served
 * without a Scale subresource.
 */
export const getScaleController: PodControllerFinder = async (client, ref, namespace) => {
  const scale = await client.getScale(ref.apiVersion ?? '', ref.kind ?? '', namespace, ref.name ?? '');
  if (!scale || scale.uid !== ref.uid) return undefined;
  return scale;
};

/** Upstream finders(), in its order. */
export const FINDERS: readonly PodControllerFinder[] = [
  getPodReplicationController,
  getPodDeployment,
  getPodReplicaSet,
  getPodStatefulSet,
  getScaleController,
];

/** What getExpectedScale answers. */
export interface ExpectedScale {
  readonly expectedCount: number;
  /** Names of the selected pods that have no controllerRef. */
  readonly unmanagedPods: readonly string[];
}

/** Upstream getExpectedScale: the sum of the scales of the pods' controllers (each counted once). */
export async function getExpectedScale(client: DisruptionClient, pods: readonly Pod[]): Promise<ExpectedScale> {
  const scales = new Map<string, number>();
  const unmanagedPods: string[] = [];
  for (const pod of pods) {
    const ref = controllerOf(pod);
    if (!ref) {
      unmanagedPods.push(pod.metadata.name ?? '');
      continue;
    }
    if (scales.has(ref.uid ?? '')) continue;
    let found: ControllerScale | undefined;
    for (const finder of FINDERS) {
      found = await finder(client, ref, pod.metadata.namespace ?? '');
      if (found) break;
    }
    if (!found) throw new Error(`found no controllers for pod ${JSON.stringify(pod.metadata.name ?? '')}`);
    scales.set(found.uid, found.scale);
  }
  let expectedCount = 0;
  for (const n of scales.values()) expectedCount += n;
  return { expectedCount, unmanagedPods };
}

/**
 * intstr.GetScaledValueFromIntOrPercent(value, total, roundUp=true): an integer as it is, a
 * percent string `N%` as ceil(N * total / 100). Throws for any other string, as upstream.
 */
export function scaledValueRoundUp(value: number | string, total: number): number {
  if (typeof value === 'number') return value;
  if (!value.endsWith('%')) throw new Error(`invalid type: string is not a percentage`);
  const digits = value.slice(0, -1);
  if (!/^[+-]?\d+$/.test(digits))
    throw new Error(`invalid value for IntOrString: invalid value ${JSON.stringify(value)}`);
  return Math.ceil((Number(digits) * total) / 100);
}

/** What getExpectedPodCount answers. */
export interface ExpectedPodCount extends ExpectedScale {
  readonly desiredHealthy: number;
}

/** Upstream getExpectedPodCount (see the module comment). Throws what the finders throw. */
export async function getExpectedPodCount(
  client: DisruptionClient,
  pdb: PodDisruptionBudget,
  pods: readonly Pod[],
): Promise<ExpectedPodCount> {
  const spec = pdb.spec ?? {};
  if (spec.maxUnavailable !== undefined && spec.maxUnavailable !== null) {
    const scale = await getExpectedScale(client, pods);
    const maxUnavailable = scaledValueRoundUp(spec.maxUnavailable, scale.expectedCount);
    return { ...scale, desiredHealthy: Math.max(0, scale.expectedCount - maxUnavailable) };
  }
  if (spec.minAvailable !== undefined && spec.minAvailable !== null) {
    if (typeof spec.minAvailable === 'number')
      return { expectedCount: pods.length, desiredHealthy: spec.minAvailable, unmanagedPods: [] };
    const scale = await getExpectedScale(client, pods);
    return { ...scale, desiredHealthy: scaledValueRoundUp(spec.minAvailable, scale.expectedCount) };
  }
  return { expectedCount: 0, desiredHealthy: 0, unmanagedPods: [] };
}
